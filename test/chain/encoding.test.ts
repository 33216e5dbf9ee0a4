// The account leaf is written by hand (encoding.ts): it must be byte for byte what ethereumjs's
// `Account.serialize()` gives, at every boundary of RLP's short forms.
import { Account, KECCAK256_NULL, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { RLP } from '@ethereumjs/rlp'
import { accountLeaf, bigIntOf, decodeFlatList, encodeAccount, encodeFlatList, unpad } from '../../src/chain/encoding.js'
import { fromLatin1, toLatin1 } from '../../src/chain/latin1.js'
import { rlpLatin1 } from '../../src/chain/trie.js'

// 2^48 is where small values leave the Number path for the hex one.
const INTEGERS = [0n, 1n, 2n ** 248n - 1n, 2n ** 248n, 2n ** 256n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 0x10000n, 2n ** 40n - 1n, 2n ** 48n - 1n, 2n ** 48n, 2n ** 53n + 1n, 10n ** 18n, 2n ** 64n - 1n, 2n ** 255n, 2n ** 256n - 1n]
const HASH = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1)

test('default: every nonce and balance boundary encodes as ethereumjs encodes it', () => {
  for (const nonce of INTEGERS.filter((n) => n < 2n ** 64n)) {
    for (const balance of INTEGERS) {
      for (const [storageRoot, codeHash] of [[KECCAK256_RLP, KECCAK256_NULL], [HASH, HASH]] as const) {
        const record = { nonce, balance, storageRoot, codeHash, codeSize: 0 }
        expect(encodeAccount(record), `nonce ${nonce} balance ${balance}`).toEqual(new Account(nonce, balance, storageRoot, codeHash).serialize())
      }
    }
  }
})

test('behavior: a flat list encodes as RLP.encode encodes it, at every length boundary', () => {
  const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)
  const items = [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0x7f), Uint8Array.of(0x80), bytes(55, 1), bytes(56, 2), bytes(255, 3), bytes(256, 4), bytes(70_000, 5)]
  for (let i = 0; i < items.length; i++) {
    const list = items.slice(i).concat(items.slice(0, i))
    expect(encodeFlatList(list)).toEqual(RLP.encode(list))
    expect(encodeFlatList(list.slice(0, 3))).toEqual(RLP.encode(list.slice(0, 3)))
  }
  expect(encodeFlatList([])).toEqual(RLP.encode([]))
})

test('behavior: a storage value is unpadded and RLP-encoded (the trie leaf, rlpLatin1) as ethereumjs does it', () => {
  const values = [new Uint8Array(0), Uint8Array.of(0), new Uint8Array(32), Uint8Array.of(0, 0, 1), Uint8Array.of(0x7f), Uint8Array.of(0x80), Uint8Array.of(1, 0), new Uint8Array(32).fill(0xff)]
  for (let i = 0; i < 32; i++) values.push(Uint8Array.from({ length: 32 }, (_, j) => (j < i ? 0 : (j * 31 + i) % 256)))
  for (const value of values) {
    expect(unpad(value)).toEqual(unpadBytes(value))
    // A copy whenever anything was dropped, the value itself otherwise, as unpadBytes gives it.
    expect(unpad(value) === value).toBe(value.length === 0 || value[0] !== 0)
    const stored = unpad(value)
    if (stored.length > 0) expect(fromLatin1(rlpLatin1(stored))).toEqual(RLP.encode(stored))
  }
})

test('accountLeaf: the latin1 form of encodeAccount, at every nonce and balance boundary', () => {
  for (const nonce of INTEGERS.filter((n) => n < 2n ** 64n)) {
    for (const balance of INTEGERS) {
      const record = { nonce, balance, storageRoot: KECCAK256_RLP, codeHash: HASH, codeSize: 0 }
      expect(accountLeaf(record), `nonce ${nonce} balance ${balance}`).toBe(toLatin1(new Account(nonce, balance, KECCAK256_RLP, HASH).serialize()))
    }
  }
})

