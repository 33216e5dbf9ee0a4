/**
 * One EVM per chain for calls, estimates and access-list runs, reused from run to run with the
 * state of the block asked for swapped in (building a VM costs more than most calls: ethereumjs
 * rebuilds its opcode table for each).
 *
 * Owns: that VM and its state view, the reset between runs, the block a call runs in (the header
 * itself, or a view of it with another base fee; a full block, kept per header, for a built
 * transaction's run), and one run of a call as a transaction's execution would run it: fee checks and the
 * gas bought up front (`fees.ts`), warm addresses, sender nonce bump, EIP-7702 authorizations,
 * then the message.
 * Leaves to others: what to run and how often (`call.ts`, `estimate.ts`, `../accessList.ts`),
 * which state and block (`chain.ts`).
 */
import { createBlock, type Block, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVM, EVMResult, EVMRunCallOpts } from '@ethereumjs/evm'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Account, Address } from '@ethereumjs/util'
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { keyOf } from '../encoding.js'
import type { StateReader } from '../state.js'
import { RingStateManager } from '../stateManager.js'
import { applyAuthorizations } from './authorizations.js'
import { freeCallHeader } from './callHeader.js'
import { installFastInterpreter } from './fastInterpreter.js'
import { warmShared, type WarmJournal } from './warmJournal.js'
import { GasObserver, type GasObservation } from './gasObservation.js'
import { callPricing, chargeForGas, checkFeeCaps } from './fees.js'
import type { CallParams } from './params.js'
import { attachConsole, type ConsoleCall } from '../console/attach.js'
import { reportExecution, wantsConsole, type ConsoleSource, type ExecutionReporter } from '../console/report.js'

/** The block a call runs in and the state it sees, and the most gas a call may ask for. */
export interface CallView {
  readonly header: BlockHeader
  readonly state: StateReader
  readonly gasCap: bigint
}

/** A call with its fixed costs worked out once (see `prepareCall`). */
export interface PreparedCall {
  readonly params: CallParams
  readonly intrinsic: bigint
  /** EIP-7623's floor on the gas used (0 before Prague). */
  readonly floor: bigint
}

/** One run's outcome. */
export interface CallRun {
  readonly execResult: EVMResult['execResult']
  /** Gas the run used before refunds, fixed costs included (what a gas limit must cover). */
  readonly gasUsed: bigint
  /** Refunds earned (storage clears, authorizations of existing accounts), before the cap. */
  readonly refund: bigint
}

export interface CallExecutorOptions {
  readonly common: Common
  /** For BLOCKHASH. */
  readonly blockchain: VM['blockchain']
  readonly keccak: (data: Uint8Array) => Uint8Array
  /** Where the console.log lines of calls go (none: the console hook is never attached). */
  readonly reporter?: ExecutionReporter
}

/** Sees each opcode before it runs (the access-list tracer). */
export type StepListener = (opcode: number, stack: readonly bigint[], address: Uint8Array) => void

const ZERO_ADDRESS = new Uint8Array(20)

export class CallExecutor {
  readonly #common: Common
  readonly #blockchain: VM['blockchain']
  readonly #sm: RingStateManager
  #vm: Promise<VM> | undefined
  /** Wraps the VM's gas-reading opcodes from its first run on, before anything runs on it. */
  #observer: GasObserver | undefined
  #queue: Promise<unknown> = Promise.resolve()
  readonly #reporter: ExecutionReporter | undefined
  /** The precompiles' entries of a journal's warm set, shared by each run's (see `#warmPrecompiles`). */
  #precompilesWarm: Map<string, Set<string>> | undefined
  /** The blocks of calls that pay nothing, per header (see `#callBlock`). */
  readonly #freeBlocks = new WeakMap<BlockHeader, CallBlock>()
  /** Call blocks per header, keyed by the base fee they carry. */
  readonly #blocks = new WeakMap<BlockHeader, Map<bigint, Block>>()

  readonly common: Common

  constructor(options: CallExecutorOptions) {
    this.common = options.common
    this.#common = options.common
    this.#blockchain = options.blockchain
    this.#sm = new RingStateManager(EMPTY_STATE, { keccak: options.keccak })
    this.#reporter = options.reporter !== undefined && wantsConsole(options.reporter) ? options.reporter : undefined
  }

