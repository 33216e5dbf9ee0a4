// Slot arithmetic (src/inspect/slots.ts) against the compiler: Layouts.sol, compiled by solc, writes a
// known value at every kind of location and returns solc's own `.slot` for the nested ones; the
// words are read straight from the chain's state. Slot numbers of the state variables are the ones
// solc's storageLayout gives (Layouts.json).
import { describe, expect, test } from 'vitest'
import {
  bytesDataSlots,
  decodeBytesHead,
  dynamicArrayElement,
  dynamicDataSlot,
  encodeKey,
  erc7201Slot,
  fixedArrayElement,
  mappingSlot,
  nestedMappingSlot,
  packedField,
  structMemberSlot,
  toBigInt,
  toSigned,
} from '../../src/inspect/slots.js'
import { ALICE, Layouts, call, layoutsChain, uintAt, wordAt } from './helpers.js'

function slotOf(label: string): bigint {
  return BigInt(Layouts.storageLayout.storage.find((e) => e.label === label)!.slot)
}
function offsetOf(label: string): number {
  return Layouts.storageLayout.storage.find((e) => e.label === label)!.offset
}

/** The text of the string/bytes at `slot`, short or long form. */
function readBytes(words: (slot: bigint) => Uint8Array, slot: bigint): Uint8Array {
  const head = decodeBytesHead(words(slot))
  if (head.form === 'short') return head.data
  const data = Buffer.concat(bytesDataSlots(slot, head.length).map(words))
  return new Uint8Array(data.subarray(0, Number(head.length)))
}

test('default: a plain value at its own slot', async () => {
  const { rc, address } = await layoutsChain()
  expect(uintAt(rc, address, slotOf('total'))).toBe(1000n)
})

test('behavior: packed values share a slot, from the low-order end', async () => {
  const { rc, address } = await layoutsChain()
  const word = wordAt(rc, address, 1n)
  expect(packedField(word, offsetOf('small'), 1)).toBe(7n)
  expect(packedField(word, offsetOf('medium'), 2)).toBe(0x1234n)
  expect(packedField(word, offsetOf('flag'), 1)).toBe(1n)
  expect(packedField(word, offsetOf('admin'), 20)).toBe(0xaan)
  expect(toSigned(packedField(word, offsetOf('negative'), 4), 32)).toBe(-5n)
  expect(packedField(word, offsetOf('color'), 1)).toBe(2n)
  expect(packedField(wordAt(rc, address, slotOf('tag')), 0, 4)).toBe(0xdeadbeefn)
})

test('behavior: struct members follow the struct slot (packed inside it)', async () => {
  const { rc, address } = await layoutsChain()
  const base = slotOf('position')
  expect(packedField(wordAt(rc, address, structMemberSlot(base, 0n)), 0, 16)).toBe(11n)
  expect(packedField(wordAt(rc, address, structMemberSlot(base, 0n)), 16, 8)).toBe(12n)
  expect(packedField(wordAt(rc, address, structMemberSlot(base, 1n)), 0, 20)).toBe(0xbeefn)
  expect(packedField(wordAt(rc, address, structMemberSlot(base, 1n)), 20, 1)).toBe(1n)
  const history = structMemberSlot(base, 2n)
  expect(await call(rc, address, Layouts, 'positionHistorySlot')).toBe(history)
  expect(uintAt(rc, address, history)).toBe(2n)
  expect(uintAt(rc, address, dynamicArrayElement(history, 1n, 32).slot)).toBe(102n)
})

describe('fixed arrays', () => {
  test('behavior: whole-slot elements', async () => {
    const { rc, address } = await layoutsChain()
    for (const [i, v] of [31n, 32n, 33n].entries()) expect(uintAt(rc, address, fixedArrayElement(slotOf('triple'), BigInt(i), 32).slot)).toBe(v)
  })

  test('behavior: small elements are packed', async () => {
    const { rc, address } = await layoutsChain()
    for (let i = 0n; i < 5n; i++) {
      const at = fixedArrayElement(slotOf('bytesArray'), i, 1)
      expect(packedField(wordAt(rc, address, at.slot), at.offset, 1)).toBe(i + 1n)
    }
  })

  test('behavior: struct elements start a slot each', async () => {
    const { rc, address } = await layoutsChain()
    const at = fixedArrayElement(slotOf('pairs'), 2n, 32)
    expect(at.slot).toBe(slotOf('pairs') + 2n)
    expect(packedField(wordAt(rc, address, at.slot), 0, 2)).toBe(5n)
    expect(packedField(wordAt(rc, address, at.slot), 2, 2)).toBe(6n)
  })

  test('error: index out of range', () => {
    expect(() => fixedArrayElement(7n, 3n, 32, 3n)).toThrowErrorMatchingInlineSnapshot(`[RangeError: index 3 is out of range for an array of 3]`)
  })
})

