/**
 * Transaction reads: `eth_getTransactionByHash`, `eth_getTransactionReceipt`,
 * `eth_getTransactionByBlockHashAndIndex`, `eth_getTransactionByBlockNumberAndIndex`.
 *
 * Owns: pending versus included on the wire (a pending transaction has no receipt). Leaves the
 * index and the precomputed JSON to `src/chain/` and `format.ts`. Submission is `send.ts`.
 */
import { andThen, numberOf, type ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { includedTxJson, pendingTxJson, receiptJson } from '../format.js'
import { blockNumber } from '../params/block.js'
import { hash, index } from '../params/values.js'

/** The transaction-read methods over `chainFor`. */
export function transactionMethods(chainFor: ChainFor) {
  return {
    // The two hot lookups answer synchronously whenever the chain is at hand (see `andThen`).
    eth_getTransactionByHash: defineMethod([hash], ([h], ctx) =>
      andThen(chainFor(ctx), (chain) => {
        const found = chain.lookupTransaction(h)
        if (found === undefined) return null
        return found.status === 'included' ? includedTxJson(found.included) : pendingTxJson(found.pending)
      }),
    ),
    eth_getTransactionReceipt: defineMethod([hash], ([h], ctx) =>
      andThen(chainFor(ctx), (chain) => {
        const found = chain.lookupTransaction(h)
        return found?.status === 'included' ? receiptJson(found.included) : null
      }),
    ),
    eth_getTransactionByBlockHashAndIndex: defineMethod([hash, index], async ([h, i], ctx) => {
      const t = (await chainFor(ctx)).blockByHash(h)?.transactions[i]
      return t === undefined ? null : includedTxJson(t)
    }),
    eth_getTransactionByBlockNumberAndIndex: defineMethod([blockNumber, index], async ([block, i], ctx) => {
      const chain = await chainFor(ctx)
      const t = chain.blockByNumber(numberOf(chain, block))?.transactions[i]
      return t === undefined ? null : includedTxJson(t)
    }),
  } satisfies Registry
}
