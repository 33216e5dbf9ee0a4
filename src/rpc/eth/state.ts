/**
 * State reads at a block: `eth_getStorageAt`, `eth_getBalance`, `eth_getCode`,
 * `eth_getTransactionCount`, and the proven and bulk reads of `proof.ts` (`eth_getProof`,
 * `eth_getStorageValues`).
 *
 * Owns: which state a block param means (pending is built first, the rest is at once). Leaves
 * the state history to `src/chain/`.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Chain } from '../../chain/chain.js'
import { keyOf } from '../../chain/encoding.js'
import type { StateReader } from '../../chain/state.js'
import { andThen, type ChainFor } from '../context.js'
import { RawJson, defineMethod, type Registry } from '../dispatcher.js'
import { toData, toPaddedData, toQuantity } from '../hex.js'
import { LATEST, blockParam, type BlockParam } from '../params/block.js'
import { optional } from '../params/decode.js'
import { address, storageSlot } from '../params/values.js'
import { getProofMethod, getStorageValuesMethod } from './proof.js'

/** The state as of a block: at once, but for the pending block, which may have to be built first. */
function stateFor(chain: Chain, block: BlockParam): StateReader | Promise<StateReader> {
  if (block.kind === 'tag' && block.tag === 'pending') return chain.stateAt(block)
  return chain.stateAtBlock(chain.resolveBlock(block))
}

/** The state-read methods over `chainFor`. */
export function stateMethods(chainFor: ChainFor) {
  return {
    // Synchronous unless the chain or the pending state must be waited for (see `andThen`).
    eth_getStorageAt: defineMethod([address, storageSlot, optional(blockParam, LATEST)], ([owner, slot, block], ctx) =>
      andThen(chainFor(ctx), (chain) =>
        andThen(stateFor(chain, block), (state) =>
          // The decoder gives a 32-byte slot; stored values have no leading zeros. Hex needs no
          // escaping: the answer is its JSON already, which spares the dispatcher a scan.
          new RawJson('"' + toPaddedData(state.storage(keyOf(owner), keyOf(slot)), 32) + '"'),
        ),
      ),
    ),
    eth_getStorageValues: getStorageValuesMethod(chainFor),
    eth_getProof: getProofMethod(chainFor),

    eth_getBalance: defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
      const state = await (await chainFor(ctx)).stateAt(block)
      return toQuantity(state.account(bytesToUnprefixedHex(a))?.balance ?? 0n)
    }),

    eth_getCode: defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
      const state = await (await chainFor(ctx)).stateAt(block)
      const account = state.account(bytesToUnprefixedHex(a))
      return toData(account === undefined ? new Uint8Array(0) : (state.code(bytesToUnprefixedHex(account.codeHash)) ?? new Uint8Array(0)))
    }),

    eth_getTransactionCount: defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
      const chain = await chainFor(ctx)
      if (block.kind === 'tag' && block.tag === 'pending') return toQuantity(chain.pendingNonce(a))
      const state = await chain.stateAt(block)
      return toQuantity(state.account(bytesToUnprefixedHex(a))?.nonce ?? 0n)
    }),
  } satisfies Registry
}
