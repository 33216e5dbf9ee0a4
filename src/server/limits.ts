// The transport's own limits beyond body and message size: how deeply a request may nest, and how
// many connections may be open at once. Owns the nesting scan (run on the raw text before the
// handler's JSON.parse ever sees it) and the connection count with its two thresholds (answer
// 503, then drop). Which status or close code a refusal gets is http.ts's and websocket.ts's;
// the byte limits are enforced where the bytes are read.

import type { Socket } from 'node:net'
import type { Logger } from './types.js'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const OPEN_BRACE = 0x7b
const CLOSE_BRACKET = 0x5d
const CLOSE_BRACE = 0x7d

/**
 * True when `text` opens more than `limit` arrays or objects inside one another (outside strings).
 * One pass, no allocation; strings are skipped with `indexOf`, so hex payloads cost next to
 * nothing. Text that is not JSON is not judged here: JSON.parse answers it.
 * @example nestingExceeds('[[1]]', 1) // true
 */
export function nestingExceeds(text: string, limit: number): boolean {
  // Fewer characters than the limit cannot open more containers than the limit.
  if (text.length <= limit) return false
  let depth = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1)
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1)
      if (end === -1) return false // an unterminated string: not JSON, the parser says so
      i = end
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--
    }
  }
  return false
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) backslashes++
  return backslashes % 2 === 1
}

/** How often a connection refusal may be logged: a flood of them must not flood the log too. */
const WARN_EVERY_MS = 10_000

/**
 * Counts open connections (HTTP and WebSocket alike, as sockets). Up to `limit` are served; the
 * ones over it are answered 503 on their first request and closed; past `hardLimit` node:http
 * drops them before they cost more than the accept (`server.maxConnections`).
 */
export class ConnectionLimit {
  readonly limit: number
  readonly hardLimit: number
  readonly #logger: Logger
  readonly #over = new WeakSet<object>()
  #open = 0
  #refusedSinceWarning = 0
  #warnedAt = -Infinity

  constructor(limit: number, logger: Logger) {
    this.limit = limit
    // As many again (at least 16) get a clear answer; beyond that, a flood only costs an accept.
    this.hardLimit = limit + Math.max(16, limit)
    this.#logger = logger
  }

  /** The server's 'connection' listener. */
  readonly onConnection = (socket: Socket): void => {
    this.#open++
    socket.once('close', () => this.#open--)
    if (this.#open > this.limit) {
      this.#over.add(socket)
      this.#refused()
    }
  }

  /** The server's 'drop' listener (a connection past the hard limit, closed by node:net). */
  readonly onDrop = (): void => {
    this.#refused()
  }

  /** True when requests on this socket are to be refused with 503. */
  refuses(socket: object): boolean {
    return this.#over.has(socket)
  }

  #refused(): void {
    this.#refusedSinceWarning++
    const now = Date.now()
    if (now - this.#warnedAt < WARN_EVERY_MS) return
    this.#warnedAt = now
    this.#logger.warn(`${this.#refusedSinceWarning} connection(s) over the limit of ${this.limit} refused (503, or dropped past ${this.hardLimit})`)
    this.#refusedSinceWarning = 0
  }
}
