/**
 * Calls, estimates and access-list searches at a block reference, as the chain offers them: the
 * block and state a call at `ref` sees (the pending block's when the pool holds transactions), the
 * gas a call may use, and the one reused EVM they all run on.
 *
 * Owns: choosing that view and the gas cap. Leaves running to `executor.ts`, `call.ts`,
 * `estimate.ts` and `../accessList.ts`, block references to `../queries.ts`, building the pending
 * block to the miner (handed in), and the order of operations to `../chain.ts`.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { VM } from '@ethereumjs/vm'
import type { ExecutionReporter } from '../console/report.js'
import { createAccessList, type AccessListCall, type AccessListResult } from '../accessList.js'
import type { TxPool } from '../pool.js'
import { overriddenHeader, overriddenState, type CallOverrides } from '../overrides.js'
import type { ChainQueries } from '../queries.js'
import type { StateReader } from '../state.js'
import type { BlockRecord, BlockRef } from '../types.js'
import { TX_GAS_CAP } from '../validate.js'
import { runCall } from './call.js'
import { estimateGas } from './estimate.js'
import { CallExecutor, type CallView } from './executor.js'
import type { CallParams, CallResult } from './params.js'

export class CallRunner {
  readonly #common: Common
  readonly #keccak: (data: Uint8Array) => Uint8Array
  readonly #executor: CallExecutor
  readonly #pool: TxPool
  readonly #queries: ChainQueries
  readonly #pendingBlock: () => Promise<{ record: BlockRecord; state: StateReader }>
  readonly #blockGasLimit: () => bigint

  constructor(parts: {
    common: Common
    /** The mining VM's blockchain: calls read BLOCKHASH from it. */
    blockchain: VM['blockchain']
    keccak: (data: Uint8Array) => Uint8Array
    /** Where the console.log lines of calls go. */
    reporter?: ExecutionReporter
    pool: TxPool
    queries: ChainQueries
    pendingBlock: () => Promise<{ record: BlockRecord; state: StateReader }>
    /** Gas limit of the blocks to come (block settings can change it). */
    blockGasLimit: () => bigint
  }) {
    this.#common = parts.common
    this.#keccak = parts.keccak
    this.#executor = new CallExecutor({ common: parts.common, blockchain: parts.blockchain, keccak: parts.keccak, ...(parts.reporter === undefined ? {} : { reporter: parts.reporter }) })
    this.#pool = parts.pool
    this.#queries = parts.queries
    this.#pendingBlock = parts.pendingBlock
    this.#blockGasLimit = parts.blockGasLimit
  }

  /** Runs a call against the state of `ref` without changing anything. */
  async call(params: CallParams, ref: BlockRef, overrides?: CallOverrides): Promise<CallResult> {
    return runCall(this.#executor, params, await this.#view(ref, overrides))
  }

  /** The least gas with which the call succeeds (see `estimate.ts`). */
  async estimateGas(params: CallParams, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
    return estimateGas(this.#executor, params, await this.#view(ref, overrides))
  }

  /** The access list of a call at `ref`, found as geth's `eth_createAccessList` finds it (see `../accessList.ts`). */
  async createAccessList(params: AccessListCall, ref: BlockRef): Promise<AccessListResult> {
    return createAccessList(params, {
      common: this.#common,
      view: await this.#view(ref),
      executor: this.#executor,
      keccak: this.#keccak,
      // What eth_maxPriorityFeePerGas and, before London, eth_gasPrice suggest.
      suggestedTip: 1_000_000_000n,
      suggestedGasPrice: 1_000_000_000n,
    })
  }

  /** Gas of a call that names none: the block gas limit, capped as EIP-7825 (Osaka) caps a transaction (geth too). */
  gasCap(): bigint {
    const limit = this.#blockGasLimit()
    return this.#common.isActivatedEIP(7825) && limit > TX_GAS_CAP ? TX_GAS_CAP : limit
  }

  /**
   * The block a call at `ref` runs in and the state it sees. `pending` with an empty pool is the
   * head, as the pending block would add nothing (and building it costs more than most calls).
   * Overrides are laid over that view (see `../overrides.ts`).
   */
  async #view(ref: BlockRef, overrides?: CallOverrides): Promise<CallView> {
    const gasCap = this.gasCap()
    const { header, state } =
      ref.kind === 'tag' && ref.tag === 'pending' && this.#pool.size > 0
        ? await this.#pendingView()
        : this.#blockView(this.#queries.resolveBlock(ref))
    if (overrides === undefined) return { header, state, gasCap }
    return {
      header: overrides.block === undefined ? header : overriddenHeader(this.#common, header, overrides.block),
      state: overrides.state === undefined ? state : overriddenState(state, overrides.state, this.#keccak),
      gasCap,
    }
  }

  async #pendingView(): Promise<{ header: BlockHeader; state: StateReader }> {
    const { record, state } = await this.#pendingBlock()
    return { header: record.block.header, state }
  }

  #blockView(record: BlockRecord): { header: BlockHeader; state: StateReader } {
    return { header: record.block.header, state: this.#queries.stateAtBlock(record) }
  }
}
