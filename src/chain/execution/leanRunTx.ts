/**
 * ethereumjs's `runTx` (@ethereumjs/vm 10.1.3, src/runTx.ts, `runTx` and `_runTx`) for the
 * transactions a dev chain mines nearly always: legacy, EIP-2930 and EIP-1559 ones, in a block,
 * on a fork from London on, without the experimental EIPs. Everything else (blob and EIP-7702
 * transactions, proof of authority, EIP-7708/7864/7928/8037/8246/2780, debug logs, the profiler,
 * `skipBalance`, `skipNonce`, access-list and preimage reports) runs through ethereumjs's own.
 *
 * Why: the copy does what ethereumjs's does, in its order, with the same writes and the same
 * results, but without the work that changes nothing for these transactions: the nested journal
 * checkpoint (it only rolls back EIP-7702 delegations and EIP-2780/8037 charges), two writes of
 * the sender where one does, the intrinsic gas computed twice, the EIP-8037/7928 bookkeeping, the
 * debug and profiler checks, and events when nobody listens.
 *
 * Owns: running one such transaction (`runTransaction` picks this path or ethereumjs's).
 * Leaves to ethereumjs: the EVM (`evm.runCall`), the journal, blooms, transaction fields and gas.
 * A test pins the ethereumjs source copied (an upgrade fails it: compare and copy again) and runs
 * varied transactions through both paths.
 */
