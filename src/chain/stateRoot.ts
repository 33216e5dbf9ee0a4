/**
 * State changes and the roots they give: the net effect of a block on the state, and computing
 * the state root the head would have with it applied, without applying it.
 *
 * Owns: those shapes and the root computation on the head's persistent tries. Leaves the head
 * state, its history and committing to `state.ts`, the tries themselves to `trie.ts`.
 */
import { KECCAK256_RLP } from '@ethereumjs/util'
import { encodeAccount, encodeString, equal, sameAccount } from './encoding.js'
import { toLatin1, type Latin1 } from './latin1.js'
import { trieDelete, trieRoot, trieSet, type NibblePath, type StorageTries, type TrieNode, type Tries } from './trie.js'
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
  const accounts = new Map<string, AccountRecord | null>()
  const base = on.tries
  let accountTrie = base.accounts
  let storageChanges: Map<string, TrieNode | null> | undefined
  const setStorageTrie = (address: string, trie: TrieNode | undefined) => {
    storageChanges ??= new Map()
    storageChanges.set(address, trie ?? null)
  }
  // Writes that change nothing are skipped, not replayed into the tries: every block's system
  // calls write zeros over zeros (EIP-7002/7251 queues) and touch accounts they leave as they
  // were, and a trie update, even a no-op one, re-hashes its whole path.
  const visit = (address: string) => {
    const changed = changes.accounts.get(address)
    const head = on.accounts.get(address)
    if (changed === null) {
      accounts.set(address, null)
      if (head !== undefined) accountTrie = trieDelete(accountTrie, on.path(address))
      if (base.storage.has(address)) setStorageTrie(address, undefined)
      return
    }
    const current = changed ?? head
    if (current === undefined) return // storage written to an account that does not exist: nothing to store
    const cleared = changes.cleared.has(address)
    let storageRoot = cleared ? KECCAK256_RLP : (head?.storageRoot ?? KECCAK256_RLP)
    if (cleared && base.storage.has(address)) setStorageTrie(address, undefined)
    const writes = changes.storage.get(address)
    if (writes !== undefined && writes.size > 0) {
      const slots = cleared ? undefined : on.storage.get(address)
      const before = cleared ? undefined : base.storage.get(address)
      let storageTrie = before
      for (const [slot, value] of writes) {
        if ((slots?.get(slot) ?? '') === toLatin1(value)) continue
        storageTrie = value.length === 0 ? trieDelete(storageTrie, on.path(slot)) : trieSet(storageTrie, on.path(slot), encodeString(value))
      }
      if (storageTrie !== before) {
        setStorageTrie(address, storageTrie)
        storageRoot = trieRoot(storageTrie, on.keccak)
      }
    }
    // A literal, not a spread: V8 builds a spread copy on its slow path (see `leanEvm.ts`).
    const record: AccountRecord = equal(current.storageRoot, storageRoot) ? current : { nonce: current.nonce, balance: current.balance, storageRoot, codeHash: current.codeHash, codeSize: current.codeSize }
    accounts.set(address, record)
    if (head !== undefined && sameAccount(head, record)) return
    accountTrie = trieSet(accountTrie, on.path(address), encodeAccount(record))
  }
  // Every touched address once, in the order a Set of them all would give, without building it.
  for (const address of changes.accounts.keys()) visit(address)
  for (const address of changes.storage.keys()) if (!changes.accounts.has(address)) visit(address)
  for (const address of changes.cleared) if (!changes.accounts.has(address) && !changes.storage.has(address)) visit(address)
  const tries: Tries = { accounts: accountTrie, storage: storageChanges === undefined ? base.storage : withChanges(base.storage, storageChanges) }
  return { root: accountTrie === base.accounts ? on.root : trieRoot(accountTrie, on.keccak), accounts, tries, base }
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
