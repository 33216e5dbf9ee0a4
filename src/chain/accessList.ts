/**
 * Access-list generation (`eth_createAccessList`), as geth's `AccessList` does it: run the call as
 * a transaction carrying the list found so far, record what it touches with geth's access-list
 * tracer rules, and run again with the larger list until a run adds nothing.
 *
 * Owns: geth's defaults for the call (fees, nonce, gas), the tracer (which opcodes add which
 * addresses and slots, which addresses are left out), the fixed-point loop, and the gas the last
 * run used with its list paid for.
 * Leaves to others: which state and block the call sees (`chain.ts` hands them in), each run
 * (`execution/executor.ts`), wire shapes (`src/rpc/`).
 */
import type { Common } from '@ethereumjs/common'
import { getActivePrecompiles } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import { TransactionType, createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import {
  Address,
  bigIntToHex,
  bigIntToUnpaddedBytes,
  bytesToHex,
  toChecksumAddress,
  bytesToUnprefixedHex,
  eoaCode7702RecoverAuthority,
  setLengthLeft,
  unprefixedHexToBytes,
} from '@ethereumjs/util'
import type { RunTxResult } from '@ethereumjs/vm'
import { ExecutionFailedError, InsufficientFundsError } from './errors.js'
import { createdAddress } from './execution/createdAddress.js'
import type { CallExecutor, CallView } from './execution/executor.js'
import type { AccessListEntry, AuthorizationEntry, CallParams } from './execution/params.js'

/** The call to build an access list for: a call's parameters and its nonce (geth's TransactionArgs, as far as a call uses them). */
export interface AccessListCall extends CallParams {
  nonce?: bigint
  /** A list to start from (it only grows). */
  accessList?: readonly AccessListEntry[]
  authorizationList?: readonly AuthorizationEntry[]
}

/** The list, the gas the call uses with it, and the call's failure (geth's text) if it failed. */
export interface AccessListResult {
  readonly accessList: readonly AccessListEntry[]
  readonly gasUsed: bigint
  readonly error: string | undefined
}

/** What the chain hands in: the state and block the call runs on, and its call defaults. */
export interface AccessListContext {
  readonly common: Common
  /** The block and state the call runs on; its gas cap is the gas of a call that names none. */
  readonly view: CallView
  readonly executor: CallExecutor
  readonly keccak: (data: Uint8Array) => Uint8Array
  /** The tip `eth_maxPriorityFeePerGas` suggests, and the price `eth_gasPrice` suggests before London. */
  readonly suggestedTip: bigint
  readonly suggestedGasPrice: bigint
}

// geth's TxGas-independent constants.
const CALL_NEW_ACCOUNT_GAS = 25_000n
const MAX_UINT64 = (1n << 64n) - 1n
const FLOOR_COST_PER_TOKEN = 10n
const TX_GAS = 21_000n
/** EIP-7825's cap on a transaction's gas. */
const MAX_TX_GAS = 1n << 24n

type Pricing =
  | { readonly kind: 'legacy'; readonly gasPrice: bigint }
  | { readonly kind: 'market'; readonly maxFeePerGas: bigint; readonly maxPriorityFeePerGas: bigint }

/**
 * Builds the access list of `call` on the state and block of `context`, as geth's
 * `eth_createAccessList`: sender, recipient (or the address a creation would get), precompiles and
 * EIP-7702 authorities are left out of the list unless one of their slots is touched.
 */
export async function createAccessList(call: AccessListCall, context: AccessListContext): Promise<AccessListResult> {
  const { common } = context
  const from = call.from ?? new Uint8Array(20)
  const pricing = feeDefaults(call, context)
  const nonce = call.nonce ?? context.view.state.account(bytesToUnprefixedHex(from))?.nonce ?? 0n
  let gas = call.gas ?? context.view.gasCap
  // ethereumjs will not build a transaction above the EIP-7825 cap (geth runs calls past it).
  if (common.isActivatedEIP(7825) && gas > MAX_TX_GAS) gas = MAX_TX_GAS
  const to = call.to ?? createdAddress(from, nonce, context.keccak)

  const excluded = new Set<string>([bytesToUnprefixedHex(from), bytesToUnprefixedHex(to), ...getActivePrecompiles(common).keys()])
  const authorizations = call.authorizationList ?? []
  if (BigInt(authorizations.length) > gas / CALL_NEW_ACCOUNT_GAS) {
    throw new ExecutionFailedError('insufficient gas to process all authorizations')
  }
  for (const auth of authorizations) {
    if ((auth.chainId !== 0n && auth.chainId !== common.chainId()) || auth.nonce === MAX_UINT64) continue
    try {
      excluded.add(bytesToUnprefixedHex(eoaCode7702RecoverAuthority(authorizationJson(auth)).bytes))
    } catch {
      // An authorization that does not recover is skipped when the transaction runs, too.
    }
  }

  let previous = new AccessListTracer(call.accessList ?? [], excluded)
  for (;;) {
    const list = previous.list()
    const tracer = new AccessListTracer(list, excluded)
    const result = await runWithList(call, { from, nonce, gas, pricing, list }, tracer, context)
    if (tracer.equals(previous)) {
      const failure = result.execResult.exceptionError
      return { accessList: list, gasUsed: result.totalGasSpent, error: failure === undefined ? undefined : vmErrorText(failure.error) }
    }
    previous = tracer
  }
}

/** geth's setFeeDefaults: what the call pays per gas. Its errors are geth's (-32000). */
function feeDefaults(call: AccessListCall, context: AccessListContext): Pricing {
  const { gasPrice, maxFeePerGas, maxPriorityFeePerGas } = call
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined)) {
    throw new ExecutionFailedError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  const baseFee = context.view.header.baseFeePerGas
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
    if (maxFeePerGas < maxPriorityFeePerGas) throw new ExecutionFailedError(`maxFeePerGas (${maxFeePerGas}) < maxPriorityFeePerGas (${maxPriorityFeePerGas})`)
    return { kind: 'market', maxFeePerGas, maxPriorityFeePerGas }
  }
  if (gasPrice !== undefined) {
    if (gasPrice === 0n && baseFee !== undefined) throw new ExecutionFailedError('gasPrice must be non-zero after london fork')
    return { kind: 'legacy', gasPrice }
  }
  if (baseFee === undefined) {
    if (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined) throw new ExecutionFailedError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active')
    return { kind: 'legacy', gasPrice: context.suggestedGasPrice }
  }
  const tip = maxPriorityFeePerGas ?? context.suggestedTip
  const cap = maxFeePerGas ?? tip + 2n * baseFee
  if (cap < tip) throw new ExecutionFailedError(`maxFeePerGas (${cap}) < maxPriorityFeePerGas (${tip})`)
  return { kind: 'market', maxFeePerGas: cap, maxPriorityFeePerGas: tip }
}

