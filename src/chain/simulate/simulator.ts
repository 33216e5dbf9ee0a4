/**
 * `eth_simulateV1`'s engine: blocks of calls run on a scratch copy of the state of a base block,
 * each block built and sealed as a mined block is (system calls, receipts, roots), each call run
 * as an unsigned transaction from its `from`, as geth's simulator runs them.
 *
 * Owns: the chain of simulated headers (numbers and timestamps in order, gaps filled with empty
 * blocks, geth's defaults), each call's defaults and the checks that stop a simulation, and the
 * scratch VM. Leaves block building to `../builder.ts`, overrides to `overrides.ts`, transfer
 * logs to `transfers.ts`, the wire to `src/rpc/eth/simulate.ts`.
 */
import { paramsBlock, type Block } from '@ethereumjs/block'
import type { Common, ParamsDict } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { TransactionType, createTx, paramsTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { Address, bytesToHex, bytesToUnprefixedHex, toChecksumAddress } from '@ethereumjs/util'
import { createVM, type RunTxResult } from '@ethereumjs/vm'
import { startBlock } from '../builder.js'
import { prepareCall } from '../execution/call.js'
import { buildIncluded } from '../receipts.js'
import type { StateReader } from '../state.js'
import { RingStateManager, type RootComputer } from '../stateManager.js'
import type { BlockRecord, LogRecord } from '../types.js'
import { applyOverrides } from './overrides.js'
import { TransferTracer, type RawLog } from './transfers.js'
import type { BlockOverrides } from '../overrides.js'
import { SimulationError, type SimulatedBlock, type SimulatedBlockSpec, type SimulatedCall, type SimulatedCallParams, type SimulationSpec } from './types.js'

/** The most blocks one simulation may span past its base (geth's). */
export const MAX_SIMULATED_BLOCKS = 256n
/** Seconds between simulated blocks whose time is not given (geth's). */
const TIMESTAMP_INCREMENT = 12n
const ZERO32 = new Uint8Array(32)
const MAX_NONCE = 2n ** 64n - 1n
/** geth's default RPC gas cap, which bounds a call's default gas (its simulated transactions show it). */
export const SIMULATION_GAS_CAP = 50_000_000n

/** The block a simulation starts from and what it needs of the chain. */
export interface SimulationBase {
  readonly common: Common
  readonly keccak: (data: Uint8Array) => Uint8Array
  readonly parent: BlockRecord
  readonly state: StateReader
  /** Roots of the scratch state; absent when the base is not the head (roots are then left zero). */
  readonly computeRoot: RootComputer | undefined
  /** Hashes of the chain's blocks up to the base (BLOCKHASH). */
  readonly recentHash: (number: bigint) => Uint8Array | undefined
}

/** Runs `spec` on top of `base`; nothing it does outlives it. */
export async function simulate(base: SimulationBase, spec: SimulationSpec): Promise<SimulatedBlock[]> {
  const blocks = sanitizeChain(base.parent.block, spec.blocks)
  const sm = new SimulationStateManager(base.state, base.keccak, base.computeRoot)
  const simulated = new Map<bigint, Uint8Array>()
  const blockchain = {
    getBlock: async (number: number) => ({ hash: () => simulated.get(BigInt(number)) ?? base.recentHash(BigInt(number)) ?? ZERO32 }),
    putBlock: async () => {},
    shallowCopy() {
      return this
    },
  }
  const vm = await createVM({ common: base.common, stateManager: sm, blockchain: blockchain as never })
  const evm = vm.evm as EVM
  const tracer = spec.traceTransfers ? new TransferTracer(evm) : undefined
  const results: SimulatedBlock[] = []
  // geth's gas pool: what the whole simulation may still use (its RPC gas cap, spent call by call).
  const budget = { gas: SIMULATION_GAS_CAP }
  let parent = base.parent.block
  for (const block of blocks) {
    if (block.stateOverrides !== undefined) await applyOverrides(block.stateOverrides, sm, evm)
    const built = await simulateBlock({ vm, sm, common: base.common, parent, block, validation: spec.validation, tracer, budget })
    simulated.set(built.record.number, built.record.hash)
    results.push(built)
    parent = built.record.block
  }
  tracer?.detach()
  return results
}

/** geth's `sanitizeChain`: numbers and times in order, defaults filled in, gaps filled with empty blocks. */
function sanitizeChain(base: Block, blocks: readonly SimulatedBlockSpec[]): (SimulatedBlockSpec & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } })[] {
  const out: (SimulatedBlockSpec & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } })[] = []
  let prevNumber = base.header.number
  let prevTime = base.header.timestamp
  for (const block of blocks) {
    const overrides = block.blockOverrides ?? {}
    const number = overrides.number ?? prevNumber + 1n
    if (number <= prevNumber) throw new SimulationError('blockNumberOrder', `block numbers must be in order: ${number} <= ${prevNumber}`)
    if (number - base.header.number > MAX_SIMULATED_BLOCKS) throw new SimulationError('tooManyBlocks', 'too many blocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ calls: [], blockOverrides: { number: n, time: prevTime } })
    }
    prevNumber = number
    const time = overrides.time ?? prevTime + TIMESTAMP_INCREMENT
    if (overrides.time !== undefined && time <= prevTime) throw new SimulationError('timestampOrder', `block timestamps must be in order: ${time} <= ${prevTime}`)
    prevTime = time
    out.push({ ...block, blockOverrides: { ...overrides, number, time } })
  }
  return out
}

