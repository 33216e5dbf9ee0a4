// The HTTP side of the transport: `POST /v3/<KEY>` (or `POST /` as the root key) in, the
// handler's answer out, with CORS, the body and nesting limits and every status the transport
// decides on its own (403/401/404/405/413/415/426/503). The inspector page's files
// (`GET /inspector/<KEY>/…`, inspector.ts) pass the same key checks here.
// It reads the body and writes the response; the JSON-RPC inside is the handler's business, and
// sockets, listening and shutdown belong to server.ts. This runs per request: fixed answers and
// their headers are built once at load time.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ApiKeys } from './api-keys.js'
import type { InspectorFile, InspectorPages } from './inspector.js'
import { nestingExceeds, type ConnectionLimit } from './limits.js'
import { describeError } from './log.js'
import {
  INSPECTOR_METHOD_NOT_ALLOWED_BODY,
  INSPECTOR_NOT_BUILT_BODY,
  INSPECTOR_NOT_FOUND_BODY,
  INTERNAL_ERROR_BODY,
  INVALID_KEY_BODY,
  KEY_REQUIRED_BODY,
  METHOD_NOT_ALLOWED_BODY,
  NOT_FOUND_BODY,
  UNSUPPORTED_TYPE_BODY,
  UPGRADE_REQUIRED_BODY,
  tooDeepBody,
  tooLargeBody,
  tooManyConnectionsBody,
} from './responses.js'
import { HTTP_PREFIX, INSPECTOR_PREFIX, KEY_MISSING, NOT_OURS, WS_PREFIX, matchInspectorPath, matchKeyPath, routeKey, type InspectorPath } from './routes.js'
import { isStatusAnswer, type HandlerAnswer, type Logger, type RpcHandler, type Session } from './types.js'

/** A response the transport gives without asking the handler; every body is a JSON-RPC error. */
interface FixedAnswer {
  readonly status: number
  readonly headers: OutgoingHttpHeaders
  readonly body: string
  /** For the debug log: a fixed text, never the path (which holds the key). */
  readonly why: string
}

function fixedAnswer(status: number, why: string, body: string, extra: OutgoingHttpHeaders = {}): FixedAnswer {
  const headers = {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Access-Control-Allow-Origin': '*',
    ...extra,
  }
  return { status, headers, body, why }
}

const JSON_TYPE = 'application/json'

const KEY_REQUIRED = fixedAnswer(403, 'API key required', KEY_REQUIRED_BODY)
const INVALID_KEY = fixedAnswer(401, 'invalid API key', INVALID_KEY_BODY)
const NOT_FOUND = fixedAnswer(404, 'not found', NOT_FOUND_BODY)
const UPGRADE_REQUIRED = fixedAnswer(426, 'websocket upgrade required', UPGRADE_REQUIRED_BODY, { Upgrade: 'websocket' })
const METHOD_NOT_ALLOWED = fixedAnswer(405, 'method not allowed', METHOD_NOT_ALLOWED_BODY, { Allow: 'POST, OPTIONS' })
const UNSUPPORTED_TYPE = fixedAnswer(415, 'unsupported content type', UNSUPPORTED_TYPE_BODY)
const INSPECTOR_METHOD_NOT_ALLOWED = fixedAnswer(405, 'method not allowed', INSPECTOR_METHOD_NOT_ALLOWED_BODY, { Allow: 'GET, HEAD' })
const INSPECTOR_NOT_FOUND = fixedAnswer(404, 'not found', INSPECTOR_NOT_FOUND_BODY)
const INSPECTOR_NOT_BUILT = fixedAnswer(404, 'inspector not built', INSPECTOR_NOT_BUILT_BODY)

/**
 * How much of a body over the limit is read (and thrown away) before the 413 goes out. A server
 * that answers and closes while the client is still sending makes the kernel reset the connection,
 * and Node's fetch (viem, ethers) then reports EPIPE instead of the 413; past this bound, the
 * client is cut off anyway. Nothing read is kept: only time is spent, and requestTimeoutMs bounds it.
 */
const DISCARD_BYTES = 64 * 1024 * 1024

