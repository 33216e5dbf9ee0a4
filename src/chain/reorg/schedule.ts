/**
 * Scheduled reorgs: a reorg of depth `depth` after every `every` blocks mined, the way a hosted
 * provider's chain reorgs now and then. Seeded: which of the dropped blocks' transactions the new
 * blocks take again (about half, each in order at a random offset) follows `seed`; the rest go
 * back to the pool (geth's way) and, in automine mode, into the next blocks.
 *
 * Owns: counting blocks and choosing re-inclusions. Leaves the reorg itself to `reorg.ts` and
 * running it alone to the chain (each reorg is queued after the operation that mined the block).
 */
import { InvalidInputError } from '../errors.js'
import type { BlockRecord } from '../types.js'
import type { ReorgOutcome, ReorgSpec } from './reorg.js'

/** A reorg of depth `depth` after every `every` blocks, re-inclusions drawn from `seed`. */
export interface ReorgSchedule {
  readonly every: number
  readonly depth: number
  readonly seed: number
}

/** What the schedule needs of the chain. */
export interface ReorgTarget {
  on(event: 'block', listener: (record: BlockRecord) => void): () => void
  reorg(spec: ReorgSpec): Promise<ReorgOutcome>
  readonly head: BlockRecord
  readonly oldest: BlockRecord
}

/** Share of the dropped blocks' transactions the new blocks take again. */
const REINCLUDE_SHARE = 0.5

/** Refuses a schedule that could never run: `every` and `depth` must be whole numbers from 1. */
export function checkSchedule(schedule: ReorgSchedule): void {
  for (const key of ['every', 'depth'] as const) {
    const value = schedule[key]
    if (!Number.isSafeInteger(value) || value < 1) throw new InvalidInputError(`reorg schedule: ${key} must be a whole number from 1, got ${value}`)
  }
  if (!Number.isSafeInteger(schedule.seed)) throw new InvalidInputError(`reorg schedule: seed must be a whole number, got ${schedule.seed}`)
}

/** Runs a schedule on a chain until `stop()`. */
export class ScheduledReorgs {
  readonly schedule: ReorgSchedule
  readonly #target: ReorgTarget
  readonly #random: () => number
  readonly #off: () => void
  readonly #onError: (error: unknown) => void
  #count = 0
  /** True while a scheduled reorg runs: its own blocks do not count. */
  #running = false

  constructor(target: ReorgTarget, schedule: ReorgSchedule, onError: (error: unknown) => void) {
    checkSchedule(schedule)
    this.schedule = schedule
    this.#target = target
    this.#random = mulberry32(schedule.seed)
    this.#onError = onError
    this.#off = target.on('block', () => this.#counted())
  }

  stop(): void {
    this.#off()
  }

  #counted(): void {
    if (this.#running || ++this.#count < this.schedule.every) return
    this.#count = 0
    this.#running = true
    this.#target
      .reorg({ depth: this.#depth(), kind: 'reorg', transactions: [], dropped: 'requeue', resetClock: false, reinclude: { share: REINCLUDE_SHARE, random: this.#random } })
      .catch(this.#onError)
      .finally(() => {
        this.#running = false
      })
  }

  /** The depth asked for, or less when the chain or the window is shorter. */
  #depth(): bigint {
    const head = this.#target.head.number
    const room = head - this.#target.oldest.number
    const depth = BigInt(this.schedule.depth)
    return depth < room ? depth : room > 0n ? room : 1n
  }
}

/** A small seeded PRNG (mulberry32): the same seed gives the same draws in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
