/**
 * One account at a block in one request: `eth_getAccountInfo` (anvil's `{balance, nonce, code}`,
 * which forge's fork backend asks before separate reads) and geth's `eth_getAccount`
 * (`{codeHash, storageRoot, balance, nonce}`). Both take the block as a required second argument,
 * as anvil and geth do.
 *
 * Owns: their wire shapes. Leaves the state history to `src/chain/`.
 */
import { KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { blockParam } from '../params/block.js'
import { address } from '../params/values.js'

const EMPTY = new Uint8Array(0)

/** The one-account methods over `chainFor`. */
export function accountReadMethods(chainFor: ChainFor) {
  return {
    eth_getAccountInfo: defineMethod([address, blockParam], async ([a, block], ctx) => {
      const state = await (await chainFor(ctx)).stateAt(block)
      const account = state.account(bytesToUnprefixedHex(a))
      const code = account === undefined ? EMPTY : (state.code(bytesToUnprefixedHex(account.codeHash)) ?? EMPTY)
      return { balance: toQuantity(account?.balance ?? 0n), nonce: toQuantity(account?.nonce ?? 0n), code: toData(code) }
    }),
    // geth answers an absent account with the empty account's roots, never null.
    eth_getAccount: defineMethod([address, blockParam], async ([a, block], ctx) => {
      const state = await (await chainFor(ctx)).stateAt(block)
      const account = state.account(bytesToUnprefixedHex(a))
      return {
        codeHash: toData(account?.codeHash ?? KECCAK256_NULL),
        storageRoot: toData(account?.storageRoot ?? KECCAK256_RLP),
        balance: toQuantity(account?.balance ?? 0n),
        nonce: toQuantity(account?.nonce ?? 0n),
      }
    }),
  } satisfies Registry
}
