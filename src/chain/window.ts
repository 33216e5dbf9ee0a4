/**
 * The window: the ring of the latest blocks, their hash index and the index of the transactions
 * they include, and the hashes of the last 256 blocks (for BLOCKHASH, even when the window is smaller).
 *
 * Owns: adding a mined block and letting the oldest leave (everything it owns leaves with it),
 * taking the newest blocks off (a reorg; their hashes are remembered as orphaned while their
 * numbers are in the window), finding blocks by number or hash and included transactions by hash,
 * and the ring's snapshot.
 * Leaves to others: what a block leaving means for the state and the preimages (the miner is told
 * through `onLeave`), and what a block reference names (`queries.ts`).
 */
import type { BlockRecord, IncludedTx } from './types.js'
import { keyOf } from './encoding.js'

/** What a snapshot of the window keeps: the indexes are rebuilt from the ring. */
export interface WindowSnapshot {
  readonly ring: readonly BlockRecord[]
  readonly recentHashes: Map<bigint, Uint8Array>
}

export class BlockWindow {
  /** Number of blocks kept. */
  readonly size: number
  readonly #onLeave: (record: BlockRecord) => void
  #ring: BlockRecord[] = []
  #byHash = new Map<string, BlockRecord>()
  /** Included transactions by their hash's key: the block and the position (its records are built when first read). */
  #txIndex = new Map<string, TxPlace>()
  #recentHashes = new Map<bigint, Uint8Array>()
  /** Hashes of blocks a reorg took off, by key, with their numbers. */
  #orphans = new Map<string, bigint>()

  constructor(size: number, onLeave: (record: BlockRecord) => void) {
    this.size = size
    this.#onLeave = onLeave
  }

  get head(): BlockRecord {
    return this.#ring[this.#ring.length - 1]!
  }

  /** The oldest block still in the window. */
  get oldest(): BlockRecord {
    return this.#ring[0]!
  }

  byNumber(number: bigint): BlockRecord | undefined {
    const index = Number(number - this.oldest.number)
    return index >= 0 && index < this.#ring.length ? this.#ring[index] : undefined
  }

  /** A block by its hash's key (unprefixed hex). */
  byHash(key: string): BlockRecord | undefined {
    return this.#byHash.get(key)
  }

  /** Whether a hash's key names a block a reorg took off (and whose number is still in the window). */
  isOrphaned(key: string): boolean {
    return this.#orphans.has(key)
  }

  /** An included transaction by its hash's key (unprefixed hex). */
  included(key: string): IncludedTx | undefined {
    const place = this.#txIndex.get(key)
    return place === undefined ? undefined : place.record.transactions[place.index]
  }

  /** The hash of block `number` if it is one of the last 256 blocks. */
  recentHash(number: bigint): Uint8Array | undefined {
    return this.#recentHashes.get(number)
  }

  /** Makes `record` the head; the oldest blocks leave while more than `size` are kept. */
  push(record: BlockRecord): void {
    this.#ring.push(record)
    this.#byHash.set(keyOf(record.hash), record)
    indexTransactions(this.#txIndex, record)
    this.#recentHashes.set(record.number, record.hash)
    this.#recentHashes.delete(record.number - 256n)
    while (this.#ring.length > this.size) {
      const old = this.#ring.shift()!
      this.#byHash.delete(keyOf(old.hash))
      for (const tx of old.block.transactions) this.#txIndex.delete(keyOf(tx.hash()))
      this.#onLeave(old)
      for (const [key, number] of this.#orphans) if (number <= old.number) this.#orphans.delete(key)
    }
  }

  /** Takes off every block after `number` (a reorg); returns them, oldest first. The caller has checked `number` is in the window. */
  truncate(number: bigint): BlockRecord[] {
    const removed = this.#ring.splice(Number(number - this.oldest.number) + 1)
    for (const record of removed) {
      this.#byHash.delete(keyOf(record.hash))
      this.#orphans.set(keyOf(record.hash), record.number)
      for (const tx of record.block.transactions) this.#txIndex.delete(keyOf(tx.hash()))
      this.#recentHashes.delete(record.number)
    }
    return removed
  }

  snapshot(): WindowSnapshot {
    return { ring: [...this.#ring], recentHashes: new Map(this.#recentHashes) }
  }

  /** Puts back a snapshot (which stays usable: it is copied, not adopted). */
  restore(snapshot: WindowSnapshot): void {
    this.#ring = [...snapshot.ring]
    this.#byHash = new Map(this.#ring.map((r) => [keyOf(r.hash), r]))
    this.#txIndex = new Map()
    for (const record of this.#ring) indexTransactions(this.#txIndex, record)
    this.#recentHashes = new Map(snapshot.recentHashes)
  }
}

/** Where an included transaction is: its block's record and its index there. */
interface TxPlace {
  readonly record: BlockRecord
  readonly index: number
}

/** Adds the transactions of `record` to `index`, read off its block (whose transactions its records follow, one for one). */
function indexTransactions(index: Map<string, TxPlace>, record: BlockRecord): void {
  const txs = record.block.transactions
  for (let i = 0; i < txs.length; i++) index.set(keyOf(txs[i]!.hash()), { record, index: i })
}
