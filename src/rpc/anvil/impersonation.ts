/**
 * Impersonation: `anvil_impersonateAccount` / `anvil_stopImpersonatingAccount` (Hardhat's names
 * alias them), and the per-chain set of impersonated accounts that `eth_sendTransaction` consults.
 *
 * The set lives in a side table keyed by chain: the chain knows nothing of it, and a reset chain
 * starts with none.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Chain } from '../../chain/chain.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { address } from '../params/values.js'

/** Impersonated accounts per chain, as unprefixed lowercase hex. */
const impersonated = new WeakMap<Chain, Set<string>>()

function impersonatedOn(chain: Chain): Set<string> {
  let set = impersonated.get(chain)
  if (set === undefined) impersonated.set(chain, (set = new Set()))
  return set
}

/** Whether `account` may send unsigned transactions on `chain`. */
export function isImpersonated(chain: Chain, account: Uint8Array): boolean {
  return impersonated.get(chain)?.has(bytesToUnprefixedHex(account)) ?? false
}

/** The impersonation methods over `chainFor`, with their Hardhat aliases. */
export function impersonationMethods(chainFor: ChainFor) {
  const impersonate = defineMethod([address], async ([a], ctx) => {
    impersonatedOn(await chainFor(ctx)).add(bytesToUnprefixedHex(a))
    return null
  })
  const stopImpersonating = defineMethod([address], async ([a], ctx) => {
    impersonatedOn(await chainFor(ctx)).delete(bytesToUnprefixedHex(a))
    return null
  })
  return {
    anvil_impersonateAccount: impersonate,
    hardhat_impersonateAccount: impersonate,
    anvil_stopImpersonatingAccount: stopImpersonating,
    hardhat_stopImpersonatingAccount: stopImpersonating,
  } satisfies Registry
}
