/**
 * The transaction pool: pending transactions per sender, by nonce.
 *
 * Owns: holding pending transactions, telling *executable* (nonces contiguous from the sender's
 * state nonce) from *queued* (behind a nonce gap), replacement by nonce, dropping, and the order in
 * which a block takes executable transactions (per sender by nonce; across senders by tip, then
 * arrival, as geth's miner does).
 * Leaves to others: validation against state and fork rules (`validate.ts`), mining (`chain.ts`).
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import type { PendingTx } from './types.js'
import { keyOf } from './encoding.js'

/** The sender's next nonce in the state the pool is measured against. */
export type NonceOf = (sender: string) => bigint

export interface PoolSnapshot {
  readonly entries: readonly PendingTx[]
  readonly seq: number
}

export class TxPool {
  #bySender = new Map<string, Map<bigint, PendingTx>>()
  #byHash = new Map<string, PendingTx>()
  #seq = 0

  get size(): number {
    return this.#byHash.size
  }

  /** Order number for the next arrival. */
  nextSeq(): number {
    return this.#seq++
  }

  get(hash: string): PendingTx | undefined {
    return this.#byHash.get(hash)
  }

  /** The pending transaction of `sender` with `nonce`, if any. */
  at(sender: string, nonce: bigint): PendingTx | undefined {
    return this.#bySender.get(sender)?.get(nonce)
  }

  /** Adds `entry`, replacing the transaction with the same sender and nonce (checked by the caller). */
  add(entry: PendingTx): PendingTx | undefined {
    const sender = keyOf(entry.from)
    let txs = this.#bySender.get(sender)
    if (txs === undefined) this.#bySender.set(sender, (txs = new Map()))
    const replaced = txs.get(entry.tx.nonce)
    if (replaced !== undefined) this.#byHash.delete(keyOf(replaced.hash))
    txs.set(entry.tx.nonce, entry)
    this.#byHash.set(keyOf(entry.hash), entry)
    return replaced
  }

  /** Removes a transaction by hash; true if it was there. */
  remove(hash: string): boolean {
    const entry = this.#byHash.get(hash)
    if (entry === undefined) return false
    this.#byHash.delete(hash)
    const sender = keyOf(entry.from)
    const txs = this.#bySender.get(sender)
    txs?.delete(entry.tx.nonce)
    if (txs?.size === 0) this.#bySender.delete(sender)
    return true
  }

  /** Drops every transaction whose nonce the state has passed (mined, or made obsolete). */
  prune(nonceOf: NonceOf): void {
    for (const [sender, txs] of this.#bySender) {
      const next = nonceOf(sender)
      for (const [nonce, entry] of txs) {
        if (nonce < next) {
          txs.delete(nonce)
          this.#byHash.delete(keyOf(entry.hash))
        }
      }
      if (txs.size === 0) this.#bySender.delete(sender)
    }
  }

  /** Executable transactions of one sender, in nonce order. */
  executableOf(sender: string, nonceOf: NonceOf): PendingTx[] {
    const txs = this.#bySender.get(sender)
    const out: PendingTx[] = []
    if (txs === undefined) return out
    for (let nonce = nonceOf(sender); ; nonce++) {
      const entry = txs.get(nonce)
      if (entry === undefined) break
      out.push(entry)
    }
    return out
  }

  /** Pending transactions split into executable and queued, per sender (for txpool_* and tags). */
  content(nonceOf: NonceOf): { executable: Map<string, PendingTx[]>; queued: Map<string, PendingTx[]> } {
    const executable = new Map<string, PendingTx[]>()
    const queued = new Map<string, PendingTx[]>()
    for (const [sender, txs] of this.#bySender) {
      const ready = this.executableOf(sender, nonceOf)
      if (ready.length > 0) executable.set(sender, ready)
      const readySet = new Set(ready)
      const held = [...txs.values()].filter((e) => !readySet.has(e)).sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1))
      if (held.length > 0) queued.set(sender, held)
    }
    return { executable, queued }
  }

  /**
   * Executable transactions in the order a block takes them: each sender's in nonce order, and
   * between senders the higher tip at `baseFee` first, then the earlier arrival.
   */
  ordered(nonceOf: NonceOf, baseFee: bigint | undefined): PendingTx[] {
    const queues: PendingTx[][] = []
    for (const sender of this.#bySender.keys()) {
      const ready = this.executableOf(sender, nonceOf)
      if (ready.length > 0) queues.push(ready)
    }
    const out: PendingTx[] = []
    const heads = queues.map(() => 0)
    for (;;) {
      let best = -1
      for (let i = 0; i < queues.length; i++) {
        const candidate = queues[i]![heads[i]!]
        if (candidate === undefined) continue
        if (best === -1 || better(candidate, queues[best]![heads[best]!]!, baseFee)) best = i
      }
      if (best === -1) return out
      out.push(queues[best]![heads[best]!]!)
      heads[best]!++
    }
  }

  all(): PendingTx[] {
    return [...this.#byHash.values()]
  }

  snapshot(): PoolSnapshot {
    return { entries: this.all(), seq: this.#seq }
  }

  restore(snapshot: PoolSnapshot): void {
    this.#bySender = new Map()
    this.#byHash = new Map()
    for (const entry of snapshot.entries) this.add(entry)
    this.#seq = snapshot.seq
  }
}

/** The tip a transaction pays per gas at `baseFee`. */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  const base = baseFee ?? 0n
  if ('maxPriorityFeePerGas' in tx) {
    const cap = tx.maxFeePerGas - base
    return tx.maxPriorityFeePerGas < cap ? tx.maxPriorityFeePerGas : cap
  }
  return tx.gasPrice - base
}

function better(a: PendingTx, b: PendingTx, baseFee: bigint | undefined): boolean {
  const ta = effectiveTip(a.tx, baseFee)
  const tb = effectiveTip(b.tx, baseFee)
  if (ta !== tb) return ta > tb
  return a.seq < b.seq
}
