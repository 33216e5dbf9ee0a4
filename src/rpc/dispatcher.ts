// The JSON-RPC 2.0 dispatcher: raw body in, raw body out.
// Owns: every envelope (parse and request errors, id echo, batches, notifications), looking the
// method up before decoding its params, running handlers, and turning whatever they throw into
// an error object through `toRpcError`. Does not own: what a method does (its handler), param
// wording (params/), the code of a domain error (the mapper handed in), or transport, keys and
// limits other than batch length (src/server/).

import { InternalError, InvalidRequestError, MethodNotFoundError, ParseError, toRpcError } from './errors.js'
import type { DomainErrorMapper, RpcError } from './errors.js'
import { decodeParams, type DecodedParams, type Param } from './params/decode.js'

// --- what handlers see ------------------------------------------------------------------------

/**
 * The client connection a request came on, as far as handlers need it. The server's `Session`
 * satisfies it structurally; rpc does not import the server.
 */
export interface RpcSession {
  /** How the request came: over the wire, or a call in this process (`createRingchain`, `request()`). */
  readonly transport: 'http' | 'ws' | 'in-process'
  /** Already authenticated. Never log it. */
  readonly apiKey: string
  /** Pushes a message to the client (subscriptions; a no-op on http). */
  send(message: string): void
  /** Runs `callback` once when the client goes away (never on http). */
  onClose(callback: () => void): void
  readonly closed: boolean
}

/** What a handler gets besides its params. */
export interface RpcContext {
  readonly session: RpcSession
  /** The wire method name (an alias's own name, not its target's). */
  readonly method: string
}

/**
 * A result that is already JSON text (the chain caches the JSON of immutable receipts and
 * transactions): the dispatcher splices it into the envelope as it is.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

/** Many cached JSON values as one JSON array. */
export function rawJsonArray(items: readonly RawJson[]): RawJson {
  let json = '['
  for (let i = 0; i < items.length; i++) json += (i === 0 ? '' : ',') + items[i]!.json
  return new RawJson(json + ']')
}

/**
 * One method: its positional params and its handler, which returns the bare result (a
 * JSON-serializable value, `RawJson`, or a promise of either; `undefined` is sent as `null`).
 */
export interface MethodSpec<P extends readonly Param<unknown>[] = readonly Param<unknown>[]> {
  readonly params: P
  // Method syntax on purpose: it lets a spec with specific params sit in a `Registry`.
  handler(params: DecodedParams<P>, ctx: RpcContext): unknown
}

/** The method table, keyed by wire name. Aliases are entries of their own. */
export type Registry = Readonly<Record<string, MethodSpec>>

/** The wire method names of a registry. */
export type MethodName<R extends Registry> = keyof R & string

/**
 * A method whose handler's params are typed from its decoders.
 *
 * @example
 * const eth_getStorageAt = defineMethod(
 *   [address, storageSlot, optional(blockParam, LATEST)],
 *   ([owner, slot, block]) => chain.storageAt(owner, slot, block),
 * )
 */
export function defineMethod<const P extends readonly Param<unknown>[]>(
  params: P,
  handler: (params: DecodedParams<P>, ctx: RpcContext) => unknown,
): MethodSpec<P> {
  return { params, handler }
}

// --- envelopes --------------------------------------------------------------------------------

/** A request id as echoed: JSON-RPC allows a string, a number or null. */
export type RpcId = string | number | null

/**
 * Numeric ids that a JavaScript number cannot hold exactly (beyond 2^53, `1e400`) are carried
 * through parsing as a marked string holding their source text, and echoed as that text.
 */
