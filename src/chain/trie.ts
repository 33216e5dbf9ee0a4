/**
 * A persistent Merkle-Patricia trie in memory, for state roots: the account trie and each
 * account's storage trie.
 *
 * Owns: inserting and deleting keys without changing the trie they were applied to (the result is
 * a new root sharing every untouched node), and the root hash Ethereum defines (hex-prefix paths,
 * RLP nodes, children under 32 bytes embedded in their parent, keccak256 of the rest).
 * Leaves to others: what the keys and values are (`state.ts` hashes the keys and RLP-encodes the
 * values), and keeping anything but the newest roots alive.
 *
 * Why not @ethereumjs/mpt: it stores every node RLP-encoded under its hash in a key-value store,
 * decodes nodes again on every walk, runs each walk through an async task queue, and never frees a
 * replaced node; mining spent about a fifth of its time there. Here nodes are plain immutable
 * objects that cache their own hash once computed, and a replaced node is garbage for V8 to collect.
 *
 * Values, refs, leaf keys and the encodings hashed are latin1 strings (one char per byte), not
 * Uint8Arrays: a 32-byte Uint8Array costs about 240 bytes of heap, the string 48, and every storage
 * slot keeps a leaf (its key and value) and about 1.4 refs alive for as long as it exists. A node's
 * encoding is its children's refs joined, and hashed as it is (`latin1Keccak`): a branch costs one
 * copy into the hasher rather than sixteen.
 *
 * Each step is a small function of its own (a kind of node, a rare split): V8 compiles small
 * functions with complete type feedback early, where one large one ran unoptimised for the first
 * few hundred blocks of a chain and was dropped again each time a rare path first ran.
 */
import { latin1KeccakFor } from './crypto.js'
import { listLength, stringLength, writeLengthPrefix, writeString } from './encoding.js'
import { fromLatin1, sliceLatin1, toLatin1, type Latin1 } from './latin1.js'

/**
 * Keys are strings of hex nibbles (`0-9a-f`), all of the same length in one trie (state keys are
 * keccak256 hashes: 64 nibbles), so no key is a prefix of another and branches never hold values.
 */
export type NibblePath = string

/** Bytes as a latin1 string, one char per byte: the compact form nodes keep (see the header). */
type Bytes = Latin1

/** An account trie and the storage tries of its accounts (absent: no storage). */
export interface Tries {
  readonly accounts: TrieNode | undefined
  readonly storage: StorageTries
}

/** The storage tries by address, as roots and proofs read them: a `Map`, or layers of changes over one (`stateRoot.ts`). */
export interface StorageTries {
  get(address: string): TrieNode | undefined
  has(address: string): boolean
  values(): Iterable<TrieNode>
}

/**
 * A node: immutable once made. `ref` is its hash, or its encoding when under 32 bytes, once
 * computed; until then the empty string (never a ref), so the field only ever holds strings.
 */
export type TrieNode = Leaf | Extension | Branch

