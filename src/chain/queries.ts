/**
 * Read queries: what a block reference names, the state as of a block and its proofs, transactions
 * by hash, and storage inspection (a block's slots and what a block or a transaction changed).
 *
 * Owns: answering these synchronously from the window, the world state, the pool and the records
 * the miner keeps (preimages, per-transaction writes), without changing anything.
 * Leaves to others: building the pending block (the miner; `pendingBlock` is handed in), mining,
 * and every wire shape (`src/rpc/`).
 */
import { bytesToUnprefixedHex, setLengthLeft } from '@ethereumjs/util'
import { keyOf } from './encoding.js'
import { BlockOutOfWindowError, FutureBlockError, OrphanedBlockError, UnknownBlockError } from './errors.js'
import type { TxPool } from './pool.js'
import type { PreimageStore, SlotDerivation } from './preimages.js'
import type { AccountProof } from './proofs.js'
import type { StateReader, WorldState } from './state.js'
import { accountSlots, blockChanges, type StorageWrite, type StorageWriteRecorder } from './storageChanges.js'
import type { BlockRecord, BlockRef, BlockTag, IncludedTx, TxLookup } from './types.js'
import type { BlockWindow } from './window.js'

/** A non-zero storage slot (unprefixed hex; the value without leading zeros) and how it was computed, when known. */
export interface StorageSlot {
  readonly slot: string
  readonly value: Uint8Array
  readonly derivation: SlotDerivation | undefined
}

/** A slot a block or transaction changed, and how it was computed, when known. */
export interface StorageChange extends StorageWrite {
  readonly derivation: SlotDerivation | undefined
}

export class ChainQueries {
  readonly #window: BlockWindow
  readonly #world: WorldState
  readonly #pool: TxPool
  readonly #preimages: PreimageStore
  readonly #writes: StorageWriteRecorder
  readonly #safeLag: number
  readonly #finalizedLag: number
  readonly #pendingBlock: () => Promise<{ record: BlockRecord; state: StateReader }>

  constructor(parts: {
    window: BlockWindow
    world: WorldState
    pool: TxPool
    preimages: PreimageStore
    writes: StorageWriteRecorder
    safeLag: number
    finalizedLag: number
    pendingBlock: () => Promise<{ record: BlockRecord; state: StateReader }>
  }) {
    this.#window = parts.window
    this.#world = parts.world
    this.#pool = parts.pool
    this.#preimages = parts.preimages
    this.#writes = parts.writes
    this.#safeLag = parts.safeLag
    this.#finalizedLag = parts.finalizedLag
    this.#pendingBlock = parts.pendingBlock
  }

  /** Number of the block a tag names (`pending` names the head here; see `pendingBlock`). */
  tagNumber(tag: BlockTag): bigint {
    switch (tag) {
      case 'latest':
      case 'pending':
        return this.#window.head.number
      case 'earliest':
        return this.#window.oldest.number
      case 'safe':
        return this.#lagged(this.#safeLag)
      case 'finalized':
        return this.#lagged(this.#finalizedLag)
    }
  }

  // A method, not a closure in `tagNumber`: that runs on every state read, and the CLI bundle keeps
  // names, which costs each closure a `defineProperty` per call.
  #lagged(lag: number): bigint {
    const n = this.#window.head.number - BigInt(lag)
    return n < this.#window.oldest.number ? this.#window.oldest.number : n
  }

  /**
   * The block a reference names. A number before the window: `BlockOutOfWindowError`; after the
   * head: `FutureBlockError`; an unknown hash: `UnknownBlockError`; the hash of a block a reorg
   * took off: `OrphanedBlockError`.
   */
  resolveBlock(ref: BlockRef): BlockRecord {
    if (ref.kind === 'hash') {
      const key = bytesToUnprefixedHex(ref.hash)
      const found = this.#window.byHash(key)
      if (found === undefined) throw this.#window.isOrphaned(key) ? new OrphanedBlockError() : new UnknownBlockError()
      return found
    }
    const number = ref.kind === 'tag' ? this.tagNumber(ref.tag) : ref.number
    const head = this.#window.head.number
    if (number > head) throw new FutureBlockError(number)
    const found = this.#window.byNumber(number)
    if (found === undefined) throw new BlockOutOfWindowError(number, this.#window.oldest.number, head)
    return found
  }

  /** The state as of a block reference; `pending` is the head plus the executable pool transactions. */
  async stateAt(ref: BlockRef): Promise<StateReader> {
    if (ref.kind === 'tag' && ref.tag === 'pending') return (await this.#pendingBlock()).state
    // By number, not "the head": a view stays on its block while later blocks are mined.
    return this.#world.at(this.resolveBlock(ref).number)
  }

  /** Synchronous state view for references other than `pending`. */
  stateAtBlock(record: BlockRecord): StateReader {
    return record === this.#window.head ? this.#world.head : this.#world.at(record.number)
  }

  /**
   * EIP-1186 proof of an account and some of its 32-byte slots at `ref`: any block of the window
   * (see `WorldState.prove` for what an older block costs) or the pending block.
   */
  async proof(address: Uint8Array, slots: readonly Uint8Array[], ref: BlockRef): Promise<AccountProof> {
    const key = bytesToUnprefixedHex(address)
    const slotKeys = slots.map((slot) => bytesToUnprefixedHex(setLengthLeft(slot, 32)))
    if (ref.kind === 'tag' && ref.tag === 'pending') {
      // The pending block's trie nodes are in the shared node map until the next rebuild, which
      // only a new block or a state write (each dropping that pending block) triggers: if one came
      // in between, prove the pending block built after it.
      for (let attempt = 0; ; attempt++) {
        const { record } = await this.#pendingBlock()
        const proof = this.#world.proveAtRoot(record.block.header.stateRoot, key, slotKeys)
        if (proof !== undefined) return proof
        if (attempt > 0) throw new Error('the pending state changed while it was being proven')
      }
    }
    return this.#world.prove(key, slotKeys, this.resolveBlock(ref).number)
  }

  /** A transaction by hash: pending, included in a block of the window, or unknown (undefined). */
  lookupTransaction(hash: Uint8Array): TxLookup | undefined {
    const key = keyOf(hash)
    const included = this.#window.included(key)
    if (included !== undefined) return { status: 'included', included }
    const pending = this.#pool.get(key)
    if (pending !== undefined) return { status: 'pending', pending }
    return undefined
  }

  /** The non-zero slots of an account at a block of the window, each with how it was computed when the recorded preimages tell. */
  storageSlots(address: Uint8Array, record: BlockRecord): StorageSlot[] {
    const key = bytesToUnprefixedHex(address)
    return [...accountSlots(this.#world, key, record.number, this.#window.head.number)].map(([slot, value]) => ({ slot, value, derivation: this.#preimages.derivation(key, slot) }))
  }

  /** The storage changes a block of the window made (system calls and test-control writes included). */
  blockStorageChanges(record: BlockRecord): StorageChange[] {
    return blockChanges(this.#world, record.number).map((w) => this.#named(w))
  }

  /** The storage changes an included transaction made; undefined when its block was imported rather than mined here. */
  transactionStorageChanges(included: IncludedTx): StorageChange[] | undefined {
    const record = this.#window.byNumber(included.blockNumber)
    return record === undefined ? undefined : this.#writes.writesOf(record, included.index)?.map((w) => this.#named(w))
  }

  #named(write: StorageWrite): StorageChange {
    return { ...write, derivation: this.#preimages.derivation(write.address, write.slot) }
  }
}
