/**
 * Reorgs: the newest blocks taken off the chain and, unless it is a rollback, as many new blocks
 * mined in their place, with different hashes.
 *
 * Owns: the checks (nothing changes when one fails), undoing the blocks (window, state, clock),
 * filling the new blocks with the transactions placed in them, and what becomes of the dropped
 * blocks' other transactions: back to the pool (geth's way) or gone (anvil's).
 * Leaves to others: running alone, telling listeners and automining (`chain.ts`), mining a block
 * (`miner.ts`), the state's undo (`state.ts`), the ring's (`window.ts`).
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'
import type { Clock } from '../clock.js'
import { keyOf } from '../encoding.js'
import { InvalidInputError } from '../errors.js'
import type { Miner } from '../miner.js'
import type { TxPool } from '../pool.js'
import type { WorldState } from '../state.js'
import type { BlockRecord, IncludedTx, PendingTx } from '../types.js'
import type { BlockWindow } from '../window.js'

/** A transaction for a new block: given whole, or by the hash of one of the dropped blocks (or the pool). */
export type ReorgTransaction =
  | { readonly kind: 'tx'; readonly tx: TypedTransaction; readonly sender?: Address; readonly offset: number }
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly offset: number }

/** What a reorg does. */
export interface ReorgSpec {
  /** How many blocks are taken off the head (at least 1). */
  readonly depth: bigint
  /** `reorg`: as many new blocks are mined (anvil_reorg, ringchain_reorg); `rollback`: none (anvil_rollback). */
  readonly kind: 'reorg' | 'rollback'
  /** Transactions of the new blocks, each in the block at its offset (0 = the first new block), below `depth`. */
  readonly transactions: readonly ReorgTransaction[]
  /** The dropped blocks' transactions the new blocks do not include: back to the pool (geth) or gone (anvil). */
  readonly dropped: 'requeue' | 'discard'
  /** Time continues from the common ancestor, as anvil's rollback resets it; else the clock goes on. */
  readonly resetClock: boolean
  /** Re-includes a share of the dropped blocks' transactions, in their order, at offsets drawn from `random` (scheduled reorgs). */
  readonly reinclude?: { readonly share: number; readonly random: () => number }
}

/** What a reorg did. */
export interface ReorgOutcome {
  /** The blocks taken off, oldest first. */
  readonly removed: readonly BlockRecord[]
  /** The new blocks, oldest first. */
  readonly added: readonly BlockRecord[]
  /** Dropped blocks' transactions back in the pool. */
  readonly requeued: readonly PendingTx[]
  /** Dropped blocks' transactions gone (not re-included, not requeued, or no longer valid). */
  readonly discarded: readonly IncludedTx[]
}

/** The parts of a chain a reorg changes. */
export interface ReorgParts {
  readonly world: WorldState
  readonly window: BlockWindow
  readonly pool: TxPool
  readonly clock: Clock
  readonly miner: Miner
}

/** Refuses a spec the chain cannot carry out, in anvil's words where anvil has them; changes nothing. */
export function checkReorg(window: BlockWindow, depth: bigint, kind: ReorgSpec['kind'], offsets: readonly number[]): void {
  const head = window.head.number
  const name = kind === 'reorg' ? 'Reorg' : 'Rollback'
  if (depth < 1n) throw new InvalidInputError(`${name} depth must be at least 1: depth ${depth}`)
  if (depth > head) throw new InvalidInputError(`${name} depth must not exceed current chain height: current height ${head}, depth ${depth}`)
  if (head - depth < window.oldest.number) {
    throw new InvalidInputError(`${name} depth must not reach past the window: oldest block ${window.oldest.number}, current height ${head}, depth ${depth}`)
  }
  for (const offset of offsets) {
    if (offset < 0 || BigInt(offset) >= depth) {
      throw new InvalidInputError(`Block number for reorg tx will exceed the reorged chain height. Block number ${offset} must not exceed (depth-1) ${depth - 1n}`)
    }
  }
}

