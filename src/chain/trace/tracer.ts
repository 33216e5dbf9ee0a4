/**
 * What every tracer is: listeners on ethereumjs's EVM events for one transaction (or call), and a
 * result once it ran. The tracers mirror geth's (eth/tracers/logger, eth/tracers/native) and keep
 * to bigint and bytes; the JSON shapes are the RPC layer's (`src/rpc/debug.ts`).
 * Owns: the tracer contract and the facts handed to a tracer at the start and end of a transaction.
 * Leaves to others: re-running transactions (`replay.ts`), the tracers themselves (one file each).
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { RingStateManager } from '../stateManager.js'

/** What a tracer knows before the transaction runs (geth's `OnTxStart`). */
export interface TxStart {
  readonly from: Uint8Array
  /** The called account, or the address the creation will have. */
  readonly to: Uint8Array
  readonly create: boolean
  readonly gasLimit: bigint
  readonly value: bigint
  readonly coinbase: Uint8Array
  /** The live state the transaction runs on (reads are synchronous). */
  readonly state: RingStateManager
  /** Logs of the block before this transaction: the first log's block-wide index. */
  readonly logIndexBase: number
  /** EIP-6780 (Cancun): SELFDESTRUCT deletes only accounts created in the same transaction. */
  readonly selfdestructOnlyCreated: boolean
  /** Addresses of the active precompiles, as unprefixed hex. */
  readonly precompiles: ReadonlySet<string>
}

/** How the transaction ended (geth's `OnTxEnd` with its receipt). */
export interface TxEnd {
  /** Gas used as the receipt counts it. */
  readonly gasUsed: bigint
  /** The outcome of the top-level call. */
  readonly result: EVMResult
}

/** EVM listeners of one tracer; each is called synchronously by the EVM. */
export interface TracerHooks {
  readonly step?: (step: InterpreterStep) => void
  readonly beforeMessage?: (message: Message) => void
  readonly afterMessage?: (result: EVMResult) => void
}

/** One tracer, fresh for each transaction it traces. */
export interface Tracer<Result> {
  readonly hooks: TracerHooks
  start(tx: TxStart): void
  finish(tx: TxEnd): Result
}

/** geth's `noopTracer`: listens to nothing, answers `{}`. */
export function noopTracer(): Tracer<Record<string, never>> {
  return { hooks: {}, start() {}, finish: () => ({}) }
}