interface Prepared {
  readonly from: Uint8Array
  readonly nonce: bigint
  readonly gas: bigint
  readonly pricing: Pricing
  readonly list: readonly AccessListEntry[]
}

/** One run of the call as a transaction carrying `list`, with `tracer` recording what it touches. */
async function runWithList(call: AccessListCall, prepared: Prepared, tracer: AccessListTracer, context: AccessListContext): Promise<RunTxResult> {
  const { common } = context
  const header = context.view.header
  const tx = buildTransaction(call, prepared, common)
  checkGas(tx, prepared, call, context)

  // geth runs with NoBaseFee: a call paying nothing sees a base fee of 0, and a fee cap below the
  // base fee is not refused (ethereumjs would refuse it, so the block's base fee is lowered to the cap).
  let baseFee = header.baseFeePerGas
  if (baseFee !== undefined) {
    const cap = prepared.pricing.kind === 'legacy' ? prepared.pricing.gasPrice : prepared.pricing.maxFeePerGas
    const price = prepared.pricing.kind === 'legacy' ? cap : min(prepared.pricing.maxPriorityFeePerGas + baseFee, cap)
    if (price === 0n) baseFee = 0n
    else if (cap < baseFee) baseFee = cap
  }
  try {
    checkBalance(call, prepared, context)
    return await context.executor.runTransaction(tx, context.view, baseFee, (opcode, stack, address) => tracer.onStep(opcode, stack, address))
  } catch (cause) {
    throw new ExecutionFailedError(`failed to apply transaction: ${legacyHash(call, prepared, context.keccak)} err: ${(cause as Error).message}`, { cause })
  }
}

