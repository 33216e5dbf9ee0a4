// The transactions of a reorg's new blocks, as anvil_reorg takes them: `[[tx, blockOffset], …]`,
// where `tx` is a raw signed transaction or a transaction request (anvil's untagged
// `TransactionData`), and, for ringchain_reorg, also the 32-byte hash of a transaction the reorg
// drops (or a pending one). Does not own: building or signing a request (`rpc/reorg/placed.ts`).

import { ArgumentError, type Param } from './decode.js'
import { decodeBytes, isObject } from './go.js'
import { transactionRequest, type TransactionRequest } from './transaction.js'
import { wholeNumber } from './values.js'

/** One transaction of a new block, not yet built. */
export type ReorgItem =
  | { readonly kind: 'raw'; readonly raw: Uint8Array }
  | { readonly kind: 'request'; readonly request: TransactionRequest }
  | { readonly kind: 'hash'; readonly hash: Uint8Array }

/** A transaction and the offset of its block among the new ones (0 = the first). */
export interface PlacedItem {
  readonly item: ReorgItem
  readonly offset: bigint
}

/** `[[tx, blockOffset], …]`; with `hashes`, a 32-byte string is a transaction hash rather than raw bytes. */
export function placedItems(options: { readonly hashes: boolean }): Param<readonly PlacedItem[]> {
  return {
    decode(value) {
      if (!Array.isArray(value)) throw new ArgumentError('expected a list of [transaction, blockOffset] pairs')
      return value.map((pair: unknown, i) => {
        if (!Array.isArray(pair) || pair.length !== 2) throw new ArgumentError(`transaction ${i}: expected a [transaction, blockOffset] pair`)
        const [tx, offset] = pair as [unknown, unknown]
        return { item: itemOf(tx, i, options.hashes), offset: wholeNumber.decode(offset) }
      })
    },
  }
}

function itemOf(value: unknown, i: number, hashes: boolean): ReorgItem {
  if (isObject(value)) return { kind: 'request', request: transactionRequest.decode(value) }
  if (typeof value !== 'string') throw new ArgumentError(`transaction ${i}: data did not match any variant of untagged enum TransactionData`)
  const bytes = decodeBytes(value)
  // No signed transaction is 32 bytes long: the shortest legacy one is over 80.
  return hashes && bytes.length === 32 ? { kind: 'hash', hash: bytes } : { kind: 'raw', raw: bytes }
}
