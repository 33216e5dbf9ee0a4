/**
 * The one table that gives the chain's domain errors their JSON-RPC codes, handed to the dispatcher
 * (`createDispatcher(methods, { mapDomainError })`). The error classes themselves are in
 * `errors.ts` (RPC) and `src/chain/errors.ts` (domain).
 */
import {
  BlockOutOfWindowError,
  ExecutionFailedError,
  ExecutionRevertedError as ChainRevertedError,
  FutureBlockError,
  InvalidInputError,
  OrphanedBlockError,
  TxRejectedError,
  UnknownBlockError,
} from '../chain/errors.js'
import { ForkSourceError } from '../chain/fork/source.js'
import { StateOverrideError } from '../chain/overrides.js'
import { SimulationError } from '../chain/simulate/types.js'
import {
  BlockNotFoundError,
  ExecutionRevertedError,
  InvalidParamsError,
  PrunedHistoryError,
  ServerError,
  SimulationFailedError,
  type RpcError,
} from './errors.js'

/** Maps the chain's domain errors to JSON-RPC errors: the one place that gives them codes. */
export function mapDomainError(error: unknown): RpcError | undefined {
  if (error instanceof BlockOutOfWindowError) return new PrunedHistoryError(error.requested, error.oldest, error.head, { cause: error })
  if (error instanceof FutureBlockError) return new ServerError('header not found', { cause: error })
  if (error instanceof OrphanedBlockError) return new ServerError(error.message, { cause: error })
  if (error instanceof UnknownBlockError) return new BlockNotFoundError({ cause: error })
  if (error instanceof ChainRevertedError) return new ExecutionRevertedError(error.data, { cause: error })
  if (error instanceof TxRejectedError || error instanceof ExecutionFailedError) return new ServerError(error.message, { cause: error })
  if (error instanceof SimulationError) return new SimulationFailedError(error.kind, error.message, { cause: error })
  // geth answers an override it cannot apply as a failed call.
  if (error instanceof StateOverrideError) return new ServerError(error.message, { cause: error })
  if (error instanceof InvalidInputError) return new InvalidParamsError(error.message, { cause: error })
  // A forked chain's upstream failed (unreachable, timeout, 429, pruned state): -32000 as geth's
  // server-side failures, naming the upstream (masked) and its call; its own code in `data`.
  if (error instanceof ForkSourceError) {
    const data = { upstream: error.label, method: error.method, ...(error.upstreamCode === undefined ? {} : { upstreamCode: error.upstreamCode }) }
    return new ServerError(error.message, { cause: error, data })
  }
  return undefined
}
