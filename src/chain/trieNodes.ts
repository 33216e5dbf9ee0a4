/**
 * The nodes of the state tries (`trie.ts`): their shapes, their RLP encodings and refs, and the
 * hex-prefix keys and values they hold.
 *
 * Owns: what a node is and how it hashes: its encoding is its children's refs joined, hashed as it
 * is by `latin1Keccak` (through the keccak module's own memory when it is `crypto.ts`'s: a branch
 * costs one copy into the hasher rather than sixteen); its ref is cached on it once computed.
 * Leaves to others: building, updating and walking tries (`trie.ts`).
 *
 * Values, refs, leaf keys and the encodings hashed are latin1 strings (one char per byte), not
 * Uint8Arrays: a 32-byte Uint8Array costs about 240 bytes of heap, the string 48, and every storage
 * slot keeps a leaf (its key and value) and about 1.4 refs alive for as long as it exists.
 */
import { latin1KeccakFor } from './crypto.js'
import { fromLatin1, sliceLatin1, toLatin1, type Latin1 } from './latin1.js'

/**
 * Keys are strings of hex nibbles (`0-9a-f`), all of the same length in one trie (state keys are
 * keccak256 hashes: 64 nibbles), so no key is a prefix of another and branches never hold values.
 */
export type NibblePath = string

/** Bytes as a latin1 string, one char per byte: the compact form nodes keep (see the header). */
export type Bytes = Latin1

/**
 * A node: immutable once made. `ref` is its hash, or its encoding when under 32 bytes, once
 * computed; until then the empty string (never a ref), so the field only ever holds strings.
 */
export type TrieNode = Leaf | Extension | Branch

export interface Leaf {
  readonly kind: 0
  /**
   * The rest of the key below this node, hex-prefix encoded as the node's RLP holds it (`leafPath`
   * gives the nibbles): half the size of the nibbles, and no hold on the whole key they were sliced from.
   */
  readonly key: Bytes
  /** The stored value (already encoded by the caller, e.g. an account's RLP). */
  readonly value: Bytes
  ref: Bytes
}

export interface Extension {
  readonly kind: 1
  readonly path: NibblePath
  readonly child: Branch
  ref: Bytes
}

export interface Branch {
  readonly kind: 2
  readonly children: readonly (TrieNode | undefined)[]
  ref: Bytes
}

export type Keccak = (data: Uint8Array) => Uint8Array
/** keccak256 of bytes held as latin1, answered as latin1. */
export type Hash = (data: Bytes) => Bytes

const NOT_HASHED = ''

// One site per kind of node, so that every node of a kind has the same shape.
export const leafNode = (key: Bytes, value: Bytes): Leaf => ({ kind: 0, key, value, ref: NOT_HASHED })
export const extension = (path: NibblePath, child: Branch): Extension => ({ kind: 1, path, child, ref: NOT_HASHED })
export const branch = (children: (TrieNode | undefined)[]): Branch => ({ kind: 2, children, ref: NOT_HASHED })
/** A leaf for the nibbles of `path` from `at` on. */
export const leaf = (path: NibblePath, at: number, value: Bytes): Leaf => leafNode(hexPrefix(path, at, true), value)

export const HEX = '0123456789abcdef'

export function nibble(path: NibblePath, i: number): number {
  const c = path.charCodeAt(i)
  return c <= 57 ? c - 48 : c - 87
}

/** The RLP of an empty string: an absent child, and a branch's (always empty) value. */
const EMPTY_ITEM = '\x80'
/** The prefix of a 32-byte string: a hashed child's ref as an item of its parent. */
const HASH_PREFIX = '\xa0'

let lastKeccak: Keccak | undefined
let lastHash: Hash = (data) => data

/** `keccak` over latin1 (the WebAssembly module's own, when `keccak` is `crypto.ts`'s), remembered for the next call. */
export function latin1Keccak(keccak: Keccak): Hash {
  if (keccak !== lastKeccak) {
    lastHash = latin1KeccakFor(keccak) ?? ((data) => toLatin1(keccak(fromLatin1(data))))
    lastKeccak = keccak
  }
  return lastHash
}

/** The node's hash, or its RLP encoding when that is under 32 bytes (then embedded in the parent). */
export function refOf(node: TrieNode, hash: Hash): Bytes {
  const ref = node.ref
  if (ref !== NOT_HASHED) return ref
  const encoded = encode(node, hash)
  return (node.ref = encoded.length < 32 ? encoded : hash(encoded))
}

/** The node's RLP encoding. */
export function encode(node: TrieNode, hash: Hash): Bytes {
  if (node.kind === 2) return encodeBranch(node, hash)
  if (node.kind === 0) return encodeLeaf(node)
  return encodeExtension(node, hash)
}

function encodeLeaf(node: Leaf): Bytes {
  const { key, value } = node
  return listPrefix(itemLength(key) + itemLength(value)) + stringItem(key) + stringItem(value)
}

function encodeExtension(node: Extension, hash: Hash): Bytes {
  const path = hexPrefix(node.path, 0, false)
  const child = refItem(refOf(node.child, hash))
  return listPrefix(itemLength(path) + child.length) + stringItem(path) + child
}

/**
 * Where `encodeBranch` lays a branch's items out before joining them, one array per depth (a
 * child's ref may encode the child's own branch on the way): the list prefix, then each child's
 * two parts (the string prefix of a hashed ref, or nothing; its ref, or an empty item), then the
 * empty value. Reused: the join writes one flat string, where adding the items one by one made
 * some thirty rope strings per branch, and hashing flattened them into one more.
 */