import type { Block } from '@ethereumjs/block'
import { ConsensusType } from '@ethereumjs/common'
import type { EVM, EVMResult } from '@ethereumjs/evm'
import { Capability, type FeeMarket1559Tx, type LegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, EthereumJSErrorWithoutCode, KECCAK256_NULL, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { Bloom, runTx, type RunTxOpts, type RunTxResult, type VM } from '@ethereumjs/vm'
import { keyOf } from '../encoding.js'
import { RingStateManager } from '../stateManager.js'
import { transactionFixedCosts } from './intrinsic.js'
import { warmShared, type WarmJournal } from './warmJournal.js'

/** EIPs under which ethereumjs's runTx does more than this copy does. */
const OWN_RUN_EIPS = [2780, 6800, 7708, 7864, 7928, 8037, 8246] as const

/** The run options this copy knows; any other one set sends the transaction to ethereumjs. */
const KNOWN_OPTIONS = new Set(['tx', 'block', 'blockGasUsed', 'skipHardForkValidation', 'skipBlockGasLimitValidation'])

/** EIP-7702's delegation prefix: an account whose code starts with it may still send (EIP-3607). */
const DELEGATION_7702_FLAG = Uint8Array.of(0xef, 0x01, 0x00)

/** The parts of `VM` and `EVM` the run reads and writes (protected or undeclared in their typings). */
interface VMInternals {
  readonly _opts: { profilerOpts?: { reportAfterTx?: boolean } }
  readonly DEBUG: boolean
  readonly common: VM['common']
  readonly stateManager: VM['stateManager']
  readonly events: VM['events']
  readonly evm: EVMInternals
  _emit(topic: string, data: unknown): Promise<void>
  errorStr(): string
}
interface EVMInternals {
  readonly journal: JournalInternals
  readonly precompiles: Map<string, unknown>
  readonly DEBUG: boolean
  eip7928CallPostTargetOog: boolean
  createTxTargetAlive: boolean
  runCall: EVM['runCall']
}

/** The parts of ethereumjs's `Journal` the run uses (`touched` is private in its typings). */
interface JournalInternals {
  readonly touched: Set<string>
  alwaysWarmJournal: Map<string, Set<string>>
  accessList?: Map<string, Set<string>>
  preimages?: Map<string, Uint8Array>
  checkpoint(): Promise<void>
  commit(): Promise<void>
  revert(): Promise<void>
  cleanup(): Promise<void>
  cleanJournal(): void
  putAccount(address: Address, account: Account): Promise<void>
  deleteAccount(address: Address): Promise<void>
  addAlwaysWarmAddress(address: string, addToAccessList?: boolean): void
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void
}

/**
 * Runs `opts.tx` as ethereumjs's `runTx(vm, opts)` would, through the lean copy when it can
 * (see the file's comment), through ethereumjs's otherwise.
 */
export function runTransaction(vm: VM, opts: RunTxOpts): Promise<RunTxResult> {
  return runsLean(vm, opts) ? leanRunTx(vm as unknown as VMInternals, opts as LeanOpts) : runTx(vm, opts)
}

/** Whether the lean copy runs `opts` on `vm` exactly as ethereumjs's runTx would. */
export function runsLean(vm: VM, opts: RunTxOpts): boolean {
  const { tx, block } = opts
  if (block === undefined || (tx.type !== 0 && tx.type !== 1 && tx.type !== 2)) return false
  for (const key in opts) if (!KNOWN_OPTIONS.has(key) && (opts as unknown as Record<string, unknown>)[key] !== undefined) return false
  const internals = vm as unknown as VMInternals
  const common = vm.common
  return (
    !internals.DEBUG &&
    !internals.evm.DEBUG &&
    internals._opts.profilerOpts?.reportAfterTx !== true &&
    common.consensusType() !== ConsensusType.ProofOfAuthority &&
    common.isActivatedEIP(1559) &&
    !OWN_RUN_EIPS.some((eip) => common.isActivatedEIP(eip))
  )
}

type LeanOpts = RunTxOpts & { block: Block }

/** ethereumjs's `runTx`: the hardfork and gas limit checks, the transaction's checkpoint, the access list warmed. */
async function leanRunTx(vm: VMInternals, opts: LeanOpts): Promise<RunTxResult> {
  const { tx, block } = opts
  if (opts.skipHardForkValidation !== true) {
    // If block and tx don't have a same hardfork, set tx hardfork to block
    if (tx.common.hardfork() !== block.common.hardfork()) tx.common.setHardfork(block.common.hardfork())
    if (block.common.hardfork() !== vm.common.hardfork()) {
      throw EthereumJSErrorWithoutCode(errorMsg('block has a different hardfork than the vm', vm, block, tx))
    }
  }
  if (opts.skipBlockGasLimitValidation !== true && block.header.gasLimit < tx.gasLimit) {
    throw EthereumJSErrorWithoutCode(errorMsg('tx has a higher gas limit than the block', vm, block, tx))
  }
  const journal = vm.evm.journal
  // Ensure we start with a clear warmed accounts Map
  await cleanup(journal, vm.stateManager)
  await journal.checkpoint()
  if (tx.type !== 0) {
    // EIP-2930 is on from Berlin, EIP-1559 from London: both are (see `runsLean`).
    for (const [addressBytes, slots] of (tx as FeeMarket1559Tx).accessList) {
      const address = keyOf(addressBytes)
      journal.addAlwaysWarmAddress(address, true)
      for (const slot of slots) journal.addAlwaysWarmSlot(address, keyOf(slot), true)
    }
  }
  try {
    const result = await leanRun(vm, tx, block, opts.blockGasUsed)
    await journal.commit()
    return result
  } catch (e) {
    await journal.revert()
    throw e
  } finally {
    journal.cleanJournal()
    vm.stateManager.originalStorageCache.clear()
  }
}

/** Per table of precompiles (a hardfork change makes a new one): their entries of a warm set, all empty. */
const warmSets = new WeakMap<Map<string, unknown>, Map<string, Set<string>>>()

/**
 * Warms the precompiles (EIP-2929), as `addAlwaysWarmAddress` on each would: in a journal just
 * cleaned, their entries made once and shared (`warmShared`; on a journal without the fast
 * methods, a copy of them). Their slot sets stay empty: only an access list adds slots to an
 * always-warm address, and with one (warmed before) the precompiles go into the journal's own set.
 */
function warmPrecompiles(evm: EVMInternals): void {
  const journal = evm.journal
  if (journal.alwaysWarmJournal.size > 0) {
    for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address)
    return
  }
  let warm = warmSets.get(evm.precompiles)
  if (warm === undefined) warmSets.set(evm.precompiles, (warm = new Map([...evm.precompiles.keys()].map((address) => [address, new Set<string>()]))))
  if (!warmShared(journal as unknown as WarmJournal, warm)) journal.alwaysWarmJournal = new Map(warm)
}

