/**
 * EIP-7702 authorizations applied before a call runs, in the order and with the checks a mined
 * transaction applies them (ethereumjs's runTx, EELS `set_delegation`): the sender's nonce is
 * bumped first, so an authorization the sender signs with nonce + 1 is valid; invalid ones are
 * skipped; an authority that already exists earns the empty-account refund.
 *
 * Owns: that prologue for calls and estimates. Leaves the intrinsic cost of each authorization to
 * `intrinsic.ts`, and the EIP-8037 state-gas rules of experimental forks to ethereumjs.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import {
  Account,
  SECP256K1_ORDER_DIV_2,
  bigIntToUnpaddedBytes,
  concatBytes,
  eoaCode7702RecoverAuthority,
  equalsBytes,
  type Address,
  type EOACode7702AuthorizationListBytesItem,
} from '@ethereumjs/util'
import type { AuthorizationEntry } from './params.js'

const DELEGATION_PREFIX = new Uint8Array([0xef, 0x01, 0x00])
const ZERO_ADDRESS = new Uint8Array(20)
const MAX_UINT64 = (1n << 64n) - 1n

/** The authorization as a transaction carries it (RLP items). */
export function authorizationItem(auth: AuthorizationEntry): EOACode7702AuthorizationListBytesItem {
  return [
    bigIntToUnpaddedBytes(auth.chainId),
    auth.address,
    bigIntToUnpaddedBytes(auth.nonce),
    bigIntToUnpaddedBytes(auth.yParity),
    bigIntToUnpaddedBytes(auth.r),
    bigIntToUnpaddedBytes(auth.s),
  ]
}

/**
 * Applies `list` to the state the EVM runs on, after the sender's nonce bump; returns the gas
 * refund the valid authorizations of existing authorities earn.
 */
export async function applyAuthorizations(evm: EVM, state: StateManagerInterface, list: readonly AuthorizationEntry[]): Promise<bigint> {
  const common = evm.common
  const refundPerExisting = common.param('perEmptyAccountCost') - common.param('perAuthBaseGas')
  let refund = 0n
  for (const auth of list) {
    if (auth.chainId !== 0n && auth.chainId !== common.chainId()) continue
    if (auth.nonce >= MAX_UINT64 || auth.s > SECP256K1_ORDER_DIV_2 || auth.yParity > 1n) continue
    let authority: Address
    try {
      authority = eoaCode7702RecoverAuthority(authorizationItem(auth))
    } catch {
      continue
    }
    const existing = await state.getAccount(authority)
    const account = existing ?? new Account()
    evm.journal.addAlwaysWarmAddress(authority.toString())
    if (account.isContract() && !equalsBytes((await state.getCode(authority)).subarray(0, 3), DELEGATION_PREFIX)) continue
    if (account.nonce !== auth.nonce) continue
    if (existing !== undefined) refund += refundPerExisting
    account.nonce++
    await evm.journal.putAccount(authority, account)
    await state.putCode(authority, equalsBytes(auth.address, ZERO_ADDRESS) ? new Uint8Array(0) : concatBytes(DELEGATION_PREFIX, auth.address))
  }
  return refund
}
