// The WebSocket side of the transport: upgrades on `/ws/v3/<KEY>` (or `/` as the root key), one
// handler call per message, pushes through Session.send and close callbacks through
// Session.onClose. Bad paths and keys are refused with a raw HTTP response before the handshake,
// so no WebSocket ever opens for them.
// Message size is `ws`'s maxPayload (it closes with 1009 itself); this file adds the nesting
// limit, a heartbeat that ends clients gone silent, a cap on what a client that does not read
// may leave queued, and the lifetime a simulated provider gives a key's connections (`wsLifetime`).
// Listening and the shutdown grace period belong to server.ts; JSON-RPC (ids, subscriptions)
// belongs to the handler.

import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import type { RawData } from 'ws'
import type { ApiKeys } from './api-keys.js'
import { nestingExceeds, type ConnectionLimit } from './limits.js'
import { describeError } from './log.js'
import {
  INTERNAL_ERROR_BODY,
  INVALID_KEY_BODY,
  KEY_REQUIRED_BODY,
  NOT_FOUND_BODY,
  SHUTTING_DOWN_BODY,
  rawResponse,
  tooDeepBody,
  tooManyConnectionsBody,
} from './responses.js'
import { KEY_MISSING, NOT_OURS, WS_PREFIX, routeKey } from './routes.js'
import { textFrames } from './ws-frames.js'
import { installFrameReader } from './ws-reader.js'
import { isStatusAnswer, type HandlerAnswer, type Logger, type RpcHandler, type Session, type WsLifetimeOf } from './types.js'

const REFUSE_NOT_FOUND = rawResponse(404, 'Not Found', 'application/json', NOT_FOUND_BODY)
const REFUSE_KEY_REQUIRED = rawResponse(403, 'Forbidden', 'application/json', KEY_REQUIRED_BODY)
const REFUSE_INVALID_KEY = rawResponse(401, 'Unauthorized', 'application/json', INVALID_KEY_BODY)
const REFUSE_SHUTTING_DOWN = rawResponse(503, 'Service Unavailable', 'application/json', SHUTTING_DOWN_BODY)

/**
 * Most answers per write. Measured with 32 requests in flight on one connection (when `ws` still
 * framed them): 1 ~120k answers/s, 8 ~180k, all of the turn's at once ~110k (ping-pong).
 */