const RAW_ID = '\u0000raw-id:'
const NUMERIC_ID = /"id"\s*:\s*(-?\d[\d.eE+-]*)/g
/** JSON's number grammar: what NUMERIC_ID captures may be more (`1e5e5`), and must then stay a parse error. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** Marks the ids JSON.parse would round. (An `"id"` key inside params with such a number is marked too: harmless in practice.) */
function protectIds(body: string): string {
  if (idsParseExactly(body)) return body
  return body.replace(NUMERIC_ID, (match, literal: string) =>
    JSON.stringify(Number(literal)) === literal || !JSON_NUMBER.test(literal) ? match : `"id":"\\u0000raw-id:${literal}"`,
  )
}

/**
 * True when no `"id"` is followed by a number JSON.parse could round: each is followed by
 * something else, or by a plain integer of at most 15 digits (every client's `"id":1`). Checked by
 * hand because it runs on every request and the regex rewrite above is several times slower.
 */
function idsParseExactly(body: string): boolean {
  // Looks for `id"`, then for the quote before it: a search for `"id"` stops at every quote, the
  // commonest character of JSON, and made this check three times slower.
  for (let at = body.indexOf('id"'); at !== -1; at = body.indexOf('id"', at + 3)) {
    if (body.charCodeAt(at - 1) !== 0x22) continue
    let i = skipSpace(body, at + 3)
    if (body.charCodeAt(i) !== 0x3a) continue // no `:`: not a key the regex would match
    i = skipSpace(body, i + 1)
    let c = body.charCodeAt(i)
    if (c === 0x2d) c = body.charCodeAt(++i) // `-`
    if (c < 0x30 || c > 0x39) continue // not a number
    const start = i
    while (i < body.length && ((c = body.charCodeAt(i)) >= 0x30 && c <= 0x39)) i++
    const digits = i - start
    // `.`, `e`, `E`, `+`, `-` go on the number; a leading zero, or 16 digits and more, may not survive.
    if (c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) return false
    if (digits > 15 || (body.charCodeAt(start) === 0x30 && (digits > 1 || body.charCodeAt(start - 1) === 0x2d))) return false
  }
  return true
}

function skipSpace(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  return i
}

function idText(id: RpcId): string {
  // What JSON.stringify gives a number, for a quarter of its cost: ids are echoed on every answer.
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : 'null'
  return typeof id === 'string' && id.startsWith(RAW_ID) ? id.slice(RAW_ID.length) : JSON.stringify(id)
}

/** A success envelope. */
export function resultResponse(id: RpcId, result: unknown): string {
  return '{"jsonrpc":"2.0","id":' + idText(id) + ',"result":' + serializeResult(result) + '}'
}

/** An error envelope. */
export function errorResponse(id: RpcId, error: RpcError): string {
  let body = '{"code":' + error.code + ',"message":' + JSON.stringify(error.message)
  if (error.data !== undefined) body += ',"data":' + JSON.stringify(error.data)
  return '{"jsonrpc":"2.0","id":' + idText(id) + ',"error":' + body + '}}'
}

/** An `eth_subscription` notification, pushed through `RpcSession.send`. */
export function subscriptionNotification(subscription: string, result: unknown): string {
  return (
    '{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":' +
    JSON.stringify(subscription) +
    ',"result":' +
    serializeResult(result) +
    '}}'
  )
}

/** What JSON.stringify would escape in a string: quotes, backslashes, control characters and (lone) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

function serializeResult(result: unknown): string {
  if (result instanceof RawJson) return result.json
  if (result === undefined) return 'null'
  // Most results are hex strings, which this regex clears in half the time JSON.stringify takes.
  if (typeof result === 'string' && !NEEDS_ESCAPE.test(result)) return '"' + result + '"'
  const json = JSON.stringify(result)
  if (json === undefined) throw new TypeError(`a result of type ${typeof result} is not JSON`)
  return json
}

// --- the dispatcher ---------------------------------------------------------------------------

/** Where internal failures are reported; the client only ever sees `internal error`. */
export interface RpcLogger {
  error(message: string, details: { readonly method: string | undefined; readonly error: unknown }): void
}

