/**
 * Keccak preimages of storage slots, as geth's preimage store keeps them, so that a written slot can
 * be named (`0[0x7099…]`: the entry of key 0x7099… of the mapping at slot 0) without anyone naming
 * the key.
 *
 * Owns: recording the inputs of the KECCAK256 opcode while blocks are mined (a wrapper around the
 * EVM's own handler, given to the mining VM as a custom opcode), keeping those that produced a slot
 * the block wrote, deriving a slot's path (root slot, mapping keys, keccak and offsets) from them, and
 * keeping memory flat.
 * Leaves to others: which blocks are in the window and the state itself (`chain.ts`, `state.ts`),
 * what the path means for a given contract (the solc storage layout: `src/inspect/`).
 *
 * Bounded: a block's hashes are only candidates until it is committed; a preimage is kept only while
 * a slot derived from it is named, and a slot stays named while it is non-zero at the head, or at the
 * oldest block of the window, or was last written by a block of the window. Dead names are swept when
 * they outnumber the live ones (amortized, like the trie garbage in `state.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { getOpcodesForHF, paramsEVM, type EVMOpts } from '@ethereumjs/evm'
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import { fastStockHandler } from './execution/fastOpcodes.js'

/** One step from a slot to the slot it derives: a mapping entry, the data area of a dynamic value, or an offset. */
export type SlotStep =
  /** `keccak256(key ++ slot)`: `key` is the 32-byte word of a value-type key, or the raw bytes of a string/bytes key. */
  | { readonly kind: 'mapping'; readonly key: Uint8Array }
  /** `keccak256(slot)`: where the elements of a dynamic array or the data of a long string/bytes start. */
  | { readonly kind: 'keccak' }
  /** `+ by`: a struct member, an array element, a chunk of a string. */
  | { readonly kind: 'offset'; readonly by: bigint }

/** How a slot was computed: from a root slot (a state variable's, or an unknown constant), step by step. */
export interface SlotDerivation {
  readonly root: bigint
  readonly steps: readonly SlotStep[]
}

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number]
/** An opcode's logic, as the EVM runs it. */
export type OpHandler = ReturnType<typeof getOpcodesForHF>['handlers'] extends Map<number, infer H> ? H : never

/**
 * The EVM's own opcode `code` under `common`'s fork (its gas rules untouched), its logic wrapped by
 * `wrap`: a custom opcode for `evmOpts.customOpcodes`.
 */
export function wrapOpcode(common: Common, code: number, wrap: (original: OpHandler) => OpHandler): CustomOpcode {
  // The EVM adds its parameters (gas prices) to the Common it is given; a copy gets them here first.
  const withParams = common.copy()
  withParams.updateParams(paramsEVM)
  const table = getOpcodesForHF(withParams)
  const info = table.opcodes.get(code)!
  const gasFunction = table.dynamicGasHandlers.get(code)
  return {
    opcode: code,
    opcodeName: info.name,
    baseFee: info.fee,
    // ethereumjs's handler, or its fast copy where one is made from it (SSTORE: see `fastOpcodes.ts`).
    logicFunction: wrap(fastStockHandler(code, table.handlers.get(code)!)),
    ...(gasFunction === undefined ? {} : { gasFunction }),
  }
}

interface Entry {
  readonly preimage: Uint8Array
  /** The kept hash the preimage's slot part derives from, if any. */
  readonly parent: string | undefined
  /** Named slots and entries that point at this one. */
  refs: number
}

interface Named {
  /** The hash (unprefixed hex) the slot is an offset of. */
  readonly base: string
  /** The last mined block that wrote the slot. */
  written: bigint
}

export interface PreimageSnapshot {
  readonly entries: Map<string, Entry>
  readonly named: Map<string, Named>
}

/** Reads the head state and the state at the oldest block of the window, for the sweep. */
export interface LivenessProbe {
  readonly oldest: bigint
  head(address: string, slot: string): Uint8Array
  atOldest(address: string, slot: string): Uint8Array
}

/** A slot is at most this far from the hash it derives from (array index times element size, struct member). */
const MAX_OFFSET = 1n << 32n
/** Hash inputs recorded: a slot (32 bytes, dynamic data) up to a 1 KiB string key plus its slot. */
const MIN_INPUT = 32
const MAX_INPUT = 1024 + 32
/** Candidates of one block: a loop hashing millions of words must not grow memory without limit. */
const MAX_CANDIDATES = 1 << 16
/** Dead names tolerated before a sweep: at least this many, and as many as were live after the last one. */
const SWEEP_MIN_SLACK = 10_000

const KECCAK256 = 0x20

export class PreimageStore {
  /** Hashes computed by the block being mined: hash → input. */
  #candidates = new Map<string, Uint8Array>()
  #entries = new Map<string, Entry>()
  /** address + slot → what it derives from. */
  #named = new Map<string, Named>()
  #liveAfterSweep = 0
  readonly #sweepSlack: number

  /** `sweepSlack`: dead names tolerated before a sweep, at least (default 10,000; tests lower it). */
  constructor(options: { sweepSlack?: number } = {}) {
    this.#sweepSlack = options.sweepSlack ?? SWEEP_MIN_SLACK
  }