/** ethereumjs's `_runTx` for a transaction of type 0, 1 or 2 (see `runsLean`). */
async function leanRun(vm: VMInternals, tx: TypedTransaction, block: Block, blockGasUsed: bigint | undefined): Promise<RunTxResult> {
  const state = vm.stateManager
  const common = vm.common
  const evm = vm.evm
  const journal = evm.journal
  const header = block.header
  if (tx.value < 0n) throw EthereumJSErrorWithoutCode(`value field cannot be negative, received ${tx.value}`)
  if (vm.events.listenerCount('beforeTx') > 0) await vm._emit('beforeTx', tx)
  const caller = tx.getSenderAddress()

  // EIP-2929: precompiles, origin, recipient and (EIP-3651) coinbase warm. The journal keys
  // addresses by lowercase hex without `0x`: `keyOf` writes it natively (ethereumjs strips the
  // prefix of `caller.toString()` after a regular expression, and builds the others by pairs).
  warmPrecompiles(evm)
  journal.addAlwaysWarmAddress(keyOf(caller.bytes))
  if (tx.to !== undefined) journal.addAlwaysWarmAddress(keyOf(tx.to.bytes))
  if (common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(keyOf(header.coinbase.bytes))

  // Gas limit and fees.
  // Both read once for the transaction, at admission (see \`intrinsic.ts\`).
  const { intrinsic: intrinsicGas, floor: floorCost } = transactionFixedCosts(tx, caller)
  evm.eip7928CallPostTargetOog = false
  const minGasLimit = intrinsicGas > floorCost ? intrinsicGas : floorCost
  if (tx.gasLimit < minGasLimit) {
    throw EthereumJSErrorWithoutCode(errorMsg(`INTRINSIC_GAS_TOO_LOW: tx gas limit ${Number(tx.gasLimit)} is lower than the minimum gas limit of ${Number(minGasLimit)}`, vm, block, tx))
  }
  const gasLimit = tx.gasLimit - intrinsicGas
  const baseFee = header.baseFeePerGas!
  const feeMarket = tx.supports(Capability.EIP1559FeeMarket)
  const maxFeePerGas = feeMarket ? (tx as FeeMarket1559Tx).maxFeePerGas : (tx as LegacyTx).gasPrice
  if (maxFeePerGas < baseFee) {
    const field = feeMarket ? 'maxFeePerGas' : 'gasPrice'
    throw EthereumJSErrorWithoutCode(errorMsg(`Transaction's ${field} (${maxFeePerGas}) is less than the block's baseFeePerGas (${baseFee})`, vm, block, tx))
  }

  // The sender: an EOA (EIP-3607) that can pay, with the transaction's nonce.
  let fromAccount = (await state.getAccount(caller)) ?? new Account()
  const { nonce, balance } = fromAccount
  if (!equalsBytes(fromAccount.codeHash, KECCAK256_NULL)) {
    const delegated = common.isActivatedEIP(7702) && equalsBytes((await state.getCode(caller)).slice(0, 3), DELEGATION_7702_FLAG)
    if (!delegated) throw EthereumJSErrorWithoutCode(errorMsg('invalid sender address, address is not EOA (EIP-3607)', vm, block, tx))
  }
  const upFrontCost = tx.getUpfrontCost(baseFee)
  if (balance < upFrontCost) {
    throw EthereumJSErrorWithoutCode(errorMsg(`sender doesn't have enough funds to send tx. The upfront cost is: ${upFrontCost} and the sender's account (${caller}) only has: ${balance}`, vm, block, tx))
  }
  const maxCost = feeMarket ? tx.value + tx.gasLimit * maxFeePerGas : tx.value
  if (balance < maxCost) {
    throw EthereumJSErrorWithoutCode(errorMsg(`sender doesn't have enough funds to send tx. The max cost is: ${maxCost} and the sender's account (${caller}) only has: ${balance}`, vm, block, tx))
  }
  if (nonce !== tx.nonce) {
    throw EthereumJSErrorWithoutCode(errorMsg(`the tx doesn't have the correct nonce. account has nonce of: ${nonce} tx has nonce of: ${tx.nonce}`, vm, block, tx))
  }
  const inclusionFeePerGas = feeMarket ? (tx as FeeMarket1559Tx).getEffectivePriorityFee(baseFee) : (tx as LegacyTx).gasPrice - baseFee
  const gasPrice = feeMarket ? inclusionFeePerGas + baseFee : (tx as LegacyTx).gasPrice

  // The gas paid up front and the nonce bump: ethereumjs writes the sender twice, once is the same.
  const txCost = tx.gasLimit * gasPrice
  fromAccount.balance -= txCost
  fromAccount.nonce += 1n
  await journal.putAccount(caller, fromAccount)

  const results = (await evm.runCall({
    block,
    gasPrice,
    caller,
    gasLimit,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    blobVersionedHashes: undefined,
    accessWitness: undefined,
    skipNonceIncrement: true,
  } as unknown as Parameters<EVM['runCall']>[0])) as EVMResult & RunTxResult
  evm.eip7928CallPostTargetOog = false
  evm.createTxTargetAlive = false

  // Gas used, the refund (capped, EIP-3529) and the calldata floor (EIP-7623).
  const { execResult } = results
  const totalGasSpentBeforeRefund = execResult.executionGasUsed + intrinsicGas
  let totalGasSpent = totalGasSpentBeforeRefund
  let gasRefund = execResult.gasRefund ?? 0n
  results.gasRefund = gasRefund
  if (gasRefund !== 0n) {
    const maxRefund = totalGasSpent / common.param('maxRefundQuotient')
    gasRefund = gasRefund < maxRefund ? gasRefund : maxRefund
    totalGasSpent -= gasRefund
  }
  if (common.isActivatedEIP(7623) && totalGasSpent < floorCost) {
    results.gasRefund = 0n
    totalGasSpent = floorCost
  }
  results.totalGasSpent = totalGasSpent
  const blockFloor = totalGasSpentBeforeRefund > floorCost ? totalGasSpentBeforeRefund : floorCost
  results.blockGasSpent = common.isActivatedEIP(7778) ? blockFloor : totalGasSpent
  results.amountSpent = totalGasSpent * gasPrice

  // The unused gas back to the sender (read again: the EVM moved its balance), the fee to the coinbase.
  fromAccount = (await state.getAccount(caller)) ?? new Account()
  fromAccount.balance += txCost - results.amountSpent
  await journal.putAccount(caller, fromAccount)
  const miner = header.coinbase
  const minerAccount = (await state.getAccount(miner)) ?? new Account()
  results.minerValue = totalGasSpent * inclusionFeePerGas
  minerAccount.balance += results.minerValue
  // A miner left at zero is touched, and removed by the cleanup below (EIP-161).
  await journal.putAccount(miner, minerAccount)

  await removeSelfdestructed(vm, execResult)
  results.bloom = logsBloom(execResult.logs, common)
  await cleanup(journal, state)
  state.originalStorageCache.clear()

  const cumulativeBlockGasUsed = (blockGasUsed ?? header.gasUsed) + totalGasSpent
  results.receipt = { status: execResult.exceptionError !== undefined ? 0 : 1, cumulativeBlockGasUsed, bitvector: results.bloom.bitvector, logs: execResult.logs ?? [] }
  if (vm.events.listenerCount('afterTx') > 0) await vm._emit('afterTx', Object.assign({ transaction: tx }, results))
  return results
}

/**
 * `Journal.cleanup`: each touched account left empty is removed (EIP-161, on from Spurious
 * Dragon), then the journal is cleared. On the ring state manager, the account records are read
 * by their key, which is the journal's: ethereumjs makes an `Address` from hex and an `Account`
 * for each touched account only to ask whether it is empty.
 */
async function cleanup(journal: JournalInternals, state: VM['stateManager']): Promise<void> {
  if (!(state instanceof RingStateManager)) return journal.cleanup()
  for (const key of journal.touched) {
    const loading = state.load(key)
    if (loading !== undefined) await loading
    const record = state.accountRecord(key)
    if (record === undefined || (record.balance === 0n && record.nonce === 0n && equalsBytes(record.codeHash, KECCAK256_NULL))) {
      await journal.deleteAccount(new Address(hexToBytes(`0x${key}`)))
    }
  }
  journal.cleanJournal()
  delete journal.accessList
  delete journal.preimages
}

/** ethereumjs's `processSelfdestructs` without EIP-7708's burn logs and EIP-8246 (both off here). */
async function removeSelfdestructed(vm: VMInternals, execResult: EVMResult['execResult']): Promise<void> {
  const selfdestruct = execResult.selfdestruct
  if (selfdestruct === undefined || selfdestruct.size === 0) return
  const sorted = [...selfdestruct.keys()].sort((a, b) => a.localeCompare(b))
  for (const hex of sorted) {
    const address = new Address(hexToBytes(hex as `0x${string}`))
    // EIP-6780: Only delete contracts created in the same transaction
    if (vm.common.isActivatedEIP(6780) && !execResult.createdAddresses!.has(address.toString())) continue
    await vm.evm.journal.deleteAccount(address)
  }
}

/** ethereumjs's `txLogsBloom`: each log's address and topics. */
function logsBloom(logs: EVMResult['execResult']['logs'], common: VM['common']): Bloom {
  const bloom = new Bloom(undefined, common)
  if (logs !== undefined) {
    for (const [address, topics] of logs) {
      bloom.add(address)
      for (const topic of topics) bloom.add(topic)
    }
  }
  return bloom
}

/** ethereumjs's `_errorMsg`: the message annotated with the VM, the block and the transaction. */
function errorMsg(msg: string, vm: VMInternals, block: Block, tx: TypedTransaction): string {
  return `${msg} (${vm.errorStr()} -> ${block.errorStr()} -> ${tx.errorStr()})`
}
