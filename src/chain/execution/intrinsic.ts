/**
 * The gas a call pays before any code runs (intrinsic gas) and the EIP-7623 calldata floor,
 * computed from the call's fields as ethereumjs computes them for a transaction, without
 * building one.
 *
 * Owns: the fee schedule of a transaction's fixed costs up to Osaka. The experimental forks that
 * reprice them (EIP-2780, 7976, 7981, 8037) are left to ethereumjs: `needsTransaction` says when.
 */
import type { Common } from '@ethereumjs/common'
import { getCalldataFloorGas, getMinimumGasLimit, type TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'
import type { CallParams } from './params.js'

/** EIPs whose repricing of fixed costs only ethereumjs's transaction classes know. */
const REPRICING_EIPS = [2780, 7976, 7981, 8037] as const

/** Whether the fork reprices a transaction's fixed costs beyond what `intrinsicGas` computes. */
export function needsTransaction(common: Common): boolean {
  const eips = (common as unknown as CommonCaches)._activatedEIPsCache
  let repriced = repricedByEips.get(eips)
  if (repriced === undefined) repricedByEips.set(eips, (repriced = REPRICING_EIPS.some((eip) => eips.includes(eip))))
  return repriced
}

/** Per list of activated EIPs (a new array on every hardfork or EIP change): whether one of `REPRICING_EIPS` is on. */
const repricedByEips = new WeakMap<readonly number[], boolean>()

/** The intrinsic gas of `call` as a transaction (base, calldata, creation, access list, authorizations). */
export function intrinsicGas(call: CallParams, common: Common): bigint {
  return fixedCostsOfCall(call, common, zeroBytes(call.data))
}

/** `intrinsicGas` and `calldataFloorGas` of `call`, its calldata read once for both. */
export function callFixedCosts(call: CallParams, common: Common): { readonly intrinsic: bigint; readonly floor: bigint } {
  const zeros = zeroBytes(call.data)
  return { intrinsic: fixedCostsOfCall(call, common, zeros), floor: floorOf(call.data, zeros, common) }
}

function fixedCostsOfCall(call: CallParams, common: Common, zeros: number): bigint {
  let keys = 0
  for (const entry of call.accessList ?? []) keys += entry.storageKeys.length
  return fixedCosts(common, call.data, zeros, call.to === undefined, call.accessList?.length ?? 0, keys, call.authorizationList?.length)
}

/**
 * The least gas limit a pool takes for `tx`, as ethereumjs's `getMinimumGasLimit` computes it
 * (its intrinsic gas, or EIP-7623's calldata floor when higher).
 */
export function minimumGasLimit(tx: TypedTransaction, sender: Address): bigint {
  if (needsTransaction(tx.common)) return getMinimumGasLimit(tx, sender)
  const { intrinsic, floor } = transactionFixedCosts(tx, sender)
  return floor > intrinsic ? floor : intrinsic
}

/** A transaction's intrinsic gas and EIP-7623 calldata floor (0 before Prague). */
export interface TransactionFixedCosts {
  readonly intrinsic: bigint
  readonly floor: bigint
}

/** Per frozen transaction: its fixed costs, and the fork's prices they were worked out at. */
const costsByTx = new WeakMap<TypedTransaction, { readonly prices: FixedCostPrices; readonly costs: TransactionFixedCosts }>()

/**
 * `tx.getIntrinsicGas()` and ethereumjs's `getCalldataFloorGas(tx)`, its calldata read once for
 * both, and kept for a frozen transaction (its fields cannot change): admission and the run that
 * mines it ask for the same. Why: ethereumjs reads the calldata byte by byte for each, and counts
 * the floor's tokens in a bigint per byte.
 */
export function transactionFixedCosts(tx: TypedTransaction, sender: Address): TransactionFixedCosts {
  const common = tx.common
  if (needsTransaction(common)) return { intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx, sender) }
  const prices = pricesOf(common)
  const known = costsByTx.get(tx)
  if (known !== undefined && known.prices === prices) return known.costs
  let addresses = 0
  let keys = 0
  if ('accessList' in tx) {
    addresses = tx.accessList.length
    for (const entry of tx.accessList) keys += entry[1].length
  }
  const authorizations = 'authorizationList' in tx ? tx.authorizationList.length : undefined
  const zeros = zeroBytes(tx.data)
  const costs = { intrinsic: fixedCosts(common, tx.data, zeros, tx.to === undefined, addresses, keys, authorizations), floor: floorOf(tx.data, zeros, common) }
  if (Object.isFrozen(tx)) costsByTx.set(tx, { prices, costs })
  return costs
}

