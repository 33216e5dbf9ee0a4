// Starts and stops the transport: one node:http server on one port, HTTP requests going to
// http.ts and upgrades to websocket.ts, both feeding the same RpcHandler. Owns the options and
// their defaults (every limit of the transport is one of them), listening (resolves only once
// bound) and shutdown (idempotent, bounded by a grace period, no leftover handles). Knows nothing
// of the chain or of JSON-RPC methods: it is handed a handler.

import { createServer } from 'node:http'
import type { Server, ServerOptions as NodeServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiKeys } from './api-keys.js'
import { installFastLane, type FastLane } from './fast-lane.js'
import { HttpEndpoint, HttpSession, acceptsContentType } from './http.js'
import { InspectorPages, builtInspectorDir } from './inspector.js'
import { ConnectionLimit } from './limits.js'
import { describeError, stderrLogger } from './log.js'
import type { Logger, RpcHandler, WsLifetimeOf } from './types.js'
import { WebSocketEndpoint } from './websocket.js'

const MIB = 1024 * 1024

/** Settings of `startServer`; every one has a default. */
export interface ServerOptions {
  /** Address to bind. Default `127.0.0.1` (never all interfaces unless asked). */
  host?: string | undefined
  /** Port to bind; 0 (the default) picks a free one, given back by `startServer`. */
  port?: number | undefined
  /** Accepted API keys. Empty or absent: any non-empty key is accepted. */
  apiKeys?: readonly string[] | undefined
  /**
   * The API key the root path `/` stands for, over HTTP and WebSocket, for clients that default to
   * a URL without a path (`http://127.0.0.1:8545`); it passes the same key check as any other.
   * Absent: `/` is not served (404).
   */
  rootKey?: string | undefined
  /** Largest HTTP request body, in bytes; larger ones get 413. Default 5 MiB. */
  maxBodyBytes?: number | undefined
  /** Largest WebSocket message, in bytes; a larger one closes the connection with 1009. Default 5 MiB. */
  maxWsMessageBytes?: number | undefined
  /**
   * Deepest nesting of arrays and objects in a request (HTTP body or WebSocket message); a deeper
   * one is answered -32600 without being parsed. Default 64.
   */
  maxJsonDepth?: number | undefined
  /**
   * Time allowed to receive a request's headers, counted from the connection's start or its last
   * request: a client that connects and sends nothing, or half the headers, is cut off (408).
   * Default 10 s.
   */
  headersTimeoutMs?: number | undefined
  /** Time allowed to receive a whole request, body included (408 after it). Default 30 s. */
  requestTimeoutMs?: number | undefined
  /** How long an idle keep-alive connection stays open. Default Node's, 5 s. */
  keepAliveTimeoutMs?: number | undefined
  /**
   * Most simultaneous connections (HTTP and WebSocket together). Those over it get 503 with
   * JSON-RPC error -32005 on their first request (or upgrade) and are closed; past twice the limit
   * (at least 16 more) they are dropped unanswered. Default 1,000.
   */
  maxConnections?: number | undefined
  /**
   * WebSocket heartbeat: every client is pinged this often, and one that has not answered the
   * previous ping (nor sent anything) is dropped. 0 turns it off. Default 30 s.
   */
  wsPingIntervalMs?: number | undefined
  /**
   * Most bytes queued for one WebSocket client that does not read (a stalled subscriber); past it
   * the client is dropped. Default 16 MiB.
   */
  maxWsBufferedBytes?: number | undefined
  /** How long `close()` lets in-flight requests and closing WebSocket clients finish before cutting them. Default 2 s. */
  shutdownGraceMs?: number | undefined
  /** Where warnings and errors go. Default: stderr. */
  logger?: Logger | undefined
  /**
   * How long the WebSocket connections of a key live, asked when each opens: past that many
   * messages (either way) or seconds the connection is cut (a simulated provider's drops). Default: for ever.
   */
  wsLifetime?: WsLifetimeOf | undefined
  /**
   * Serve the inspector page at `/inspector/<KEY>` (same key rules as JSON-RPC). false: those paths
   * are 404. Default true. The page reads the chain over JSON-RPC like any client: serving it costs
   * the chain nothing while no page is open.
   */
  inspector?: boolean | undefined
}

