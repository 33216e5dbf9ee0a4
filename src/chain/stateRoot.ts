/**
 * State changes and the roots they give: the net effect of a block on the state, and computing
 * the state root the head would have with it applied, without applying it.
 *
 * Owns: those shapes and the root computation on the head's persistent tries. Leaves the head
 * state, its history and committing to `state.ts`, the tries themselves to `trie.ts`.
 */
import { KECCAK256_RLP } from '@ethereumjs/util'
import { accountLeaf, equal, sameAccount } from './encoding.js'
import { toLatin1, type Latin1 } from './latin1.js'
import { rlpLatin1, trieDelete, trieRoot, trieSetLatin1, type NibblePath, type StorageTries, type TrieNode, type Tries } from './trie.js'
import type { AccountRecord } from './types.js'

/** The net effect of a block (or of a test-control write) on the state. */
export interface StateChanges {
  /** `null` deletes the account (and its storage). */
  readonly accounts: Map<string, AccountRecord | null>
  /** Slot writes per account, applied after `cleared`. Values without leading zeros; empty = zero. */
  readonly storage: Map<string, Map<string, Uint8Array>>
  /** Accounts whose whole storage is wiped before `storage` applies. */
  readonly cleared: Set<string>
  /** New code by code hash. */
  readonly code: Map<string, Uint8Array>
}

export function emptyChanges(): StateChanges {
  return { accounts: new Map(), storage: new Map(), cleared: new Set(), code: new Map() }
}

/** The roots computed for a set of changes, ready to be committed. */
export interface ComputedRoot {
  readonly root: Uint8Array
  /** Final records of the changed accounts, with their new storage roots. */
  readonly accounts: Map<string, AccountRecord | null>
  /** The tries that give these roots. */
  readonly tries: Tries
  /** The head's tries they were computed on. */
  readonly base: Tries
}

/** The head state the roots are computed on: its flat maps, tries and root, and how keys become trie paths. */
export interface RootBase {
  readonly accounts: ReadonlyMap<string, AccountRecord>
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, Latin1>>
  readonly tries: Tries
  readonly root: Uint8Array
  readonly keccak: (data: Uint8Array) => Uint8Array
  path(key: string): NibblePath
}

/** The roots `changes` give on top of the head state `on`; its tries are persistent, so its root stays valid. */
export function computeRoot(on: RootBase, changes: StateChanges): ComputedRoot {
  const run = new RootRun(on, changes)
  // Every touched address once, in the order a Set of them all would give, without building it.
  for (const address of changes.accounts.keys()) run.visit(address)
  for (const address of changes.storage.keys()) if (!changes.accounts.has(address)) run.visit(address)
  for (const address of changes.cleared) if (!changes.accounts.has(address) && !changes.storage.has(address)) run.visit(address)
  return run.result()
}

/**
 * One root computation: the account trie and the storage tries as they change, address by address.
 * Writes that change nothing are skipped, not replayed into the tries: every block's system calls
 * write zeros over zeros (EIP-7002/7251 queues) and touch accounts they leave as they were, and a
 * trie update, even a no-op one, re-hashes its whole path. Small methods, not one closure: V8
 * compiles each early, with the feedback of its own few paths.
 */
class RootRun {
  readonly #on: RootBase
  readonly #changes: StateChanges
  readonly #accounts = new Map<string, AccountRecord | null>()
  #accountTrie: TrieNode | undefined
  #storageChanges: Map<string, TrieNode | null> | undefined

  constructor(on: RootBase, changes: StateChanges) {
    this.#on = on
    this.#changes = changes
    this.#accountTrie = on.tries.accounts
  }

  visit(address: string): void {
    const changed = this.#changes.accounts.get(address)
    const head = this.#on.accounts.get(address)
    if (changed === null) return this.#delete(address, head)
    const current = changed ?? head
    if (current === undefined) return // storage written to an account that does not exist: nothing to store
    const storageRoot = this.#storageRoot(address, head)
    // A literal, not a spread: V8 builds a spread copy on its slow path (see `leanEvm.ts`).
    const record: AccountRecord = equal(current.storageRoot, storageRoot) ? current : { nonce: current.nonce, balance: current.balance, storageRoot, codeHash: current.codeHash, codeSize: current.codeSize }
    this.#accounts.set(address, record)
    if (head !== undefined && sameAccount(head, record)) return
    this.#accountTrie = trieSetLatin1(this.#accountTrie, this.#on.path(address), accountLeaf(record))
  }