/** Carries out a checked reorg; `extraData` marks the new blocks. Listeners are told by `onRemoved` before any new block is mined. */
export async function runReorg(p: ReorgParts, spec: ReorgSpec, extraData: Uint8Array, onRemoved: (removed: readonly BlockRecord[]) => void): Promise<ReorgOutcome> {
  const common = p.window.head.number - spec.depth
  // Resolved before anything changes: a hash names a transaction of the blocks about to go, or of the pool.
  const given = spec.transactions.map((placed) => ({ offset: placed.offset, entry: pendingOf(p, placed, common) }))
  const removed = p.window.truncate(common)
  p.world.rollback(common)
  p.miner.dropPending()
  if (spec.resetClock) p.clock.continueFrom(p.window.head.block.header.timestamp)
  onRemoved(removed)
  if (spec.reinclude !== undefined) given.push(...drawn(p, removed, spec.depth, spec.reinclude))
  const added: BlockRecord[] = []
  if (spec.kind === 'reorg') {
    for (let offset = 0; BigInt(offset) < spec.depth; offset++) {
      const candidates = given.filter((g) => g.offset === offset).map((g) => g.entry)
      added.push(await p.miner.mineReplacement(candidates, extraData))
    }
  }
  const included = new Set(added.flatMap((record) => record.transactions.map((t) => keyOf(t.hash))))
  const requeued: PendingTx[] = []
  const discarded: IncludedTx[] = []
  for (const tx of removed.flatMap((record) => record.transactions)) {
    const key = keyOf(tx.hash)
    if (included.has(key)) continue
    const sender = keyOf(tx.from)
    const stale = (p.world.head.account(sender)?.nonce ?? 0n) > tx.tx.nonce || p.pool.at(sender, tx.tx.nonce) !== undefined
    if (spec.dropped === 'discard' || stale) {
      discarded.push(tx)
      continue
    }
    const entry: PendingTx = { tx: tx.tx, hash: tx.hash, from: tx.from, seq: p.pool.nextSeq() }
    p.pool.add(entry)
    requeued.push(entry)
  }
  p.miner.dropPending()
  return { removed, added, requeued, discarded }
}

/** The dropped transactions a scheduled reorg takes again: each with probability `share`, at non-decreasing offsets (so that a sender's nonces stay in order). */
function drawn(p: ReorgParts, removed: readonly BlockRecord[], depth: bigint, draw: NonNullable<ReorgSpec['reinclude']>): { offset: number; entry: PendingTx }[] {
  const out: { offset: number; entry: PendingTx }[] = []
  let offset = 0
  for (const tx of removed.flatMap((record) => record.transactions)) {
    if (draw.random() >= draw.share) continue
    offset = Math.max(offset, Math.floor(draw.random() * Number(depth)))
    out.push({ offset, entry: { tx: tx.tx, hash: tx.hash, from: tx.from, seq: p.pool.nextSeq() } })
  }
  return out
}

/** The pending entry a placed transaction is mined as; a hash must name a transaction of a block after `common`, or a pending one. */
function pendingOf(p: ReorgParts, placed: ReorgTransaction, common: bigint): PendingTx {
  if (placed.kind === 'tx') {
    const from = placed.sender ?? placed.tx.getSenderAddress()
    return { tx: placed.tx, hash: placed.tx.hash(), from: from.bytes, seq: p.pool.nextSeq() }
  }
  const key = keyOf(placed.hash)
  const pending = p.pool.get(key)
  if (pending !== undefined) return pending
  const included = p.window.included(key)
  if (included === undefined || included.blockNumber <= common) {
    throw new InvalidInputError(`transaction 0x${key} is neither in a block the reorg drops nor pending`)
  }
  return { tx: included.tx, hash: included.hash, from: included.from, seq: p.pool.nextSeq() }
}