describe('dynamic arrays', () => {
  test('behavior: length at the slot, elements from keccak256(slot)', async () => {
    const { rc, address } = await layoutsChain()
    const slot = slotOf('numbers')
    expect(uintAt(rc, address, slot)).toBe(3n)
    for (const [i, v] of [41n, 42n, 43n].entries()) expect(uintAt(rc, address, dynamicArrayElement(slot, BigInt(i), 32).slot)).toBe(v)
    expect(dynamicArrayElement(slot, 2n, 32).slot).toBe(dynamicDataSlot(slot) + 2n)
  })

  test('behavior: packed elements (4 uint64 per slot)', async () => {
    const { rc, address } = await layoutsChain()
    const slot = slotOf('packedNumbers')
    expect(uintAt(rc, address, slot)).toBe(6n)
    for (let i = 0n; i < 6n; i++) {
      const at = dynamicArrayElement(slot, i, 8)
      expect(packedField(wordAt(rc, address, at.slot), at.offset, 8)).toBe((i + 1n) * 100n)
    }
  })

  test('behavior: struct elements take elementSlots each', async () => {
    const { rc, address } = await layoutsChain()
    const at = dynamicArrayElement(slotOf('positions'), 1n, 96)
    expect(await call(rc, address, Layouts, 'positionsElementSlot', [1n])).toBe(at.slot)
    expect(packedField(wordAt(rc, address, at.slot), 0, 16)).toBe(23n)
    const history = structMemberSlot(at.slot, 2n)
    expect(uintAt(rc, address, dynamicArrayElement(history, 0n, 32).slot)).toBe(24n)
  })

  test('behavior: arrays of arrays', async () => {
    const { rc, address } = await layoutsChain()
    const inner = dynamicArrayElement(slotOf('nested'), 1n, 32).slot
    expect(await call(rc, address, Layouts, 'nestedElementSlot', [1n])).toBe(inner)
    expect(uintAt(rc, address, dynamicArrayElement(inner, 1n, 32).slot)).toBe(52n)
  })
})

describe('string and bytes', () => {
  test('behavior: short form, in the slot', async () => {
    const { rc, address } = await layoutsChain()
    const words = (s: bigint) => wordAt(rc, address, s)
    expect(decodeBytesHead(words(slotOf('shortName')))).toMatchObject({ form: 'short', length: 4 })
    expect(new TextDecoder().decode(readBytes(words, slotOf('shortName')))).toBe('ring')
    expect(Buffer.from(readBytes(words, slotOf('shortBytes'))).toString('hex')).toBe('c0ffee')
  })

  test('behavior: long form, data from keccak256(slot)', async () => {
    const { rc, address } = await layoutsChain()
    const words = (s: bigint) => wordAt(rc, address, s)
    expect(decodeBytesHead(words(slotOf('longName')))).toEqual({ form: 'long', length: 74n })
    expect(new TextDecoder().decode(readBytes(words, slotOf('longName')))).toBe(await call(rc, address, Layouts, 'longName'))
    expect(Buffer.from(readBytes(words, slotOf('longBytes'))).toString('hex')).toBe(Buffer.from(Array.from({ length: 37 }, (_, i) => i)).toString('hex'))
  })
})