export interface DispatcherOptions {
  /** Gets the detail of every -32603. Default: `console.error`. */
  readonly logger?: RpcLogger
  /** Longest batch served (default 1000); a longer one is refused whole with -32600 `batch too large`. */
  readonly maxBatchLength?: number
  /** Gives the chain's domain errors their RPC errors (see `toRpcError`). */
  readonly mapDomainError?: DomainErrorMapper
  /**
   * For a thrown value that means "not ready yet, wait for this" (a forked chain's state not yet
   * fetched from its upstream): the promise to wait for before the method runs again. A method
   * that throws it has changed nothing, so running it again is safe.
   */
  readonly rerunAfter?: (thrown: unknown) => PromiseLike<void> | undefined
}

/** How many times one call may wait and run again (each wait is one fetch of what it missed). */
const MAX_RERUNS = 64

/** Answers a raw body; `undefined` when there is nothing to answer (notifications only). Never throws. */
export type Dispatch = (body: string, session: RpcSession) => Promise<string | undefined>

const consoleLogger: RpcLogger = {
  error: (message, details) => console.error(message, details.error),
}

const NO_PARAMS: readonly unknown[] = Object.freeze([])

/**
 * The dispatcher for a method table.
 *
 * Batch items run one after another, in order, as geth runs them: a batch of
 * `[eth_sendRawTransaction, eth_getTransactionByHash]` sees its own transaction.
 *
 * @example
 * const dispatch = createDispatcher(methods, { mapDomainError })
 * await dispatch('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', session)
 */
