/**
 * A block's size (the length of its RLP, what `eth_getBlockByNumber` answers as `size`), summed
 * from the lengths of its parts instead of encoding the block.
 *
 * Owns: that sum, for the parts ethereumjs's `Block.raw()` lists: the header's fields, each
 * transaction (a typed one as the byte string of its encoding, a legacy one as its list), the
 * uncle headers, and from Shanghai the withdrawals.
 * Leaves to others: the header's fields (`headerHash.ts`), each transaction's encoding (kept with
 * it at admission: `validate.ts`).
 *
 * Why: `block.serialize()` turns every header integer into bytes through a hex string and builds an
 * array per RLP item; in the first tests of a suite, each block's first `eth_getBlockByNumber`
 * (ethers asks for the latest block before each transaction) spent most of its time there.
 */
import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { Capability } from '@ethereumjs/tx'
import { listLength, stringLength } from './encoding.js'
import { headerFields } from './headerHash.js'

/** `block.serialize().length`, without serializing it. */
export function blockSize(block: Block): number {
  let payload = listLength(fieldsLength(headerFields(block.header)))
  let transactions = 0
  for (const tx of block.transactions) {
    const encoded = tx.serialize()
    transactions += tx.supports(Capability.EIP2718TypedTransaction) ? stringLength(encoded) : encoded.length
  }
  payload += listLength(transactions)
  let uncles = 0
  for (const uncle of block.uncleHeaders) uncles += listLength(fieldsLength(headerFields(uncle)))
  payload += listLength(uncles)
  if (block.withdrawals !== undefined) {
    let withdrawals = 0
    for (const withdrawal of block.withdrawals) withdrawals += RLP.encode(withdrawal.raw()).length
    payload += listLength(withdrawals)
  }
  return listLength(payload)
}

function fieldsLength(fields: readonly Uint8Array[]): number {
  let length = 0
  for (const field of fields) length += stringLength(field)
  return length
}