describe('mappings', () => {
  test('behavior: value-type key padded to 32 bytes', async () => {
    const { rc, address } = await layoutsChain()
    expect(uintAt(rc, address, mappingSlot(slotOf('balances'), BigInt(ALICE)))).toBe(500n)
    expect(uintAt(rc, address, mappingSlot(slotOf('balances'), encodeKey({ kind: 'address' }, 0xbeefn)))).toBe(501n)
  })

  test('behavior: struct values', async () => {
    const { rc, address } = await layoutsChain()
    const at = mappingSlot(slotOf('positionsById'), 7n)
    expect(await call(rc, address, Layouts, 'positionByIdSlot', [7n])).toBe(at)
    expect(packedField(wordAt(rc, address, at), 0, 16)).toBe(77n)
    expect(packedField(wordAt(rc, address, at + 1n), 0, 20)).toBe(BigInt(ALICE))
  })

  test('behavior: string and bytes keys are hashed unpadded', async () => {
    const { rc, address } = await layoutsChain()
    expect(uintAt(rc, address, mappingSlot(slotOf('byName'), encodeKey({ kind: 'string' }, 'alice')))).toBe(61n)
    const long = 'a key that is longer than thirty-two bytes in total'
    expect(uintAt(rc, address, mappingSlot(slotOf('byName'), encodeKey({ kind: 'string' }, long)))).toBe(62n)
    expect(uintAt(rc, address, mappingSlot(slotOf('byBytes'), encodeKey({ kind: 'bytes' }, Uint8Array.of(1))))).toBe(63n)
  })

  test('behavior: bytesN keys are right-padded, signed keys sign-extended, bool keys 0/1', async () => {
    const { rc, address } = await layoutsChain()
    expect(uintAt(rc, address, mappingSlot(slotOf('bySelector'), encodeKey({ kind: 'fixedBytes', size: 4 }, Uint8Array.of(0xde, 0xad, 0xbe, 0xef))))).toBe(64n)
    expect(uintAt(rc, address, mappingSlot(slotOf('bySigned'), encodeKey({ kind: 'int', bits: 256 }, -1n)))).toBe(65n)
    expect(uintAt(rc, address, mappingSlot(slotOf('byBool'), encodeKey({ kind: 'bool' }, true)))).toBe(66n)
  })

  test('behavior: nested mappings hash the outer key first', async () => {
    const { rc, address } = await layoutsChain()
    expect(uintAt(rc, address, nestedMappingSlot(slotOf('allowed'), [BigInt(ALICE), 3n]))).toBe(1n)
    expect(uintAt(rc, address, nestedMappingSlot(slotOf('allowed'), [3n, BigInt(ALICE)]))).toBe(0n)
  })

  test('behavior: array and string values', async () => {
    const { rc, address } = await layoutsChain()
    const list = mappingSlot(slotOf('lists'), BigInt(ALICE))
    expect(await call(rc, address, Layouts, 'listSlot', [ALICE])).toBe(list)
    expect(uintAt(rc, address, dynamicArrayElement(list, 1n, 32).slot)).toBe(72n)
    const name = mappingSlot(slotOf('colorNames'), 1n)
    expect(await call(rc, address, Layouts, 'colorNameSlot', [1])).toBe(name)
    expect(new TextDecoder().decode(readBytes((s) => wordAt(rc, address, s), name))).toBe('green')
  })

  test('error: key too large for its type', () => {
    expect(() => encodeKey({ kind: 'uint', bits: 8 }, 256n)).toThrowErrorMatchingInlineSnapshot(`[RangeError: 256 does not fit in uint8]`)
    expect(() => encodeKey({ kind: 'fixedBytes', size: 4 }, Uint8Array.of(1))).toThrowErrorMatchingInlineSnapshot(`[RangeError: a bytes4 key has 4 bytes, got 1]`)
  })
})

describe('ERC-7201', () => {
  test('behavior: the namespace root solc computes, and the struct from it', async () => {
    const { rc, address } = await layoutsChain()
    const root = erc7201Slot('ringchain.layouts.main')
    expect(await call(rc, address, Layouts, 'mainStorageSlot')).toBe(root)
    expect(uintAt(rc, address, root)).toBe(81n)
    expect(uintAt(rc, address, mappingSlot(root + 1n, BigInt(ALICE)))).toBe(82n)
    expect(new TextDecoder().decode(decodeBytesHead(wordAt(rc, address, root + 2n)).form === 'short' ? readBytes((s) => wordAt(rc, address, s), root + 2n) : new Uint8Array())).toBe('namespaced')
  })

  test('args: a published namespace (OpenZeppelin ERC20Upgradeable)', () => {
    expect(erc7201Slot('openzeppelin.storage.ERC20').toString(16)).toBe('52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00')
  })
})

test('behavior: words round-trip', () => {
  expect(toBigInt(new Uint8Array(0))).toBe(0n)
  expect(() => packedField(0n, 30, 4)).toThrow(RangeError)
})
