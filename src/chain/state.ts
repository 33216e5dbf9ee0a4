/**
 * World state: the head state as flat maps, a per-key history of the window, and the Merkle tries
 * that give state roots.
 *
 * Owns: reading any account, slot or code at the head or at any block of the window (a map lookup
 * plus a short binary search, whatever the block's age), committing a block's net changes, evicting
 * a block's history, computing state roots, and keeping memory flat.
 * Leaves to others: execution (`stateManager.ts` journals the VM's writes and hands the net changes
 * here), which blocks are in the window (the chain tells us when one leaves), the shapes of the
 * history and its snapshot copies (`stateHistory.ts`), keys and leaf encodings (`encoding.ts`),
 * proofs (`proofs.ts`), the reader interface and a block's view (`stateReader.ts`), the roots (`stateRoot.ts`).
 *
 * Why this shape: ethereumjs's Merkle state keeps every trie node of every block forever. Like a
 * near-head geth (head state plus one diff layer per block), we keep the head state flat and, per
 * key, the values it had before each block of the window changed it. The tries (`trie.ts`) are
 * persistent in-memory node trees, only used to compute roots and proofs: a block's root is
 * computed on new nodes sharing everything unchanged, and replaced nodes are garbage for V8, so
 * memory follows the live state, not the chain's age. Slot values, at the head and in the history,
 * are kept in the compact form of `latin1.ts` (a quarter of the heap of a Uint8Array each) and
 * handed out as Uint8Arrays.
 */
import { KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import { equal, keyOf, sameAccount } from './encoding.js'
import { LoadedKeys, StateNotLoadedError } from './fork/loadedKeys.js'
import { fromLatin1, toLatin1, type Latin1 } from './latin1.js'
import { buildProof, type AccountProof, type ProofSource } from './proofs.js'
import { computeRoot, emptyChanges, type ComputedRoot, type StateChanges } from './stateRoot.js'
import { BlockState, EMPTY, bytesOf, type StateLoader, type StateReader } from './stateReader.js'
import { cloneSnapshot, dropAfter, dropOldest, dropOldestOf, firstAfter, type BlockKeys, type Change, type WorldStateSnapshot } from './stateHistory.js'
import { trieNodeCount, type NibblePath, type Tries } from './trie.js'
import type { AccountRecord } from './types.js'
import { keccakOf } from './crypto.js'

export { EMPTY, type StateLoader, type StateReader } from './stateReader.js'
export { emptyChanges, type ComputedRoot, type StateChanges } from './stateRoot.js'

const EMPTY_CODE_HASH = bytesToUnprefixedHex(KECCAK256_NULL)
const NO_TRIES: Tries = { accounts: undefined, storage: new Map() }
/** How many trie paths `#path` remembers before it starts over: a few hundred kB at most. */
const PATH_CACHE_SIZE = 1024

export class WorldState {
  #accounts = new Map<string, AccountRecord>()
  /** Per address, per slot: the non-zero value without leading zeros, compact (see the header). */
  #storage = new Map<string, Map<string, Latin1>>()
  #code = new Map<string, Uint8Array>()
  #accountHistory = new Map<string, Change<AccountRecord | undefined>[]>()
  /** Per address, per slot: two short keys rather than one concatenated, which every read would build and hash. */
  #storageHistory = new Map<string, Map<string, Change<Latin1>[]>>()
  /** No change is recorded after this block: reads at it or later are head reads. */
  #lastChange = -1n
  #byBlock = new Map<bigint, BlockKeys>()
  #tries: Tries = NO_TRIES
  #root: Uint8Array = KECCAK256_RLP
  /** The last roots computed and not committed (the pending block's), kept for its proofs. */
  #computed: ComputedRoot | undefined
  /** Code entries after the last sweep of unused code, and how many were in use then. */
  #codeSwept = 0
  readonly #keccak: (data: Uint8Array) => Uint8Array
  /** Trie paths of recently hashed keys (see `#path`). */
  readonly #paths = new Map<string, NibblePath>()
  /** On a forked chain: the keys held (see `fork/loadedKeys.ts`) and what fetches the others. */
  #loaded: LoadedKeys | undefined
  #loader: StateLoader | undefined

  /** The live head state. */
  readonly head: StateReader = {
    account: (address) => this.#accounts.get(address) ?? this.#missingAccount(address),
    storage: (address, slot) => this.#headSlot(address, slot),
    code: (codeHash) => (codeHash === EMPTY_CODE_HASH ? EMPTY : this.#code.get(codeHash)),
    load: (address, slot) => this.#loader?.load(address, slot),
  }

  constructor(common: Common) {
    this.#keccak = keccakOf(common)
    this.#code.set(EMPTY_CODE_HASH, EMPTY)
  }

  // --- a forked chain's lazy state (the values come from `fork/lazyState.ts`) ----------------

  /** Makes this the state of a forked chain: keys it does not hold are the upstream's, fetched by `loader`. */
  forkFrom(loader: StateLoader): void {
    this.#loaded = new LoadedKeys()
    this.#loader = loader
  }

  /** Whether the state holds `address` (and `slot`): always, unless forked. */
  holds(address: string, slot?: string): boolean {
    const loaded = this.#loaded
    return loaded === undefined || (slot === undefined ? loaded.hasAccount(address) : loaded.hasSlot(address, slot))
  }

  /**
   * Takes an account as the upstream had it at the fork (undefined: it had none, nor storage),
   * unless the state holds it already (loaded before, or written here since). No history: the
   * value is the same at every block of the window.
   */
  adoptAccount(address: string, record: AccountRecord | undefined, code: Uint8Array | undefined): void {
    const loaded = this.#loaded
    if (loaded === undefined || loaded.hasAccount(address)) return
    loaded.addAccount(address)
    if (record === undefined) return loaded.holdWholeStorage(address)
    this.#accounts.set(address, record)
    if (code !== undefined) this.#code.set(bytesToUnprefixedHex(record.codeHash), code)
  }

  /** Takes a slot as the upstream had it at the fork (no leading zeros), unless the state holds it already. */
  adoptSlot(address: string, slot: string, value: Uint8Array): void {
    const loaded = this.#loaded
    if (loaded === undefined || loaded.hasSlot(address, slot)) return
    loaded.addSlot(address, slot)
    if (value.length === 0) return
    let slots = this.#storage.get(address)
    if (slots === undefined) this.#storage.set(address, (slots = new Map()))
    slots.set(slot, toLatin1(value))
  }

  #missingAccount(address: string): undefined {
    if (this.#loaded !== undefined && !this.#loaded.hasAccount(address)) throw new StateNotLoadedError(address, undefined, this.#loader!.load(address) ?? Promise.resolve())
    return undefined
  }

  #headSlot(address: string, slot: string): Uint8Array {
    const value = this.#storage.get(address)?.get(slot)
    if (value === undefined && this.#loaded !== undefined && !this.#loaded.hasSlot(address, slot)) {
      throw new StateNotLoadedError(address, slot, this.#loader!.load(address, slot) ?? Promise.resolve())
    }
    return bytesOf(value)
  }

  /** State root of the head state. */
  get root(): Uint8Array {
    return this.#root
  }

  /** The state as of the end of block `number` (which the caller has checked is in the window). */
  at(number: bigint): StateReader {
    return new BlockState(this, number)
  }

  accountAt(address: string, number: bigint): AccountRecord | undefined {
    if (number >= this.#lastChange) return this.#accounts.get(address) ?? this.#missingAccount(address)
    const changes = this.#accountHistory.get(address)
    if (changes !== undefined) {
      const change = firstAfter(changes, number)
      if (change !== undefined) return change.before
    }
    return this.#accounts.get(address) ?? this.#missingAccount(address)
  }

  storageAt(address: string, slot: string, number: bigint): Uint8Array {
    if (number >= this.#lastChange) return this.#headSlot(address, slot)
    const changes = this.#storageHistory.get(address)?.get(slot)
    if (changes !== undefined) {
      const change = firstAfter(changes, number)
      if (change !== undefined) return bytesOf(change.before)
    }
    return this.#headSlot(address, slot)
  }

  /** The addresses of every account of the head state (a state dump reads them all). */
  addresses(): IterableIterator<string> {
    return this.#accounts.keys()
  }

  /** Every non-zero slot of an account at the head: a copy. */
  slots(address: string): Map<string, Uint8Array> {
    const slots = this.#storage.get(address)
    return slots === undefined ? new Map() : new Map([...slots].map(([slot, value]) => [slot, fromLatin1(value)]))
  }

  /** The `[address, slot]` pairs whose value block `number` changed, once each (empty once it left the window). */
  changedSlots(number: bigint): Array<readonly [address: string, slot: string]> {
    const keys = this.#byBlock.get(number)?.storage ?? []
    // A key is address (40 hex digits) + slot (64); a block committed twice (a test-control write) may list one twice.
    return [...new Set(keys)].map((key) => [key.slice(0, 40), key.slice(40)] as const)
  }

  /**
   * EIP-1186 proof of `address` and `slots` (unprefixed hex) as of the end of block `number`,
   * which the caller has checked is in the window.
   *
   * Only the head's trie nodes are kept, so the blocks after `number` are undone on a scratch
   * layer over the head's tries: every account they changed, and this account's slots they
   * changed, are put back as they were. Cost: (accounts changed after `number` + this account's
   * slots changed after `number`) × trie depth node hashes, plus one history lookup each; nothing
   * in proportion to the whole state, and nothing shared is written. At the head it is just the
   * proof walk.
   */
  prove(address: string, slots: readonly string[], number: bigint): Promise<AccountProof> {
    // Everything is read now, before any await: a block mined meanwhile (which may evict this
    // history or swap the node map for a rebuilt one) cannot change what is proven.
    const accounts = new Set<string>()
    const changed = new Set<string>()
    for (const [block, keys] of this.#byBlock) {
      if (block <= number) continue
      for (const account of keys.accounts) accounts.add(account)
      for (const key of keys.storage) if (key.startsWith(address)) changed.add(key.slice(40))
    }
    const source: ProofSource = {
      keccak: this.#keccak,
      tries: this.#tries,
      accounts: [...accounts].map((account) => [account, this.accountAt(account, number)] as const),
      address,
      slots: [...changed].map((slot) => [slot, this.storageAt(address, slot, number)] as const),
    }
    return buildProof(source, slots)
  }

  /**
   * EIP-1186 proof against `root`, a state computed on top of the head (the pending block's), as
   * long as the tries still hold its nodes; undefined once a rebuild has dropped them.
   */
  proveAtRoot(root: Uint8Array, address: string, slots: readonly string[]): Promise<AccountProof> | undefined {
    const tries = equal(root, this.#root) ? this.#tries : this.#computed !== undefined && equal(root, this.#computed.root) ? this.#computed.tries : undefined
    if (tries === undefined) return undefined
    return buildProof({ keccak: this.#keccak, tries, accounts: [], address, slots: [] }, slots)
  }

  /**
   * Computes the state root the head would have with `changes` applied, without applying them.
   * The tries are persistent, so the head's root stays valid whatever is computed here.
   */
  async computeRoot(changes: StateChanges): Promise<ComputedRoot> {
    const computed = this.#computeRoot(changes)
    this.#computed = computed
    return computed
  }

  #computeRoot(changes: StateChanges): ComputedRoot {
    return computeRoot({ accounts: this.#accounts, storage: this.#storage, tries: this.#tries, root: this.#root, keccak: this.#keccak, path: (key) => this.#path(key) }, changes)
  }

  /**
   * A trie key: keccak256 of the key's bytes, in nibbles. The last keys hashed are remembered: a
   * block's sender, fee recipient, system contracts and a test's contract come back block after block.
   */
  #path(key: string): NibblePath {
    let path = this.#paths.get(key)
    if (path === undefined) {
      path = keyOf(this.#keccak(Buffer.from(key, 'hex')))
      if (this.#paths.size >= PATH_CACHE_SIZE) this.#paths.clear()
      this.#paths.set(key, path)
    }
    return path
  }

  /**
   * Makes `changes` the head state, remembering for each changed key its value before `block`, so
   * that reads at earlier blocks of the window still see it.
   */
  async commit(changes: StateChanges, given: ComputedRoot, block: bigint): Promise<void> {
    // Roots computed on tries that are no longer the head's (a block committed in between) are redone.
    const computed = given.base === this.#tries ? given : this.#computeRoot(changes)
    const keys = this.#byBlock.get(block) ?? { accounts: [], storage: [] }
    this.#byBlock.set(block, keys)
    for (const [hash, code] of changes.code) this.#code.set(hash, code)
    for (const address of changes.cleared) {
      const slots = this.#storage.get(address)
      if (slots === undefined) continue
      for (const [slot, value] of slots) this.#recordSlot(keys, block, address, slot, value)
      this.#storage.delete(address)
    }
    for (const [address, writes] of changes.storage) {
      if (computed.accounts.get(address) === null) continue
      let slots = this.#storage.get(address)
      for (const [slot, bytes] of writes) {
        const value = toLatin1(bytes)
        const before = slots?.get(slot) ?? ''
        if (before === value) continue
        this.#recordSlot(keys, block, address, slot, before)
        if (value.length === 0) {
          slots?.delete(slot)
        } else {
          if (slots === undefined) this.#storage.set(address, (slots = new Map()))
          slots.set(slot, value)
        }
      }
      if (slots !== undefined && slots.size === 0) this.#storage.delete(address)
    }
    for (const [address, record] of computed.accounts) {
      const before = this.#accounts.get(address)
      if (record === null) {
        // A deleted account takes its storage with it.
        const slots = this.#storage.get(address)
        if (slots !== undefined) {
          for (const [slot, value] of slots) this.#recordSlot(keys, block, address, slot, value)
          this.#storage.delete(address)
        }
        if (before === undefined) continue
        this.#recordAccount(keys, block, address, before)
        this.#accounts.delete(address)
      } else {
        if (before !== undefined && sameAccount(before, record)) continue
        this.#recordAccount(keys, block, address, before)
        this.#accounts.set(address, record)
      }
    }
    // What the chain wrote itself (a deleted or wiped account's whole storage too) is no longer the upstream's.
    if (this.#loaded !== undefined) {
      const deleted = [...computed.accounts].filter(([, record]) => record === null).map(([address]) => address)
      this.#loaded.noteWrites(computed.accounts.keys(), changes.storage, [...changes.cleared, ...deleted])
    }
    this.#root = computed.root
    this.#tries = computed.tries
    if (this.#computed === computed) this.#computed = undefined
    // Code is kept by hash while any account of the window may still name it; unused code is
    // swept once the map has doubled since the last sweep.
    if (this.#code.size > 2 * this.#codeSwept + 64) this.#collectCode()
  }

  /** Makes `alloc` the genesis state: block 0, with no history (nothing reads the state from before genesis). */
  async commitGenesis(alloc: StateChanges): Promise<void> {
    await this.commit(alloc, await this.computeRoot(alloc), 0n)
    this.evict(0n)
  }

  /** Forgets what `block` changed: reads at blocks before it are no longer possible. */
  evict(block: bigint): void {
    const keys = this.#byBlock.get(block)
    if (keys === undefined) return
    this.#byBlock.delete(block)
    dropOldest(this.#accountHistory, keys.accounts, block)
    for (const key of keys.storage) {
      // A key is address (40 hex digits) + slot (64).
      const address = key.slice(0, 40)
      const slots = this.#storageHistory.get(address)
      if (slots === undefined) continue
      dropOldestOf(slots, key.slice(40), block)
      if (slots.size === 0) this.#storageHistory.delete(address)
    }
  }

  /**
   * Undoes every block after `number` (a reorg): the head state becomes the state at `number`
   * and the history those blocks recorded leaves with them. Costs what they changed, not the state's size.
   */
  rollback(number: bigint): void {
    const undone = [...this.#byBlock].filter(([block]) => block > number)
    const changes = emptyChanges()
    for (const [, keys] of undone) {
      for (const address of keys.accounts) changes.accounts.set(address, this.accountAt(address, number) ?? null)
      for (const key of keys.storage) {
        const [address, slot] = [key.slice(0, 40), key.slice(40)]
        let slots = changes.storage.get(address)
        if (slots === undefined) changes.storage.set(address, (slots = new Map()))
        slots.set(slot, this.storageAt(address, slot, number))
      }
    }
    const computed = this.#computeRoot(changes)
    for (const [address, writes] of changes.storage) {
      let slots = this.#storage.get(address)
      for (const [slot, value] of writes) {
        if (value.length > 0) (slots ??= this.#storage.set(address, new Map()).get(address)!).set(slot, toLatin1(value))
        else slots?.delete(slot)
      }
      if (slots?.size === 0) this.#storage.delete(address)
    }
    for (const [address, record] of computed.accounts) {
      if (record !== null) this.#accounts.set(address, record)
      else if (this.#accounts.delete(address)) this.#storage.delete(address)
    }
    dropAfter({ accountHistory: this.#accountHistory, storageHistory: this.#storageHistory, byBlock: this.#byBlock }, number)
    if (this.#lastChange > number) this.#lastChange = number
    this.#root = computed.root
    this.#tries = computed.tries
    this.#computed = undefined
  }

  snapshot(): WorldStateSnapshot {
    return cloneSnapshot({
      accounts: this.#accounts,
      storage: this.#storage,
      code: this.#code,
      accountHistory: this.#accountHistory,
      storageHistory: this.#storageHistory,
      byBlock: this.#byBlock,
      root: this.#root,
      tries: this.#tries,
      loaded: this.#loaded,
    })
  }

  /** Puts back a snapshot (which stays usable: it is copied, not adopted). */
  async restore(snapshot: WorldStateSnapshot): Promise<void> {
    const copy = cloneSnapshot(snapshot)
    this.#accounts = copy.accounts
    this.#storage = copy.storage
    this.#code = copy.code
    this.#accountHistory = copy.accountHistory
    this.#storageHistory = copy.storageHistory
    // At least the last block anything changed in: later reads are head reads.
    this.#lastChange = [...copy.byBlock.keys()].reduce((a, b) => (b > a ? b : a), -1n)
    this.#byBlock = copy.byBlock
    this.#loaded = copy.loaded
    // Trie nodes are immutable: the snapshot's tries are still exactly the state it copied.
    this.#tries = snapshot.tries
    this.#root = snapshot.root
    this.#computed = undefined
    this.#collectCode()
  }

  /** Number of trie nodes the head's tries hold (walks them all): for memory tests. */
  get trieNodeCount(): number {
    let n = trieNodeCount(this.#tries.accounts)
    for (const trie of this.#tries.storage.values()) n += trieNodeCount(trie)
    return n
  }

  #collectCode(): void {
    const live = new Set<string>([EMPTY_CODE_HASH])
    for (const record of this.#accounts.values()) live.add(bytesToUnprefixedHex(record.codeHash))
    for (const changes of this.#accountHistory.values()) {
      for (const change of changes) if (change.before !== undefined) live.add(bytesToUnprefixedHex(change.before.codeHash))
    }
    for (const hash of this.#code.keys()) if (!live.has(hash)) this.#code.delete(hash)
    this.#codeSwept = this.#code.size
  }

  #recordAccount(keys: BlockKeys, block: bigint, address: string, before: AccountRecord | undefined): void {
    let changes = this.#accountHistory.get(address)
    if (changes === undefined) this.#accountHistory.set(address, (changes = []))
    changes.push({ block, before })
    keys.accounts.push(address)
    if (block > this.#lastChange) this.#lastChange = block
  }

  #recordSlot(keys: BlockKeys, block: bigint, address: string, slot: string, before: Latin1): void {
    let slots = this.#storageHistory.get(address)
    if (slots === undefined) this.#storageHistory.set(address, (slots = new Map()))
    let changes = slots.get(slot)
    if (changes === undefined) slots.set(slot, (changes = []))
    changes.push({ block, before })
    keys.storage.push(address + slot)
    if (block > this.#lastChange) this.#lastChange = block
  }
}
