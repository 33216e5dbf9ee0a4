/**
 * How the state names and encodes what it holds: the map key of some bytes, an account's trie
 * leaf, a new account's record, and byte equality.
 *
 * Owns: these few encodings, so that the world state (`state.ts`), its proofs (`proofs.ts`), the
 * VM's journal (`stateManager.ts`) and the block builder agree on them without importing each other.
 * Leaves to others: everything with state in it.
 */
import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { sliceLatin1, toLatin1, type Latin1 } from './latin1.js'
import type { AccountRecord } from './types.js'

type HexSlice = (this: Uint8Array, start: number, end: number) => string
// Node's native hex encoder, which Buffer#toString('hex') calls: it takes any Uint8Array.
const hexSlice = (Buffer.prototype as unknown as { hexSlice?: HexSlice }).hexSlice

/**
 * The map key of some bytes (an address, a slot, a hash): lowercase hex without `0x`, as every key
 * of the state is. Encoded natively into a flat string: one built two digits at a time (what
 * `bytesToUnprefixedHex` does) is a rope of 32 pieces that every map lookup must first copy flat.
 */
export const keyOf: (bytes: Uint8Array) => string =
  typeof hexSlice === 'function'
    ? (bytes) => hexSlice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/**
 * An account as its leaf in the account trie holds it: the RLP list of nonce, balance (big-endian
 * without leading zeros), storage root and code hash. Written directly: ethereumjs's `Account`
 * validates and converts each field on the way, a cost every changed account of every block paid.
 */
export function encodeAccount(record: AccountRecord): Uint8Array {
  const nonce = unpadded(record.nonce)
  const balance = unpadded(record.balance)
  const { storageRoot, codeHash } = record
  return encodeFlatList([nonce, balance, storageRoot, codeHash])
}

/** Where `accountLeaf` writes: an account's leaf is 70 to 110 bytes. */
const leafScratch = new Uint8Array(112)

/**
 * `encodeAccount`'s bytes in the latin1 form the state tries keep (see `latin1.ts`), written in one
 * buffer: no array per field or per account, for the five or so accounts every block changes.
 */
export function accountLeaf(record: AccountRecord): Latin1 {
  if (record.balance >= WORD_LIMIT || record.nonce >= WORD_LIMIT) return toLatin1(encodeAccount(record))
  // Nonce, balance and the two 33-byte items: 68 to 108 bytes, so a two-byte list prefix.
  let at = writeInteger(leafScratch, 2, record.nonce)
  at = writeInteger(leafScratch, at, record.balance)
  at = writeString(leafScratch, at, record.storageRoot)
  at = writeString(leafScratch, at, record.codeHash)
  leafScratch[0] = 0xf8
  leafScratch[1] = at - 2
  return sliceLatin1(leafScratch, 0, at)
}

/** Writes a non-negative integer under 2^256 as an RLP string (big-endian, no leading zeros); gives the offset after it. */
function writeInteger(out: Uint8Array, at: number, value: bigint): number {
  if (value < 0x80n) {
    out[at] = value === 0n ? 0x80 : Number(value)
    return at + 1
  }
  if (value < SMALL_LIMIT) {
    let n = Number(value)
    const length = byteLength(n)
    out[at] = 0x80 + length
    for (let i = at + length; i > at; i--, n = Math.floor(n / 256)) out[i] = n % 256
    return at + 1 + length
  }
  const first = intoWordScratch(value)
  out[at++] = 0x80 + 32 - first
  for (let i = first; i < 32; i++) out[at++] = wordScratch[i]!
  return at
}

/** A non-negative integer as RLP holds it: big-endian bytes without leading zeros (none for zero). */
export function unpadded(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY_BYTES
  // Nonces and small balances (under 2^48) without a hex string: byte by byte from a Number.
  if (value < SMALL_LIMIT) {
    let n = Number(value)
    const length = byteLength(n)
    const out = new Uint8Array(length)
    for (let i = length - 1; i >= 0; i--, n = Math.floor(n / 256)) out[i] = n % 256
    return out
  }
  if (value >= WORD_LIMIT) {
    const hex = value.toString(16)
    return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
  }
  return wordScratch.slice(intoWordScratch(value))
}

/** Under this, integers are handled as a Number. */
const SMALL_LIMIT = 0x1000000000000n

function byteLength(n: number): number {
  let length = 0
  for (let v = n; v > 0; v = Math.floor(v / 256)) length++
  return length
}

/**
 * `value` (under 2^256) big-endian into `wordScratch`, through four 64-bit lanes (a hex string and
 * Buffer.from cost twice as much); gives the index of its first non-zero byte.
 */
function intoWordScratch(value: bigint): number {
  lanes.setBigUint64(24, BigInt.asUintN(64, value))
  lanes.setBigUint64(16, BigInt.asUintN(64, value >> 64n))
  lanes.setBigUint64(8, BigInt.asUintN(64, value >> 128n))
  lanes.setBigUint64(0, value >> 192n)
  let first = 0
  while (wordScratch[first] === 0) first++
  return first
}

const WORD_LIMIT = 2n ** 256n
const wordScratch = new Uint8Array(32)
const lanes = new DataView(wordScratch.buffer)

const EMPTY_BYTES = new Uint8Array(0)

/** Big-endian bytes as a bigint (0 for none), as `bytesToBigInt` reads them; short ones without a hex string. */
export function bigIntOf(bytes: Uint8Array): bigint {
  if (bytes.length <= 6) {
    let n = 0
    for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes[i]!
    return BigInt(n)
  }
  return BigInt('0x' + keyOf(bytes))
}

