/**
 * Block time: what timestamp the next block gets.
 *
 * Owns: wall-clock and deterministic time, `increaseTime` and `setNextBlockTimestamp`, and the rule
 * that timestamps strictly increase. Leaves mining itself to `chain.ts`.
 */
import { InvalidInputError } from './errors.js'

/** Deterministic time: a fixed genesis timestamp and a fixed step per block. */
export interface DeterministicTime {
  readonly genesisTimestamp: bigint
  readonly blockTime: bigint
}

/** 2025-01-01T00:00:00Z: the genesis time of deterministic chains. */
export const DETERMINISTIC_GENESIS_TIMESTAMP = 1_735_689_600n

/**
 * The largest timestamp and time offset accepted: a header's time is a uint64 in geth. Without a
 * bound, one request could push timestamps past 2^256, which the beacon-roots contract cannot
 * store, and no block could ever be mined again.
 */
export const MAX_TIMESTAMP = 2n ** 64n - 1n

export interface ClockState {
  readonly offset: bigint
  readonly next: bigint | undefined
  /** Seconds between block timestamps, when fixed (anvil_setBlockTimestampInterval). */
  readonly interval: bigint | undefined
}

export class Clock {
  readonly #deterministic: DeterministicTime | undefined
  readonly #now: () => bigint
  /** Seconds added by `increaseTime`, applied to the blocks after it. */
  #offset = 0n
  #next: bigint | undefined
  #interval: bigint | undefined

  constructor(deterministic: DeterministicTime | undefined, now: () => bigint = () => BigInt(Math.floor(Date.now() / 1000))) {
    this.#deterministic = deterministic
    this.#now = now
  }

  get deterministic(): boolean {
    return this.#deterministic !== undefined
  }

  genesisTimestamp(): bigint {
    return this.#deterministic?.genesisTimestamp ?? this.#now()
  }

  /**
   * The timestamp of the block after one stamped `parent`. Consumes a timestamp set for it.
   * `interval` (else the one set with `setInterval`) spaces it from `parent` by that many seconds.
   */
  next(parent: bigint, interval: bigint | undefined = this.#interval): bigint {
    const ts = this.peek(parent, interval)
    if (this.#next !== undefined) {
      this.#next = undefined
      if (this.#deterministic === undefined) this.#offset = ts - this.#now()
    } else if (this.#deterministic !== undefined || interval !== undefined) {
      this.#offset = 0n
    }
    return ts
  }

  /** What `next` would give, consuming nothing: the pending block's timestamp. */
  peek(parent: bigint, interval: bigint | undefined = this.#interval): bigint {
    if (this.#next !== undefined) return this.#next
    if (this.#deterministic !== undefined || interval !== undefined) {
      const step = interval ?? this.#deterministic!.blockTime
      return parent + (step > 0n ? step : 1n) + this.#offset
    }
    const ts = this.#now() + this.#offset
    return ts > parent ? ts : parent + 1n
  }

  /** Moves time forward by `seconds`; returns the total offset, as anvil and Hardhat do. */
  increaseTime(seconds: bigint): bigint {
    if (seconds < 0n) throw new InvalidInputError('time cannot go backwards')
    if (this.#offset + seconds > MAX_TIMESTAMP) throw new InvalidInputError(`time offset ${this.#offset + seconds} s is beyond 2^64-1`)
    this.#offset += seconds
    return this.#offset
  }

  /** The next block gets exactly `timestamp`, which must be after `head`. */
  setNextTimestamp(timestamp: bigint, head: bigint): void {
    if (timestamp <= head) {
      throw new InvalidInputError(`timestamp ${timestamp} is not after the head block's timestamp ${head}`)
    }
    if (timestamp > MAX_TIMESTAMP) throw new InvalidInputError(`timestamp ${timestamp} is beyond 2^64-1`)
    this.#next = timestamp
  }

  /**
   * Spaces every next block `seconds` after its parent (anvil's block timestamp interval), or, with
   * `undefined`, goes back to the clock. Returns whether an interval was set before.
   */
  setInterval(seconds: bigint | undefined): boolean {
    if (seconds !== undefined && seconds < 0n) throw new InvalidInputError('the block timestamp interval cannot be negative')
    const had = this.#interval !== undefined
    this.#interval = seconds
    return had
  }

  /**
   * Continues time from a head stamped `timestamp` (a loaded state's, as anvil resets its time):
   * on the wall clock, the next block is that many seconds after it as have passed since.
   */
  continueFrom(timestamp: bigint): void {
    this.#offset = this.#deterministic === undefined ? timestamp - this.#now() : 0n
    this.#next = undefined
  }

  state(): ClockState {
    return { offset: this.#offset, next: this.#next, interval: this.#interval }
  }

  restore(state: ClockState): void {
    this.#offset = state.offset
    this.#next = state.next
    this.#interval = state.interval
  }
}
