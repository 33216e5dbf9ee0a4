// JSON-RPC error classes: the only place a JSON-RPC error code is written down.
// Owns: one class per code (the message is what goes on the wire), geth's revert-reason
// decoding for code 3, and `toRpcError`, which gives any thrown value its code.
// Does not own: the chain's domain errors (src/chain/errors.ts) nor which code each of them
// gets; that table is a `DomainErrorMapper` handed in from outside. Envelopes are the
// dispatcher's.

import { explainRevert } from '../chain/revert.js'
import { toData, toQuantity } from './hex.js'

/** Options every RPC error accepts. */
export interface RpcErrorOptions {
  /** Goes on the wire as `error.data`; must be JSON-serializable. */
  readonly data?: unknown
  /** What caused it; logged for internal errors, never sent. */
  readonly cause?: unknown
}

/**
 * Base class of every error that reaches the wire: `code` and `message` become `error.code` and
 * `error.message`, `data` (when set) becomes `error.data`.
 */
export class RpcError extends Error {
  override name = 'RpcError'
  readonly code: number
  readonly data?: unknown

  constructor(code: number, message: string, options: RpcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    if (options.data !== undefined) this.data = options.data
  }
}

/** -32700: the body is not JSON. */
export class ParseError extends RpcError {
  static readonly code = -32700 as const
  override name = 'ParseError'
  constructor(message = 'parse error', options?: RpcErrorOptions) {
    super(ParseError.code, message, options)
  }
}

/** -32600: JSON, but not a JSON-RPC 2.0 request (or an empty or too large batch). */
export class InvalidRequestError extends RpcError {
  static readonly code = -32600 as const
  override name = 'InvalidRequestError'
  constructor(message = 'invalid request', options?: RpcErrorOptions) {
    super(InvalidRequestError.code, message, options)
  }
}

/** -32601: no method of that name (geth's wording). */
export class MethodNotFoundError extends RpcError {
  static readonly code = -32601 as const
  override name = 'MethodNotFoundError'
  constructor(readonly method: string) {
    super(MethodNotFoundError.code, `the method ${method} does not exist/is not available`)
  }
}

/** -32602: a parameter could not be decoded or is out of range. */
export class InvalidParamsError extends RpcError {
  static readonly code = -32602 as const
  override name = 'InvalidParamsError'
  constructor(message: string, options?: RpcErrorOptions) {
    super(InvalidParamsError.code, message, options)
  }
}

/**
 * -32603: something failed that should not have. The wire only ever sees `internal error`; the
 * cause is for the log.
 */
export class InternalError extends RpcError {
  static readonly code = -32603 as const
  override name = 'InternalError'
  constructor(options: { readonly cause?: unknown } = {}) {
    super(InternalError.code, 'internal error', options)
  }
}

/**
 * -32000: geth's catch-all server error (`header not found`, transaction rejections such as
 * `nonce too low: next nonce 3, tx nonce 1`). The message is geth's text.
 */
export class ServerError extends RpcError {
  static readonly code = -32000 as const
  override name = 'ServerError'
  constructor(message: string, options?: RpcErrorOptions) {
    super(ServerError.code, message, options)
  }
}

/** -32001: a block hash that names no known block. */
export class BlockNotFoundError extends RpcError {
  static readonly code = -32001 as const
  override name = 'BlockNotFoundError'
  constructor(options?: RpcErrorOptions) {
    super(BlockNotFoundError.code, 'block not found', options)
  }
}

/**
 * 3: `eth_call` / `eth_estimateGas` reverted. The message carries the decoded reason when the
 * revert data is an `Error(string)` or `Panic(uint256)` (geth's words, as its `abi.UnpackRevert`
 * decodes it) or, beyond geth, a known custom error by name (`src/chain/revert.ts`); `data` is
 * the revert data as hex.
 *
 * @example new ExecutionRevertedError(revertBytes).message // 'execution reverted: user error'
 */
