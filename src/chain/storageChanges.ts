/**
 * The storage changes each mined transaction made, recorded once while its block is mined, so that a
 * transaction's diff inside a block of many is answered without re-executing anything.
 *
 * Owns: noting which slots the SSTORE opcode writes during a transaction (a wrapper around the EVM's
 * own handler, given to the mining VM as a custom opcode) with their value before the transaction,
 * reading their value after it, and handing each block's list over to its record. The lists live
 * in a WeakMap keyed by the block's record, so they leave with the block (and come back with a
 * snapshot that holds it).
 * Leaves to others: block diffs (read from the state history, `state.ts`), names (`preimages.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { getOpcodesForHF, type EVMOpts } from '@ethereumjs/evm'
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
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

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number]
type OpHandler = ReturnType<typeof getOpcodesForHF>['handlers'] extends Map<number, infer H> ? H : never

const SSTORE = 0x55

export class StorageWriteRecorder {
  /** Slots the running transaction wrote: address + slot → value before the transaction. */
  #current = new Map<string, Uint8Array>()
  /** Transactions of the block being mined, in order: hash → their writes. */
  #block: { hash: string; writes: StorageWrite[] }[] = []
  readonly #byRecord = new WeakMap<BlockRecord, readonly (readonly StorageWrite[])[]>()
  readonly #read: (address: string, slot: string) => Uint8Array

  /** `read` gives the value the mining VM sees now (its state manager's view). */
  constructor(read: (address: string, slot: string) => Uint8Array) {
    this.#read = read
  }

  /** The SSTORE opcode of `common`'s fork, noting the slot and its value before the transaction. */
  opcode(common: Common): CustomOpcode {
    const original = getOpcodesForHF(common)
    const handler = original.handlers.get(SSTORE)!
    const info = original.opcodes.get(SSTORE)!
    const gasFunction = original.dynamicGasHandlers.get(SSTORE)
    const logicFunction: OpHandler = async (runState, c) => {
      const key = runState.stack.peek(1)[0]!
      const address = bytesToUnprefixedHex(runState.interpreter.getAddress().bytes)
      const slot = key.toString(16).padStart(64, '0')
      // The first write of a transaction sees the value it started with.
      if (!this.#current.has(address + slot)) this.#current.set(address + slot, this.#read(address, slot))
      await handler(runState, c)
    }
    return { opcode: SSTORE, opcodeName: info.name, baseFee: info.fee, logicFunction, ...(gasFunction === undefined ? {} : { gasFunction }) }
  }

  /** Listens to the transactions `vm` runs (system calls between them are not transactions). */
  attach(vm: VM): void {
    vm.events.on('beforeTx', () => {
      this.#current = new Map()
    })
    vm.events.on('afterTx', (event) => {
      const writes: StorageWrite[] = []
      for (const [key, before] of this.#current) {
        const address = key.slice(0, 40)
        const slot = key.slice(40)
        const after = this.#read(address, slot)
        if (!sameBytes(before, after)) writes.push({ address, slot, before, after })
      }
      this.#current = new Map()
      this.#block.push({ hash: bytesToUnprefixedHex(event.transaction.hash()), writes })
    })
  }

  /** Gives the writes of the block just mined to its record; forgets anything left from a failed one. */
  finishBlock(record: BlockRecord): void {
    const byHash = new Map(this.#block.map((t) => [t.hash, t.writes]))
    this.#block = []
    this.#current = new Map()
    if (record.transactions.length === 0) return
    const lists: (readonly StorageWrite[])[] = []
    for (const included of record.transactions) {
      const writes = byHash.get(bytesToUnprefixedHex(included.hash))
      if (writes === undefined) return // not mined here (an imported block): nothing recorded
      lists.push(writes)
    }
    this.#byRecord.set(record, lists)
  }

  /** Drops what a block being mined recorded so far (it was not committed). */
  discard(): void {
    this.#block = []
    this.#current = new Map()
  }

  /** The writes of transaction `index` of a mined block; undefined when the block was not mined here. */
  writesOf(record: BlockRecord, index: number): readonly StorageWrite[] | undefined {
    return this.#byRecord.get(record)?.[index]
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
