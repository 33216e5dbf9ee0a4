// The WebSocket side of the transport: upgrades on `/ws/v3/<KEY>`, one handler call per message,
// pushes through Session.send and close callbacks through Session.onClose. Bad paths and keys are
// refused with a raw HTTP response before the handshake, so no WebSocket ever opens for them.
// Message size is `ws`'s maxPayload (it closes with 1009 itself). Listening and the shutdown
// grace period belong to server.ts; JSON-RPC (ids, subscriptions) belongs to the handler.

import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import type { RawData } from 'ws'
import type { ApiKeys } from './api-keys.js'
import { describeError } from './log.js'
import {
  INTERNAL_ERROR_BODY,
  INVALID_KEY_BODY,
  KEY_REQUIRED_BODY,
  NOT_FOUND_BODY,
  SHUTTING_DOWN_BODY,
  rawResponse,
} from './responses.js'
import { KEY_MISSING, NOT_OURS, WS_PREFIX, matchKeyPath } from './routes.js'
import type { Logger, RpcHandler, Session } from './types.js'

const REFUSE_NOT_FOUND = rawResponse(404, 'Not Found', 'text/plain; charset=utf-8', NOT_FOUND_BODY)
const REFUSE_KEY_REQUIRED = rawResponse(403, 'Forbidden', 'application/json', KEY_REQUIRED_BODY)
const REFUSE_INVALID_KEY = rawResponse(401, 'Unauthorized', 'text/plain', INVALID_KEY_BODY)
const REFUSE_SHUTTING_DOWN = rawResponse(503, 'Service Unavailable', 'text/plain; charset=utf-8', SHUTTING_DOWN_BODY)

/** Close code 1001: the server is going away. */
const GOING_AWAY = 1001

function ignore(): void {}

// Writes the whole answer, then destroys the socket (as `ws` itself aborts a bad handshake).
function refuse(socket: Duplex, response: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  socket.once('finish', () => socket.destroy())
  socket.end(response)
}

// Binary frames are read as UTF-8 text too: some clients send JSON as binary.
function toText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

/** Session of one WebSocket client: pushes go to it, close callbacks run once when it goes. */
class WsSession implements Session {
  readonly #socket: WebSocket
  // Behind a getter so that inspecting or logging the session object does not print the key.
  readonly #apiKey: string
  readonly #logger: Logger
  #callbacks: (() => void)[] = []
  #closed = false

  constructor(socket: WebSocket, apiKey: string, logger: Logger) {
    this.#socket = socket
    this.#apiKey = apiKey
    this.#logger = logger
  }

  get transport(): 'ws' {
    return 'ws'
  }

  get apiKey(): string {
    return this.#apiKey
  }

  get closed(): boolean {
    return this.#closed
  }

  send(message: string): void {
    // Dropped while closing or closed: the client can no longer receive it.
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(message)
  }

  onClose(callback: () => void): void {
    if (!this.#closed) {
      this.#callbacks.push(callback)
      return
    }
    // Registered after the client left (a subscription created by a request still in flight):
    // run it anyway, but after the caller's own code, which may not have finished its setup.
    queueMicrotask(() => this.#run(callback))
  }

  /** Marks the client gone and runs each close callback once, isolated from the others. */
  end(): void {
    if (this.#closed) return
    this.#closed = true
    const callbacks = this.#callbacks
    this.#callbacks = []
    for (const callback of callbacks) this.#run(callback)
  }

  #run(callback: () => void): void {
    try {
      callback()
    } catch (error) {
      this.#logger.error(`session close callback failed: ${describeError(error)}`)
    }
  }
}

/** Serves JSON-RPC over WebSocket; hand `onUpgrade` to a node:http server's 'upgrade' event. */
export class WebSocketEndpoint {
  readonly #handler: RpcHandler
  readonly #keys: ApiKeys
  readonly #logger: Logger
  readonly #maxMessageBytes: number
  readonly #server: WebSocketServer
  readonly #clients = new Set<WebSocket>()
  #draining = false
  #onEmpty: (() => void) | undefined

  constructor(handler: RpcHandler, keys: ApiKeys, maxMessageBytes: number, logger: Logger) {
    this.#handler = handler
    this.#keys = keys
    this.#logger = logger
    this.#maxMessageBytes = maxMessageBytes
    this.#server = new WebSocketServer({
      noServer: true,
      // We keep our own set: shutdown needs it and `ws`'s would be a second copy.
      clientTracking: false,
      // Off: compression costs more CPU than it saves on loopback, and it is a known memory hog.
      perMessageDeflate: false,
      maxPayload: maxMessageBytes,
    })
  }

  /** How many WebSocket clients are connected. */
  get size(): number {
    return this.#clients.size
  }

  /** The server's 'upgrade' listener. */
  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node drops its own error listener on upgrade: without ours a reset would crash the process.
    socket.on('error', ignore)
    const key = matchKeyPath(req.url ?? '/', WS_PREFIX)
    if (key === NOT_OURS) return refuse(socket, REFUSE_NOT_FOUND)
    if (key === KEY_MISSING) return refuse(socket, REFUSE_KEY_REQUIRED)
    if (!this.#keys.accepts(key)) return refuse(socket, REFUSE_INVALID_KEY)
    if (this.#draining) return refuse(socket, REFUSE_SHUTTING_DOWN)
    // Not a valid WebSocket handshake (wrong version, no key...): `ws` answers 400 itself.
    this.#server.handleUpgrade(req, socket, head, (client) => this.#open(client, key))
  }

  /** Refuses new clients and asks every connected one to go (1001); resolves once all are gone. */
  drain(): Promise<void> {
    this.#draining = true
    for (const client of this.#clients) client.close(GOING_AWAY, 'server shutting down')
    if (this.#clients.size === 0) return Promise.resolve()
    return new Promise((resolve) => {
      this.#onEmpty = resolve
    })
  }

  /** Drops every remaining client at once (clients that did not answer the close in time). */
  terminate(): void {
    for (const client of this.#clients) client.terminate()
  }

  #open(client: WebSocket, apiKey: string): void {
    const session = new WsSession(client, apiKey, this.#logger)
    this.#clients.add(client)
    // Made once per connection, not per message.
    const fail = (error: unknown): void => {
      this.#logger.error(`rpc handler failed: ${describeError(error)}`)
      session.send(INTERNAL_ERROR_BODY)
    }
    const answer = (reply: string | undefined): void => {
      if (typeof reply === 'string') session.send(reply)
      else if (reply !== undefined) fail(new TypeError(`rpc handler resolved to ${typeof reply}, not a string or undefined`))
    }
    // Each message is handed over at once, without waiting for earlier answers: answers may come
    // back in any order, and JSON-RPC ids tell them apart.
    client.on('message', (data) => {
      try {
        this.#handler(toText(data), session).then(answer, fail)
      } catch (error) {
        fail(error)
      }
    })
    client.on('error', (error: Error & { code?: string }) => {
      // Resets and broken pipes are a client leaving, not news; protocol violations are worth a line.
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.#logger.warn(`websocket message over the ${this.#maxMessageBytes}-byte limit: connection closed (1009)`)
      } else if (error.code?.startsWith('WS_ERR_') === true) {
        this.#logger.warn(`websocket protocol error (${error.code}): connection closed`)
      }
    })
    client.on('close', () => {
      this.#clients.delete(client)
      session.end()
      if (this.#clients.size === 0 && this.#onEmpty !== undefined) this.#onEmpty()
    })
    if (this.#draining) client.close(GOING_AWAY, 'server shutting down')
  }
}
