/**
 * Re-running transactions under a tracer: a transaction or a whole block of the window on the
 * state its parent left (the window keeps it), or a call on the state of a block, with state and
 * block overrides (geth's `debug_traceCall`).
 * Owns: a throwaway VM over that state, the block's own start (system calls) and the transactions
 * before the traced one, attaching a tracer's listeners to one transaction, and the trace timeout.
 * Leaves to others: what is recorded (the tracers), JSON (`src/rpc/debug.ts`), the chain's own
 * execution (nothing here writes to the chain).
 */
import { createBlock, type Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { getActivePrecompiles, type EVMResult } from '@ethereumjs/evm'
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { Address, KECCAK256_NULL, bigIntToUnpaddedBytes, bytesToHex, generateAddress, toChecksumAddress } from '@ethereumjs/util'
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { startBlock } from '../builder.js'
import { ChainError, ExecutionFailedError, InsufficientFundsError } from '../errors.js'
import { keyOf } from '../encoding.js'
import { EMPTY, type StateReader } from '../state.js'
import { RingStateManager } from '../stateManager.js'
import { answerIdleRequestCalls } from '../systemContracts.js'
import type { BlockRecord, IncludedTx } from '../types.js'
import { overriddenHeader, overriddenState, type BlockOverrides, type StateOverrides } from '../overrides.js'
import type { Tracer, TracerHooks, TxStart } from './tracer.js'
import { keccakOf } from '../crypto.js'

/** What re-running a block needs from the chain. */
export interface ReplaySource {
  readonly common: Common
  /** The state the block's parent left, and what BLOCKHASH reads. */
  replayBase(record: BlockRecord): { state: StateReader; blockchain: VM['blockchain'] }
}

/**
 * A state view for re-running: the receipts of a re-run are thrown away, so the state root a
 * pre-Byzantium receipt carries is never computed (a view has no tries to compute it on).
 */
class ReplayStateManager extends RingStateManager {
  #contractSender: string | undefined

  override async getStateRoot(): Promise<Uint8Array> {
    return new Uint8Array(32)
  }

  /**
   * geth traces a call from an account with code (its `ToMessage` skips the EOA check), while
   * ethereumjs's runTx refuses such a sender (EIP-3607) unless the code it reads for the check is
   * an EIP-7702 delegation. That one read (the sender's first) is shown a delegation's prefix.
   */
  passEoaCheck(from: Uint8Array): void {
    this.#contractSender = keyOf(from)
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    if (this.#contractSender !== undefined && keyOf(address.bytes) === this.#contractSender) {
      this.#contractSender = undefined
      return DELEGATION_PREFIX
    }
    return super.getCode(address)
  }
}

const DELEGATION_PREFIX = new Uint8Array([0xef, 0x01, 0x00])
const EMPTY_CODE_HASH = bytesToHex(KECCAK256_NULL)

/** The genesis block has no parent state to re-run it on (geth's words). */
export class GenesisNotTraceableError extends ChainError {
  override name = 'GenesisNotTraceableError'
  constructor() {
    super('genesis is not traceable')
  }
}

/** The trace ran longer than its `timeout`. */
export class TraceTimeoutError extends ChainError {
  override name = 'TraceTimeoutError'
  constructor() {
    super('execution timeout')
  }
}

/** geth's default trace timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5_000

/** A tracer's result for one transaction of a block. */
export interface TxTrace<Result> {
  readonly hash: Uint8Array
  readonly result: Result
}

/**
 * Re-runs block `record` and traces the transactions `traced` picks (each with a fresh tracer);
 * the others run untraced, as they must for the state to be right.
 */
export async function traceBlock<Result>(
  source: ReplaySource,
  record: BlockRecord,
  makeTracer: () => Tracer<Result>,
  options: { readonly only?: number; readonly timeoutMs?: number } = {},
): Promise<TxTrace<Result>[]> {
  if (record.number === 0n) throw new GenesisNotTraceableError()
  const header = record.block.header
  // The rules of the block's own fork (an imported chain spans several).
  const common = source.common.copy()
  common.setHardforkBy({ blockNumber: header.number, timestamp: header.timestamp })
  const keccak = keccakOf(common)
  const { state, blockchain } = source.replayBase(record)
  const sm = new ReplayStateManager(state, { keccak })
  const vm = await createVM({ common, stateManager: sm, blockchain })
  answerIdleRequestCalls(vm.evm, sm, keccak)
  const builder = await startBlock(vm, {
    parentBlock: record.block,
    headerData: { ...header.toJSON(), number: header.number, timestamp: header.timestamp, gasLimit: header.gasLimit },
    ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}),
    blockOpts: { putBlockIntoBlockchain: false, common, skipConsensusFormatValidation: true },
  })
  const traces: TxTrace<Result>[] = []
  const last = options.only ?? record.transactions.length - 1
  let logIndexBase = 0
  for (let i = 0; i <= last; i++) {
    const included = record.transactions[i]!
    const tx = withSender(included.tx, included.from)
    const traced = options.only === undefined || options.only === i
    if (!traced) {
      await builder.addTransaction(tx, { skipHardForkValidation: true, allowNoBlobs: true })
    } else {
      const tracer = makeTracer()
      tracer.start(txStart(common, tx, included.from, header.coinbase.bytes, sm, logIndexBase))
      const result = await withHooks(vm, tracer.hooks, options.timeoutMs, () => builder.addTransaction(tx, { skipHardForkValidation: true, allowNoBlobs: true }))
      traces.push({ hash: included.hash, result: tracer.finish({ gasUsed: included.receipt.gasUsed, result }) })
    }
    logIndexBase += included.receipt.logs.length
  }
  return traces
}

