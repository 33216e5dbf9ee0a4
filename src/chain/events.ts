/**
 * The chain's events, for subscriptions and filters: a block mined, a transaction pooled, blocks
 * taken off by a reorg (told before the new chain's blocks, so that removed logs come first, as geth sends them).
 * Listeners run synchronously, in the order they subscribed, right after the change they report;
 * what they make of it is `src/rpc/`'s (subscriptions, filters).
 */
import type { BlockRecord, PendingTx } from './types.js'

/** Listeners for subscriptions and filters. */
export interface ChainEvents {
  block: (record: BlockRecord) => void
  pending: (entry: PendingTx) => void
  /** Blocks a reorg took off the chain, oldest first. */
  reorg: (removed: readonly BlockRecord[]) => void
}

/** The listeners of each event. */
export class ChainListeners {
  readonly #sets: { [K in keyof ChainEvents]: Set<ChainEvents[K]> } = { block: new Set(), pending: new Set(), reorg: new Set() }

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof ChainEvents>(event: K, listener: ChainEvents[K]): () => void {
    const set = this.#sets[event] as Set<ChainEvents[K]>
    set.add(listener)
    return () => set.delete(listener)
  }

  emit<K extends keyof ChainEvents>(event: K, ...args: Parameters<ChainEvents[K]>): void {
    for (const listener of this.#sets[event] as Set<(...a: Parameters<ChainEvents[K]>) => void>) listener(...args)
  }
}
