// The account leaf is written by hand (encoding.ts): it must be byte for byte what ethereumjs's
// `Account.serialize()` gives, at every boundary of RLP's short forms.
import { Account, KECCAK256_NULL, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { RLP } from '@ethereumjs/rlp'
import { accountLeaf, encodeAccount, encodeFlatList, unpad } from '../../src/chain/encoding.js'
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