export function createDispatcher(methods: Registry, options: DispatcherOptions = {}): Dispatch {
  // A Map, so that `toString` or `__proto__` are unknown methods rather than inherited ones.
  const table = new Map<string, MethodSpec>(Object.entries(methods))
  const logger = options.logger ?? consoleLogger
  const maxBatchLength = options.maxBatchLength ?? 1000
  const mapDomainError = options.mapDomainError
  const rerunAfter = options.rerunAfter

  function reportInternal(error: InternalError, method: string | undefined): void {
    try {
      logger.error(`internal error${method === undefined ? '' : ` in ${method}`}`, {
        method,
        error: error.cause ?? error,
      })
    } catch {
      // A failing logger must not turn an answer into no answer.
    }
  }

  /** The error answer to what a handler (or its params) threw; `undefined` for a notification. */
  function failure(thrown: unknown, method: string, hasId: boolean, echoId: RpcId): string | undefined {
    const error = toRpcError(thrown, mapDomainError)
    if (error instanceof InternalError) reportInternal(error, method)
    return hasId ? errorResponse(echoId, error) : undefined
  }

  async function settle(pending: PromiseLike<unknown>, call: Call, attempt: number): Promise<string | undefined> {
    try {
      const result = await pending
      return call.hasId ? resultResponse(call.echoId, result) : undefined
    } catch (thrown) {
      const wait = attempt < MAX_RERUNS ? rerunAfter?.(thrown) : undefined
      if (wait === undefined) return failure(thrown, call.ctx.method, call.hasId, call.echoId)
      try {
        await wait
      } catch (failed) {
        return failure(failed, call.ctx.method, call.hasId, call.echoId)
      }
      return run(call, attempt + 1)
    }
  }

  /** Runs a decoded call's handler (again, after waiting for what it needed: see `rerunAfter`). */
  function run(call: Call, attempt: number): Answer {
    try {
      const result = call.spec.handler(call.args, call.ctx)
      if (isThenable(result)) return settle(result, call, attempt)
      return call.hasId ? resultResponse(call.echoId, result) : undefined
    } catch (thrown) {
      if (rerunAfter?.(thrown) !== undefined) return settle(Promise.reject(thrown), call, attempt)
      return failure(thrown, call.ctx.method, call.hasId, call.echoId)
    }
  }

  // Synchronous unless the handler returns a promise: most reads answer at once, and each promise
  // hop costs about as much as the read itself.
  function handleMessage(message: unknown, session: RpcSession): Answer {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return errorResponse(null, new InvalidRequestError())
    }
    const request = message as Readonly<Record<string, unknown>>
    const hasId = Object.hasOwn(request, 'id')
    const id = request.id
    if (hasId && !isValidId(id)) return errorResponse(null, new InvalidRequestError())
    const echoId: RpcId = hasId ? (id as RpcId) : null
    const method = request.method
    const params = request.params
    if (
      request.jsonrpc !== '2.0' ||
      typeof method !== 'string' ||
      (params !== undefined && params !== null && !Array.isArray(params))
    ) {
      return errorResponse(echoId, new InvalidRequestError())
    }
    // From here on the request is valid; one without an id is a notification and gets no answer.
    const spec = table.get(method)
    if (spec === undefined) return hasId ? errorResponse(echoId, new MethodNotFoundError(method)) : undefined
    let args: Parameters<MethodSpec["handler"]>[0]
    try {
      args = decodeParams(spec.params, (params as readonly unknown[] | null | undefined) ?? NO_PARAMS)
    } catch (thrown) {
      return failure(thrown, method, hasId, echoId)
    }
    return run({ spec, args, ctx: { session, method }, hasId, echoId }, 0)
  }

  async function handleBatch(batch: readonly unknown[], session: RpcSession): Promise<string | undefined> {
    if (batch.length === 0) return errorResponse(null, new InvalidRequestError('empty batch'))
    if (batch.length > maxBatchLength) {
      // As geth: one error, in an array, carrying the id of the first call.
      return '[' + errorResponse(firstCallId(batch), new InvalidRequestError('batch too large')) + ']'
    }
    const answers: string[] = []
    for (const message of batch) {
      const answer = await handleMessage(message, session)
      if (answer !== undefined) answers.push(answer)
    }
    return answers.length === 0 ? undefined : '[' + answers.join(',') + ']'
  }

  function answerBody(body: string, session: RpcSession): Answer {
    let parsed: unknown
    try {
      parsed = JSON.parse(protectIds(body))
    } catch {
      return errorResponse(null, new ParseError())
    }
    return Array.isArray(parsed) ? handleBatch(parsed, session) : handleMessage(parsed, session)
  }

  // Only a bug of the dispatcher itself gets here (handlers' errors are answered above).
  function dispatcherFailure(thrown: unknown): string {
    const error = new InternalError({ cause: thrown })
    reportInternal(error, undefined)
    return errorResponse(null, error)
  }

  return function dispatch(body, session) {
    try {
      const answered = answerBody(body, session)
      return answered instanceof Promise ? answered.catch(dispatcherFailure) : Promise.resolve(answered)
    } catch (thrown) {
      return Promise.resolve(dispatcherFailure(thrown))
    }
  }
}

/** A decoded call, ready to run (again). */
interface Call {
  readonly spec: MethodSpec
  readonly args: Parameters<MethodSpec["handler"]>[0]
  readonly ctx: RpcContext
  readonly hasId: boolean
  readonly echoId: RpcId
}

/** An answer, or the promise of one when a handler is asynchronous. */
type Answer = string | undefined | Promise<string | undefined>

/** JSON-RPC ids: a string, a number (fractions allowed, as geth allows them) or null. */
function isValidId(id: unknown): id is RpcId {
  return id === null || typeof id === 'string' || typeof id === 'number'
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  )
}

/** The id of the first well-formed call in a batch, else null. */
function firstCallId(batch: readonly unknown[]): RpcId {
  for (const message of batch) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) continue
    const request = message as Readonly<Record<string, unknown>>
    if (
      request.jsonrpc === '2.0' &&
      typeof request.method === 'string' &&
      Object.hasOwn(request, 'id') &&
      isValidId(request.id)
    ) {
      return request.id
    }
  }
  return null
}
