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
 * Values, refs and leaf keys are held as latin1 strings (one char per byte), not Uint8Arrays: a
 * 32-byte Uint8Array costs about 240 bytes of heap, the string 48, and every storage slot keeps a
 * leaf (its key and value) and about 1.4 refs alive for as long as it exists.
 */
import { fromLatin1, toLatin1, writeLatin1, type Latin1 } from './latin1.js'

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

/** A node: immutable once made. `ref` is its hash, or its encoding when under 32 bytes, once computed. */
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
  ref: Bytes | undefined
}

interface Extension {
  readonly kind: 1
  readonly path: NibblePath
  readonly child: Branch
  ref: Bytes | undefined
}

interface Branch {
  readonly kind: 2
  readonly children: readonly (TrieNode | undefined)[]
  ref: Bytes | undefined
}

type Keccak = (data: Uint8Array) => Uint8Array

/** A leaf for the nibbles of `path` from `at` on. */
const leaf = (path: NibblePath, at: number, value: Bytes): Leaf => ({ kind: 0, key: toLatin1(hexPrefix(path, at, true)), value, ref: undefined })
const extension = (path: NibblePath, child: Branch): Extension => ({ kind: 1, path, child, ref: undefined })
const branch = (children: (TrieNode | undefined)[]): Branch => ({ kind: 2, children, ref: undefined })

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

/**
 * `root` (the node at nibble `at` of `path`) with `path` set to `value`. Paths are read from an
 * offset rather than sliced level by level, and a leaf whose key is `path` keeps its encoded key:
 * updating what exists, the common case, makes no string but the new nodes.
 */
function set(root: TrieNode | undefined, path: NibblePath, at: number, value: Bytes): TrieNode {
  if (root === undefined) return leaf(path, at, value)
  switch (root.kind) {
    case 0: {
      if (leafKeyIs(root, path, at)) return root.value === value ? root : { kind: 0, key: root.key, value, ref: undefined }
      const rest = leafPath(root)
      const c = commonPrefix(rest, 0, path, at)
      const children: (TrieNode | undefined)[] = new Array(16).fill(undefined)
      children[nibble(rest, c)] = leaf(rest, c + 1, root.value)
      children[nibble(path, at + c)] = leaf(path, at + c + 1, value)
      return c === 0 ? branch(children) : extension(path.slice(at, at + c), branch(children))
    }
    case 1: {
      const c = commonPrefix(root.path, 0, path, at)
      if (c === root.path.length) {
        const child = set(root.child, path, at + c, value) as Branch
        return child === root.child ? root : extension(root.path, child)
      }
      const children: (TrieNode | undefined)[] = new Array(16).fill(undefined)
      children[nibble(root.path, c)] = c + 1 === root.path.length ? root.child : extension(root.path.slice(c + 1), root.child)
      children[nibble(path, at + c)] = leaf(path, at + c + 1, value)
      return c === 0 ? branch(children) : extension(path.slice(at, at + c), branch(children))
    }
    case 2: {
      const i = nibble(path, at)
      const before = root.children[i]
      const after = set(before, path, at + 1, value)
      if (after === before) return root
      const children = root.children.slice()
      children[i] = after
      return branch(children)
    }
  }
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
  const ref = refOf(root, keccak)
  return ref.length === 32 ? fromLatin1(ref) : keccak(fromLatin1(ref))
}

/**
 * The root of a trie that holds `value` under `path` alone: the hash of its one leaf (hashed even
 * when under 32 bytes, as `trieRoot` does a root). The transaction and receipt tries of an
 * automined block are such tries: their root without the latin1 copies a kept node makes.
 */