  /** Number of preimages and named slots held (for memory tests). */
  get size(): { readonly preimages: number; readonly slots: number } {
    return { preimages: this.#entries.size, slots: this.#named.size }
  }

  /**
   * The KECCAK256 opcode of `common`'s fork, recording what it hashes. Give it to the VM that mines
   * (`evmOpts.customOpcodes`); calls and the pending block run without it.
   */
  opcode(common: Common): CustomOpcode {
    return wrapOpcode(common, KECCAK256, (original) => (runState, c) => {
      const [offset, length] = runState.stack.peek(2) as [bigint, bigint]
      original(runState, c)
      if (length < MIN_INPUT || length > MAX_INPUT || this.#candidates.size >= MAX_CANDIDATES) return
      this.record(runState.stack.peek(1)[0]!.toString(16).padStart(64, '0'), runState.memory.read(Number(offset), Number(length)))
    })
  }

  /** Notes that the block being mined hashed `input` to `hash` (unprefixed hex); the opcode calls it. */
  record(hash: string, input: Uint8Array): void {
    this.#candidates.set(hash, input)
  }

  /**
   * Ends a mined block: names each slot it wrote that derives from a hash it computed, then forgets
   * the other hashes.
   */
  commit(block: bigint, written: Iterable<readonly [address: string, slot: string]>): void {
    const candidates = this.#candidates
    this.#candidates = new Map()
    if (candidates.size === 0) {
      for (const [address, slot] of written) {
        const named = this.#named.get(address + slot)
        if (named !== undefined) named.written = block
      }
      return
    }
    let sorted: bigint[] | undefined
    const baseOf = (slot: bigint, hex: string): string | undefined => {
      if (candidates.has(hex) || this.#entries.has(hex)) return hex
      sorted ??= [...candidates.keys()].map((k) => BigInt('0x' + k)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      const below = nearestBelow(sorted, slot)
      return below !== undefined && slot - below < MAX_OFFSET ? below.toString(16).padStart(64, '0') : undefined
    }
    const keep = (hash: string): void => {
      const existing = this.#entries.get(hash)
      if (existing !== undefined) {
        existing.refs++
        return
      }
      const preimage = candidates.get(hash)!
      const parentHex = bytesToUnprefixedHex(preimage.subarray(preimage.length - 32))
      const parentSlot = BigInt('0x' + parentHex)
      const parent = parentSlot < MAX_OFFSET ? undefined : baseOf(parentSlot, parentHex)
      if (parent !== undefined) keep(parent)
      this.#entries.set(hash, { preimage, parent, refs: 1 })
    }
    for (const [address, slot] of written) {
      const key = address + slot
      const named = this.#named.get(key)
      if (named !== undefined) {
        named.written = block
        continue
      }
      const value = BigInt('0x' + slot)
      if (value < MAX_OFFSET) continue // a root slot: nothing to name
      const base = baseOf(value, slot)
      if (base === undefined) continue
      keep(base)
      this.#named.set(key, { base, written: block })
    }
  }

  /** Forgets the hashes of a block that was not committed. */
  discard(): void {
    this.#candidates = new Map()
  }

  /** Drops the names of slots that no block of the window can show any more, when enough have died. */
  sweep(probe: LivenessProbe): void {
    if (this.#named.size <= 2 * this.#liveAfterSweep + this.#sweepSlack) return
    for (const [key, named] of this.#named) {
      if (named.written >= probe.oldest) continue
      const address = key.slice(0, 40)
      const slot = key.slice(40)
      if (probe.head(address, slot).length > 0 || probe.atOldest(address, slot).length > 0) continue
      this.#named.delete(key)
      this.#release(named.base)
    }
    this.#liveAfterSweep = this.#named.size
  }

  /** How `slot` of `address` was computed, as far as the recorded preimages tell; undefined for an unknown large slot. */
  derivation(address: string, slot: string): SlotDerivation | undefined {
    const value = BigInt('0x' + slot)
    const named = this.#named.get(address + slot)
    if (named === undefined) return value < MAX_OFFSET ? { root: value, steps: [] } : undefined
    const reversed: SlotStep[] = []
    let offset = value - BigInt('0x' + named.base)
    let hash: string | undefined = named.base
    let root = 0n
    while (hash !== undefined) {
      const entry: Entry = this.#entries.get(hash)!
      if (offset > 0n) reversed.push({ kind: 'offset', by: offset })
      const preimage = entry.preimage
      reversed.push(preimage.length === 32 ? { kind: 'keccak' } : { kind: 'mapping', key: preimage.slice(0, preimage.length - 32) })
      const parentSlot = BigInt('0x' + bytesToUnprefixedHex(preimage.subarray(preimage.length - 32)))
      hash = entry.parent
      if (hash === undefined) root = parentSlot
      else offset = parentSlot - BigInt('0x' + hash)
    }
    return { root, steps: reversed.reverse() }
  }

  /** The recorded input of a kept hash (32 bytes, unprefixed hex), if any. */
  preimage(hash: string): Uint8Array | undefined {
    return this.#entries.get(hash)?.preimage
  }

  snapshot(): PreimageSnapshot {
    return copy({ entries: this.#entries, named: this.#named })
  }

  /** Puts back a snapshot (copied: it stays usable). */
  restore(snapshot: PreimageSnapshot): void {
    const c = copy(snapshot)
    this.#entries = c.entries
    this.#named = c.named
    this.#candidates = new Map()
    this.#liveAfterSweep = this.#named.size
  }

  #release(hash: string | undefined): void {
    while (hash !== undefined) {
      const entry = this.#entries.get(hash)
      if (entry === undefined || --entry.refs > 0) return
      this.#entries.delete(hash)
      hash = entry.parent
    }
  }
}

function copy(s: PreimageSnapshot): PreimageSnapshot {
  return {
    entries: new Map([...s.entries].map(([k, e]) => [k, { ...e }])),
    named: new Map([...s.named].map(([k, n]) => [k, { ...n }])),
  }
}

/** The largest element of `sorted` that is at most `value`. */
function nearestBelow(sorted: readonly bigint[], value: bigint): bigint | undefined {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= value) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? undefined : sorted[lo - 1]
}
