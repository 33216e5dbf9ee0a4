// The compact form of bytes the state keeps (trie nodes, slot values): it must give back exactly the
// bytes it was given, each in a buffer of its own.
import { expect, test } from 'vitest'
import { fromLatin1, toLatin1, writeLatin1 } from '../../src/chain/latin1.js'

test('default: every byte value round-trips, one char per byte', () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i)
  const compact = toLatin1(bytes)
  expect(compact.length).toBe(256)
  expect(fromLatin1(compact)).toEqual(bytes)
})

test('args: a view into a larger buffer keeps only its own bytes', () => {
  const view = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4)
  expect(fromLatin1(toLatin1(view))).toEqual(new Uint8Array([1, 2, 3]))
})

test('behavior: bytes given back own their buffer, not a slice of a shared pool', () => {
  const bytes = fromLatin1(toLatin1(new Uint8Array([0x2a])))
  expect(bytes.byteOffset).toBe(0)
  expect(bytes.buffer.byteLength).toBe(1)
})

test('behavior: empty bytes are the empty string', () => {
  expect(toLatin1(new Uint8Array(0))).toBe('')
  expect(fromLatin1('')).toEqual(new Uint8Array(0))
})

test('behavior: written into a buffer, short and long byte strings land whole at their offset, the bytes around untouched', () => {
  for (const length of [0, 1, 15, 16, 32, 33, 300]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + 200) % 256)
    const out = new Uint8Array(length + 6).fill(0xee)
    expect(writeLatin1(out, 3, toLatin1(bytes))).toBe(3 + length)
    expect(out.subarray(3, 3 + length)).toEqual(bytes)
    expect([...out.subarray(0, 3), ...out.subarray(3 + length)]).toEqual([0xee, 0xee, 0xee, 0xee, 0xee, 0xee])
  }
})