/** Re-runs the block of an included transaction up to it, and traces it. */
export async function traceTransaction<Result>(source: ReplaySource, record: BlockRecord, included: IncludedTx, makeTracer: () => Tracer<Result>, timeoutMs?: number): Promise<Result> {
  const [trace] = await traceBlock(source, record, makeTracer, { only: included.index, ...(timeoutMs === undefined ? {} : { timeoutMs }) })
  return trace!.result
}

/** A call to trace (geth's `TransactionArgs`). */
export interface TraceCallParams {
  readonly from?: Uint8Array
  readonly to?: Uint8Array
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly value?: bigint
  readonly data?: Uint8Array
}

/**
 * Traces a call on the state `state` left by block `record`, in that block's context, as
 * `debug_traceCall` does: gas defaults to the cap, a call that pays nothing sees a base fee of 0.
 */
export async function traceCall<Result>(
  input: {
    readonly common: Common
    readonly record: BlockRecord
    readonly state: StateReader
    readonly blockchain: VM['blockchain']
    readonly gasCap: bigint
    readonly call: TraceCallParams
    readonly stateOverrides?: StateOverrides
    readonly blockOverrides?: BlockOverrides
  },
  tracer: Tracer<Result>,
  timeoutMs?: number,
): Promise<Result> {
  const { common, record, call } = input
  const keccak = keccakOf(common)
  const state = input.stateOverrides === undefined ? input.state : overriddenState(input.state, input.stateOverrides, keccak)
  const sm = new ReplayStateManager(state, { keccak })
  const vm = await createVM({ common, stateManager: sm, blockchain: input.blockchain })
  const from = call.from ?? new Uint8Array(20)
  const gasPrice = call.gasPrice ?? 0n
  const gasLimit = call.gas === undefined || call.gas > input.gasCap ? input.gasCap : call.gas
  const nonce = sm.accountRecord(keyOf(from))?.nonce ?? 0n
  const txData = { nonce, gasLimit, gasPrice, value: call.value ?? 0n, data: call.data ?? EMPTY, ...(call.to === undefined ? {} : { to: call.to }) } as TypedTxData
  const tx = withSender(createTx({ ...txData, v: 27n, r: 1n, s: 1n } as TypedTxData, { common, freeze: false }), from)
  // geth's state transition refuses it before any tracer runs; ethereumjs would throw a plain error.
  const intrinsic = tx.getIntrinsicGas()
  // geth's traceTx wraps what ApplyMessage refuses as `tracing failed: …`.
  if (gasLimit < intrinsic) throw new ExecutionFailedError(`tracing failed: intrinsic gas too low: have ${gasLimit}, want ${intrinsic}`)
  // geth's buyGas: the balance must cover the gas at the price plus the value (run with the balance unchecked below).
  const balance = sm.accountRecord(keyOf(from))?.balance ?? 0n
  const want = gasLimit * gasPrice + (call.value ?? 0n)
  if (balance < want) throw new ExecutionFailedError(`tracing failed: ${new InsufficientFundsError(toChecksumAddress(bytesToHex(from)), balance, want).message}`)
  const sender = sm.accountRecord(keyOf(from))
  if (sender !== undefined && bytesToHex(sender.codeHash) !== EMPTY_CODE_HASH) {
    if (!common.isActivatedEIP(7702)) throw new ExecutionFailedError('tracing failed: the sender has code, and before EIP-7702 the EVM used here refuses a contract as sender (EIP-3607)')
    sm.passEoaCheck(from)
  }
  const block = contextBlock(common, record.block, gasPrice, input.blockOverrides)
  tracer.start(txStart(common, tx, from, block.header.coinbase.bytes, sm, 0))
  const result = await withHooks(vm, tracer.hooks, timeoutMs, () =>
    runTx(vm, { tx, block, skipBalance: true, skipNonce: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true }),
  )
  return tracer.finish({ gasUsed: result.totalGasSpent, result })
}

