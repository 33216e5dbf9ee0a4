/**
 * The pool, read and pruned: `txpool_content`, `txpool_inspect`, `txpool_status` (geth's shapes:
 * senders checksummed where geth does, nonces in decimal) and `anvil_dropTransaction` (Hardhat's
 * name aliases it). The pool itself, executable versus queued, is `src/chain/`'s.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { toChecksumAddress } from '@ethereumjs/util'
import type { ChainFor } from './context.js'
import { defineMethod, type Registry } from './dispatcher.js'
import { pendingTxJson, txSummary } from './format.js'
import { toQuantity } from './hex.js'
import { none } from './params/decode.js'
import { hash } from './params/values.js'

/** The pool methods over `chainFor`. */
export function txpoolMethods(chainFor: ChainFor) {
  const dropTransaction = defineMethod([hash], async ([h], ctx) => (await chainFor(ctx)).dropTransaction(h))
  return {
    txpool_content: defineMethod(none, async (_p, ctx) => {
      const content = (await chainFor(ctx)).poolContent()
      const group = (m: Map<string, { tx: TypedTransaction }[]>) =>
        Object.fromEntries(
          [...m].map(([sender, entries]) => [
            '0x' + sender,
            Object.fromEntries(entries.map((e) => [e.tx.nonce.toString(), JSON.parse(pendingTxJson(e as never).json)])),
          ]),
        )
      return { pending: group(content.executable), queued: group(content.queued) }
    }),
    txpool_status: defineMethod(none, async (_p, ctx) => {
      const content = (await chainFor(ctx)).poolContent()
      const count = (m: Map<string, unknown[]>) => [...m.values()].reduce((n, l) => n + l.length, 0)
      return { pending: toQuantity(count(content.executable)), queued: toQuantity(count(content.queued)) }
    }),
    txpool_inspect: defineMethod(none, async (_p, ctx) => {
      const content = (await chainFor(ctx)).poolContent()
      // geth keys senders checksummed and nonces in decimal.
      const group = (m: Map<string, { tx: TypedTransaction }[]>) =>
        Object.fromEntries([...m].map(([sender, entries]) => [toChecksumAddress('0x' + sender), Object.fromEntries(entries.map((e) => [e.tx.nonce.toString(), txSummary(e.tx)]))]))
      return { pending: group(content.executable), queued: group(content.queued) }
    }),
    anvil_dropTransaction: dropTransaction,
    hardhat_dropTransaction: dropTransaction,
  } satisfies Registry
}
