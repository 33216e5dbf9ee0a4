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
 * The nodes, their encodings and hashes are `trieNodes.ts`'s.
 *
 * Each step is a small function of its own (a kind of node, a rare split): V8 compiles small
 * functions with complete type feedback early, where one large one ran unoptimised for the first
 * few hundred blocks of a chain and was dropped again each time a rare path first ran.
 */
import { listLength, stringLength, writeLengthPrefix, writeString } from './encoding.js'
import { fromLatin1, toLatin1, type Latin1 } from './latin1.js'
import {
  HEX,
  branch,
  encode,
  extension,
  hexPrefix,
  latin1Keccak,
  leaf,
  leafKeyIs,
  leafNode,
  leafPath,
  nibble,
  refOf,
  type Branch,
  type Bytes,
  type Extension,
  type Keccak,
  type Leaf,
  type NibblePath,
  type TrieNode,
} from './trieNodes.js'

export { rlpLatin1, type NibblePath, type TrieNode } from './trieNodes.js'

const EMPTY_STRING_RLP = Uint8Array.of(0x80)

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