interface BlockRun {
  readonly vm: Awaited<ReturnType<typeof createVM>>
  readonly sm: RingStateManager
  readonly common: Common
  readonly parent: Block
  readonly block: SimulatedBlockSpec & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }
  readonly validation: boolean
  readonly tracer: TransferTracer | undefined
  readonly budget: { gas: bigint }
}

/** Builds one simulated block on `parent`: its header, its calls one by one, then the seal. */
async function simulateBlock({ vm, sm, common, parent, block, validation, tracer, budget }: BlockRun): Promise<SimulatedBlock> {
  const o = block.blockOverrides
  const london = common.isActivatedEIP(1559)
  const baseFee = !london ? undefined : (o.baseFeePerGas ?? (validation ? parent.header.calcNextBaseFee() : 0n))
  const gasLimit = o.gasLimit ?? parent.header.gasLimit
  const headerData: Record<string, unknown> = {
    number: o.number,
    timestamp: o.time,
    gasLimit,
    coinbase: new Address(o.feeRecipient ?? parent.header.coinbase.bytes),
    difficulty: parent.header.difficulty,
    mixHash: o.prevRandao ?? ZERO32,
    ...(baseFee === undefined ? {} : { baseFeePerGas: baseFee }),
    ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
  }
  const builder = await startBlock(vm, {
    parentBlock: parent,
    headerData,
    ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}),
    blockOpts: { putBlockIntoBlockchain: false, common, params: SIMULATION_PARAMS, skipConsensusFormatValidation: true },
  })
  const senders: Uint8Array[] = []
  const results: RunTxResult[] = []
  const traced: RawLog[][] = []
  for (const call of block.calls) {
    const from = call.from ?? new Uint8Array(20)
    const tx = await transactionFor(call, { sm, common, from, baseFee, gasLimit, gasUsed: builder.gasUsed, validation, cap: budget.gas })
    tracer?.take()
    let result: RunTxResult
    try {
      result = await builder.addTransaction(tx, { skipHardForkValidation: true })
    } catch (e) {
      throw new SimulationError('invalidTransaction', `err: ${(e as Error).message}`, { cause: e })
    }
    budget.gas -= result.totalGasSpent
    traced.push(tracer?.take() ?? [])
    senders.push(from)
    results.push(result)
  }
  const { block: sealed } = await builder.build()
  const { transactions, logs } = buildIncluded(sealed, senders, results)
  const record: BlockRecord = { block: sealed, hash: sealed.hash(), number: sealed.header.number, transactions, logs, size: sealed.serialize().length }
  let logIndex = 0
  const calls = results.map((result, i): SimulatedCall => {
    const included = transactions[i]!
    const exec = result.execResult
    const failed = exec.exceptionError
    const callLogs: LogRecord[] =
      tracer === undefined
        ? included.receipt.logs.map((log) => ({ ...log }))
        : traced[i]!.map(([address, topics, data]) => ({ address, topics, data, logIndex: logIndex++, transactionIndex: i, transactionHash: included.hash, blockHash: record.hash, blockNumber: record.number, blockTimestamp: sealed.header.timestamp }))
    return {
      returnData: exec.returnValue,
      logs: failed === undefined ? callLogs : [],
      gasUsed: result.totalGasSpent,
      maxUsedGas: result.totalGasSpent + result.gasRefund,
      ...(failed === undefined ? {} : { failure: failed.error === 'revert' ? { kind: 'reverted', data: exec.returnValue } : { kind: 'failed', message: failed.error } }),
    }
  })
  return { record, calls }
}