  /**
   * Runs `call` on `view` with `gas` (fixed costs included, at least `call.intrinsic`), as the
   * execution of a transaction: nothing it writes outlives the run. With `observation`, records
   * there where the run could see its gas limit.
   */
  run(call: PreparedCall, view: CallView, gas: bigint, report?: ConsoleSource, observation?: GasObservation): Promise<CallRun> {
    const reporter = report === undefined ? undefined : this.#reporter
    if (reporter === undefined && observation === undefined) return this.#exclusive((vm) => this.#run(vm, call, view, gas))
    return this.#exclusive(async (vm) => {
      const calls: ConsoleCall[] = []
      const detach = reporter === undefined ? undefined : attachConsole(vm.evm, (c) => calls.push(c))
      // Only the estimator watches a run for what its gas limit decides (see `gasObservation.ts`).
      if (observation !== undefined) this.#observer!.start(observation, call.params.from ?? ZERO_ADDRESS)
      try {
        return await this.#run(vm, call, view, gas)
      } finally {
        this.#observer!.stop()
        if (detach !== undefined) {
          detach()
          reportExecution(reporter!, report!, calls)
        }
      }
    })
  }

  async #run(vm: VM, call: PreparedCall, view: CallView, gas: bigint): Promise<CallRun> {
    const evm = vm.evm as EVM
    const { params } = call
    const from = new Address(params.from ?? ZERO_ADDRESS)
    const to = params.to === undefined ? undefined : new Address(params.to)
    const baseFee = view.header.baseFeePerGas
    const pricing = callPricing(params, baseFee)
    checkFeeCaps(pricing, from, baseFee)
    // A call that pays nothing sees a base fee of 0, as in geth (its NoBaseFee rule for calls).
    const block = this.#callBlock(view.header, pricing.gasPrice === 0n)
    this.#sm.reset(view.state)
    if (this.#common.isActivatedEIP(2929)) {
      this.#warmPrecompiles(evm, (params.accessList?.length ?? 0) > 0)
      evm.journal.addAlwaysWarmAddress(keyOf(from.bytes))
      if (to !== undefined) evm.journal.addAlwaysWarmAddress(keyOf(to.bytes))
      if (this.#common.isActivatedEIP(3651)) evm.journal.addAlwaysWarmAddress(keyOf(view.header.coinbase.bytes))
      for (const entry of params.accessList ?? []) {
        const address = keyOf(entry.address)
        evm.journal.addAlwaysWarmAddress(address, true)
        for (const key of entry.storageKeys) evm.journal.addAlwaysWarmSlot(address, keyOf(key), true)
      }
    }
    // The sender pays for the gas up front (geth's buyGas, refused when the balance falls short),
    // and its nonce goes up before the authorizations are applied, as in a transaction.
    const sender = (await this.#sm.getAccount(from)) ?? new Account()
    sender.balance -= chargeForGas(pricing, gas, params.value ?? 0n, from, sender.balance)
    sender.nonce++
    await evm.journal.putAccount(from, sender)
    let refund = 0n
    const authorizations = params.authorizationList
    if (authorizations !== undefined && authorizations.length > 0 && this.#common.isActivatedEIP(7702)) {
      refund += await applyAuthorizations(evm, this.#sm, authorizations)
    }
    const result = await evm.runCall({
      caller: from,
      origin: from,
      ...(to === undefined ? {} : { to }),
      value: params.value ?? 0n,
      data: params.data ?? EMPTY,
      gasLimit: gas - call.intrinsic,
      gasPrice: pricing.gasPrice,
      block,
      // The balance was checked above, value included.
      skipBalance: true,
      skipNonceIncrement: true,
    })
    const execResult = result.execResult
    const used = call.intrinsic + execResult.executionGasUsed
    return { execResult, gasUsed: used > call.floor ? used : call.floor, refund: refund + (execResult.gasRefund ?? 0n) }
  }

  /**
   * Warms the precompiles (EIP-2929) in the journal just cleaned: the warm set built on the first
   * run, shared (see `warmJournal.ts`). With an access list the sets are the journal's own, as it may add slots to them.
   */
  #warmPrecompiles(evm: EVM, accessList: boolean): void {
    const journal = evm.journal as unknown as { alwaysWarmJournal: Map<string, Set<string>> }
    if (accessList || journal.alwaysWarmJournal.size > 0) {
      for (const address of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(address)
      return
    }
    this.#precompilesWarm ??= new Map([...evm.precompiles.keys()].map((address) => [address, new Set<string>()]))
    if (!warmShared(evm.journal as unknown as WarmJournal, this.#precompilesWarm)) journal.alwaysWarmJournal = new Map(this.#precompilesWarm)
  }

  /**
   * The block a call on `header` runs in: the header itself, or, for a call that pays nothing
   * (which sees a base fee of 0, as in geth), a view of it with that base fee, kept per header
   * (no block or header built: that cost more than a view call; see `callHeader.ts`).
   */
  #callBlock(header: BlockHeader, paysNothing: boolean): CallBlock {
    if (!paysNothing || header.baseFeePerGas === undefined || header.baseFeePerGas === 0n) return { header }
    let block = this.#freeBlocks.get(header)
    if (block === undefined) this.#freeBlocks.set(header, (block = { header: freeCallHeader(header) }))
    return block
  }

  /** Runs a built transaction (unsigned, its sender pinned) on `view`, nonce and balance unchecked. */
  runTransaction(tx: TypedTransaction, view: CallView, baseFee: bigint | undefined, onStep?: StepListener): Promise<RunTxResult> {
    return this.#exclusive((vm) => this.#runTransaction(vm, tx, view, baseFee, onStep))
  }

  async #runTransaction(vm: VM, tx: TypedTransaction, view: CallView, baseFee: bigint | undefined, onStep: StepListener | undefined): Promise<RunTxResult> {
    const block = this.block(view.header, baseFee)
    this.#sm.reset(view.state)
    const listener = onStep === undefined ? undefined : (step: { opcode: { code: number }; stack: bigint[]; address: Address }) => onStep(step.opcode.code, step.stack, step.address.bytes)
    if (listener !== undefined) vm.evm.events!.on('step', listener)
    try {
      return await runTx(vm, { tx, block, skipBalance: true, skipNonce: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
    } finally {
      if (listener !== undefined) vm.evm.events!.off('step', listener)
    }
  }

  /** The block a built transaction on `header` runs in, with `baseFee` in place of the header's when given. */
  block(header: BlockHeader, baseFee: bigint | undefined): Block {
    const fee = header.baseFeePerGas === undefined ? -1n : (baseFee ?? header.baseFeePerGas)
    let byFee = this.#blocks.get(header)
    if (byFee === undefined) this.#blocks.set(header, (byFee = new Map()))
    let block = byFee.get(fee)
    if (block === undefined) {
      const override = fee < 0n ? {} : { baseFeePerGas: fee }
      block = createBlock({ header: { ...header.toJSON(), number: header.number, timestamp: header.timestamp, ...override } }, { common: this.#common, skipConsensusFormatValidation: true })
      byFee.set(fee, block)
    }
    return block
  }

  /** Runs `fn` on the VM after every run queued before it: runs share one VM, so they take turns. */
  #exclusive<T>(fn: (vm: VM) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => {
      this.#vm ??= leanVM(createVM({ common: this.#common, stateManager: this.#sm, blockchain: this.#blockchain }))
      const vm = await this.#vm
      // createVM builds an EVM (the interface type hides the journal and transient storage).
      const evm = vm.evm as EVM
      this.#observer ??= new GasObserver(evm, this.#common)
      evm.journal.cleanJournal()
      evm.transientStorage.clear()
      return fn(vm)
    })
    this.#queue = run.catch(() => {})
    return run
  }
}

/** `vm` once its EVM runs the lean and fast interpreter methods (see `leanEvm.ts`, `fastInterpreter.ts`). */
async function leanVM(vm: Promise<VM>): Promise<VM> {
  const ready = await vm
  await installFastInterpreter(ready.evm as EVM)
  return ready
}

/** What the EVM reads of the block a call runs in. */
type CallBlock = NonNullable<EVMRunCallOpts['block']>

const EMPTY = new Uint8Array(0)
const EMPTY_STATE: StateReader = { account: () => undefined, storage: () => EMPTY, code: () => undefined }