function contextBlock(common: Common, block: Block, gasPrice: bigint, overrides: BlockOverrides | undefined): Block {
  // A call that pays nothing sees a base fee of 0, as in geth (its NoBaseFee rule for calls).
  const baseFee = overrides?.baseFeePerGas ?? (gasPrice === 0n ? 0n : undefined)
  const header = overriddenHeader(common, block.header, { ...overrides, ...(baseFee === undefined ? {} : { baseFeePerGas: baseFee }) })
  return createBlock({ header: header.toJSON() }, { common, skipConsensusFormatValidation: true })
}

function txStart(common: Common, tx: TypedTransaction, from: Uint8Array, coinbase: Uint8Array, sm: RingStateManager, logIndexBase: number): TxStart {
  const create = tx.to === undefined
  const nonce = sm.accountRecord(keyOf(from))?.nonce ?? 0n
  return {
    from,
    to: create ? generateAddress(from, bigIntToUnpaddedBytes(nonce)) : tx.to!.bytes,
    create,
    gasLimit: tx.gasLimit,
    value: tx.value,
    coinbase,
    state: sm,
    logIndexBase,
    selfdestructOnlyCreated: common.isActivatedEIP(6780),
    precompiles: new Set(getActivePrecompiles(common).keys()),
  }
}

/** Runs `run` with the tracer's listeners on the VM's EVM, aborting it after `timeoutMs`. */
async function withHooks(vm: VM, hooks: TracerHooks, timeoutMs: number | undefined, run: () => Promise<RunTxResult>): Promise<RunTxResult> {
  const events = vm.evm.events!
  const deadline = Date.now() + (timeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS)
  let steps = 0
  const check = (): void => {
    if (Date.now() > deadline) throw new TraceTimeoutError()
  }
  // Listeners of one argument: ethereumjs calls them without waiting on a promise.
  const step = hooks.step === undefined ? undefined : (data: Parameters<NonNullable<TracerHooks['step']>>[0]) => {
    if ((++steps & 1023) === 0) check()
    hooks.step!(data)
  }
  const beforeMessage = (data: Parameters<NonNullable<TracerHooks['beforeMessage']>>[0]) => {
    check()
    hooks.beforeMessage?.(data)
  }
  const afterMessage = hooks.afterMessage === undefined ? undefined : (data: EVMResult) => hooks.afterMessage!(data)
  if (step !== undefined) events.on('step', step)
  events.on('beforeMessage', beforeMessage)
  if (afterMessage !== undefined) events.on('afterMessage', afterMessage)
  try {
    return await run()
  } finally {
    if (step !== undefined) events.off('step', step)
    events.off('beforeMessage', beforeMessage)
    if (afterMessage !== undefined) events.off('afterMessage', afterMessage)
  }
}

/** The transaction, run as sent by `from` (an impersonated sender's transaction has a fake signature). */
function withSender(tx: TypedTransaction, from: Uint8Array): TypedTransaction {
  let recovered: Uint8Array | undefined
  try {
    recovered = tx.getSenderAddress().bytes
  } catch {
    recovered = undefined
  }
  if (recovered !== undefined && keyOf(recovered) === keyOf(from)) return tx
  const copy = Object.isFrozen(tx) ? createTx(tx.toJSON() as TypedTxData, { common: tx.common, freeze: false }) : tx
  Object.defineProperty(copy, 'getSenderAddress', { value: () => new Address(from) })
  return copy
}
