/**
 * The state manager the VM executes against: a stack of write layers over a `StateReader`.
 *
 * Owns: the VM's view of state during one block (or one call), checkpoints, commits and reverts of
 * that view, and handing the net changes to `WorldState` when the block is done.
 * Leaves to others: where reads come from (the head, or a block of the window: the reader decides),
 * state roots and history (`state.ts`).
 *
 * Why not ethereumjs's MerkleStateManager: it writes every block into a trie that keeps all nodes
 * forever, and it cannot read an older block without those nodes. Here a block's writes stay in
 * plain maps until the block is committed, so calls at any block of the window are cheap views.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { OriginalStorageCache } from '@ethereumjs/statemanager'
import {
  Account,
  KECCAK256_NULL,
  KECCAK256_RLP,
  type Address,
} from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { keyOf, unpad } from './encoding.js'
import { EMPTY, emptyChanges, type ComputedRoot, type StateChanges, type StateReader } from './state.js'
import type { AccountRecord } from './types.js'

type Keccak = (data: Uint8Array) => Uint8Array

/** Computes roots for pending changes; given by the world state for the head, absent for views. */
export type RootComputer = (changes: StateChanges) => Promise<ComputedRoot>

export class RingStateManager implements StateManagerInterface {
  readonly originalStorageCache: OriginalStorageCache
  #reader: StateReader
  #layers: StateChanges[] = [emptyChanges()]
  readonly #keccak: Keccak
  readonly #computeRoot: RootComputer | undefined
  #rootCache: { version: number; computed: ComputedRoot } | undefined
  #version = 0