  result(): ComputedRoot {
    const on = this.#on
    const base = on.tries
    const accountTrie = this.#accountTrie
    const storage = this.#storageChanges === undefined ? base.storage : withChanges(base.storage, this.#storageChanges)
    const root = accountTrie === base.accounts ? on.root : trieRoot(accountTrie, on.keccak)
    return { root, accounts: this.#accounts, tries: { accounts: accountTrie, storage }, base }
  }

  #delete(address: string, head: AccountRecord | undefined): void {
    this.#accounts.set(address, null)
    if (head !== undefined) this.#accountTrie = trieDelete(this.#accountTrie, this.#on.path(address))
    if (this.#on.tries.storage.has(address)) this.#setStorageTrie(address, undefined)
  }

  /** The account's storage root after its writes (and wipe), its storage trie updated on the way. */
  #storageRoot(address: string, head: AccountRecord | undefined): Uint8Array {
    const base = this.#on.tries.storage
    const cleared = this.#changes.cleared.has(address)
    if (cleared && base.has(address)) this.#setStorageTrie(address, undefined)
    const storageRoot = cleared ? KECCAK256_RLP : (head?.storageRoot ?? KECCAK256_RLP)
    const writes = this.#changes.storage.get(address)
    if (writes === undefined || writes.size === 0) return storageRoot
    const before = cleared ? undefined : base.get(address)
    const after = writeSlots(this.#on, before, writes, cleared ? undefined : this.#on.storage.get(address))
    if (after === before) return storageRoot
    this.#setStorageTrie(address, after)
    return trieRoot(after, this.#on.keccak)
  }

  #setStorageTrie(address: string, trie: TrieNode | undefined): void {
    this.#storageChanges ??= new Map()
    this.#storageChanges.set(address, trie ?? null)
  }
}

/** `trie` with the slot writes that change a value of `slots` (the head's, none if wiped) applied. */
function writeSlots(on: RootBase, trie: TrieNode | undefined, writes: ReadonlyMap<string, Uint8Array>, slots: ReadonlyMap<string, Latin1> | undefined): TrieNode | undefined {
  for (const [slot, bytes] of writes) {
    const value = toLatin1(bytes)
    if ((slots?.get(slot) ?? '') === value) continue
    trie = value.length === 0 ? trieDelete(trie, on.path(slot)) : trieSetLatin1(trie, on.path(slot), rlpLatin1(bytes))
  }
  return trie
}

/**
 * Storage tries changed by a block over those of the block before: fewer than this many addresses
 * changed since the last fold are a layer over the folded map, shared rather than copied. Copying
 * a map costs in proportion to the accounts with storage (some 450 µs at 3000), every block.
 */
const MAX_LAYERED_CHANGES = 32
/**
 * Blocks a layer may stay unfolded: the folded map keeps the tries the layer replaced alive, and
 * those drift apart from the live ones block after block (a system contract's ring of slots).
 */
const MAX_LAYER_AGE = 128

/** Storage tries as changes (`null`: deleted) over a folded map: persistent, like the tries themselves. */
class LayeredStorageTries implements StorageTries {
  constructor(
    readonly folded: ReadonlyMap<string, TrieNode>,
    readonly changes: ReadonlyMap<string, TrieNode | null>,
    readonly age: number,
  ) {}

  get(address: string): TrieNode | undefined {
    const changed = this.changes.get(address)
    return changed === undefined ? this.folded.get(address) : (changed ?? undefined)
  }

  has(address: string): boolean {
    return this.get(address) !== undefined
  }

  *values(): Generator<TrieNode> {
    for (const [address, trie] of this.folded) if (!this.changes.has(address)) yield trie
    for (const trie of this.changes.values()) if (trie !== null) yield trie
  }
}

/** `on` with `changes` applied, `on` itself unchanged: a new layer, or a new folded map once the layer is large or old. */
function withChanges(on: StorageTries, changes: Map<string, TrieNode | null>): StorageTries {
  const layered = on instanceof LayeredStorageTries ? on : undefined
  const folded = layered?.folded ?? (on as ReadonlyMap<string, TrieNode>)
  let merged = changes
  if (layered !== undefined) {
    merged = new Map(layered.changes)
    for (const [address, trie] of changes) merged.set(address, trie)
  }
  const age = (layered?.age ?? 0) + 1
  if (merged.size < MAX_LAYERED_CHANGES && age <= MAX_LAYER_AGE) return new LayeredStorageTries(folded, merged, age)
  const map = new Map(folded)
  for (const [address, trie] of merged) {
    if (trie === null) map.delete(address)
    else map.set(address, trie)
  }
  return map
}