/** A listening server, as `startServer` resolves it. */
export interface RunningServer {
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number
  /** The bound address. */
  readonly host: string
  /** `http://HOST:PORT`, with a wildcard bind address replaced by loopback so that it can be connected to. */
  readonly httpBase: string
  /** `ws://HOST:PORT`, likewise. */
  readonly wsBase: string
  /** The endpoint URLs for an API key (percent-encoded into the path). */
  urls(apiKey: string): { httpUrl: string; wsUrl: string }
  /** The inspector page's URL for an API key; undefined when the server does not serve it. */
  inspectorUrl(apiKey: string): string | undefined
  /** Stops accepting, ends WebSocket clients (1001) and idle connections, lets in-flight requests finish within the grace period. Idempotent. */
  close(): Promise<void>
}

/**
 * Serves `handler` over HTTP and WebSocket on one port; resolves once it really listens.
 * @example
 * const server = await startServer(handle, { apiKeys: ['test'] })
 * const { httpUrl } = server.urls('test') // http://127.0.0.1:PORT/v3/test
 * await server.close()
 */
export async function startServer(handler: RpcHandler, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`port: expected an integer in 0..65535, got ${port}`)
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, 5 * MIB)
  const maxWsMessageBytes = positive('maxWsMessageBytes', options.maxWsMessageBytes, 5 * MIB)
  const maxJsonDepth = positive('maxJsonDepth', options.maxJsonDepth, 64)
  const graceMs = nonNegative('shutdownGraceMs', options.shutdownGraceMs, 2_000)
  const logger = options.logger ?? stderrLogger
  const keys = new ApiKeys(options.apiKeys, options.rootKey)
  const connections = new ConnectionLimit(positive('maxConnections', options.maxConnections, 1_000), logger)

  const pages = options.inspector === false ? undefined : new InspectorPages(builtInspectorDir())
  const http = new HttpEndpoint(handler, keys, { maxBodyBytes, maxJsonDepth, connections }, logger, pages)
  const ws = new WebSocketEndpoint(
    handler,
    keys,
    {
      maxMessageBytes: maxWsMessageBytes,
      maxJsonDepth,
      maxBufferedBytes: positive('maxWsBufferedBytes', options.maxWsBufferedBytes, 16 * MIB),
      pingIntervalMs: nonNegative('wsPingIntervalMs', options.wsPingIntervalMs, 30_000),
      connections,
      lifetimeOf: options.wsLifetime,
    },
    logger,
  )
  const server = createServer(nodeServerOptions(options), http.onRequest)
  server.on('checkContinue', http.onCheckContinue)
  server.on('upgrade', ws.onUpgrade)
  // Plain JSON-RPC POSTs skip node:http, which still gets every other request (fast-lane.ts).
  const lane = installFastLane(server, {
    keys,
    connections,
    maxBodyBytes,
    acceptsContentType,
    answer: (body, session) => http.answer(body, session),
    session: (key, socket) => new HttpSession(key, socket),
    logger,
  })
  // Counted first, before the lane or node:http reads a byte, so that requests on a connection over
  // the limit are refused.
  server.prependListener('connection', connections.onConnection)
  server.on('drop', connections.onDrop)
  server.maxConnections = connections.hardLimit

  await listen(server, host, port)
  // Past listening, a server error (e.g. EMFILE on accept) is worth a line, not a crash.
  server.on('error', (error) => logger.error(`server error: ${describeError(error)}`))
  return new Listening(server, http, lane, ws, graceMs, pages !== undefined)
}