interface Leaf {
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

interface Extension {
  readonly kind: 1
  readonly path: NibblePath
  readonly child: Branch
  ref: Bytes
}

interface Branch {
  readonly kind: 2
  readonly children: readonly (TrieNode | undefined)[]
  ref: Bytes
}

type Keccak = (data: Uint8Array) => Uint8Array
/** keccak256 of bytes held as latin1, answered as latin1. */
type Hash = (data: Bytes) => Bytes

const NOT_HASHED = ''

// One site per kind of node, so that every node of a kind has the same shape.
const leafNode = (key: Bytes, value: Bytes): Leaf => ({ kind: 0, key, value, ref: NOT_HASHED })
const extension = (path: NibblePath, child: Branch): Extension => ({ kind: 1, path, child, ref: NOT_HASHED })
const branch = (children: (TrieNode | undefined)[]): Branch => ({ kind: 2, children, ref: NOT_HASHED })
/** A leaf for the nibbles of `path` from `at` on. */
const leaf = (path: NibblePath, at: number, value: Bytes): Leaf => leafNode(hexPrefix(path, at, true), value)

const HEX = '0123456789abcdef'

function nibble(path: NibblePath, i: number): number {
  const c = path.charCodeAt(i)
  return c <= 57 ? c - 48 : c - 87
}

/** How many nibbles `a` from `atA` and `b` from `atB` have in common. */
function commonPrefix(a: NibblePath, atA: number, b: NibblePath, atB: number): number {
  const n = Math.min(a.length - atA, b.length - atB)
  let i = 0
  while (i < n && a.charCodeAt(atA + i) === b.charCodeAt(atB + i)) i++
  return i
}

/** `root` with `path` set to `value`; `root` itself is unchanged. */
export function trieSet(root: TrieNode | undefined, path: NibblePath, value: Uint8Array): TrieNode {
  return set(root, path, 0, toLatin1(value))
}

/** `trieSet` with the value already in latin1 form (a storage slot's RLP, as `rlpLatin1` gives it). */
export function trieSetLatin1(root: TrieNode | undefined, path: NibblePath, value: Latin1): TrieNode {
  return set(root, path, 0, value)
}

/**
 * `node` (the node at nibble `at` of `path`) with `path` set to `value`. Paths are read from an
 * offset rather than sliced level by level, and a leaf whose key is `path` keeps its encoded key:
 * updating what exists, the common case, makes no string but the new nodes.
 */
function set(node: TrieNode | undefined, path: NibblePath, at: number, value: Bytes): TrieNode {
  if (node === undefined) return leaf(path, at, value)
  if (node.kind === 2) return setInBranch(node, path, at, value)
  if (node.kind === 0) return setInLeaf(node, path, at, value)
  return setInExtension(node, path, at, value)
}

function setInBranch(node: Branch, path: NibblePath, at: number, value: Bytes): Branch {
  const i = nibble(path, at)
  const before = node.children[i]
  const after = set(before, path, at + 1, value)
  if (after === before) return node
  const children = node.children.slice()
  children[i] = after
  return branch(children)
}

function setInLeaf(node: Leaf, path: NibblePath, at: number, value: Bytes): TrieNode {
  if (!leafKeyIs(node, path, at)) return splitLeaf(node, path, at, value)
  return node.value === value ? node : leafNode(node.key, value)
}

/** A leaf and a new key below it that part after `c` common nibbles: a branch, under an extension of those. */
function splitLeaf(node: Leaf, path: NibblePath, at: number, value: Bytes): TrieNode {
  const rest = leafPath(node)
  const c = commonPrefix(rest, 0, path, at)
  const children = emptyChildren()
  children[nibble(rest, c)] = leaf(rest, c + 1, node.value)
  children[nibble(path, at + c)] = leaf(path, at + c + 1, value)
  return c === 0 ? branch(children) : extension(path.slice(at, at + c), branch(children))
}

function setInExtension(node: Extension, path: NibblePath, at: number, value: Bytes): TrieNode {
  const c = commonPrefix(node.path, 0, path, at)
  if (c === node.path.length) {
    const child = setInBranch(node.child, path, at + c, value)
    return child === node.child ? node : extension(node.path, child)
  }
  const children = emptyChildren()
  children[nibble(node.path, c)] = c + 1 === node.path.length ? node.child : extension(node.path.slice(c + 1), node.child)
  children[nibble(path, at + c)] = leaf(path, at + c + 1, value)
  return c === 0 ? branch(children) : extension(path.slice(at, at + c), branch(children))
}

function emptyChildren(): (TrieNode | undefined)[] {
  return new Array<TrieNode | undefined>(16).fill(undefined)
}

/** `root` without `path` (itself when the key is absent); `root` itself is unchanged. */
export function trieDelete(root: TrieNode | undefined, path: NibblePath): TrieNode | undefined {
  if (root === undefined) return undefined
  switch (root.kind) {
    case 0:
      return leafPath(root) === path ? undefined : root
    case 1: {
      if (!path.startsWith(root.path)) return root
      const child = trieDelete(root.child, path.slice(root.path.length))
      if (child === root.child) return root
      return prefixed(root.path, child!)
    }
    case 2: {
      const i = nibble(path, 0)
      const before = root.children[i]
      if (before === undefined) return root
      const after = trieDelete(before, path.slice(1))
      if (after === before) return root
      const children = root.children.slice()
      children[i] = after
      let only = -1
      for (let j = 0; j < 16; j++) {
        if (children[j] === undefined) continue
        if (only !== -1) return branch(children)
        only = j
      }
      // One child left: the branch folds into it, its nibble joining the child's path.
      return only === -1 ? undefined : prefixed(HEX[only]!, children[only]!)
    }
  }
}

/** `node` moved one level up, under `path`: paths merge, so no extension ever leads to a leaf or an extension. */
function prefixed(path: NibblePath, node: TrieNode): TrieNode {
  switch (node.kind) {
    case 0:
      return leaf(path + leafPath(node), 0, node.value)
    case 1:
      return extension(path + node.path, node.child)
    case 2:
      return extension(path, node)
  }
}

/** The root hash of a trie (keccak256 of the empty string's RLP for an empty one). */
export function trieRoot(root: TrieNode | undefined, keccak: Keccak): Uint8Array {
  if (root === undefined) return keccak(EMPTY_STRING_RLP)
  const hash = latin1Keccak(keccak)
  const ref = refOf(root, hash)
  return fromLatin1(ref.length === 32 ? ref : hash(ref))
}

/** Where `singleKeyRoot` encodes its leaf: hashing is all the encoding is for. */
let scratch = new Uint8Array(1024)

/**
 * The root of a trie that holds `value` under `path` alone: the hash of its one leaf (hashed even
 * when under 32 bytes, as `trieRoot` does a root). The transaction and receipt tries of an
 * automined block are such tries: their root without the latin1 copies a kept node makes.
 */
export function singleKeyRoot(path: NibblePath, value: Uint8Array, keccak: Keccak): Uint8Array {
  const key = fromLatin1(hexPrefix(path, 0, true))
  const payload = stringLength(key) + stringLength(value)
  const length = listLength(payload)
  if (length > scratch.length) scratch = new Uint8Array(Math.max(length, 2 * scratch.length))
  let at = writeLengthPrefix(scratch, 0, payload, 0xc0)
  at = writeString(scratch, at, key)
  writeString(scratch, at, value)
  return keccak(scratch.subarray(0, length))
}

/** The value at `path`, if any. */
export function trieGet(root: TrieNode | undefined, path: NibblePath): Uint8Array | undefined {
  const leaf = walk(root, path)
  return leaf === undefined ? undefined : fromLatin1(leaf.value)
}

/**
 * The encoded nodes on the way to `path`, root first, as geth's `trie.Prove` lists them (a node
 * embedded in its parent, under 32 bytes, is not an element of its own, except the root). For an
 * absent key the walk ends where the key leaves the trie, which proves the absence; an empty trie
 * is proven by no node.
 */
export function trieProof(root: TrieNode | undefined, path: NibblePath, keccak: Keccak): Uint8Array[] {
  const hash = latin1Keccak(keccak)
  const proof: Uint8Array[] = []
  walk(root, path, (node) => {
    const encoded = encode(node, hash)
    if (proof.length === 0 || encoded.length >= 32) proof.push(fromLatin1(encoded))
  })
  return proof
}

/** Walks from `root` towards `path`, handing each node on the way to `visit`: the leaf of `path`, if there is one. */
function walk(root: TrieNode | undefined, path: NibblePath, visit?: (node: TrieNode) => void): Leaf | undefined {
  let node = root
  let at = 0
  while (node !== undefined) {
    visit?.(node)
    if (node.kind === 0) {
      const rest = leafPath(node)
      return path.length - at === rest.length && path.endsWith(rest) ? node : undefined
    }
    if (node.kind === 1) {
      if (!path.startsWith(node.path, at)) return undefined
      at += node.path.length
      node = node.child
    } else {
      node = node.children[nibble(path, at)]
      at++
    }
  }
  return undefined
}

/** How many nodes a trie has (walks it all: for tests and diagnostics). */
export function trieNodeCount(root: TrieNode | undefined): number {
  if (root === undefined) return 0
  if (root.kind === 0) return 1
  if (root.kind === 1) return 1 + trieNodeCount(root.child)
  let n = 1
  for (const child of root.children) n += trieNodeCount(child)
  return n
}

/** Visits every key and value (keys as nibble paths), in key order. */
export function* trieEntries(root: TrieNode | undefined, prefix: NibblePath = ''): Generator<[NibblePath, Uint8Array]> {
  if (root === undefined) return
  if (root.kind === 0) yield [prefix + leafPath(root), fromLatin1(root.value)]
  else if (root.kind === 1) yield* trieEntries(root.child, prefix + root.path)
  else for (let i = 0; i < 16; i++) yield* trieEntries(root.children[i], prefix + HEX[i])
}

// --- encoding -------------------------------------------------------------------------------------

const EMPTY_STRING_RLP = Uint8Array.of(0x80)
/** The RLP of an empty string: an absent child, and a branch's (always empty) value. */
const EMPTY_ITEM = '\x80'
/** The prefix of a 32-byte string: a hashed child's ref as an item of its parent. */
const HASH_PREFIX = '\xa0'

let lastKeccak: Keccak | undefined
let lastHash: Hash = (data) => data

/** `keccak` over latin1 (the WebAssembly module's own, when `keccak` is `crypto.ts`'s), remembered for the next call. */
function latin1Keccak(keccak: Keccak): Hash {
  if (keccak !== lastKeccak) {
    lastHash = latin1KeccakFor(keccak) ?? ((data) => toLatin1(keccak(fromLatin1(data))))
    lastKeccak = keccak
  }
  return lastHash
}

/** The node's hash, or its RLP encoding when that is under 32 bytes (then embedded in the parent). */
function refOf(node: TrieNode, hash: Hash): Bytes {
  const ref = node.ref
  if (ref !== NOT_HASHED) return ref
  const encoded = encode(node, hash)
  return (node.ref = encoded.length < 32 ? encoded : hash(encoded))
}

/** The node's RLP encoding. */
function encode(node: TrieNode, hash: Hash): Bytes {
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

/** 16 children, then the (always empty) value: the children's refs joined, each computed on the way. */
function encodeBranch(node: Branch, hash: Hash): Bytes {
  const children = node.children
  let payload = ''
  for (let i = 0; i < 16; i++) {
    const child = children[i]
    if (child === undefined) {
      payload += EMPTY_ITEM
      continue
    }
    const ref = refOf(child, hash)
    if (ref.length === 32) payload += HASH_PREFIX
    payload += ref
  }
  payload += EMPTY_ITEM
  return listPrefix(payload.length) + payload
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

function listPrefix(payload: number): Bytes {
  return lengthPrefix(payload, 0xc0)
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
function leafPath(node: Leaf): NibblePath {
  const hex = Buffer.from(node.key, 'latin1').toString('hex')
  return hex.slice(node.key.charCodeAt(0) & 0x10 ? 1 : 2)
}

/** Whether the leaf's key is the nibbles of `path` from `at` on, compared in its hex-prefix form. */
function leafKeyIs(node: Leaf, path: NibblePath, at: number): boolean {
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
function hexPrefix(path: NibblePath, from: number, isLeaf: boolean): Bytes {
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