export function singleKeyRoot(path: NibblePath, value: Uint8Array, keccak: Keccak): Uint8Array {
  const key = hexPrefix(path, 0, true)
  const pathLength = stringItemLength(key)
  const valueLength = stringItemLength(value)
  const out = output(listHeaderLength(pathLength + valueLength) + pathLength + valueLength)
  let at = writeListHeader(out, 0, pathLength + valueLength)
  at = writeStringItem(out, at, key)
  writeStringItem(out, at, value)
  return keccak(out)
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
  const proof: Uint8Array[] = []
  walk(root, path, (node) => {
    const encoded = encode(node, keccak)
    // A copy: `encode` answers in a buffer the next node's encoding reuses.
    if (proof.length === 0 || encoded.length >= 32) proof.push(encoded.slice())
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

/** The node's hash, or its RLP encoding when that is under 32 bytes (then embedded in the parent). */
function refOf(node: TrieNode, keccak: Keccak): Bytes {
  let ref = node.ref
  if (ref === undefined) {
    const encoded = encode(node, keccak)
    ref = toLatin1(encoded.length < 32 ? encoded : keccak(encoded))
    node.ref = ref
  }
  return ref
}

/** Bytes of `ref` as an item of the parent's list: a 32-byte hash as a string, an embedded node as it is. */
function refItemLength(ref: Bytes): number {
  return ref.length === 32 ? 33 : ref.length
}

function writeRefItem(out: Uint8Array, at: number, ref: Bytes): number {
  if (ref.length === 32) {
    out[at++] = 0xa0
  }
  return writeLatin1(out, at, ref)
}

/**
 * Where nodes are encoded: hashing is all a node's encoding is for (its ref keeps the hash, or a
 * copy when under 32 bytes), so one buffer serves every node rather than a new array each.
 */
let scratch = new Uint8Array(1024)

/** `length` bytes of the shared buffer, for one encoding; valid until the next `encode`. */
function output(length: number): Uint8Array {
  if (length > scratch.length) scratch = new Uint8Array(Math.max(length, 2 * scratch.length))
  return scratch.subarray(0, length)
}

/**
 * The node's RLP encoding, in the shared buffer (valid until the next call: copy what is kept).
 * The children's refs are all computed before anything is written, so the nested encodings they
 * may need are done with the buffer by then.
 */
function encode(node: TrieNode, keccak: Keccak): Uint8Array {
  switch (node.kind) {
    case 0: {
      const pathLength = stringItemLength(node.key)
      const valueLength = stringItemLength(node.value)
      const out = output(listHeaderLength(pathLength + valueLength) + pathLength + valueLength)
      let at = writeListHeader(out, 0, pathLength + valueLength)
      at = writeStringItem(out, at, node.key)
      writeStringItem(out, at, node.value)
      return out
    }
    case 1: {
      const path = hexPrefix(node.path, 0, false)
      const pathLength = stringItemLength(path)
      const childRef = refOf(node.child, keccak)
      const childLength = refItemLength(childRef)
      const out = output(listHeaderLength(pathLength + childLength) + pathLength + childLength)
      let at = writeListHeader(out, 0, pathLength + childLength)
      at = writeStringItem(out, at, path)
      writeRefItem(out, at, childRef)
      return out
    }
    case 2: {
      // 16 children, then the (always empty) value. `refOf` leaves each child's ref on the child,
      // where the second pass reads it: no array of refs per branch.
      const children = node.children
      let payload = 1
      for (let i = 0; i < 16; i++) {
        const child = children[i]
        payload += child === undefined ? 1 : refItemLength(refOf(child, keccak))
      }
      const out = output(listHeaderLength(payload) + payload)
      let at = writeListHeader(out, 0, payload)
      for (let i = 0; i < 16; i++) {
        const child = children[i]
        if (child === undefined) out[at++] = 0x80
        else at = writeRefItem(out, at, child.ref!)
      }
      out[at] = 0x80
      return out
    }
  }
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

/** Hex-prefix (compact) encoding of the nibbles of `path` from `from` on, with the leaf flag. */
function hexPrefix(path: NibblePath, from: number, isLeaf: boolean): Uint8Array {
  const odd = (path.length - from) & 1
  const out = new Uint8Array(((path.length - from) >> 1) + 1)
  out[0] = ((isLeaf ? 2 : 0) + odd) << 4
  let i = from
  let at = 1
  if (odd === 1) {
    out[0]! |= nibble(path, i)
    i++
  }
  for (; i < path.length; i += 2) out[at++] = (nibble(path, i) << 4) | nibble(path, i + 1)
  return out
}

/** The first byte of some bytes, either form. */
function firstByte(bytes: Uint8Array | Bytes): number | undefined {
  return typeof bytes === 'string' ? bytes.charCodeAt(0) : bytes[0]
}

function stringItemLength(bytes: Uint8Array | Bytes): number {
  if (bytes.length === 1 && firstByte(bytes)! < 0x80) return 1
  if (bytes.length < 56) return 1 + bytes.length
  return 1 + byteLengthOf(bytes.length) + bytes.length
}

function writeStringItem(out: Uint8Array, at: number, bytes: Uint8Array | Bytes): number {
  if (bytes.length === 1 && firstByte(bytes)! < 0x80) {
    out[at] = firstByte(bytes)!
    return at + 1
  }
  if (bytes.length < 56) {
    out[at++] = 0x80 + bytes.length
  } else {
    const n = byteLengthOf(bytes.length)
    out[at++] = 0xb7 + n
    at = writeLength(out, at, bytes.length, n)
  }
  if (typeof bytes === 'string') return writeLatin1(out, at, bytes)
  out.set(bytes, at)
  return at + bytes.length
}

function listHeaderLength(payload: number): number {
  return payload < 56 ? 1 : 1 + byteLengthOf(payload)
}

function writeListHeader(out: Uint8Array, at: number, payload: number): number {
  if (payload < 56) {
    out[at] = 0xc0 + payload
    return at + 1
  }
  const n = byteLengthOf(payload)
  out[at++] = 0xf7 + n
  return writeLength(out, at, payload, n)
}

function byteLengthOf(length: number): number {
  let n = 0
  for (let v = length; v > 0; v = Math.floor(v / 256)) n++
  return n
}

function writeLength(out: Uint8Array, at: number, length: number, n: number): number {
  for (let i = n - 1; i >= 0; i--) {
    out[at + i] = length & 0xff
    length = Math.floor(length / 256)
  }
  return at + n
}
