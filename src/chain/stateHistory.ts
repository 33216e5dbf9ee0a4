/**
 * The world state's history: per key, the values it had before each block of the window changed
 * it, and the copies a snapshot of the world state is made of.
 *
 * Owns: the shapes of that history, finding the value at a block (a binary search), dropping what
 * a block that left the window changed, and copying it all for snapshots.
 * Leaves to others: when to record or drop a change and the head state itself (`state.ts`).
 */
import type { LoadedKeys } from './fork/loadedKeys.js'
import type { Latin1 } from './latin1.js'
import type { Tries } from './trie.js'
import type { AccountRecord } from './types.js'

export interface Change<T> {
  readonly block: bigint
  /** The value before `block` changed it. */
  readonly before: T
}

/** What one block changed, so that its history can leave with it. */
export interface BlockKeys {
  readonly accounts: string[]
  /** Address (40 hex digits) + slot (64). */
  readonly storage: string[]
}

/** Everything needed to put the world state back as it was. */
export interface WorldStateSnapshot {
  readonly accounts: Map<string, AccountRecord>
  readonly storage: Map<string, Map<string, Latin1>>
  readonly code: Map<string, Uint8Array>
  readonly accountHistory: Map<string, Change<AccountRecord | undefined>[]>
  readonly storageHistory: Map<string, Map<string, Change<Latin1>[]>>
  readonly byBlock: Map<bigint, BlockKeys>
  readonly root: Uint8Array
  /** Immutable: shared with the live state, never copied. */
  readonly tries: Tries
  /** On a forked chain, the keys held (the rest is still the upstream's). */
  readonly loaded: LoadedKeys | undefined
}

/** The first change made after block `number`: its `before` is the value at `number`. */
export function firstAfter<T>(changes: readonly Change<T>[], number: bigint): Change<T> | undefined {
  let lo = 0
  let hi = changes.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (changes[mid]!.block > number) hi = mid
    else lo = mid + 1
  }
  return changes[lo]
}

/** Drops the changes of `keys` made at or before `block` (which left the window). */
export function dropOldest<T>(history: Map<string, Change<T>[]>, keys: readonly string[], block: bigint): void {
  for (const key of keys) dropOldestOf(history, key, block)
}

/**
 * Drops the changes of `key` made at or before `block`. One at a time with `shift`, which V8 does
 * by moving the array's start: a key changed in every block has a change per block of the window,
 * and `splice` would copy them all down (and allocate the removed ones) block after block.
 */
export function dropOldestOf<T>(history: Map<string, Change<T>[]>, key: string, block: bigint): void {
  const changes = history.get(key)
  if (changes === undefined) return
  while (changes.length > 0 && changes[0]!.block <= block) changes.shift()
  if (changes.length === 0) history.delete(key)
}

/** The history a world state keeps, as `dropAfter` needs it. */
export interface History {
  readonly accountHistory: Map<string, Change<AccountRecord | undefined>[]>
  readonly storageHistory: Map<string, Map<string, Change<Latin1>[]>>
  readonly byBlock: Map<bigint, BlockKeys>
}

/** Drops everything the blocks after `number` recorded (a reorg undid them). */
export function dropAfter(history: History, number: bigint): void {
  for (const [block, keys] of [...history.byBlock]) {
    if (block <= number) continue
    history.byBlock.delete(block)
    dropNewest(history.accountHistory, keys.accounts, number)
    for (const key of keys.storage) {
      // A key is address (40 hex digits) + slot (64).
      const slots = history.storageHistory.get(key.slice(0, 40))
      if (slots === undefined) continue
      dropNewest(slots, [key.slice(40)], number)
      if (slots.size === 0) history.storageHistory.delete(key.slice(0, 40))
    }
  }
}

/** Drops the changes of `keys` made after `block`: they are the newest of each list. */
function dropNewest<T>(history: Map<string, Change<T>[]>, keys: readonly string[], block: bigint): void {
  for (const key of keys) {
    const changes = history.get(key)
    if (changes === undefined) continue
    while (changes.length > 0 && changes[changes.length - 1]!.block > block) changes.pop()
    if (changes.length === 0) history.delete(key)
  }
}

/** A copy that shares no mutable map or array with `s` (the tries are immutable and shared). */
export function cloneSnapshot(s: WorldStateSnapshot): WorldStateSnapshot {
  return {
    accounts: new Map(s.accounts),
    storage: new Map([...s.storage].map(([a, slots]) => [a, new Map(slots)])),
    code: new Map(s.code),
    accountHistory: new Map([...s.accountHistory].map(([k, v]) => [k, [...v]])),
    storageHistory: new Map([...s.storageHistory].map(([address, slots]) => [address, new Map([...slots].map(([slot, changes]) => [slot, [...changes]]))])),
    byBlock: new Map([...s.byBlock].map(([b, k]) => [b, { accounts: [...k.accounts], storage: [...k.storage] }])),
    root: s.root,
    tries: s.tries,
    loaded: s.loaded?.clone(),
  }
}