/** geth's `buyGas`, which its access-list runs go through: the balance must cover the gas at the fee cap, plus the value. */
function checkBalance(call: AccessListCall, prepared: Prepared, context: AccessListContext): void {
  const feeCap = prepared.pricing.kind === 'legacy' ? prepared.pricing.gasPrice : prepared.pricing.maxFeePerGas
  const have = context.view.state.account(bytesToUnprefixedHex(prepared.from))?.balance ?? 0n
  const want = prepared.gas * feeCap + (call.value ?? 0n)
  if (have < want) throw new InsufficientFundsError(toChecksumAddress(bytesToHex(prepared.from)), have, want)
}

/**
 * The transaction geth's message amounts to, carrying the list: EIP-7702 with authorizations,
 * EIP-1559 for fee-market pricing, EIP-2930 for a gas price (legacy before Berlin, which has no lists).
 */
function buildTransaction(call: AccessListCall, prepared: Prepared, common: Common): TypedTransaction {
  const { pricing } = prepared
  const accessList = prepared.list.map((entry) => ({ address: bytesToHex(entry.address), storageKeys: entry.storageKeys.map(bytesToHex) }))
  const base = {
    nonce: prepared.nonce,
    gasLimit: prepared.gas,
    value: call.value ?? 0n,
    data: call.data ?? new Uint8Array(0),
    ...(call.to === undefined ? {} : { to: call.to }),
  }
  const market =
    pricing.kind === 'market'
      ? { maxFeePerGas: pricing.maxFeePerGas, maxPriorityFeePerGas: pricing.maxPriorityFeePerGas }
      : { maxFeePerGas: pricing.gasPrice, maxPriorityFeePerGas: pricing.gasPrice }
  let data: TypedTxData
  if (call.authorizationList !== undefined && common.isActivatedEIP(7702)) {
    data = { ...base, ...market, type: TransactionType.EOACodeEIP7702, chainId: common.chainId(), accessList, authorizationList: call.authorizationList.map(authorizationJson) } as TypedTxData
  } else if (pricing.kind === 'market') {
    data = { ...base, ...market, type: TransactionType.FeeMarketEIP1559, chainId: common.chainId(), accessList } as TypedTxData
  } else if (common.isActivatedEIP(2930)) {
    data = { ...base, gasPrice: pricing.gasPrice, type: TransactionType.AccessListEIP2930, chainId: common.chainId(), accessList } as TypedTxData
  } else {
    data = { ...base, gasPrice: pricing.gasPrice, type: TransactionType.Legacy } as TypedTxData
  }
  // Unsigned: the sender is the call's `from`, pinned here (not frozen, or it could not be).
  const tx = createTx(data, { common, freeze: false })
  const sender = new Address(prepared.from)
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender })
  return tx
}

/** geth's intrinsic-gas and calldata-floor checks, in its words. */
function checkGas(tx: TypedTransaction, prepared: Prepared, call: AccessListCall, context: AccessListContext): void {
  const { common } = context
  const intrinsic = tx.getIntrinsicGas()
  const fail = (reason: string) => new ExecutionFailedError(`failed to apply transaction: ${legacyHash(call, prepared, context.keccak)} err: ${reason}`)
  if (prepared.gas < intrinsic) throw fail(`intrinsic gas too low: have ${prepared.gas}, want ${intrinsic}`)
  if (common.isActivatedEIP(7623)) {
    let tokens = 0n
    for (const byte of tx.data) tokens += byte === 0 ? 1n : 4n
    const floor = TX_GAS + tokens * FLOOR_COST_PER_TOKEN
    if (prepared.gas < floor) throw fail(`insufficient gas for floor data gas cost: have ${prepared.gas}, want ${floor}`)
  }
}

/** The hash geth names a failed call by: its legacy transaction, unsigned. */
function legacyHash(call: AccessListCall, prepared: Prepared, keccak: (data: Uint8Array) => Uint8Array): string {
  const gasPrice = call.gasPrice ?? 0n
  const fields = [
    bigIntToUnpaddedBytes(prepared.nonce),
    bigIntToUnpaddedBytes(gasPrice),
    bigIntToUnpaddedBytes(prepared.gas),
    call.to ?? new Uint8Array(0),
    bigIntToUnpaddedBytes(call.value ?? 0n),
    call.data ?? new Uint8Array(0),
    new Uint8Array(0),
    new Uint8Array(0),
    new Uint8Array(0),
  ]
  return bytesToHex(keccak(RLP.encode(fields)))
}