  constructor(reader: StateReader, options: { keccak?: Keccak; computeRoot?: RootComputer } = {}) {
    this.#reader = reader
    this.#keccak = options.keccak ?? keccak_256
    this.#computeRoot = options.computeRoot
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this))
  }

  /** The net changes of everything committed so far (the bottom layer). */
  get changes(): StateChanges {
    return this.#layers[0]!
  }

  /** Drops all pending writes and reads from `reader` from now on. */
  reset(reader?: StateReader): void {
    if (reader !== undefined) this.#reader = reader
    this.#layers = [emptyChanges()]
    this.#rootCache = undefined
    this.#version++
    this.originalStorageCache.clear()
  }

  // --- reads ---------------------------------------------------------------------------------

  /** The account record as this view sees it (undefined: no account). */
  accountRecord(address: string): AccountRecord | undefined {
    for (let i = this.#layers.length - 1; i >= 0; i--) {
      const layer = this.#layers[i]!
      const record = layer.accounts.get(address)
      if (record !== undefined) return record ?? undefined
    }
    return this.#reader.account(address)
  }

  storageValue(address: string, slot: string): Uint8Array {
    for (let i = this.#layers.length - 1; i >= 0; i--) {
      const layer = this.#layers[i]!
      const value = layer.storage.get(address)?.get(slot)
      if (value !== undefined) return value
      if (layer.cleared.has(address) || layer.accounts.get(address) === null) return EMPTY
    }
    return this.#reader.storage(address, slot)
  }

  codeOf(codeHash: Uint8Array): Uint8Array {
    const key = keyOf(codeHash)
    for (let i = this.#layers.length - 1; i >= 0; i--) {
      const code = this.#layers[i]!.code.get(key)
      if (code !== undefined) return code
    }
    return this.#reader.code(key) ?? EMPTY
  }

  /**
   * On a forked chain, fetches what the reader does not hold yet (see `StateReader.load`); the VM's
   * reads below wait for it, so that the synchronous reads under them always find their value.
   */
  load(address: string, slot?: string): Promise<void> | undefined {
    return this.#reader.load?.(address, slot)
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = keyOf(address.bytes)
    const loading = this.#reader.load?.(key)
    if (loading !== undefined) await loading
    const record = this.accountRecord(key)
    if (record === undefined) return undefined
    return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash, record.codeSize)
  }

  getCode(address: Address): Promise<Uint8Array> {
    return this.codeByKey(keyOf(address.bytes))
  }

  /** `getCode` by the address's key (lowercase hex, as `keyOf` writes it). */
  async codeByKey(key: string): Promise<Uint8Array> {
    const loading = this.#reader.load?.(key)
    if (loading !== undefined) await loading
    const record = this.accountRecord(key)
    return record === undefined ? EMPTY : this.codeOf(record.codeHash)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long')
    const owner = keyOf(address.bytes)
    const slot = keyOf(key)
    const loading = this.#reader.load?.(owner, slot)
    if (loading !== undefined) await loading
    return this.storageValue(owner, slot)
  }

  // --- writes --------------------------------------------------------------------------------

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    const key = keyOf(address.bytes)
    const previous = this.accountRecord(key)
    this.#top().accounts.set(key, {
      nonce: account.nonce,
      balance: account.balance,
      storageRoot: account.storageRoot,
      codeHash: account.codeHash,
      codeSize: account.codeSize ?? previous?.codeSize ?? 0,
    })
    this.#version++
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = keyOf(address.bytes)
    const top = this.#top()
    top.accounts.set(key, null)
    top.storage.delete(key)
    top.cleared.add(key)
    this.#version++
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    account.nonce = fields.nonce ?? account.nonce
    account.balance = fields.balance ?? account.balance
    account.storageRoot = fields.storageRoot ?? account.storageRoot
    account.codeHash = fields.codeHash ?? account.codeHash
    account.codeSize = fields.codeSize ?? account.codeSize
    await this.putAccount(address, account)
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = keyOf(address.bytes)
    const codeHash = value.length === 0 ? KECCAK256_NULL : this.#keccak(value)
    const top = this.#top()
    top.code.set(keyOf(codeHash), value)
    const previous = this.accountRecord(key)
    top.accounts.set(key, {
      nonce: previous?.nonce ?? 0n,
      balance: previous?.balance ?? 0n,
      storageRoot: previous?.storageRoot ?? KECCAK256_RLP,
      codeHash,
      codeSize: value.length,
    })
    this.#version++
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long')
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes')
    this.putStorageByKey(keyOf(address.bytes), keyOf(key), value)
  }

  /** `putStorage` by the keys of the address and the slot (lowercase hex, as `keyOf` writes them), `value` at most 32 bytes. */
  putStorageByKey(address: string, slot: string, value: Uint8Array): void {
    const top = this.#top()
    let slots = top.storage.get(address)
    if (slots === undefined) top.storage.set(address, (slots = new Map()))
    slots.set(slot, unpad(value))
    this.#version++
  }

  async clearStorage(address: Address): Promise<void> {
    const key = keyOf(address.bytes)
    const top = this.#top()
    top.storage.delete(key)
    top.cleared.add(key)
    this.#version++
  }

  // --- journal -------------------------------------------------------------------------------

  async checkpoint(): Promise<void> {
    this.#layers.push(emptyChanges())
  }

  async commit(): Promise<void> {
    if (this.#layers.length < 2) throw new Error('commit without a checkpoint')
    const top = this.#layers.pop()!
    mergeInto(this.#top(), top)
    if (this.#layers.length === 1) this.originalStorageCache.clear()
  }

  async revert(): Promise<void> {
    if (this.#layers.length < 2) throw new Error('revert without a checkpoint')
    this.#layers.pop()
    this.#version++
    if (this.#layers.length === 1) this.originalStorageCache.clear()
  }

  // --- roots ---------------------------------------------------------------------------------

  /** State root with every pending write applied (all layers, committed or not). */
  async getStateRoot(): Promise<Uint8Array> {
    return (await this.computeRoot()).root
  }

  /** Roots for the pending writes; cached until the next write. */
  async computeRoot(): Promise<ComputedRoot> {
    if (this.#computeRoot === undefined) throw new Error('this state view has no state root')
    if (this.#rootCache?.version === this.#version) return this.#rootCache.computed
    const version = this.#version
    // The only layer with writes (a block's, under its checkpoint over the empty bottom layer) is
    // the net effect: read as it is, not copied (the computation only reads the changes, and a
    // later write makes a new version).
    const written = this.#layers.filter((layer) => !isEmpty(layer))
    let flattened = written[0] ?? this.#layers[0]!
    if (written.length > 1) {
      flattened = emptyChanges()
      for (const layer of written) mergeInto(flattened, layer)
    }
    const computed = await this.#computeRoot(flattened)
    this.#rootCache = { version, computed }
    return computed
  }

  async setStateRoot(): Promise<void> {
    throw new Error('setStateRoot is not supported: the chain moves state through snapshots')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('shallowCopy is not supported: build a view on the world state instead')
  }

  #top(): StateChanges {
    return this.#layers[this.#layers.length - 1]!
  }
}

function isEmpty(changes: StateChanges): boolean {
  return changes.accounts.size === 0 && changes.storage.size === 0 && changes.cleared.size === 0 && changes.code.size === 0
}

/** Applies the writes of `upper` on top of `lower`. */
function mergeInto(lower: StateChanges, upper: StateChanges): void {
  for (const address of upper.cleared) {
    lower.cleared.add(address)
    lower.storage.delete(address)
  }
  for (const [address, record] of upper.accounts) {
    lower.accounts.set(address, record)
    if (record === null) lower.storage.delete(address)
  }
  for (const [address, slots] of upper.storage) {
    let target = lower.storage.get(address)
    if (target === undefined) lower.storage.set(address, (target = new Map()))
    for (const [slot, value] of slots) target.set(slot, value)
  }
  for (const [hash, code] of upper.code) lower.code.set(hash, code)
}
