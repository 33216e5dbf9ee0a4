/**
 * A receipt's consensus encoding as the block builder's receipt trie takes it: ethereumjs 10's
 * `encodeReceipt` (`@ethereumjs/vm`'s `runBlock.js`), written in one pass into one array.
 *
 * Owns: that encoding of the VM's receipt (`rlp([status or root, cumulative gas, bloom, logs])`,
 * after the type byte of a typed transaction). A test pins ethereumjs's function and compares the
 * bytes of both over every shape of receipt.
 * Leaves to others: the receipt records reads serve (`receipts.ts`, which also encodes them for
 * `debug_getRawReceipts`), the trie (`trie.ts`).
 *
 * Why: `RLP.encode` makes an array per item and concatenates them again at every level of the
 * list, so the 256-byte bloom alone is copied three times, and the type byte costs one more copy
 * of the whole: about a tenth of what sealing an automined block costs.
 */
import type { TxReceipt } from '@ethereumjs/vm'
import { listLength, stringLength, unpadded, writeLengthPrefix, writeString } from './encoding.js'

/** An RLP item: a byte string, or a list of items. */
type Item = Uint8Array | readonly Item[]

const STATUS_SUCCESS = Uint8Array.of(1)
const STATUS_FAILURE = new Uint8Array(0)
const ZERO_BYTE = Uint8Array.of(0)

/** ethereumjs's `encodeReceipt(receipt, txType)`, byte for byte. */
export function encodeTxReceipt(receipt: TxReceipt, txType: number): Uint8Array {
  const { stateRoot, status } = receipt as { stateRoot?: Uint8Array | null; status?: number }
  const outcome = stateRoot ?? (status === 0 ? STATUS_FAILURE : STATUS_SUCCESS)
  // `bigIntToBytes`, which gives zero as one zero byte.
  const gas = receipt.cumulativeBlockGasUsed === 0n ? ZERO_BYTE : unpadded(receipt.cumulativeBlockGasUsed)
  const fields: readonly Item[] = [outcome, gas, receipt.bitvector, receipt.logs as unknown as readonly Item[]]
  const payload = payloadLength(fields)
  const typed = txType !== 0
  const out = new Uint8Array((typed ? 1 : 0) + listLength(payload))
  let at = 0
  if (typed) out[at++] = txType
  writeItem(out, at, fields)
  return out
}

function itemLength(item: Item): number {
  return item instanceof Uint8Array ? stringLength(item) : listLength(payloadLength(item))
}

function payloadLength(items: readonly Item[]): number {
  let length = 0
  for (const item of items) length += itemLength(item)
  return length
}

function writeItem(out: Uint8Array, at: number, item: Item): number {
  if (item instanceof Uint8Array) return writeString(out, at, item)
  at = writeLengthPrefix(out, at, payloadLength(item), 0xc0)
  for (const child of item) at = writeItem(out, at, child)
  return at
}