function authorizationJson(auth: AuthorizationEntry) {
  return {
    chainId: bigIntToHex(auth.chainId),
    address: bytesToHex(auth.address),
    nonce: bigIntToHex(auth.nonce),
    yParity: bigIntToHex(auth.yParity),
    r: bigIntToHex(auth.r),
    s: bigIntToHex(auth.s),
  }
}

/** geth's wording of the EVM errors a call can end with (vm/errors.go); others keep ethereumjs's. */
const VM_ERRORS: Readonly<Record<string, string>> = {
  revert: 'execution reverted',
  'out of gas': 'out of gas',
  'invalid JUMP': 'invalid jump destination',
  'static state change': 'write protection',
  'code store out of gas': 'contract creation code storage out of gas',
  'max code size exceeded': 'max code size exceeded',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid input length': 'invalid input length',
  'refund exhausted': 'gas uint64 overflow',
}

function vmErrorText(error: string): string {
  return VM_ERRORS[error] ?? error
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

// Opcodes geth's access-list tracer looks at.
const SLOAD = 0x54
const SSTORE = 0x55
const ADDRESS_OPS = new Set([0x31 /* BALANCE */, 0x3b /* EXTCODESIZE */, 0x3c /* EXTCODECOPY */, 0x3f /* EXTCODEHASH */, 0xff /* SELFDESTRUCT */])
const CALL_OPS = new Set([0xf1 /* CALL */, 0xf2 /* CALLCODE */, 0xf4 /* DELEGATECALL */, 0xfa /* STATICCALL */])
const ADDRESS_MASK = (1n << 160n) - 1n

/**
 * geth's AccessListTracer: every slot SLOAD or SSTORE names (with its contract), and every address
 * BALANCE, EXTCODE*, SELFDESTRUCT or a CALL names, unless it is excluded. It sees an opcode before
 * it runs, so an access that then fails still counts, as in geth.
 */
class AccessListTracer {
  /** Address (unprefixed hex) → its slots (unprefixed hex). */
  readonly #entries = new Map<string, Set<string>>()
  readonly #excluded: ReadonlySet<string>

  constructor(start: readonly AccessListEntry[], excluded: ReadonlySet<string>) {
    this.#excluded = excluded
    for (const entry of start) {
      const address = bytesToUnprefixedHex(entry.address)
      if (!excluded.has(address)) this.#address(address)
      for (const key of entry.storageKeys) this.#slot(address, bytesToUnprefixedHex(setLengthLeft(key, 32)))
    }
  }

  onStep(opcode: number, stack: readonly bigint[], contract: Uint8Array): void {
    const top = stack.length - 1
    if ((opcode === SLOAD || opcode === SSTORE) && stack.length >= 1) {
      this.#slot(bytesToUnprefixedHex(contract), stack[top]!.toString(16).padStart(64, '0'))
    } else if (ADDRESS_OPS.has(opcode) && stack.length >= 1) {
      this.#named(stack[top]!)
    } else if (CALL_OPS.has(opcode) && stack.length >= 5) {
      this.#named(stack[top - 1]!)
    }
  }

  /** Same addresses with the same slots. */
  equals(other: AccessListTracer): boolean {
    if (this.#entries.size !== other.#entries.size) return false
    for (const [address, slots] of this.#entries) {
      const theirs = other.#entries.get(address)
      if (theirs === undefined || theirs.size !== slots.size) return false
      for (const slot of slots) if (!theirs.has(slot)) return false
    }
    return true
  }

  /** The list, addresses and their slots in ascending order (as geth sorts it). */
  list(): AccessListEntry[] {
    return [...this.#entries.keys()].sort().map((address) => ({
      address: unprefixedHexToBytes(address),
      storageKeys: [...this.#entries.get(address)!].sort().map(unprefixedHexToBytes),
    }))
  }

  #named(word: bigint): void {
    const address = (word & ADDRESS_MASK).toString(16).padStart(40, '0')
    if (!this.#excluded.has(address)) this.#address(address)
  }

  #address(address: string): Set<string> {
    let slots = this.#entries.get(address)
    if (slots === undefined) this.#entries.set(address, (slots = new Set()))
    return slots
  }

  #slot(address: string, slot: string): void {
    this.#address(address).add(slot)
  }
}