/** Base, calldata, creation, access list and authorization costs, per the fork's parameters. */
function fixedCosts(common: Common, data: Uint8Array | undefined, zeros: number, creation: boolean, addresses: number, keys: number, authorizations: number | undefined): bigint {
  const prices = pricesOf(common)
  let gas = prices.base
  if (data !== undefined && data.length > 0) gas += BigInt(zeros) * prices.zeroByte + BigInt(data.length - zeros) * prices.nonZeroByte
  if (creation) gas += prices.creation + prices.initCodeWord * BigInt(Math.ceil((data?.length ?? 0) / 32))
  if (addresses > 0) gas += BigInt(addresses) * prices.accessListAddress + BigInt(keys) * prices.accessListKey
  if (authorizations !== undefined) gas += BigInt(authorizations) * prices.authorization
  return gas
}

/**
 * The fork's prices of a transaction's fixed costs, 0 for what the fork does not charge (creation
 * before Homestead, init code words before EIP-3860, lists before EIP-2930 and EIP-7702), and
 * EIP-7623's floor (undefined before it).
 */
interface FixedCostPrices {
  readonly base: bigint
  readonly zeroByte: bigint
  readonly nonZeroByte: bigint
  readonly creation: bigint
  readonly initCodeWord: bigint
  readonly accessListAddress: bigint
  readonly accessListKey: bigint
  readonly authorization: bigint
  readonly floor: { readonly base: bigint; readonly perToken: bigint } | undefined
}

/** Common's parameters and activated EIPs: rebuilt (new objects) on every hardfork, EIP or parameter change. */
interface CommonCaches {
  readonly _paramsCache: object
  readonly _activatedEIPsCache: readonly number[]
}

/** Prices per parameter set of a Common (a copy shares its original's until either changes fork). */
const pricesByParams = new WeakMap<object, { readonly eips: readonly number[]; readonly prices: FixedCostPrices }>()

/**
 * The prices of `common`'s fork, read once per set of its parameters. Why: each `common.param` looks
 * a name up among some 200 and converts the value to a bigint, and `gteHardfork` scans the
 * hardforks: done for every call, estimate and admitted transaction, cold in a suite's first tests.
 */
function pricesOf(common: Common): FixedCostPrices {
  const caches = common as unknown as CommonCaches
  const known = pricesByParams.get(caches._paramsCache)
  if (known !== undefined && known.eips === caches._activatedEIPsCache) return known.prices
  const prices: FixedCostPrices = {
    base: common.param('txGas'),
    zeroByte: common.param('txDataZeroGas'),
    nonZeroByte: common.param('txDataNonZeroGas'),
    creation: common.gteHardfork('homestead') ? common.param('txCreationGas') : 0n,
    initCodeWord: common.isActivatedEIP(3860) ? common.param('initCodeWordGas') : 0n,
    accessListAddress: common.isActivatedEIP(2930) ? common.param('accessListAddressGas') : 0n,
    accessListKey: common.isActivatedEIP(2930) ? common.param('accessListStorageKeyGas') : 0n,
    authorization: common.isActivatedEIP(7702) ? common.param('perEmptyAccountCost') : 0n,
    floor: common.isActivatedEIP(7623) ? { base: common.param('txGas'), perToken: common.param('totalCostFloorPerToken') } : undefined,
  }
  pricesByParams.set(caches._paramsCache, { eips: caches._activatedEIPsCache, prices })
  return prices
}

/** EIP-7623's floor on the gas a transaction with this calldata uses (0 before Prague). */
export function calldataFloorGas(call: CallParams, common: Common): bigint {
  return floorOf(call.data, zeroBytes(call.data), common)
}

/** EIP-7623's floor for calldata with `zeros` zero bytes: a token per zero byte, four per other byte. */
function floorOf(data: Uint8Array | undefined, zeros: number, common: Common): bigint {
  const floor = pricesOf(common).floor
  if (floor === undefined) return 0n
  const tokens = zeros + 4 * ((data?.length ?? 0) - zeros)
  return floor.base + floor.perToken * BigInt(tokens)
}

/**
 * The zero bytes of some calldata, counted in a number (a bigint sum per byte of a deployment's
 * code costs tens of microseconds), once for both the intrinsic gas and the floor.
 */
function zeroBytes(data: Uint8Array | undefined): number {
  let zeros = 0
  if (data !== undefined) for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  return zeros
}