const NO_CONTENT_HEADERS: OutgoingHttpHeaders = { 'Access-Control-Allow-Origin': '*' }
const PREFLIGHT_HEADERS: OutgoingHttpHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
  // The allowed headers echo the request's, so caches must key on it.
  Vary: 'Access-Control-Request-Headers',
}

// Lenient on purpose: JSON-RPC clients send application/json, but curl users send nothing,
// text/plain, or curl's `-d` default (form-urlencoded) while the body is still JSON; the handler
// answers -32700 if it is not. Types that cannot carry a bare JSON body (multipart, xml, ...) get
// 415 as geth gives them. Parameters such as `charset` are ignored.
const ACCEPTED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/json-rpc',
  'application/jsonrequest',
  'text/plain',
  'application/x-www-form-urlencoded',
])

/** Whether a request with this Content-Type header is served (others get 415). */
export function acceptsContentType(header: string | undefined): boolean {
  if (header === undefined || header === JSON_TYPE) return true
  const semicolon = header.indexOf(';')
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  return type === '' || ACCEPTED_CONTENT_TYPES.has(type)
}

function ignore(): void {}

/** Session of one HTTP exchange: no pushes, no close callbacks, the answer is the only message. */
export class HttpSession implements Session {
  // Behind a getter so that inspecting or logging the session object does not print the key.
  readonly #apiKey: string
  readonly #socket: Socket

  constructor(apiKey: string, socket: Socket) {
    this.#apiKey = apiKey
    this.#socket = socket
  }

  get transport(): 'http' {
    return 'http'
  }

  get apiKey(): string {
    return this.#apiKey
  }

  get closed(): boolean {
    return this.#socket.destroyed
  }

  send(_message: string): void {
    // HTTP has no channel for unsolicited messages.
  }

  onClose(_callback: () => void): void {
    // Never called: an HTTP exchange ends with its answer, subscriptions need a WebSocket.
  }
}

/** The limits HttpEndpoint enforces; server.ts checks and defaults them. */
export interface HttpLimits {
  readonly maxBodyBytes: number
  readonly maxJsonDepth: number
  readonly connections: ConnectionLimit
}

/** Serves JSON-RPC over HTTP POST; hand `onRequest` and `onCheckContinue` to a node:http server. */
export class HttpEndpoint {
  readonly #handler: RpcHandler
  readonly #keys: ApiKeys
  readonly #logger: Logger
  readonly #maxBodyBytes: number
  readonly #maxJsonDepth: number
  readonly #connections: ConnectionLimit
  readonly #tooLarge: FixedAnswer
  readonly #tooDeep: FixedAnswer
  readonly #tooManyConnections: FixedAnswer
  #draining = false

  readonly #inspector: InspectorPages | undefined

  /** `inspector` undefined: `/inspector/…` is not served (404). */
  constructor(handler: RpcHandler, keys: ApiKeys, limits: HttpLimits, logger: Logger, inspector?: InspectorPages) {
    this.#handler = handler
    this.#inspector = inspector
    this.#keys = keys
    this.#logger = logger
    this.#maxBodyBytes = limits.maxBodyBytes
    this.#maxJsonDepth = limits.maxJsonDepth
    this.#connections = limits.connections
    this.#tooLarge = fixedAnswer(413, 'body too large', tooLargeBody(limits.maxBodyBytes))
    // A JSON-RPC error, so HTTP 200 as decisions.md wants, like any request the handler refuses.
    this.#tooDeep = fixedAnswer(200, 'nested too deeply', tooDeepBody(limits.maxJsonDepth))
    this.#tooManyConnections = fixedAnswer(503, 'too many connections', tooManyConnectionsBody(limits.connections.limit), { 'Retry-After': '1' })
  }