/**
 * `bytes` without its leading zero bytes, as ethereumjs's `unpadBytes` gives them (itself when it
 * has none, else a copy): a storage value as the state keeps it. Why: `unpadBytes` drops one zero
 * at a time with a copy and a `toString` each, some thirty of both for a word holding a small number.
 */
export function unpad(bytes: Uint8Array): Uint8Array {
  let first = 0
  while (first < bytes.length && bytes[first] === 0) first++
  return first === 0 ? bytes : bytes.slice(first)
}

/**
 * The RLP list at `from` to the end of `input` (a transaction's fields) when its items are byte
 * strings and empty lists: each string a copy, as ethereumjs's \`RLP.decode\` gives them, in one pass.
 * Undefined for any other shape and for any encoding ethereumjs refuses (non-canonical lengths or
 * single bytes, bytes left over or missing): the caller decodes those with ethereumjs, which
 * answers with its words. Why: ethereumjs makes a result object and a view of the rest per item.
 */
export function decodeFlatList(input: Uint8Array, from: number): (Uint8Array | never[])[] | undefined {
  const first = input[from]
  if (first === undefined || first < 0xc0) return undefined
  let at = from + 1
  let end = at + first - 0xc0
  if (first > 0xf7) {
    const length = lengthAt(input, at, first - 0xf7)
    if (length === undefined || length < 56) return undefined
    at += first - 0xf7
    end = at + length
  }
  if (end !== input.length) return undefined
  const items: (Uint8Array | never[])[] = []
  while (at < end) {
    const prefix = input[at]!
    let start = at + 1
    let length: number | undefined
    if (prefix <= 0x7f) {
      start = at
      length = 1
    } else if (prefix <= 0xb7) {
      length = prefix - 0x80
      if (length === 1 && start < end && input[start]! < 0x80) return undefined
    } else if (prefix <= 0xbf) {
      length = lengthAt(input, start, prefix - 0xb7)
      if (length === undefined || length <= 55) return undefined
      start += prefix - 0xb7
    } else if (prefix === 0xc0) {
      items.push([])
      at = start
      continue
    } else return undefined
    if (start + length > end) return undefined
    items.push(input.slice(start, start + length))
    at = start + length
  }
  return items
}

/** A long form's length (`size` bytes at `at`), undefined when they are missing or start with a zero. */
function lengthAt(input: Uint8Array, at: number, size: number): number | undefined {
  if (at + size > input.length || input[at] === 0) return undefined
  let length = 0
  for (let i = 0; i < size; i++) length = length * 256 + input[at + i]!
  return length
}

/**
 * RLP of a flat list of byte strings (an account leaf, a block header's fields), written in one pass into one
 * array: `RLP.encode` builds a new array per item and concatenates them again per level.
 */
export function encodeFlatList(items: readonly Uint8Array[]): Uint8Array {
  let payload = 0
  for (const item of items) payload += stringLength(item)
  const out = new Uint8Array(lengthPrefixLength(payload) + payload)
  let at = writeLengthPrefix(out, 0, payload, 0xc0)
  for (const item of items) at = writeString(out, at, item)
  return out
}

/** Writes the RLP of one byte string into `out` at `at`; gives the offset after it. */
export function writeString(out: Uint8Array, at: number, item: Uint8Array): number {
  if (item.length === 1 && item[0]! < 0x80) {
    out[at] = item[0]!
    return at + 1
  }
  at = writeLengthPrefix(out, at, item.length, 0x80)
  out.set(item, at)
  return at + item.length
}

/** The length of the RLP of a list whose items' encodings take `payload` bytes together. */
export function listLength(payload: number): number {
  return lengthPrefixLength(payload) + payload
}

/** The length of the RLP of one byte string. */
export function stringLength(item: Uint8Array): number {
  return item.length === 1 && item[0]! < 0x80 ? 1 : lengthPrefixLength(item.length) + item.length
}

/** The bytes of the prefix of an RLP string or list of `length` bytes. */
function lengthPrefixLength(length: number): number {
  let n = 1
  if (length >= 56) for (let v = length; v > 0; v = Math.floor(v / 256)) n++
  return n
}

/** Writes the prefix of a string (`base` 0x80) or list (0xc0) of `length` bytes; gives the offset after it. */
export function writeLengthPrefix(out: Uint8Array, at: number, length: number, base: number): number {
  if (length < 56) {
    out[at] = base + length
    return at + 1
  }
  const n = lengthPrefixLength(length) - 1
  out[at] = base + 55 + n
  for (let i = n, v = length; i >= 1; i--, v = Math.floor(v / 256)) out[at + i] = v % 256
  return at + 1 + n
}

/** A new account record with no code and no storage. */
export function newAccount(fields: { nonce?: bigint; balance?: bigint } = {}): AccountRecord {
  return { nonce: fields.nonce ?? 0n, balance: fields.balance ?? 0n, storageRoot: KECCAK256_RLP, codeHash: KECCAK256_NULL, codeSize: 0 }
}

/** Whether two records give the same account leaf. */
export function sameAccount(a: AccountRecord, b: AccountRecord): boolean {
  return (
    a.nonce === b.nonce &&
    a.balance === b.balance &&
    equal(a.codeHash, b.codeHash) &&
    equal(a.storageRoot, b.storageRoot)
  )
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
