/**
 * How the chain reads the world state: the reader of one block's state (or the live head's), and
 * the state as of a block of the window as such a reader.
 *
 * Owns: the `StateReader` interface the VM's state manager, calls and queries read through, and
 * `BlockState`, the view on one block of the window made per read.
 * Leaves to others: holding the state and its history (`state.ts`), the history's shapes (`stateHistory.ts`).
 */
import type { Latin1 } from './latin1.js'
import { fromLatin1 } from './latin1.js'
import type { AccountRecord } from './types.js'

/** A zero storage value: slots hold their value without leading zeros, so zero is empty. */
export const EMPTY = new Uint8Array(0)

/** Reads the state as of one block (or the live head). Keys are unprefixed lowercase hex. */
export interface StateReader {
  account(address: string): AccountRecord | undefined
  storage(address: string, slot: string): Uint8Array
  code(codeHash: string): Uint8Array | undefined
  /**
   * On a forked chain: fetches `address` (and `slot`) from the upstream unless the state holds it
   * already; undefined when there is nothing to wait for. Reads of what is not held throw
   * `StateNotLoadedError`, so asynchronous readers (the VM's state manager) call this first.
   */
  load?(address: string, slot?: string): Promise<void> | undefined
}

/** Fetches what a forked chain's state does not hold yet (see `fork/lazyState.ts`). */
export interface StateLoader {
  load(address: string, slot?: string): Promise<void> | undefined
}

/** What a `BlockState` reads through: the world state's reads at a block, and its head. */
export interface WindowState {
  readonly head: StateReader
  accountAt(address: string, number: bigint): AccountRecord | undefined
  storageAt(address: string, slot: string, number: bigint): Uint8Array
}

/** The state as of one block of the window: a view on the world state, made per read, without closures. */
export class BlockState implements StateReader {
  readonly #world: WindowState
  readonly #number: bigint

  constructor(world: WindowState, number: bigint) {
    this.#world = world
    this.#number = number
  }

  account(address: string): AccountRecord | undefined {
    return this.#world.accountAt(address, this.#number)
  }

  storage(address: string, slot: string): Uint8Array {
    return this.#world.storageAt(address, slot, this.#number)
  }

  code(codeHash: string): Uint8Array | undefined {
    return this.#world.head.code(codeHash)
  }

  load(address: string, slot?: string): Promise<void> | undefined {
    return this.#world.head.load!(address, slot)
  }
}

/** A slot value handed out: zero (absent or empty) is the shared `EMPTY`, which no reader writes to. */
export function bytesOf(value: Latin1 | undefined): Uint8Array {
  return value === undefined || value.length === 0 ? EMPTY : fromLatin1(value)
}
