/**
 * Solidity's storage rules as functions: where a state variable, a packed field, a mapping entry, an
 * array element, a struct member, the data of a string and an ERC-7201 namespace live.
 *
 * Owns: slot arithmetic only (bigint slots, bytes keys, 32-byte words). Leaves reading storage and
 * naming variables to `read.ts` and `layout.ts` beside this file.
 *
 * The rules (https://docs.soliditylang.org, "Layout of State Variables in Storage"):
 * - value types smaller than 32 bytes share a slot, from its low-order end (`offset` counts bytes from the right);
 * - a mapping entry lives at `keccak256(key ++ slot)`: value-type keys as their 32-byte ABI word,
 *   `string`/`bytes` keys as their raw bytes (unpadded); nested mappings hash the outer key first;
 * - a dynamic array keeps its length at its slot and its elements from `keccak256(slot)`, packed
 *   like a fixed array's (elements of 16 bytes or less share slots, others take whole slots);
 * - a struct's members and a fixed array's elements follow its slot;
 * - `string`/`bytes` of up to 31 bytes live in their slot (data left-aligned, `length * 2` in the
 *   last byte); longer ones keep `length * 2 + 1` there and the data from `keccak256(slot)`;
 * - ERC-7201: `keccak256(keccak256(id) - 1) & ~0xff`.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

const TWO_256 = 1n << 256n
const MASK_256 = TWO_256 - 1n

/** A slot or unsigned value as a 32-byte big-endian word. */
export function toWord(value: bigint): Uint8Array {
  if (value < 0n || value >= TWO_256) throw new RangeError(`${value} does not fit in 32 bytes`)
  const out = new Uint8Array(32)
  let v = value
  for (let i = 31; i >= 0 && v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn)
  return out
}

/** A slot or unsigned value as a 32-byte word in hex: 0x + 64 digits. */
export function hexWord(value: bigint): string {
  return '0x' + bytesToHex(toWord(value))
}

// Without Buffer: src/inspect/ runs in the inspector page too (src/inspector-ui/).
const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Bytes as lowercase hex, no prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += HEX_DIGITS[b]
  return out
}

/** Hex digits (no prefix) as bytes; a trailing odd digit and non-hex pairs read as Buffer reads them (dropped, stop). */
export function fromHex(digits: string): Uint8Array {
  const out = new Uint8Array(digits.length >> 1)
  for (let i = 0; i < out.length; i++) {
    const pair = digits.slice(i * 2, i * 2 + 2)
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return out.slice(0, i)
    out[i] = Number.parseInt(pair, 16)
  }
  return out
}

/** A big-endian byte string as an unsigned integer (the empty string is 0). */
export function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}

/** keccak256 of `data`, as a slot number. */
export function keccakSlot(data: Uint8Array): bigint {
  return toBigInt(keccak_256(data))
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

// --- value types and packing -------------------------------------------------------------------

/**
 * The value of a packed field: `size` bytes at `offset` bytes from the low-order end of the word.
 *
 * @example packedField(word, 4, 20) // the address after a uint8, a uint16 and a bool
 */
export function packedField(word: Uint8Array | bigint, offset: number, size: number): bigint {
  if (offset < 0 || size < 1 || offset + size > 32) throw new RangeError(`no field of ${size} bytes at offset ${offset} in a 32-byte word`)
  const value = typeof word === 'bigint' ? word : toBigInt(word)
  return (value >> BigInt(offset * 8)) & ((1n << BigInt(size * 8)) - 1n)
}

/** A signed integer of `bits` from its two's-complement field value. */
export function toSigned(value: bigint, bits: number): bigint {
  const top = 1n << BigInt(bits - 1)
  return value >= top ? value - (1n << BigInt(bits)) : value
}

// --- mapping keys ------------------------------------------------------------------------------

/** A mapping key's type, as far as its encoding goes. */
export type KeyKind =
  | { readonly kind: 'uint'; readonly bits: number }
  | { readonly kind: 'int'; readonly bits: number }
  | { readonly kind: 'address' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'fixedBytes'; readonly size: number }
  | { readonly kind: 'string' }
  | { readonly kind: 'bytes' }

/**
 * The bytes a mapping key is hashed as: the 32-byte ABI word of a value type (unsigned and address
 * left-padded, signed sign-extended, `bytesN` right-padded), the UTF-8 or raw bytes of a string or
 * `bytes` key (unpadded).
 *
 * @example encodeKey({ kind: 'fixedBytes', size: 4 }, Uint8Array.of(0xde, 0xad, 0xbe, 0xef)) // 0xdeadbeef00…00
 */
export function encodeKey(kind: KeyKind, value: bigint | boolean | string | Uint8Array): Uint8Array {
  switch (kind.kind) {
    case 'uint':
    case 'address': {
      const bits = kind.kind === 'address' ? 160 : kind.bits
      const v = typeof value === 'bigint' ? value : toBigInt(asBytes(value))
      if (v < 0n || v >= 1n << BigInt(bits)) throw new RangeError(`${v} does not fit in ${kind.kind === 'address' ? 'an address' : `uint${bits}`}`)
      return toWord(v)
    }
    case 'int': {
      if (typeof value !== 'bigint') throw new TypeError('a signed key must be a bigint')
      const limit = 1n << BigInt(kind.bits - 1)
      if (value < -limit || value >= limit) throw new RangeError(`${value} does not fit in int${kind.bits}`)
      return toWord(value & MASK_256)
    }
    case 'bool':
      return toWord(value === true || value === 1n ? 1n : 0n)
    case 'fixedBytes': {
      const bytes = asBytes(value)
      if (bytes.length !== kind.size) throw new RangeError(`a bytes${kind.size} key has ${kind.size} bytes, got ${bytes.length}`)
      const out = new Uint8Array(32)
      out.set(bytes, 0)
      return out
    }
    case 'string':
      return typeof value === 'string' ? new TextEncoder().encode(value) : asBytes(value)
    case 'bytes':
      return asBytes(value)
  }
}

function asBytes(value: bigint | boolean | string | Uint8Array): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (typeof value === 'bigint') return toWord(value)
  throw new TypeError(`expected bytes, got ${typeof value}`)
}

