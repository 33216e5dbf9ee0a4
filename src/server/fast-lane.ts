// The fast lane of the HTTP side. Nearly all traffic is one shape: `POST /v3/<valid key> HTTP/1.1`
// (or `POST /` on a server with a root key)
// with a Content-Length body that has fully arrived. Those requests are read and answered here,
// straight on the socket: node:http's IncomingMessage, ServerResponse and header objects cost more
// CPU per request than the JSON-RPC work itself (13.5 µs against ~1.5, `npm run bench`).
//
// Everything else is handed to node:http at a request boundary, with the bytes not yet consumed,
// and the connection stays with node:http from then on: upgrades, preflights, refusals (keys,
// limits, content types), chunked or partly arrived requests, Expect, HTTP/1.0, anything
// malformed. So node:http (http.ts and websocket.ts behind it) stays the one judge of odd input and
// of every status but 200 and 204, and this file only has to recognise the plain case: when in
// doubt, it hands off. It owns its connections' keep-alive and header timeouts (node:http's only
// apply to connections it holds), their order of answers (pipelined requests are answered in
// order) and their backpressure.

import { STATUS_CODES, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { ApiKeys } from './api-keys.js'
import type { ConnectionLimit } from './limits.js'
import { describeError } from './log.js'
import { HeadMemo, readHead } from './request-head.js'
import { HTTP_PREFIX, routeKey } from './routes.js'
import type { HandlerAnswer, Logger, Session } from './types.js'

/** What the lane needs from the rest of the HTTP side. */
export interface FastLaneOptions {
  readonly keys: ApiKeys
  readonly connections: ConnectionLimit
  /** Bodies declared larger are handed off (node:http answers 413). */
  readonly maxBodyBytes: number
  /** Whether node:http's endpoint would take this Content-Type; others are handed off (415). */
  readonly acceptsContentType: (header: string | undefined) => boolean
  /** The answer to a body: a 200 JSON body, undefined for 204, or a body with its own status. Never rejects. */
  readonly answer: (body: string, session: Session) => Promise<HandlerAnswer>
  /** A session for one exchange on `socket` under `apiKey`. */
  readonly session: (apiKey: string, socket: Socket) => Session
  /** Where a failure of the lane itself (a bug) is reported before its connection is cut. */
  readonly logger: Logger
}

/** A request the lane does not serve: the connection goes to node:http from its first byte. */
const HAND_OFF = -1

const HEAD_END = Buffer.from('\r\n\r\n')
const TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'
/** Answers queued on one connection past which it is not read until they are written. */
const MAX_QUEUED = 64

/**
 * Installs the lane on a node:http server: node:http's own 'connection' listener is taken off and
 * called only for connections handed off; listeners that must see a socket first are prepended.
 * Returns undefined, and
 * leaves the server as it was, should node:http ever register its listener differently.
 */
export function installFastLane(server: Server, options: FastLaneOptions): FastLane | undefined {
  const listeners = server.listeners('connection')
  if (listeners.length !== 1) return undefined
  const nodeListener = listeners[0] as (socket: Socket) => void
  server.removeListener('connection', nodeListener)
  const lane = new FastLane(server, options, (socket) => nodeListener.call(server, socket))
  server.on('connection', lane.onConnection)
  return lane
}

/** The connections the lane holds, and what applies to all of them. */
export class FastLane {
  readonly options: FastLaneOptions
  readonly #server: Server
  readonly #handOff: (socket: Socket) => void
  readonly #open = new Set<Connection>()
  #sweeper: NodeJS.Timeout | undefined
  #draining = false

  constructor(server: Server, options: FastLaneOptions, handOff: (socket: Socket) => void) {
    this.options = options
    this.#server = server
    this.#handOff = handOff
  }

  /** Whether answers now close their connection (the server is shutting down). */
  get draining(): boolean {
    return this.#draining
  }

  #keepAliveTimeout = Number.NaN
  #keepAliveHeaders = ''

  /** The Connection header (and Keep-Alive, as node:http words it) of an answer that keeps the connection. */
  get keepAliveHeaders(): string {
    // Made again only when the server's timeout changes: it is read for every answer.
    const timeout = this.#server.keepAliveTimeout
    if (timeout !== this.#keepAliveTimeout) {
      this.#keepAliveTimeout = timeout
      this.#keepAliveHeaders = timeout > 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(timeout / 1000)}\r\n` : 'Connection: keep-alive\r\n'
    }
    return this.#keepAliveHeaders
  }

  /** The server's 'connection' listener, in place of node:http's. */
  readonly onConnection = (socket: Socket): void => {
    // Over the connection limit: node:http gives the 503 (http.ts).
    if (this.#draining || this.options.connections.refuses(socket)) {
      this.#handOff(socket)
      return
    }
    this.#open.add(new Connection(this, socket))
    this.#sweeper ??= setInterval(() => this.#sweep(), sweepInterval(this.#server)).unref()
  }

  /** Gives a connection to node:http, `rest` (bytes read but not consumed) first. */
  handOff(connection: Connection, socket: Socket, rest: Buffer | undefined): void {
    this.forget(connection)
    if (rest !== undefined && rest.length > 0) socket.unshift(rest)
    this.#handOff(socket)
    // node:http reads by itself once the socket flows; the lane paused it to stop reading.
    socket.resume()
  }

  forget(connection: Connection): void {
    this.#open.delete(connection)
    if (this.#open.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper)
      this.#sweeper = undefined
    }
  }

  /** From now on answers close their connection; idle connections close now. */
  drain(): void {
    this.#draining = true
    for (const connection of [...this.#open]) connection.drain()
  }

  /** Cuts every connection still open (the shutdown grace period is over). */
  terminate(): void {
    for (const connection of [...this.#open]) connection.destroy()
  }

  /**
   * Timers run before a turn's I/O is read: after the process was busy for a while, a request may
   * already be waiting on a connection that looks idle. Checked once this turn's I/O is read
   * instead, that connection is served rather than closed under its client ("socket hang up").
   */
  #sweep(): void {
    setImmediate(() => {
      const now = Date.now()
      const { headersTimeout, keepAliveTimeout } = this.#server
      for (const connection of [...this.#open]) connection.checkIdle(now, headersTimeout, keepAliveTimeout)
    })
  }
}

/** As often as node:http checks its own connections' timeouts. */
function sweepInterval(server: Server): number {
  const shortest = Math.min(server.headersTimeout || Infinity, server.keepAliveTimeout || Infinity)
  return Math.max(50, Math.min(1_000, Math.floor(shortest / 4)))
}

/** An answer being worked out, in the order its request came. */
interface Queued {
  text: string | undefined
  readonly close: boolean
}

/** One connection while the lane holds it. */
class Connection {
  readonly #lane: FastLane
  readonly #socket: Socket
  readonly #queue: Queued[] = []
  /** The last request target accepted on this connection, and its session: the key is checked once. */
  #target = ''
  #session: Session | undefined
  /** The last head accepted here: the next requests' heads are compared with it rather than read. */
  readonly #head = new HeadMemo()
  #lastActive = Date.now()
  #served = 0
  #paused = false
  /** Set once no more requests are read: the client ended, asked to close, or is being handed off. */
  #stopped = false
  #handingOff = false
  /** The client asked to close after its last request. */
  #closing = false
  #rest: Buffer | undefined
  #ended = false

  constructor(lane: FastLane, socket: Socket) {
    this.#lane = lane
    this.#socket = socket
    socket.on('data', this.#onData)
    socket.on('end', this.#onEnd)
    socket.on('drain', this.#onDrain)
    socket.on('close', this.#onClose)
    // A reset by the client: 'close' follows, and there is no one left to answer.
    socket.on('error', ignore)
  }

  /** At shutdown: an idle connection is closed, a busy one stops reading and closes once answered. */
  drain(): void {
    this.#stopped = true
    if (this.#queue.length === 0 && !this.#handingOff) this.destroy()
  }

  destroy(): void {
    this.#socket.destroy()
  }

  /**
   * Ends a connection idle for too long: one that never sent a whole request gets node:http's 408
   * after the headers timeout, one between requests is closed after the keep-alive timeout.
   */
  checkIdle(now: number, headersTimeout: number, keepAliveTimeout: number): void {
    // Answers still leaving count as activity: node:http's keep-alive clock starts once they are out.
    if (this.#queue.length > 0 || this.#handingOff || this.#socket.writableLength > 0) return
    const idle = now - this.#lastActive
    if (this.#served === 0) {
      if (headersTimeout > 0 && idle >= headersTimeout) {
        this.#stopped = true
        this.#socket.write(TIMEOUT_RESPONSE)
        this.#socket.destroySoon()
      }
    } else if (keepAliveTimeout > 0 && idle >= keepAliveTimeout) {
      this.destroy()
    }
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.#stopped) return
    this.#lastActive = Date.now()
    try {
      let at = 0
      while (at < chunk.length && !this.#stopped) {
        const end = this.#request(chunk, at)
        if (end === HAND_OFF) {
          this.#startHandOff(chunk.subarray(at))
          return
        }
        at = end
      }
      if (this.#queue.length >= MAX_QUEUED || this.#socket.writableNeedDrain) this.#pause()
    } catch (error) {
      this.#fail(error)
    }
  }

  // Only a bug of the lane gets here: thrown from a socket listener it would end the process. The
  // connection's state is unknown, so it goes; the others are served on.
  readonly #fail = (error: unknown): void => {
    this.#lane.options.logger.error(`http fast lane failed: ${describeError(error)}`)
    this.#stopped = true
    this.#socket.destroy()
  }

  /** Reads and dispatches the request starting at `at`; gives the offset past it, or HAND_OFF. */
  #request(chunk: Buffer, at: number): number {
    const headEnd = chunk.indexOf(HEAD_END, at)
    if (headEnd === -1 || headEnd - at > MAX_HEAD_BYTES) return HAND_OFF
    const head = chunk.toString('latin1', at, headEnd + 2)
    let length = this.#head.lengthOf(head)
    let close = false
    if (length === -1) {
      const parsed = readHead(head)
      if (parsed === undefined || (parsed.target !== this.#target && !this.#accept(parsed.target))) return HAND_OFF
      if (!this.#lane.options.acceptsContentType(parsed.contentType?.trim())) return HAND_OFF
      length = parsed.length
      close = parsed.close
      if (!close) this.#head.remember(head, parsed)
    }
    if (length > this.#lane.options.maxBodyBytes) return HAND_OFF
    const bodyStart = headEnd + 4
    const bodyEnd = bodyStart + length
    if (bodyEnd > chunk.length) return HAND_OFF // not all here: node:http waits for it, with its timeouts
    this.#dispatch(chunk.toString('utf8', bodyStart, bodyEnd), close)
    if (close) {
      // The client's last request: nothing after it is read, the connection ends once it is answered.
      this.#closing = true
      this.#stopped = true
    }
    return bodyEnd
  }

  #accept(target: string): boolean {
    const key = routeKey(target, HTTP_PREFIX, this.#lane.options.keys.root)
    if (typeof key !== 'string' || !this.#lane.options.keys.accepts(key)) return false
    this.#target = target
    this.#session = this.#lane.options.session(key, this.#socket)
    return true
  }

  #dispatch(body: string, close: boolean): void {
    const queued: Queued = { text: undefined, close: close || this.#lane.draining }
    this.#queue.push(queued)
    // One reaction, not a `.then().catch()` pair: each is a job of the microtask queue.
    this.#lane.options.answer(body, this.#session!).then((answer) => {
      try {
        queued.text = frame(answer, queued.close || this.#lane.draining ? CLOSE_HEADER : this.#lane.keepAliveHeaders)
        this.#flush()
      } catch (error) {
        this.#fail(error)
      }
    }, this.#fail)
  }

  /** Writes the answers that are ready, in request order, in one write. */
  #flush(): void {
    let out = ''
    while (this.#queue.length > 0 && this.#queue[0]!.text !== undefined) out += this.#queue.shift()!.text
    if (out === '' || this.#socket.destroyed) return
    this.#served++
    this.#lastActive = Date.now()
    this.#socket.write(out)
    if (this.#queue.length > 0) return
    if (this.#handingOff) {
      this.#finishHandOff()
    } else if (this.#ended || this.#closing || this.#lane.draining) {
      // Closed, not half-closed, once written: the server does not wait for the client's side.
      this.#socket.destroySoon()
    } else if (this.#paused && !this.#socket.writableNeedDrain) {
      this.#resume()
    }
  }

  #startHandOff(rest: Buffer): void {
    this.#stopped = true
    this.#handingOff = true
    this.#rest = rest
    // Answers still owed go first; node:http writes only once they are out.
    this.#socket.pause()
    if (this.#queue.length === 0) this.#finishHandOff()
  }

  #finishHandOff(): void {
    const socket = this.#socket
    socket.off('data', this.#onData)
    socket.off('end', this.#onEnd)
    socket.off('drain', this.#onDrain)
    socket.off('close', this.#onClose)
    socket.off('error', ignore)
    this.#lane.handOff(this, socket, this.#rest)
    this.#rest = undefined
  }

  #pause(): void {
    this.#paused = true
    this.#socket.pause()
  }

  #resume(): void {
    this.#paused = false
    this.#socket.resume()
  }

  readonly #onDrain = (): void => {
    this.#lastActive = Date.now()
    if (this.#paused && this.#queue.length < MAX_QUEUED) this.#resume()
  }

  // The client is done sending (node:http's servers do not stay half-open): close once answered.
  readonly #onEnd = (): void => {
    this.#ended = true
    this.#stopped = true
    if (this.#queue.length === 0) this.#socket.destroySoon()
  }

  readonly #onClose = (): void => {
    this.#stopped = true
    this.#queue.length = 0
    this.#lane.forget(this)
  }
}

/** node:http's default limit on a request's head. */
const MAX_HEAD_BYTES = 16 * 1024

function ignore(): void {}

// --- answers --------------------------------------------------------------------------------------

let dateHeader = ''
let dateSecond = -1

/** The Date header's value, rebuilt once a second as node:http does. */
function httpDate(): string {
  const now = Date.now()
  const second = Math.floor(now / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateHeader = new Date(now).toUTCString()
  }
  return dateHeader
}

const CLOSE_HEADER = 'Connection: close\r\n'

/** An answer with the headers node:http would give it, in its order; `connection` ends them. */
function frame(answer: HandlerAnswer, connection: string): string {
  if (typeof answer === 'object') return frameStatus(answer.status, answer.headers, answer.body, connection)
  if (answer === undefined) {
    return 'HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nDate: ' + httpDate() + '\r\n' + connection + '\r\n'
  }
  return (
    'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ' +
    Buffer.byteLength(answer) +
    '\r\nAccess-Control-Allow-Origin: *\r\nDate: ' +
    httpDate() +
    '\r\n' +
    connection +
    '\r\n' +
    answer
  )
}

/** A status answer (a simulated provider's 429 or 503): its status, its own headers, then node:http's. */
function frameStatus(status: number, headers: Readonly<Record<string, string>>, body: string, connection: string): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n`
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`
  return head + 'Content-Type: application/json\r\nContent-Length: ' + Buffer.byteLength(body) + '\r\nAccess-Control-Allow-Origin: *\r\nDate: ' + httpDate() + '\r\n' + connection + '\r\n' + body
}