export class ExecutionRevertedError extends RpcError {
  static readonly code = 3 as const
  override name = 'ExecutionRevertedError'
  /** The decoded reason, when there is one. */
  readonly reason: string | undefined

  constructor(revertData: Uint8Array, options: { readonly cause?: unknown } = {}) {
    const reason = explainRevert(revertData)?.reason
    super(
      ExecutionRevertedError.code,
      reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`,
      { ...options, data: toData(revertData) },
    )
    this.reason = reason
  }
}

/**
 * 4444: a state request for a block that has left the served window. Never answered from
 * another block instead.
 */
export class PrunedHistoryError extends RpcError {
  static readonly code = 4444 as const
  override name = 'PrunedHistoryError'
  constructor(requested: bigint, oldest: bigint, head: bigint, options: { readonly cause?: unknown } = {}) {
    super(
      PrunedHistoryError.code,
      `pruned history unavailable: block ${requested} is outside the served window ${oldest}..${head}`,
      {
        ...options,
        data: { requested: toQuantity(requested), oldest: toQuantity(oldest), head: toQuantity(head) },
      },
    )
  }
}

/**
 * -32005 (EIP-1474 "limit exceeded"): a limit of this server was reached, such as the number of
 * isolated chains. The message says which limit and how to raise it.
 */
export class LimitExceededError extends RpcError {
  static readonly code = -32005 as const
  override name = 'LimitExceededError'
  constructor(message: string, options?: RpcErrorOptions) {
    super(LimitExceededError.code, message, options)
  }
}

/**
 * -38026: a request asks for more than geth serves in one call (`eth_getStorageValues` past
 * 1024 slots: `too many slots (max 1024)`); geth's client-limit code.
 */
export class ClientLimitExceededError extends RpcError {
  static readonly code = -38026 as const
  override name = 'ClientLimitExceededError'
  constructor(message: string, options?: RpcErrorOptions) {
    super(ClientLimitExceededError.code, message, options)
  }
}

/**
 * Gives a domain error (anything that is not an `RpcError`) its RPC error, or `undefined` when it
 * does not know the error. Written once, next to the method table, by whoever owns that mapping.
 */
export type DomainErrorMapper = (error: unknown) => RpcError | undefined

/**
 * Any thrown value as the RpcError to send: RpcErrors pass through, the mapper gets a say on
 * everything else, and what nobody knows becomes `InternalError` with the original as `cause`.
 *
 * @example toRpcError(new TypeError('x')).message // 'internal error'
 */
export function toRpcError(error: unknown, mapDomainError?: DomainErrorMapper): RpcError {
  if (error instanceof RpcError) return error
  if (mapDomainError !== undefined) {
    let mapped: RpcError | undefined
    try {
      mapped = mapDomainError(error)
    } catch (mapperError) {
      // A broken mapper is a bug of ours, not the client's: keep both for the log.
      return new InternalError({ cause: new AggregateError([error, mapperError], 'domain error mapper threw') })
    }
    if (mapped !== undefined) return mapped
  }
  return new InternalError({ cause: error })
}

/**
 * An `eth_simulateV1` that cannot run, with the execution-apis code of its reason (-38010 nonce
 * too low … -38026 too many blocks; `domainErrors.ts` picks it). The message is geth's.
 */
export class SimulationFailedError extends RpcError {
  static readonly codes = {
    nonceTooLow: -38010,
    nonceTooHigh: -38011,
    baseFeeTooLow: -38012,
    intrinsicGas: -38013,
    insufficientFunds: -38014,
    blockGasLimit: -38015,
    blockNumberOrder: -38020,
    timestampOrder: -38021,
    movedTwice: -38023,
    tooManyBlocks: -38026,
    nonceMax: -32603,
    notPrecompile: -32000,
    invalidTransaction: -32000,
  } as const
  override name = 'SimulationFailedError'
  constructor(kind: keyof typeof SimulationFailedError.codes, message: string, options?: RpcErrorOptions) {
    super(SimulationFailedError.codes[kind], message, options)
  }
}