/** The unsigned transaction a call runs as, with geth's defaults and the checks that stop a simulation. */
async function transactionFor(
  call: SimulatedCallParams,
  ctx: { sm: RingStateManager; common: Common; from: Uint8Array; baseFee: bigint | undefined; gasLimit: bigint; gasUsed: bigint; validation: boolean; cap: bigint },
): Promise<TypedTransaction> {
  const { sm, common, from, baseFee, validation } = ctx
  const who = toChecksumAddress(bytesToHex(from))
  const account = sm.accountRecord(bytesToUnprefixedHex(from))
  const stateNonce = account?.nonce ?? 0n
  const nonce = call.nonce ?? stateNonce
  const asked = call.gas ?? ctx.gasLimit - ctx.gasUsed
  if (ctx.gasUsed + asked > ctx.gasLimit) throw new SimulationError('blockGasLimit', `block gas limit reached: ${ctx.gasUsed} >= ${ctx.gasLimit}`)
  const gas = asked > ctx.cap ? ctx.cap : asked
  const legacy = call.gasPrice !== undefined || baseFee === undefined
  const feeCap = legacy ? (call.gasPrice ?? 0n) : (call.maxFeePerGas ?? 0n)
  const tip = call.maxPriorityFeePerGas ?? 0n
  const supplied = `(supplied gas ${gas})`
  if (stateNonce === MAX_NONCE) throw new SimulationError('nonceMax', `err: nonce has max value: address ${who}, nonce: ${stateNonce} ${supplied}`)
  if (nonce < stateNonce) throw new SimulationError('nonceTooLow', `err: nonce too low: address ${who}, tx: ${nonce} state: ${stateNonce} ${supplied}`)
  if (nonce > stateNonce) throw new SimulationError('nonceTooHigh', `err: nonce too high: address ${who}, tx: ${nonce} state: ${stateNonce} ${supplied}`)
  if (validation && baseFee !== undefined && feeCap < baseFee) {
    throw new SimulationError('baseFeeTooLow', `err: max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee} ${supplied}`)
  }
  const want = gas * feeCap + (call.value ?? 0n)
  const have = account?.balance ?? 0n
  if (have < want) throw new SimulationError('insufficientFunds', `err: insufficient funds for gas * price + value: address ${who} have ${have} want ${want} ${supplied}`)
  const { intrinsic } = prepareCall(call, common)
  if (gas < intrinsic) throw new SimulationError('intrinsicGas', `err: intrinsic gas too low: have ${gas}, want ${intrinsic} ${supplied}`)
  const accessList = (call.accessList ?? []).map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map((k) => bytesToHex(k)) }))
  const data: TypedTxData = {
    type: legacy ? TransactionType.Legacy : TransactionType.FeeMarketEIP1559,
    nonce,
    gasLimit: gas,
    value: call.value ?? 0n,
    data: call.data ?? new Uint8Array(0),
    ...(call.to === undefined ? {} : { to: call.to }),
    ...(legacy ? { gasPrice: feeCap } : { maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, chainId: common.chainId(), accessList }),
    // Unsigned, as geth's simulated transactions are (their hashes match geth's).
    v: legacy ? 27n : 0n,
    r: 0n,
    s: 0n,
  } as TypedTxData
  const tx = createTx(data, { common, params: SIMULATION_PARAMS, freeze: false })
  Object.defineProperty(tx, 'getSenderAddress', { value: () => new Address(from) })
  return tx
}

/**
 * ethereumjs's block and transaction params, without EIP-7825's cap on a transaction's gas: geth's
 * simulated calls are not held to it (the RPC gas cap bounds them instead), and a simulated block
 * carries them as they ran. Handed to every transaction and block of a simulation.
 */
const SIMULATION_PARAMS: ParamsDict = (() => {
  const merged: ParamsDict = {}
  for (const dict of [paramsBlock, paramsTx]) for (const [eip, values] of Object.entries(dict)) merged[eip] = { ...merged[eip], ...values }
  merged[7825] = { ...merged[7825], maxTransactionGasLimit: MAX_NONCE.toString() }
  return merged
})()

/** The scratch state: the base block's, changed by every block simulated so far. */
class SimulationStateManager extends RingStateManager {
  readonly #hasRoots: boolean

  constructor(state: StateReader, keccak: (data: Uint8Array) => Uint8Array, computeRoot: RootComputer | undefined) {
    super(state, { keccak, ...(computeRoot === undefined ? {} : { computeRoot }) })
    this.#hasRoots = computeRoot !== undefined
  }

  override async getStateRoot(): Promise<Uint8Array> {
    return this.#hasRoots ? super.getStateRoot() : ZERO32
  }
}