/** RLP.decode's answer: its value, or that it refused. */
function stock(input: Uint8Array): unknown {
  try {
    return RLP.decode(input)
  } catch {
    return 'refused'
  }
}

const bytes = (length: number, fill = 0x5a) => new Uint8Array(length).fill(fill)
// Flat lists at every boundary of RLP's short forms: single bytes, 55/56-byte strings, 256-byte ones, empty lists, long lists.
const FLAT_LISTS: Uint8Array[][] = [
  [],
  [Uint8Array.of(0), Uint8Array.of(0x7f), Uint8Array.of(0x80), new Uint8Array(0), bytes(55), bytes(56), bytes(300)],
  [bytes(20), bytes(32, 0), bytes(1, 1), bytes(2, 0)],
  Array.from({ length: 12 }, (_, i) => bytes(i * 3, i)),
]

test('behavior: a flat list decodes as RLP.decode decodes it, empty lists among its items included', () => {
  for (const items of FLAT_LISTS) {
    const encoded = RLP.encode(items)
    expect(decodeFlatList(encoded, 0)).toEqual(RLP.decode(encoded))
    const withEmptyList = RLP.encode([...items, []])
    expect(decodeFlatList(withEmptyList, 0)).toEqual(RLP.decode(withEmptyList))
    // After a type byte, as a typed transaction's fields lie.
    expect(decodeFlatList(Uint8Array.of(2, ...encoded), 1)).toEqual(RLP.decode(encoded))
  }
})

test('behavior: what RLP.decode refuses, and every other shape, is left to it (undefined)', () => {
  const cases: Record<string, Uint8Array> = {
    'a single byte under 0x80 behind a prefix': Uint8Array.of(0xc2, 0x81, 0x05),
    'a long string of 55 bytes': Uint8Array.of(0xf8, 57, 0xb8, 55, ...bytes(55)),
    'a length with a leading zero': Uint8Array.of(0xf8, 60, 0xb9, 0, 56, ...bytes(56)),
    'a short list in long form': Uint8Array.of(0xf8, 2, 0x01, 0x02),
    'bytes left over': Uint8Array.of(0xc1, 0x01, 0x02),
    'bytes missing': Uint8Array.of(0xc3, 0x83, 0x01),
    'an item running past the list': Uint8Array.of(0xc2, 0x82, 0x01, 0x02),
    'a nested list': RLP.encode([[Uint8Array.of(1)]]),
    'a string, not a list': RLP.encode(bytes(3)),
    'nothing': new Uint8Array(0),
  }
  for (const [name, input] of Object.entries(cases)) expect({ name, flat: decodeFlatList(input, 0) }).toEqual({ name, flat: undefined })
  expect(stock(cases['a single byte under 0x80 behind a prefix']!)).toBe('refused')
  expect(stock(cases['a length with a leading zero']!)).toBe('refused')
})

test('behavior: a decoded list never differs from RLP.decode on mutated encodings (it refuses or agrees)', () => {
  let seed = 7
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
  let agreed = 0
  for (const items of FLAT_LISTS) {
    const encoded = RLP.encode([...items, []])
    for (let round = 0; round < 400; round++) {
      const input = encoded.slice(0, encoded.length - random(2))
      for (let k = 0; k <= random(3); k++) input[random(input.length)] = random(256)
      const flat = decodeFlatList(input, 0)
      if (flat === undefined) continue
      agreed++
      expect(flat).toEqual(stock(input))
    }
  }
  expect(agreed).toBeGreaterThan(100)
})

test('default: bytes read as a number as bytesToBigInt reads them', () => {
  for (const length of [0, 1, 5, 6, 7, 8, 20, 32]) {
    const value = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) % 256)
    expect(bigIntOf(value)).toBe(length === 0 ? 0n : BigInt(`0x${Buffer.from(value).toString('hex')}`))
  }
})
