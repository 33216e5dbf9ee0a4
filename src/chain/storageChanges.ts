/**
 * Storage changes and listings for inspection: what a block or a transaction of the window changed,
 * and which slots an account holds at a block.
 *
 * Owns: recording, while a block is mined, the slots each transaction writes (a wrapper around the
 * EVM's SSTORE handler, given to the mining VM as a custom opcode) with their values before and
 * after it, so a transaction's diff inside a block of many needs no re-execution; reading block
 * diffs and an account's slots at a block from the state history. A block's transaction lists live
 * in a WeakMap keyed by its record, so they leave with the block (and come back with a snapshot
 * that holds it).
 * Leaves to others: the state and its history (`state.ts`), slot names (`preimages.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { equal, keyOf } from './encoding.js'
import { wrapOpcode } from './preimages.js'
import type { WorldState } from './state.js'
import type { BlockRecord } from './types.js'

/** One slot a transaction changed; values without leading zeros (empty = zero), as the state keeps them. */
export interface StorageWrite {
  /** Unprefixed lowercase hex, 20 bytes. */
  readonly address: string
  /** Unprefixed lowercase hex, 32 bytes. */
  readonly slot: string
  readonly before: Uint8Array
  readonly after: Uint8Array
}

const SSTORE = 0x55
/** The writes of a transaction that changed no slot (shared: write lists are only read). */
const NO_WRITES: StorageWrite[] = []

export class StorageWriteRecorder {
  /** Slots the running transaction wrote: address → slot → value before the transaction. */
  readonly #current = new Map<string, Map<string, Uint8Array>>()
  /**
   * Whether a transaction is running: the system calls around them (EIP-4788 and EIP-2935 at the
   * start of every block, the request contracts at its end) write slots too, and what they wrote
   * was noted and then thrown away, some 10 µs a block.
   */
  #inTransaction = false
  /** Transactions of the block being mined, in order, with their writes. */
  #block: { hash: Uint8Array; writes: readonly StorageWrite[] }[] = []
  readonly #byRecord = new WeakMap<BlockRecord, readonly (readonly StorageWrite[])[]>()
  readonly #read: (address: string, slot: string) => Uint8Array
  readonly #load: ((address: string, slot: string) => Promise<void> | undefined) | undefined

  /**
   * `read` gives the value the mining VM sees now (its state manager's view); `load`, on a forked
   * chain, fetches a slot the state does not hold yet before it is read.
   */
  constructor(read: (address: string, slot: string) => Uint8Array, load?: (address: string, slot: string) => Promise<void> | undefined) {
    this.#read = read
    this.#load = load
  }

  /**
   * The SSTORE opcode of `common`'s fork, noting the slot and its value before the transaction.
   * Not an async function: the EVM awaits what a custom opcode returns, and only a forked chain's
   * first write of a slot it does not hold waits for a load (a promise less per write otherwise).
   */
  opcode(common: Common): ReturnType<typeof wrapOpcode> {
    return wrapOpcode(common, SSTORE, (original) => (runState, c) => {
      if (!this.#inTransaction) return original(runState, c)
      const key = runState.stack.peek(1)[0]!
      const address = keyOf(runState.interpreter.getAddress().bytes)
      const slot = key.toString(16).padStart(64, '0')
      // The first write of a transaction sees the value it started with.
      if (this.#current.get(address)?.has(slot) !== true) {
        const loading = this.#load?.(address, slot)
        if (loading !== undefined) {
          return loading.then(() => {
            this.#noteBefore(address, slot)
            return original(runState, c)
          })
        }
        this.#noteBefore(address, slot)
      }
      return original(runState, c)
    })
  }

  /** Notes the value `slot` of `address` holds before the running transaction first writes it. */
  #noteBefore(address: string, slot: string): void {
    let slots = this.#current.get(address)
    if (slots === undefined) this.#current.set(address, (slots = new Map()))
    slots.set(slot, this.#read(address, slot))
  }

  /**
   * Starts a transaction of the block being mined: what SSTORE noted since (a system call's
   * writes) is not the transaction's. The miner calls it before each transaction it adds.
   */
  beginTransaction(): void {
    this.#current.clear()
    this.#inTransaction = true
  }

  /**
   * Ends the transaction `hash` the miner added since `beginTransaction`: each slot it wrote whose
   * value changed, by address and slot. Called right after the transaction ran (its state is
   * the one the mining VM sees), not for one that could not run.
   */
  endTransaction(hash: Uint8Array): void {
    let writes: StorageWrite[] = NO_WRITES
    for (const [address, slots] of this.#current) {
      for (const [slot, before] of slots) {
        const after = this.#read(address, slot)
        if (equal(before, after)) continue
        if (writes === NO_WRITES) writes = []
        writes.push({ address, slot, before, after })
      }
    }
    this.#current.clear()
    this.#inTransaction = false
    this.#block.push({ hash, writes: writes.length > 1 ? writes.sort(byAddressAndSlot) : writes })
  }

  /** Gives the writes of the block just mined to its record; forgets anything left from a failed one. */
  finishBlock(record: BlockRecord): void {
    const recorded = this.#block
    this.#block = []
    this.#current.clear()
    this.#inTransaction = false
    // Read off the block: its transaction records are built when first asked for.
    const txs = record.block.transactions
    if (txs.length === 0 || txs.length !== recorded.length) return
    // Not mined here (an imported block): nothing recorded.
    for (let i = 0; i < txs.length; i++) if (!equal(recorded[i]!.hash, txs[i]!.hash())) return
    this.#byRecord.set(record, recorded.map((t) => t.writes))
  }

  /** Drops what a block being mined recorded so far (it was not committed). */
  discard(): void {
    this.#block = []
    this.#current.clear()
    this.#inTransaction = false
  }

  /** The writes of transaction `index` of a mined block; undefined when the block was not mined here. */
  writesOf(record: BlockRecord, index: number): readonly StorageWrite[] | undefined {
    return this.#byRecord.get(record)?.[index]
  }
}

/** What block `number` changed, read from the state history (system calls and test-control writes included). */
export function blockChanges(world: WorldState, number: bigint): StorageWrite[] {
  const out: StorageWrite[] = []
  for (const [address, slot] of world.changedSlots(number)) {
    const before = world.storageAt(address, slot, number - 1n)
    const after = world.storageAt(address, slot, number)
    if (!equal(before, after)) out.push({ address, slot, before, after })
  }
  return out.sort(byAddressAndSlot)
}

/** The non-zero slots of `address` at block `number` of the window (`head` is the head's number): slot → value. */
export function accountSlots(world: WorldState, address: string, number: bigint, head: bigint): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>()
  if (number === head) {
    for (const [slot, value] of world.slots(address)) out.set(slot, value)
  } else {
    // The slots of the head, and those the later blocks changed (they may have held a value at `number`).
    const candidates = new Set(world.slots(address).keys())
    for (let b = number + 1n; b <= head; b++) for (const [a, slot] of world.changedSlots(b)) if (a === address) candidates.add(slot)
    for (const slot of candidates) {
      const value = world.storageAt(address, slot, number)
      if (value.length > 0) out.set(slot, value)
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function byAddressAndSlot(a: StorageWrite, b: StorageWrite): number {
  const x = a.address + a.slot
  const y = b.address + b.slot
  return x < y ? -1 : x > y ? 1 : 0
}