class Listening implements RunningServer {
  readonly port: number
  readonly host: string
  readonly httpBase: string
  readonly wsBase: string
  readonly #server: Server
  readonly #http: HttpEndpoint
  readonly #lane: FastLane | undefined
  readonly #ws: WebSocketEndpoint
  readonly #graceMs: number
  readonly #inspector: boolean
  #closing: Promise<void> | undefined

  constructor(server: Server, http: HttpEndpoint, lane: FastLane | undefined, ws: WebSocketEndpoint, graceMs: number, inspector: boolean) {
    this.#inspector = inspector
    this.#server = server
    this.#http = http
    this.#lane = lane
    this.#ws = ws
    this.#graceMs = graceMs
    const address = server.address() as AddressInfo
    this.port = address.port
    this.host = address.address
    const authority = `${connectableHost(address.address)}:${address.port}`
    this.httpBase = `http://${authority}`
    this.wsBase = `ws://${authority}`
  }

  urls(apiKey: string): { httpUrl: string; wsUrl: string } {
    const key = encodeURIComponent(apiKey)
    return { httpUrl: `${this.httpBase}/v3/${key}`, wsUrl: `${this.wsBase}/ws/v3/${key}` }
  }

  inspectorUrl(apiKey: string): string | undefined {
    return this.#inspector ? `${this.httpBase}/inspector/${encodeURIComponent(apiKey)}` : undefined
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown()
    return this.#closing
  }

  #shutdown(): Promise<void> {
    this.#http.drain()
    this.#lane?.drain()
    // server.close stops accepting and calls back once every connection, upgraded ones included,
    // is gone; the idle keep-alive ones are closed right away rather than at their timeout.
    const connectionsGone = new Promise<void>((resolve) => this.#server.close(() => resolve()))
    this.#server.closeIdleConnections()
    const clientsGone = this.#ws.drain()
    const grace = setTimeout(() => {
      this.#server.closeAllConnections()
      this.#lane?.terminate()
      this.#ws.terminate()
    }, this.#graceMs)
    // The connections still open keep the process alive until the timer fires; the timer alone
    // must not, should the caller stop waiting for close().
    grace.unref()
    return Promise.all([connectionsGone, clientsGone]).then(() => clearTimeout(grace))
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening)
      reject(error)
    }
    const onListening = (): void => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen({ host, port })
  })
}

function nodeServerOptions(options: ServerOptions): NodeServerOptions {
  const result: NodeServerOptions = { noDelay: true }
  // Node's own defaults (60 s for headers, 300 s for the request) let a client that sends half a
  // request hold a connection, and with it a place under maxConnections, for minutes.
  const requestTimeout = nonNegative('requestTimeoutMs', options.requestTimeoutMs, 30_000)
  // node:http refuses a headers timeout longer than the request timeout (0 means none).
  const headersDefault = requestTimeout === 0 ? 10_000 : Math.min(10_000, requestTimeout)
  result.requestTimeout = requestTimeout
  result.headersTimeout = nonNegative('headersTimeoutMs', options.headersTimeoutMs, headersDefault)
  if (options.keepAliveTimeoutMs !== undefined) result.keepAliveTimeout = nonNegative('keepAliveTimeoutMs', options.keepAliveTimeoutMs, 0)
  // Node checks the two request timeouts only every 30 s by default: a 1 s timeout would
  // otherwise fire up to 30 s late. (Its checking timer is unref'd and cleared on close.)
  const shortest = Math.min(result.headersTimeout || Infinity, result.requestTimeout || Infinity)
  if (shortest < 60_000) result.connectionsCheckingInterval = Math.max(50, Math.floor(shortest / 4))
  return result
}

function connectableHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1'
  if (address === '::') return '[::1]'
  return address.includes(':') ? `[${address}]` : address
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name}: expected a positive integer, got ${value}`)
  return value
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name}: expected a non-negative number, got ${value}`)
  return value
}
