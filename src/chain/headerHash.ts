/**
 * The hash of a block header the miner makes, cached in the header as its `hash()` would cache it.
 *
 * Owns: the header's RLP field list (`raw()` of ethereumjs's `BlockHeader`, the same fields in the
 * same order for every EIP it knows) written in one pass and hashed once.
 * Leaves to others: making the header (`builder.ts`), every other read of it (ethereumjs).
 *
 * Why: `raw()` turns each integer field into bytes through a hex string and `hash()` encodes the
 * list with `RLP.encode`, an array per field: together some 30 µs of every block mined.
 */
import type { BlockHeader } from '@ethereumjs/block'
import { encodeFlatList, unpadded } from './encoding.js'

/** `header` (frozen, as ethereumjs makes it) with its hash computed and cached. */
export function withHashCached(header: BlockHeader, keccak: (data: Uint8Array) => Uint8Array): BlockHeader {
  ;(header as unknown as { cache: { hash: Uint8Array | undefined } }).cache.hash = keccak(encodeFlatList(headerFields(header)))
  return header
}

/** What `header.raw()` answers, with the integers made bytes directly. */
export function headerFields(header: BlockHeader): Uint8Array[] {
  const h = header
  const fields = [
    h.parentHash,
    h.uncleHash,
    h.coinbase.bytes,
    h.stateRoot,
    h.transactionsTrie,
    h.receiptTrie,
    h.logsBloom,
    unpadded(h.difficulty),
    unpadded(h.number),
    unpadded(h.gasLimit),
    unpadded(h.gasUsed),
    unpadded(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
  ]
  const common = h.common
  if (common.isActivatedEIP(1559)) fields.push(unpadded(h.baseFeePerGas!))
  if (common.isActivatedEIP(4895)) fields.push(h.withdrawalsRoot!)
  if (common.isActivatedEIP(4844)) fields.push(unpadded(h.blobGasUsed!), unpadded(h.excessBlobGas!))
  if (common.isActivatedEIP(4788)) fields.push(h.parentBeaconBlockRoot!)
  if (common.isActivatedEIP(7685)) fields.push(h.requestsHash!)
  if (common.isActivatedEIP(7928)) fields.push(h.blockAccessListHash!)
  if (common.isActivatedEIP(7843)) fields.push(unpadded(h.slotNumber!))
  return fields
}
