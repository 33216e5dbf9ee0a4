/**
 * What `eth_simulateV1` asks of the chain and what it gets back, in the chain's terms (bigint and
 * bytes): blocks of calls with their block and state overrides, and per block the sealed block with
 * each call's outcome.
 *
 * Owns: these shapes and the errors a simulation stops with. Leaves running it to `simulator.ts`,
 * the wire to `src/rpc/eth/simulate.ts`.
 */
import { ChainError } from '../errors.js'
import type { CallParams } from '../execution/params.js'
import type { BlockOverrides, StateOverrides } from '../overrides.js'
import type { BlockRecord, LogRecord } from '../types.js'

/** A call of a simulated block: a call's params, with an optional nonce. */
export interface SimulatedCallParams extends CallParams {
  readonly nonce?: bigint
}

export interface SimulatedBlockSpec {
  readonly blockOverrides?: BlockOverrides
  /** By account, as unprefixed lowercase hex. */
  readonly stateOverrides?: StateOverrides
  readonly calls: readonly SimulatedCallParams[]
}

export interface SimulationSpec {
  readonly blocks: readonly SimulatedBlockSpec[]
  /** Checks nonces, fees and base fees as block validation would (else fees default to 0 and the base fee is 0). */
  readonly validation: boolean
  /** Adds an ERC-7528 log (from 0xeeee…eeee) for every transfer of ether. */
  readonly traceTransfers: boolean
}

/** How one call ended. */
export type CallFailure = { readonly kind: 'reverted'; readonly data: Uint8Array } | { readonly kind: 'failed'; readonly message: string }

export interface SimulatedCall {
  readonly returnData: Uint8Array
  readonly logs: readonly LogRecord[]
  readonly gasUsed: bigint
  /** Gas used before refunds. */
  readonly maxUsedGas: bigint
  readonly failure?: CallFailure
}

export interface SimulatedBlock {
  readonly record: BlockRecord
  readonly calls: readonly SimulatedCall[]
}

/** Why a simulation stopped without results (each has its own error code on the wire). */
export type SimulationFailureKind =
  | 'nonceTooLow'
  | 'nonceTooHigh'
  | 'nonceMax'
  | 'baseFeeTooLow'
  | 'intrinsicGas'
  | 'insufficientFunds'
  | 'blockGasLimit'
  | 'blockNumberOrder'
  | 'timestampOrder'
  | 'tooManyBlocks'
  | 'notPrecompile'
  | 'movedTwice'
  | 'invalidTransaction'

/** A simulation that cannot run: an invalid chain of blocks, an override or a call block validation refuses. */
export class SimulationError extends ChainError {
  override name = 'SimulationError'
  constructor(
    readonly kind: SimulationFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