const branchParts: string[][] = []
let branchDepth = 0

/** 16 children, then the (always empty) value: the children's refs joined, each computed on the way. */
function encodeBranch(node: Branch, hash: Hash): Bytes {
  const children = node.children
  let parts = branchParts[branchDepth]
  if (parts === undefined) branchParts[branchDepth] = parts = newBranchParts()
  branchDepth++
  let payload = 1
  for (let i = 0; i < 16; i++) {
    const child = children[i]
    if (child === undefined) {
      parts[2 * i + 1] = EMPTY_ITEM
      parts[2 * i + 2] = ''
      payload++
    } else {
      const ref = refOf(child, hash)
      const hashed = ref.length === 32
      parts[2 * i + 1] = hashed ? HASH_PREFIX : ''
      parts[2 * i + 2] = ref
      payload += hashed ? 33 : ref.length
    }
  }
  branchDepth--
  parts[0] = listPrefix(payload)
  // (The refs stay referenced here until the next branch at this depth: strings of 32 bytes, nothing else.)
  return parts.join('')
}

function newBranchParts(): string[] {
  const parts = new Array<string>(34).fill('')
  parts[33] = EMPTY_ITEM
  return parts
}

/** A child's ref as an item of its parent: a 32-byte hash as a string, an embedded node as it is. */
function refItem(ref: Bytes): Bytes {
  return ref.length === 32 ? HASH_PREFIX + ref : ref
}

function itemLength(bytes: Bytes): number {
  if (bytes.length === 1 && bytes.charCodeAt(0) < 0x80) return 1
  return prefixLength(bytes.length) + bytes.length
}

function stringItem(bytes: Bytes): Bytes {
  if (bytes.length === 1 && bytes.charCodeAt(0) < 0x80) return bytes
  return lengthPrefix(bytes.length, 0x80) + bytes
}

/** Where `rlpLatin1` writes a short string's RLP. */
const itemScratch = new Uint8Array(56)

/**
 * The RLP of a byte string (a storage slot's value, the leaf its trie keeps) in latin1 form: flat,
 * one native copy. (Joined from its prefix and the value, it would be a rope holding both, which
 * the leaf then keeps for as long as the slot lives.)
 */
export function rlpLatin1(bytes: Uint8Array): Latin1 {
  const length = bytes.length
  if (length === 1 && bytes[0]! < 0x80) return sliceLatin1(bytes, 0, 1)
  if (length >= 56) return stringItem(toLatin1(bytes))
  itemScratch[0] = 0x80 + length
  itemScratch.set(bytes, 1)
  return sliceLatin1(itemScratch, 0, length + 1)
}

/** List prefixes by payload length, made once each: a branch's (up to 529 bytes) is made of two or three strings. */
const listPrefixes: (Bytes | undefined)[] = []

function listPrefix(payload: number): Bytes {
  if (payload >= 1024) return lengthPrefix(payload, 0xc0)
  return (listPrefixes[payload] ??= lengthPrefix(payload, 0xc0))
}

function prefixLength(length: number): number {
  let n = 1
  if (length >= 56) for (let v = length; v > 0; v = Math.floor(v / 256)) n++
  return n
}

/** The prefix of a string (`base` 0x80) or list (0xc0) of `length` bytes. */
function lengthPrefix(length: number, base: number): Bytes {
  if (length < 56) return String.fromCharCode(base + length)
  let digits = ''
  for (let v = length; v > 0; v = Math.floor(v / 256)) digits = String.fromCharCode(v % 256) + digits
  return String.fromCharCode(base + 55 + digits.length) + digits
}

/** The nibbles of a leaf's key: its hex-prefix encoding read back (odd flag set: one nibble in the first byte). */
export function leafPath(node: Leaf): NibblePath {
  const hex = Buffer.from(node.key, 'latin1').toString('hex')
  return hex.slice(node.key.charCodeAt(0) & 0x10 ? 1 : 2)
}

/** Whether the leaf's key is the nibbles of `path` from `at` on, compared in its hex-prefix form. */
export function leafKeyIs(node: Leaf, path: NibblePath, at: number): boolean {
  const key = node.key
  const odd = (key.charCodeAt(0) >> 4) & 1
  if ((key.length - 1) * 2 + odd !== path.length - at) return false
  let i = at
  if (odd === 1) {
    if ((key.charCodeAt(0) & 0x0f) !== nibble(path, i)) return false
    i++
  }
  for (let k = 1; k < key.length; k++, i += 2) {
    if (key.charCodeAt(k) !== ((nibble(path, i) << 4) | nibble(path, i + 1))) return false
  }
  return true
}

/** Where `hexPrefix` packs nibbles before they become a string. */
let packed = new Uint8Array(64)

/** Hex-prefix (compact) encoding of the nibbles of `path` from `from` on, with the leaf flag. */
export function hexPrefix(path: NibblePath, from: number, isLeaf: boolean): Bytes {
  const odd = (path.length - from) & 1
  const length = ((path.length - from) >> 1) + 1
  if (length > packed.length) packed = new Uint8Array(2 * length)
  const out = packed
  out[0] = ((isLeaf ? 2 : 0) + odd) << 4
  let i = from
  let at = 1
  if (odd === 1) {
    out[0]! |= nibble(path, i)
    i++
  }
  for (; i < path.length; i += 2) out[at++] = (nibble(path, i) << 4) | nibble(path, i + 1)
  return sliceLatin1(out, 0, length)
}
