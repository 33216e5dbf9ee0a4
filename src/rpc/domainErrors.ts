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
  TxRejectedError,
  UnknownBlockError,
} from '../chain/errors.js'
import { ForkSourceError } from '../chain/fork/source.js'
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
  if (error instanceof UnknownBlockError) return new BlockNotFoundError({ cause: error })
  if (error instanceof ChainRevertedError) return new ExecutionRevertedError(error.data, { cause: error })
  if (error instanceof TxRejectedError || error instanceof ExecutionFailedError) return new ServerError(error.message, { cause: error })
  if (error instanceof SimulationError) return new SimulationFailedError(error.kind, error.message, { cause: error })
  if (error instanceof InvalidInputError) return new InvalidParamsError(error.message, { cause: error })
  // Names the upstream (its masked label) and the call; the upstream's own code, if any, in data.
  if (error instanceof ForkSourceError) return new ServerError(error.message, { cause: error, ...(error.upstreamCode === undefined ? {} : { data: { upstreamCode: error.upstreamCode } }) })
  return undefined
}