  /** The server's 'request' listener. */
  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    this.#route(req, res, false)
  }

  /**
   * The server's 'checkContinue' listener: a client that sent `Expect: 100-continue` (curl does
   * for large bodies) is refused before it uploads anything, and told to go on otherwise.
   */
  readonly onCheckContinue = (req: IncomingMessage, res: ServerResponse): void => {
    this.#route(req, res, true)
  }

  /** From now on every response closes its connection, so a shutting-down server is left idle. */
  drain(): void {
    this.#draining = true
  }

  #route(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    if (this.#connections.refuses(req.socket)) {
      // Over the connection limit: one clear answer, then the connection goes.
      res.shouldKeepAlive = false
      this.#refuse(req, res, this.#tooManyConnections)
      return
    }
    const url = req.url ?? '/'
    if (this.#inspector !== undefined && url.startsWith(INSPECTOR_PREFIX)) {
      const page = matchInspectorPath(url)
      if (page !== NOT_OURS) {
        this.#servePage(req, res, page, this.#inspector)
        return
      }
    }
    const key = routeKey(url, HTTP_PREFIX, this.#keys.root)
    if (key === NOT_OURS) {
      this.#refuse(req, res, matchKeyPath(url, WS_PREFIX) === NOT_OURS ? NOT_FOUND : UPGRADE_REQUIRED)
      return
    }
    const method = req.method
    // Preflights carry no credentials and the key is in the path: answer them before the key
    // check, so that a browser gets to see the real 401/403 on the POST instead of a CORS failure.
    if (method === 'OPTIONS') {
      this.#preflight(req, res)
      return
    }
    if (key === KEY_MISSING) {
      this.#refuse(req, res, KEY_REQUIRED)
      return
    }
    if (!this.#keys.accepts(key)) {
      this.#refuse(req, res, INVALID_KEY)
      return
    }
    if (method !== 'POST') {
      this.#refuse(req, res, METHOD_NOT_ALLOWED)
      return
    }
    if (!acceptsContentType(req.headers['content-type'])) {
      this.#refuse(req, res, UNSUPPORTED_TYPE)
      return
    }
    const declared = req.headers['content-length']
    if (declared !== undefined && Number(declared) > this.#maxBodyBytes) {
      // Refused before any upload when the client waits for 100 Continue, or would send too much.
      if (expectsContinue || Number(declared) > DISCARD_BYTES) this.#refuseTooLarge(res)
      else this.#discardThenRefuse(req, res, 0)
      return
    }
    if (expectsContinue) res.writeContinue()
    this.#readBody(req, res, new HttpSession(key, req.socket))
  }

  /** A file of the inspector page: the same key rules as JSON-RPC, then GET (or HEAD) only. */
  #servePage(req: IncomingMessage, res: ServerResponse, page: InspectorPath | typeof KEY_MISSING, pages: InspectorPages): void {
    if (page === KEY_MISSING) return this.#refuse(req, res, KEY_REQUIRED)
    if (!this.#keys.accepts(page.key)) return this.#refuse(req, res, INVALID_KEY)
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.#refuse(req, res, INSPECTOR_METHOD_NOT_ALLOWED)
    if (!pages.built) return this.#refuse(req, res, INSPECTOR_NOT_BUILT)
    void pages.file(encodeURIComponent(page.key), page.rest).then((file) => {
      if (file === undefined) this.#refuse(req, res, INSPECTOR_NOT_FOUND)
      else this.#sendFile(req, res, file)
    })
  }

  #sendFile(req: IncomingMessage, res: ServerResponse, file: InspectorFile): void {
    if (res.headersSent || res.destroyed) return
    if (this.#draining) res.shouldKeepAlive = false
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      // The page is rebuilt with the package; a browser asks again rather than keep an old bundle.
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  #readBody(req: IncomingMessage, res: ServerResponse, session: Session): void {
    const limit = this.#maxBodyBytes
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        chunks.length = 0
        req.off('data', onData).off('end', onEnd)
        this.#discardThenRefuse(req, res, size)
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      // Most JSON-RPC bodies arrive in one chunk; decode it in place instead of copying it.
      const only = chunks.length === 1 ? chunks[0] : undefined
      const body = only !== undefined ? only.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')
      this.#dispatch(body, session, res)
    }
    req.on('data', onData).on('end', onEnd)
    // The client went away mid-body: there is no one to answer. Listening keeps it from throwing.
    req.on('error', ignore)
  }

  /** Reads the rest of a body over the limit without keeping it, then answers 413 (see DISCARD_BYTES). */
  #discardThenRefuse(req: IncomingMessage, res: ServerResponse, alreadyRead: number): void {
    let read = alreadyRead
    const onData = (chunk: Buffer) => {
      read += chunk.length
      if (read <= DISCARD_BYTES) return
      req.off('data', onData).off('end', onEnd)
      this.#refuseTooLarge(res)
    }
    const onEnd = () => this.#refuseTooLarge(res)
    if (read > DISCARD_BYTES) onEnd()
    else req.on('data', onData).once('end', onEnd).on('error', ignore)
  }

  #dispatch(body: string, session: Session, res: ServerResponse): void {
    void this.answer(body, session).then((answer) => this.#answer(res, answer))
  }

  /**
   * The answer to a request body, sent with 200 (or 204 when undefined, or the status of a
   * `StatusAnswer`): the handler's, or the JSON-RPC error for a body nested too deeply or a handler
   * that failed. Never rejects. The fast lane (fast-lane.ts) answers through it too.
   */
  answer(body: string, session: Session): Promise<HandlerAnswer> {
    if (nestingExceeds(body, this.#maxJsonDepth)) {
      this.#logger.warn(`request nested deeper than ${this.#maxJsonDepth} levels refused`)
      return Promise.resolve(this.#tooDeep.body)
    }
    let answering: Promise<HandlerAnswer>
    try {
      answering = this.#handler(body, session)
    } catch (error) {
      // A handler that throws synchronously (or returns no promise) is a bug, not a crash.
      return Promise.resolve(this.#failed(error))
    }
    return Promise.resolve(answering).then(
      (answer) => (typeof answer === 'string' || answer === undefined || isStatusAnswer(answer) ? answer : this.#failed(new TypeError(`rpc handler resolved to ${typeof answer}, not a string or undefined`))),
      (error: unknown) => this.#failed(error),
    )
  }

  #answer(res: ServerResponse, answer: HandlerAnswer): void {
    if (res.headersSent || res.destroyed) return // client gone, or cut by the shutdown grace period
    if (this.#draining) res.shouldKeepAlive = false
    if (typeof answer === 'object') {
      res.writeHead(answer.status, { ...answer.headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(answer.body), 'Access-Control-Allow-Origin': '*' })
      res.end(answer.body)
      return
    }
    if (answer === undefined) {
      // Only notifications in the body: nothing to answer (decisions.md, "JSON-RPC envelope").
      res.writeHead(204, NO_CONTENT_HEADERS)
      res.end()
      return
    }
    res.writeHead(200, {
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(answer),
      'Access-Control-Allow-Origin': '*',
    })
    res.end(answer)
  }

  #failed(error: unknown): string {
    this.#logger.error(`rpc handler failed: ${describeError(error)}`)
    return INTERNAL_ERROR_BODY
  }

  #refuseTooLarge(res: ServerResponse): void {
    if (res.headersSent) return
    this.#logger.warn(`request body over the ${this.#maxBodyBytes}-byte limit refused (413)`)
    // The body was read (or will not be): the connection closes rather than trust what follows.
    res.shouldKeepAlive = false
    res.writeHead(this.#tooLarge.status, this.#tooLarge.headers)
    res.end(this.#tooLarge.body)
  }

  #preflight(req: IncomingMessage, res: ServerResponse): void {
    if (this.#draining) res.shouldKeepAlive = false
    const requested = req.headers['access-control-request-headers']
    // Echo what the browser asks for (some clients add their own headers); the key is in the path
    // anyway, so no header grants anything.
    res.writeHead(204, requested === undefined ? PREFLIGHT_HEADERS : { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Headers': requested })
    res.end()
  }

  #refuse(req: IncomingMessage, res: ServerResponse, answer: FixedAnswer): void {
    this.#logger.debug?.(`http ${req.method ?? ''} refused: ${answer.status} ${answer.why}`)
    this.#reply(res, answer)
  }

  #reply(res: ServerResponse, answer: FixedAnswer): void {
    if (this.#draining) res.shouldKeepAlive = false
    res.writeHead(answer.status, answer.headers)
    res.end(answer.body)
  }
}
