/**
 * The gas a call pays before any code runs (intrinsic gas) and the EIP-7623 calldata floor,
 * computed from the call's fields as ethereumjs computes them for a transaction, without
 * building one.
 *
 * Owns: the fee schedule of a transaction's fixed costs up to Osaka. The experimental forks that
 * reprice them (EIP-2780, 7976, 7981, 8037) are left to ethereumjs: `needsTransaction` says when.
 */
import type { Common } from '@ethereumjs/common'
import { getMinimumGasLimit, type TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'
import type { CallParams } from './params.js'

/** EIPs whose repricing of fixed costs only ethereumjs's transaction classes know. */
const REPRICING_EIPS = [2780, 7976, 7981, 8037] as const

/** Whether the fork reprices a transaction's fixed costs beyond what `intrinsicGas` computes. */
export function needsTransaction(common: Common): boolean {
  return REPRICING_EIPS.some((eip) => common.isActivatedEIP(eip))
}

/** The intrinsic gas of `call` as a transaction (base, calldata, creation, access list, authorizations). */
export function intrinsicGas(call: CallParams, common: Common): bigint {
  let keys = 0
  for (const entry of call.accessList ?? []) keys += entry.storageKeys.length
  return fixedCosts(common, call.data, call.to === undefined, call.accessList?.length ?? 0, keys, call.authorizationList?.length)
}

/**
 * The least gas limit a pool takes for `tx`, as ethereumjs's `getMinimumGasLimit` computes it
 * (its intrinsic gas, or EIP-7623's calldata floor when higher), on forks `intrinsicGas` covers.
 * Why: ethereumjs counts the floor's tokens in a bigint per byte of calldata.
 */
export function minimumGasLimit(tx: TypedTransaction, sender: Address): bigint {
  const common = tx.common
  if (needsTransaction(common)) return getMinimumGasLimit(tx, sender)
  let addresses = 0
  let keys = 0
  if ('accessList' in tx) {
    addresses = tx.accessList.length
    for (const entry of tx.accessList) keys += entry[1].length
  }
  const authorizations = 'authorizationList' in tx ? tx.authorizationList.length : undefined
  const intrinsic = fixedCosts(common, tx.data, tx.to === undefined, addresses, keys, authorizations)
  const floor = floorOf(tx.data, common)
  return floor > intrinsic ? floor : intrinsic
}

/** Base, calldata, creation, access list and authorization costs, per the fork's parameters. */
function fixedCosts(common: Common, data: Uint8Array | undefined, creation: boolean, addresses: number, keys: number, authorizations: number | undefined): bigint {
  let gas = common.param('txGas')
  if (data !== undefined && data.length > 0) {
    let zeros = 0
    for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
    gas += BigInt(zeros) * common.param('txDataZeroGas') + BigInt(data.length - zeros) * common.param('txDataNonZeroGas')
  }
  if (creation) {
    if (common.gteHardfork('homestead')) gas += common.param('txCreationGas')
    if (common.isActivatedEIP(3860)) gas += common.param('initCodeWordGas') * BigInt(Math.ceil((data?.length ?? 0) / 32))
  }
  if (common.isActivatedEIP(2930) && addresses > 0) {
    gas += BigInt(addresses) * common.param('accessListAddressGas') + BigInt(keys) * common.param('accessListStorageKeyGas')
  }
  if (common.isActivatedEIP(7702) && authorizations !== undefined) gas += BigInt(authorizations) * common.param('perEmptyAccountCost')
  return gas
}

/** EIP-7623's floor on the gas a transaction with this calldata uses (0 before Prague). */
export function calldataFloorGas(call: CallParams, common: Common): bigint {
  return floorOf(call.data, common)
}

function floorOf(data: Uint8Array | undefined, common: Common): bigint {
  if (!common.isActivatedEIP(7623)) return 0n
  // Counted in a number: a bigint sum per byte of a deployment's code costs tens of microseconds.
  let tokens = 0
  if (data !== undefined) for (let i = 0; i < data.length; i++) tokens += data[i] === 0 ? 1 : 4
  return common.param('txGas') + common.param('totalCostFloorPerToken') * BigInt(tokens)
}