/**
 * The slot of `mapping[key]` for a mapping at `slot`; `key` as `encodeKey` gives it (or a bigint:
 * an unsigned value or address, left-padded).
 *
 * @example mappingSlot(0n, 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n) // _balances[account] of an OpenZeppelin ERC-20
 */
export function mappingSlot(slot: bigint, key: Uint8Array | bigint): bigint {
  return keccakSlot(concat(typeof key === 'bigint' ? toWord(key) : key, toWord(slot)))
}

/** The slot of `mapping[k0][k1]…` (outer key first). */
export function nestedMappingSlot(slot: bigint, keys: readonly (Uint8Array | bigint)[]): bigint {
  return keys.reduce<bigint>((s, key) => mappingSlot(s, key), slot)
}

// --- arrays and structs ------------------------------------------------------------------------

/** Where an element or field sits: its slot and its offset (bytes from the low-order end). */
export interface Location {
  readonly slot: bigint
  readonly offset: number
}

/** How many elements of `elementBytes` share one slot (1 for elements of more than 16 bytes). */
export function elementsPerSlot(elementBytes: number): number {
  return elementBytes < 32 ? Math.floor(32 / elementBytes) : 1
}

/** Slots one element takes (0 when several share a slot: see `elementsPerSlot`). */
export function slotsPerElement(elementBytes: number): bigint {
  return elementBytes < 32 ? 0n : BigInt(Math.ceil(elementBytes / 32))
}

/**
 * Element `index` of the elements laid out from slot `base`, each `elementBytes` long (a value type
 * of 16 bytes or less shares slots; a struct or array gives its size in whole slots, ×32 bytes).
 */
export function elementLocation(base: bigint, index: bigint, elementBytes: number): Location {
  if (index < 0n) throw new RangeError('an array index cannot be negative')
  const per = elementsPerSlot(elementBytes)
  if (per > 1) return { slot: base + index / BigInt(per), offset: Number(index % BigInt(per)) * elementBytes }
  return { slot: base + index * slotsPerElement(elementBytes), offset: 0 }
}

/** Where the elements of the dynamic array (or the data of the long string/bytes) at `slot` start: `keccak256(slot)`. */
export function dynamicDataSlot(slot: bigint): bigint {
  return keccakSlot(toWord(slot))
}

/** Element `index` of the dynamic array at `slot` (its length is at `slot` itself). */
export function dynamicArrayElement(slot: bigint, index: bigint, elementBytes: number): Location {
  return elementLocation(dynamicDataSlot(slot), index, elementBytes)
}

/** Element `index` of the fixed array at `slot` (with `length` elements: the index is checked). */
export function fixedArrayElement(slot: bigint, index: bigint, elementBytes: number, length?: bigint): Location {
  if (length !== undefined && index >= length) throw new RangeError(`index ${index} is out of range for an array of ${length}`)
  return elementLocation(slot, index, elementBytes)
}

/** The slot of a struct member: the struct's slot plus the member's (solc's layout gives `memberSlot`). */
export function structMemberSlot(slot: bigint, memberSlot: bigint): bigint {
  return slot + memberSlot
}

// --- string and bytes --------------------------------------------------------------------------

/** What the slot of a `string`/`bytes` holds. */
export type BytesHead =
  /** Up to 31 bytes, in the slot itself. */
  | { readonly form: 'short'; readonly length: number; readonly data: Uint8Array }
  /** The length; the data is in `bytesDataSlots`. */
  | { readonly form: 'long'; readonly length: bigint }

/** Reads the slot of a `string`/`bytes` variable (short or long form). */
export function decodeBytesHead(word: Uint8Array): BytesHead {
  if (word.length !== 32) throw new RangeError('a storage word has 32 bytes')
  const last = word[31]!
  if ((last & 1) === 0) {
    const length = last >> 1
    if (length > 31) throw new RangeError(`not a string slot: short form with length ${length}`)
    return { form: 'short', length, data: word.slice(0, length) }
  }
  return { form: 'long', length: (toBigInt(word) - 1n) >> 1n }
}

/** The slots holding the data of a long `string`/`bytes` of `length` bytes at `slot`. */
export function bytesDataSlots(slot: bigint, length: bigint): bigint[] {
  const first = dynamicDataSlot(slot)
  const count = (length + 31n) / 32n
  const out: bigint[] = []
  for (let i = 0n; i < count; i++) out.push(first + i)
  return out
}

// --- ERC-7201 ----------------------------------------------------------------------------------

/**
 * The root slot of an ERC-7201 namespace: `keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff`.
 *
 * @example erc7201Slot('openzeppelin.storage.ERC20') // 0x52c63247…ace00
 */
export function erc7201Slot(namespaceId: string): bigint {
  const inner = keccakSlot(new TextEncoder().encode(namespaceId))
  return keccakSlot(toWord((inner - 1n) & MASK_256)) & ~0xffn
}