const WRITE_BATCH = 8

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
  /** The TCP socket under `#socket`: answers are framed here and written to it directly. */
  readonly #stream: Duplex
  // Behind a getter so that inspecting or logging the session object does not print the key.
  readonly #apiKey: string
  readonly #logger: Logger
  readonly #maxBufferedBytes: number
  #callbacks: (() => void)[] = []
  /** Messages (either way) still allowed before the connection is cut; undefined: no limit. */
  #messagesLeft: number | undefined
  #closed = false
  /** Answers of this turn of the event loop not written yet (see `send`). */
  #pending: string[] = []

  constructor(socket: WebSocket, stream: Duplex, apiKey: string, logger: Logger, maxBufferedBytes: number, maxMessages?: number) {
    this.#messagesLeft = maxMessages
    this.#socket = socket
    this.#stream = stream
    this.#apiKey = apiKey
    this.#logger = logger
    this.#maxBufferedBytes = maxBufferedBytes
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
    this.#queue(message, false)
  }

  /**
   * The answer to a request: written at once when it is the only one owed (`alone`) and nothing is
   * held, which saves a turn through the tick queue; otherwise held with the others, as `send`.
   */
  answer(message: string, alone: boolean): void {
    this.#queue(message, alone)
  }

  #queue(message: string, alone: boolean): void {
    // Dropped while closing or closed: the client can no longer receive it.
    if (this.#socket.readyState !== WebSocket.OPEN || !this.passes()) return
    if (this.#socket.bufferedAmount > this.#maxBufferedBytes) {
      // A client that does not read (a stalled subscriber) would otherwise grow our memory without
      // bound. A close frame would queue behind the backlog: cut the connection instead.
      this.#logger.warn(`websocket client not reading: over ${this.#maxBufferedBytes} bytes queued, connection dropped`)
      this.#socket.terminate()
      return
    }
    // The only answer owed, nothing held: nothing to wait for.
    if (alone && this.#pending.length === 0) {
      this.#stream.write(textFrames([message]))
      return
    }
    // Answers made in the same turn of the event loop (a client's pipelined requests, read from one
    // TCP chunk) leave in a few writes, not one system call each: they are held until the turn's
    // promise callbacks, which produce the others, have all run, with a write every WRITE_BATCH
    // answers on the way, so the client starts on the first answers while the next are made
    // (holding all of them back turns the two processes into a ping-pong).
    if (this.#pending.push(message) === 1) process.nextTick(this.#flush)
    else if (this.#pending.length === WRITE_BATCH) this.#flush()
  }

  /** Writes the held answers as text frames, in one write (ws-frames.ts). */
  readonly #flush = (): void => {
    const pending = this.#pending
    if (pending.length === 0) return
    this.#pending = []
    // Closing since they were made (a close frame may be out): a data frame may not follow it.
    if (this.#socket.readyState !== WebSocket.OPEN) return
    this.#stream.write(textFrames(pending))
  }

  /**
   * Counts one message against the connection's lifetime (a simulated provider's drop): false, and
   * the connection cut without a close frame (the client sees 1006), once the allowance is spent.
   */
  passes(): boolean {
    if (this.#messagesLeft === undefined) return true
    if (this.#messagesLeft-- > 0) return true
    this.#socket.terminate()
    return false
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

/** The limits WebSocketEndpoint enforces; server.ts checks and defaults them. */
export interface WebSocketLimits {
  readonly maxMessageBytes: number
  readonly maxJsonDepth: number
  /** Most bytes queued for one client before it is dropped as not reading. */
  readonly maxBufferedBytes: number
  /** Ping period; a client that has not answered the previous ping is dropped. 0: no heartbeat. */
  readonly pingIntervalMs: number
  readonly connections: ConnectionLimit
  /** How long a key's connections live (a simulated provider's drops); absent: for ever. */
  readonly lifetimeOf?: WsLifetimeOf | undefined
}

/** Serves JSON-RPC over WebSocket; hand `onUpgrade` to a node:http server's 'upgrade' event. */
export class WebSocketEndpoint {
  readonly #handler: RpcHandler
  readonly #keys: ApiKeys
  readonly #logger: Logger
  readonly #limits: WebSocketLimits
  readonly #tooDeep: string
  readonly #refuseBusy: string
  readonly #server: WebSocketServer
  readonly #clients = new Set<WebSocket>()
  /** Clients that have not answered the last ping yet. */
  readonly #silent = new WeakSet<WebSocket>()
  #heartbeat: NodeJS.Timeout | undefined
  #draining = false
  #onEmpty: (() => void) | undefined

  constructor(handler: RpcHandler, keys: ApiKeys, limits: WebSocketLimits, logger: Logger) {
    this.#handler = handler
    this.#keys = keys
    this.#logger = logger
    this.#limits = limits
    this.#tooDeep = tooDeepBody(limits.maxJsonDepth)
    const busy = tooManyConnectionsBody(limits.connections.limit)
    this.#refuseBusy = rawResponse(503, 'Service Unavailable', 'application/json', busy)
    this.#server = new WebSocketServer({
      noServer: true,
      // We keep our own set: shutdown needs it and `ws`'s would be a second copy.
      clientTracking: false,
      // Off: compression costs more CPU than it saves on loopback, and it is a known memory hog.
      perMessageDeflate: false,
      maxPayload: limits.maxMessageBytes,
    })
  }

  /** The server's 'upgrade' listener. */
  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node drops its own error listener on upgrade: without ours a reset would crash the process.
    socket.on('error', ignore)
    if (this.#limits.connections.refuses(socket)) return refuse(socket, this.#refuseBusy)
    const key = routeKey(req.url ?? '/', WS_PREFIX, this.#keys.root)
    if (key === NOT_OURS) return this.#refuse(socket, REFUSE_NOT_FOUND, '404 not found')
    if (key === KEY_MISSING) return this.#refuse(socket, REFUSE_KEY_REQUIRED, '403 API key required')
    if (!this.#keys.accepts(key)) return this.#refuse(socket, REFUSE_INVALID_KEY, '401 invalid API key')
    if (this.#draining) return this.#refuse(socket, REFUSE_SHUTTING_DOWN, '503 shutting down')
    // Not a valid WebSocket handshake (wrong version, no key...): `ws` answers 400 itself.
    this.#server.handleUpgrade(req, socket, head, (client) => this.#open(client, socket, key))
  }

  // `why` is a fixed text: the path holds the key, so it is never logged.
  #refuse(socket: Duplex, response: string, why: string): void {
    this.#logger.debug?.(`websocket upgrade refused: ${why}`)
    refuse(socket, response)
  }

  /** Refuses new clients and asks every connected one to go (1001); resolves once all are gone. */
  drain(): Promise<void> {
    this.#draining = true
    this.#stopHeartbeat()
    for (const client of this.#clients) client.close(GOING_AWAY, 'server shutting down')
    if (this.#clients.size === 0) return Promise.resolve()
    return new Promise((resolve) => {
      this.#onEmpty = resolve
    })
  }

  /** Drops every remaining client at once (clients that did not answer the close in time). */
  terminate(): void {
    this.#stopHeartbeat()
    for (const client of this.#clients) client.terminate()
  }

  // One timer for all clients, running only while there are any. A client that has not answered
  // the previous ping within a whole period is gone (a sleeping laptop, a cut cable: TCP alone
  // would keep it, and its subscriptions, forever).
  #startHeartbeat(): void {
    const period = this.#limits.pingIntervalMs
    if (this.#heartbeat !== undefined || period === 0 || this.#draining) return
    let last = performance.now()
    this.#heartbeat = setInterval(() => {
      // A late beat means the event loop was busy (mining thousands of blocks, say): the answers
      // to the last pings may be waiting, unread, behind this timer. Ping again instead of judging.
      const now = performance.now()
      const late = now - last > period * 1.5
      last = now
      for (const client of this.#clients) {
        if (this.#silent.has(client) && !late) {
          this.#logger.warn('websocket client did not answer a ping: connection dropped')
          client.terminate()
          continue
        }
        this.#silent.add(client)
        client.ping()
      }
    }, period)
    // Housekeeping: never what keeps a process alive.
    this.#heartbeat.unref()
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat)
    this.#heartbeat = undefined
  }

  #open(client: WebSocket, stream: Duplex, apiKey: string): void {
    const lifetime = this.#limits.lifetimeOf?.(apiKey)
    const session = new WsSession(client, stream, apiKey, this.#logger, this.#limits.maxBufferedBytes, lifetime?.dropAfterMessages)
    // A simulated provider's drop: the TCP connection is cut without a close frame, as a load
    // balancer or a restarting backend cuts it, so clients see 1006 and must reconnect.
    const seconds = lifetime?.dropAfterSeconds
    if (seconds !== undefined) {
      const drop = setTimeout(() => client.terminate(), seconds * 1000).unref()
      client.once('close', () => clearTimeout(drop))
    }
    this.#clients.add(client)
    this.#startHeartbeat()
    // Any sign of life counts as an answer to the ping.
    const alive = (): void => {
      this.#silent.delete(client)
    }
    client.on('pong', alive)
    // Made once per connection, not per message. `inFlight`: requests handed over, not answered yet.
    let inFlight = 0
    const failed = (error: unknown): void => {
      this.#logger.error(`rpc handler failed: ${describeError(error)}`)
      session.answer(INTERNAL_ERROR_BODY, inFlight === 0)
    }
    const fail = (error: unknown): void => {
      inFlight--
      failed(error)
    }
    const answer = (reply: HandlerAnswer): void => {
      inFlight--
      if (typeof reply === 'string') session.answer(reply, inFlight === 0)
      // A status answer (a simulated provider's 429 or 503): a socket has no status, the body goes.
      else if (isStatusAnswer(reply)) session.answer(reply.body, inFlight === 0)
      else if (reply !== undefined) failed(new TypeError(`rpc handler resolved to ${typeof reply}, not a string or undefined`))
    }
    // Each message is handed over at once, without waiting for earlier answers: answers may come
    // back in any order, and JSON-RPC ids tell them apart.
    const receive = (text: string): void => {
      alive()
      if (!session.passes()) return
      if (nestingExceeds(text, this.#limits.maxJsonDepth)) {
        this.#logger.warn(`request nested deeper than ${this.#limits.maxJsonDepth} levels refused`)
        session.send(this.#tooDeep)
        return
      }
      inFlight++
      try {
        this.#handler(text, session).then(answer, fail)
      } catch (error) {
        fail(error)
      }
    }
    // Most messages are read by ws-reader.ts; `ws` reads the others (fragmented, partly arrived).
    client.on('message', (data) => receive(toText(data)))
    installFrameReader(stream, { maxPayload: this.#limits.maxMessageBytes, onMessage: receive, isOpen: () => client.readyState === WebSocket.OPEN })
    client.on('error', (error: Error & { code?: string }) => {
      // Resets and broken pipes are a client leaving, not news; protocol violations are worth a line.
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.#logger.warn(`websocket message over the ${this.#limits.maxMessageBytes}-byte limit: connection closed (1009)`)
      } else if (error.code?.startsWith('WS_ERR_') === true) {
        this.#logger.warn(`websocket protocol error (${error.code}): connection closed`)
      }
    })
    client.on('close', () => {
      this.#clients.delete(client)
      if (this.#clients.size === 0) this.#stopHeartbeat()
      session.end()
      if (this.#clients.size === 0 && this.#onEmpty !== undefined) this.#onEmpty()
    })
    if (this.#draining) client.close(GOING_AWAY, 'server shutting down')
  }
}
