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
  #txIndex = new Map<string, IncludedTx>()
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
    return this.#txIndex.get(key)
  }

  /** The hash of block `number` if it is one of the last 256 blocks. */
  recentHash(number: bigint): Uint8Array | undefined {
    return this.#recentHashes.get(number)
  }

  /** Makes `record` the head; the oldest blocks leave while more than `size` are kept. */
  push(record: BlockRecord): void {
    this.#ring.push(record)
    this.#byHash.set(keyOf(record.hash), record)
    for (const included of record.transactions) this.#txIndex.set(keyOf(included.hash), included)
    this.#recentHashes.set(record.number, record.hash)
    this.#recentHashes.delete(record.number - 256n)
    while (this.#ring.length > this.size) {
      const old = this.#ring.shift()!
      this.#byHash.delete(keyOf(old.hash))
      for (const included of old.transactions) this.#txIndex.delete(keyOf(included.hash))
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
      for (const included of record.transactions) this.#txIndex.delete(keyOf(included.hash))
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
    this.#txIndex = new Map(this.#ring.flatMap((r) => r.transactions.map((t) => [keyOf(t.hash), t] as const)))
    this.#recentHashes = new Map(snapshot.recentHashes)
  }
}
