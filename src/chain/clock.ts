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

export interface ClockState {
  readonly offset: bigint
  readonly next: bigint | undefined
}

export class Clock {
  readonly #deterministic: DeterministicTime | undefined
  readonly #now: () => bigint
  /** Seconds added by `increaseTime`, applied to the blocks after it. */
  #offset = 0n
  #next: bigint | undefined

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

  /** The timestamp of the block after one stamped `parent`. Consumes a timestamp set for it. */
  next(parent: bigint, interval?: bigint): bigint {
    if (this.#next !== undefined) {
      const ts = this.#next
      this.#next = undefined
      if (this.#deterministic === undefined) this.#offset = ts - this.#now()
      return ts
    }
    if (this.#deterministic !== undefined || interval !== undefined) {
      const step = interval ?? this.#deterministic!.blockTime
      const ts = parent + (step > 0n ? step : 1n) + this.#offset
      this.#offset = 0n
      return ts
    }
    const ts = this.#now() + this.#offset
    return ts > parent ? ts : parent + 1n
  }

  /** Moves time forward by `seconds`; returns the total offset, as anvil and Hardhat do. */
  increaseTime(seconds: bigint): bigint {
    if (seconds < 0n) throw new InvalidInputError('time cannot go backwards')
    this.#offset += seconds
    return this.#offset
  }

  /** The next block gets exactly `timestamp`, which must be after `head`. */
  setNextTimestamp(timestamp: bigint, head: bigint): void {
    if (timestamp <= head) {
      throw new InvalidInputError(`timestamp ${timestamp} is not after the head block's timestamp ${head}`)
    }
    this.#next = timestamp
  }

  state(): ClockState {
    return { offset: this.#offset, next: this.#next }
  }

  restore(state: ClockState): void {
    this.#offset = state.offset
    this.#next = state.next
  }
}
