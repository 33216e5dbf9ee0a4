// The in-memory trie against @ethereumjs/mpt: same roots, values and proofs after random sets and
// deletes, with keys short enough that some nodes are embedded in their parent (under 32 bytes)
// and leaves sit at both odd and even depths.
import { createMPT, createMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test } from 'vitest'
import { createCustomCrypto, keccakIsDirect, keccakReady } from '../../src/chain/crypto.js'
import { singleKeyRoot, trieDelete, trieEntries, trieGet, trieProof, trieRoot, trieSet, type TrieNode } from '../../src/chain/trie.js'

/** A deterministic stream of bytes (xorshift), so a failure replays. */
function random(seed: number): (n: number) => Uint8Array {
  let x = seed
  return (n) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      out[i] = x & 0xff
    }
    return out
  }
}

type Keccak = (data: Uint8Array) => Uint8Array

/**
 * Random sets and deletes of keys `keyBytes` long, the same on a trie and on @ethereumjs/mpt: the
 * roots (every 50 steps), then each value, proof and entry, must agree.
 */
async function compareWithMpt(keccak: Keccak, seed: number, keyBytes: number, steps: number, maxValue: number): Promise<void> {
  const bytes = random(seed)
  const reference = await createMPT()
  let root: TrieNode | undefined
  const live = new Map<string, Uint8Array>()
  for (let step = 0; step < steps; step++) {
    const [roll] = bytes(1)
    // Some steps overwrite a live key, as a ring of slots does once it is full.
    const overwrite = roll! >= 224 && live.size > 0
    const key = overwrite ? Buffer.from([...live.keys()][roll! % live.size]!, 'hex') : bytes(keyBytes)
    const path = bytesToUnprefixedHex(key)
    if (roll! < 64 && live.size > 0) {
      const [victim] = live.keys()
      root = trieDelete(root, victim!)
      await reference.del(Buffer.from(victim!, 'hex'))
      live.delete(victim!)
    } else {
      // Values from 1 byte up: short leaves embed in their parent, long ones are hashed; bytes of
      // 0x80 and above check that nothing is read as text.
      const value = bytes(1 + (roll! % maxValue))
      root = trieSet(root, path, value)
      await reference.put(key, value)
      live.set(path, value)
    }
    if (step % 50 === 0 || step === steps - 1) {
      expect(bytesToHex(trieRoot(root, keccak))).toBe(bytesToHex(reference.root()))
    }
  }
  for (const [path, value] of live) {
    expect(trieGet(root, path)).toEqual(value)
    const proof = trieProof(root, path, keccak)
    // ethereumjs also lists the nodes embedded in their parent; geth, and trieProof, do not.
    const expected = (await createMerkleProof(reference, Buffer.from(path, 'hex'))).filter((node, i) => i === 0 || node.length >= 32)
    expect(proof.map(bytesToHex)).toEqual(expected.map(bytesToHex))
  }
  expect(new Map([...trieEntries(root)].map(([path, value]) => [path, bytesToHex(value)]))).toEqual(
    new Map([...live].map(([path, value]) => [path, bytesToHex(value)])),
  )
}

test('behavior: roots, values and proofs match @ethereumjs/mpt through random sets and deletes', async () => {
  // Two-byte keys: a few hundred of them fill the top levels, so leaves end at every depth.
  await compareWithMpt(keccak_256, 7, 2, 600, 40)
})

test('behavior: with the WebAssembly keccak the chain hashes with (over latin1, straight through its memory), roots, values and proofs match too', async () => {
  const keccak = createCustomCrypto().keccak256!
  await keccakReady()
  expect(keccakIsDirect()).toBe(true)
  await compareWithMpt(keccak, 13, 2, 600, 40)
  // 32-byte keys, as the state's, and values up to an account leaf's size: a deep trie of hashed nodes.
  await compareWithMpt(keccak, 17, 32, 800, 110)
  // Values longer than the module's 16 kB input buffer are hashed the other way (a transaction trie's leaf can be).
  let root: TrieNode | undefined
  const reference = await createMPT()
  for (let i = 0; i < 3; i++) {
    const value = random(19 + i)(17_000 + i)
    root = trieSet(root, bytesToUnprefixedHex(Uint8Array.of(i)), value)
    await reference.put(Uint8Array.of(i), value)
  }
  expect(bytesToHex(trieRoot(root, keccak))).toBe(bytesToHex(reference.root()))
})

test('behavior: setting the value a key already holds returns the same trie', () => {
  let root: TrieNode | undefined
  for (let i = 0; i < 40; i++) root = trieSet(root, bytesToUnprefixedHex(keccak_256(Uint8Array.of(i))), Uint8Array.of(0x80 + i))
  const path = bytesToUnprefixedHex(keccak_256(Uint8Array.of(7)))
  expect(trieSet(root, path, Uint8Array.of(0x87))).toBe(root)
  expect(trieSet(root, path, Uint8Array.of(0x88))).not.toBe(root)
})

test('behavior: the root of a one-key trie is the root @ethereumjs/mpt gives it, for short (embedded) and long values and odd and even paths', async () => {
  const bytes = random(11)
  for (let step = 0; step < 200; step++) {
    // Keys of 1 to 33 bytes, paths of odd length too; values from 1 to 300 bytes (receipts run long; an empty one is a deletion to ethereumjs).
    const key = bytes(1 + (step % 33))
    const value = bytes(step % 7 === 0 ? 1 + (step % 5) : 1 + ((step * 37) % 300))
    const reference = await createMPT()
    await reference.put(key, value)
    const path = bytesToUnprefixedHex(key)
    expect(bytesToHex(singleKeyRoot(path, value, keccak_256))).toBe(bytesToHex(reference.root()))
    expect(bytesToHex(singleKeyRoot(path.slice(1), value, keccak_256))).toBe(bytesToHex(trieRoot(trieSet(undefined, path.slice(1), value), keccak_256)))
  }
})
