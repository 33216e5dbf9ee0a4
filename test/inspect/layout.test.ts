// Variable paths over solc's storage layout (src/inspect/layout.ts) and reading whole contracts
// (src/inspect/read.ts): resolved slots are checked against solc's own `.slot` getters and the words
// the contract wrote; names come from the derivations the chain recorded while mining.
import { describe, expect, test } from 'vitest'
import { StorageClient, eip1193Request } from '../../src/inspect/client.js'
import { parseLayout } from '../../src/inspect/layout.js'
import { parsePath } from '../../src/inspect/paths.js'
import { LayoutError } from '../../src/inspect/types.js'
import { cachedReader, readAll, readResolved, renderVariables } from '../../src/inspect/read.js'
import { decodeBytesHead, packedField } from '../../src/inspect/slots.js'
import { ALICE, Layouts, Token, call, layoutsChain, tokenChain, uintAt, wordAt } from './helpers.js'

const layout = parseLayout(Layouts)

describe('resolve', () => {
  test('default: a state variable', () => {
    expect(layout.resolve('total')).toMatchObject({ path: 'total', slot: 0n, offset: 0, type: { label: 'uint256' } })
  })

  test('args: packed value, struct member, array element, mapping entry, nested', async () => {
    const { rc, address } = await layoutsChain()
    const admin = layout.resolve('admin')
    expect(packedField(wordAt(rc, address, admin.slot), admin.offset, 20)).toBe(0xaan)
    const since = layout.resolve('position.since')
    expect(packedField(wordAt(rc, address, since.slot), since.offset, 8)).toBe(12n)
    expect(uintAt(rc, address, layout.resolve('position.history[1]').slot)).toBe(102n)
    expect(layout.resolve('positions[1]').slot).toBe(await call(rc, address, Layouts, 'positionsElementSlot', [1n]))
    expect(layout.resolve('positionsById[7]').slot).toBe(await call(rc, address, Layouts, 'positionByIdSlot', [7n]))
    expect(layout.resolve(`lists[${ALICE}]`).slot).toBe(await call(rc, address, Layouts, 'listSlot', [ALICE]))
    expect(uintAt(rc, address, layout.resolve(`lists[${ALICE.toLowerCase()}][1]`).slot)).toBe(72n)
    expect(uintAt(rc, address, layout.resolve('nested[1][0]').slot)).toBe(51n)
    const packed = layout.resolve('packedNumbers[5]')
    expect(packedField(wordAt(rc, address, packed.slot), packed.offset, 8)).toBe(600n)
    expect(uintAt(rc, address, layout.resolve(`allowed[${ALICE}][3]`).slot)).toBe(1n)
    expect(uintAt(rc, address, layout.resolve('byName["alice"]').slot)).toBe(61n)
    expect(uintAt(rc, address, layout.resolve("byName['alice']").slot)).toBe(61n)
    expect(uintAt(rc, address, layout.resolve('byName[alice]').slot)).toBe(61n)
    expect(uintAt(rc, address, layout.resolve('byBytes[0x01]').slot)).toBe(63n)
    expect(uintAt(rc, address, layout.resolve('bySelector[0xdeadbeef]').slot)).toBe(64n)
    expect(uintAt(rc, address, layout.resolve('bySigned[-1]').slot)).toBe(65n)
    expect(uintAt(rc, address, layout.resolve('byBool[true]').slot)).toBe(66n)
    expect(decodeBytesHead(wordAt(rc, address, layout.resolve('colorNames[1]').slot))).toMatchObject({ form: 'short', length: 5 })
  })

  test('behavior: the path is normalized (checksummed keys)', () => {
    expect(layout.resolve(`balances[${ALICE.toLowerCase()}]`).path).toBe(`balances[${ALICE}]`)
    expect(layout.resolve('byName[alice]').path).toBe('byName["alice"]')
  })

  test('error: unknown variable, member, bad key, index out of range, not indexable', () => {
    const errors = [
      'nope',
      'position.nope',
      'balances[0x1234]',
      'balances[hello]',
      'triple[3]',
      'total[1]',
      'total.x',
      'bySelector[0xdead]',
      'byBool[yes]',
      'numbers[-1]',
      'balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '[1]',
    ].map((p) => {
      try {
        layout.resolve(p)
        return `${p}: resolved`
      } catch (e) {
        expect(e).toBeInstanceOf(LayoutError)
        return (e as Error).message
      }
    })
    expect(errors).toMatchInlineSnapshot(`
      [
        "no state variable "nope" (the layout has: total, small, medium, flag, admin, negative, color, tag, hash32, position, triple, bytesArray, pairs, numbers, packedNumbers, positions, nested, shortName, longName, shortBytes, longBytes, balances, positionsById, byName, byBytes, bySelector, bySigned, byBool, allowed, lists, colorNames)",
        "position (struct Layouts.Position) has no member "nope" (members: amount, since, owner, active, history)",
        "balances[0x1234]: the key is address: 20 bytes of hex (0x + 40 digits)",
        "balances[hello]: the key is address: 20 bytes of hex (0x + 40 digits)",
        "triple[3] is out of range: uint256[3] has 3 elements",
        "total is uint256: it cannot be indexed with [1]",
        "total is uint256, not a struct: no member "x"",
        "bySelector[0xdead]: the key is bytes4: 4 bytes of hex (0x + 8 digits)",
        "byBool[yes]: the key is bool: true or false",
        "numbers[-1]: an array index is a non-negative number",
        "bad path "balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8": missing "]" at character 10",
        "bad path "[1]": expected a name at character 1",
      ]
    `)
  })
})

test('behavior: paths split on dots and brackets, quoted keys may hold both', () => {
  expect(parsePath('a.b["x].y"][2]')).toEqual([
    { kind: 'member', name: 'a' },
    { kind: 'member', name: 'b' },
    { kind: 'index', text: '"x].y"' },
    { kind: 'index', text: '2' },
  ])
})

describe('parseLayout', () => {
  test('args: an artifact or the storageLayout itself', () => {
    expect(parseLayout(Token.storageLayout).variables.map((v) => v.name)).toEqual(['_balances', '_allowances', '_totalSupply', '_name', '_symbol'])
  })

  test('error: not a layout', () => {
    expect(() => parseLayout({ abi: [] })).toThrowErrorMatchingInlineSnapshot(`[LayoutError: not a solc storage layout: expected {"storage": [...], "types": {...}} or an artifact with "storageLayout" (compile with outputSelection "storageLayout")]`)
    expect(() => parseLayout({ storage: [{ label: 'x' }], types: {} })).toThrowErrorMatchingInlineSnapshot(`[LayoutError: storage entry 0 of the layout is not {label, slot, offset, type}]`)
  })
})

describe('name', () => {
  test('default: every slot the chain can derive is named', async () => {
    const { rc, address } = await layoutsChain()
    const client = new StorageClient(eip1193Request(rc))
    const slots = await client.slots(address, rc.chain.head.number)
    const named = slots.flatMap((s) => (s.derivation === undefined ? [] : (layout.name(s.derivation)?.map((f) => f.path) ?? [`${s.path}: no name`])))
    expect(named).toMatchInlineSnapshot(`
      [
        "total",
        "small",
        "medium",
        "flag",
        "admin",
        "negative",
        "color",
        "tag",
        "hash32",
        "position.amount",
        "position.since",
        "position.owner",
        "position.active",
        "position.history.length",
        "triple[0]",
        "triple[1]",
        "triple[2]",
        "bytesArray[0]",
        "bytesArray[1]",
        "bytesArray[2]",
        "bytesArray[3]",
        "bytesArray[4]",
        "pairs[0].a",
        "pairs[0].b",
        "pairs[2].a",
        "pairs[2].b",
        "numbers.length",
        "packedNumbers.length",
        "positions.length",
        "nested.length",
        "shortName",
        "longName",
        "shortBytes",
        "longBytes",
        "balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]",
        "positions[0].amount",
        "positions[0].since",
        "positions[0].owner",
        "positions[0].active",
        "positions[1].amount",
        "positions[1].since",
        "positions[1].history.length",
        "allowed[0x70997970C51812dc3A010C7d01b50e0d17dc79C8][3]",
        "longBytes",
        "longBytes",
        "longName",
        "longName",
        "longName",
        "byBytes[0x01]",
        "lists[0x70997970C51812dc3A010C7d01b50e0d17dc79C8].length",
        "byName["alice"]",
        "packedNumbers[0]",
        "packedNumbers[1]",
        "packedNumbers[2]",
        "packedNumbers[3]",
        "packedNumbers[4]",
        "packedNumbers[5]",
        "packedNumbers[6]",
        "packedNumbers[7]",
        "positions[1].history[0]",
        "byName["a key that is longer than thirty-two bytes in total"]",
        "keccak(0x31ecc21a745e3968a04e9570e4425bc18fa8019c68028196b546d1669c200c69): no name",
        "keccak(0x31ecc21a745e3968a04e9570e4425bc18fa8019c68028196b546d1669c200c69)+1: no name",
        "lists[0x70997970C51812dc3A010C7d01b50e0d17dc79C8][0]",
        "lists[0x70997970C51812dc3A010C7d01b50e0d17dc79C8][1]",
        "0x42f1254710b7b7423c9fdec325ca2d944f1db950e68018710e1a57dbc828a201[0x70997970c51812dc3a010c7d01b50e0d17dc79c8]: no name",
      ]
    `)
  })

  test('behavior: a word shared by packed values names each of them', () => {
    expect(layout.name({ root: 1n, steps: [] })?.map((f) => [f.path, f.offset, f.size])).toEqual([
      ['small', 0, 1],
      ['medium', 1, 2],
      ['flag', 3, 1],
      ['admin', 4, 20],
      ['negative', 24, 4],
      ['color', 28, 1],
    ])
  })

  test('behavior: a derivation that does not fit the layout has no name', () => {
    expect(layout.name({ root: 0n, steps: [{ kind: 'keccak' }] })).toBeUndefined()
    expect(layout.name({ root: 99n, steps: [] })).toBeUndefined()
  })
})

describe('read', () => {
  test('default: every variable of a contract, mapping entries from the keys the chain saw', async () => {
    const { rc, address } = await layoutsChain()
    const client = new StorageClient(eip1193Request(rc))
    const number = rc.chain.head.number
    const known = layout.knownKeys((await client.slots(address, number)).flatMap((s) => (s.derivation === undefined ? [] : [s.derivation])))
    const vars = await readAll(layout, cachedReader(client.reader(address, number)), { knownKeys: known })
    expect(renderVariables(vars)).toMatchInlineSnapshot(`
      "total          uint256                                       slot 0   = 1000
      small          uint8                                         slot 1   = 7
      medium         uint16                                        slot 1+1 = 4660
      flag           bool                                          slot 1+3 = true
      admin          address                                       slot 1+4 = 0x00000000000000000000000000000000000000AA
      negative       int32                                         slot 1+24 = -5
      color          enum Layouts.Color                            slot 1+28 = 2
      tag            bytes4                                        slot 2   = 0xdeadbeef
      hash32         bytes32                                       slot 3   = 0x2c8dfc985878fa928d9d70da8a27bff58b4f6d2519a7934cdae619dfc6414067
      position       struct Layouts.Position                       slot 4  
        .amount = 11
        .since = 12
        .owner = 0x000000000000000000000000000000000000bEEF
        .active = true
        .history = [101, 102]
      triple         uint256[3]                                    slot 7   = [31, 32, 33]
      bytesArray     uint8[5]                                      slot 10  = [1, 2, 3, 4, 5]
      pairs          struct Layouts.Pair[3]                        slot 11    (3 elements)
        [0]
          .a = 1
          .b = 2
        [1]
          .a = 0
          .b = 0
        [2]
          .a = 5
          .b = 6
      numbers        uint256[]                                     slot 14  = [41, 42, 43]
      packedNumbers  uint64[]                                      slot 15  = [100, 200, 300, 400, 500, 600]
      positions      struct Layouts.Position[]                     slot 16    (2 elements)
        [0]
          .amount = 21
          .since = 22
          .owner = 0x000000000000000000000000000000000000cafE
          .active = true
          .history = []
        [1]
          .amount = 23
          .since = 0
          .owner = 0x0000000000000000000000000000000000000000
          .active = false
          .history = [24]
      nested         uint256[][]                                   slot 17    (2 elements)
        [0] = []
        [1] = [51, 52]
      shortName      string                                        slot 18  = "ring"
      longName       string                                        slot 19  = "a string that is longer than thirty-one bytes, so it lives in keccak(slot)"
      shortBytes     bytes                                         slot 20  = 0xc0ffee
      longBytes      bytes                                         slot 21  = 0x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324
      balances       mapping(address => uint256)                   slot 22    (1 entry seen)
        [0x70997970C51812dc3A010C7d01b50e0d17dc79C8] = 500
      positionsById  mapping(uint256 => struct Layouts.Position)   slot 23    (no entries seen)
      byName         mapping(string => uint256)                    slot 24    (2 entries seen)
        ["alice"] = 61
        ["a key that is longer than thirty-two bytes in total"] = 62
      byBytes        mapping(bytes => uint256)                     slot 25    (1 entry seen)
        [0x01] = 63
      bySelector     mapping(bytes4 => uint256)                    slot 26    (no entries seen)
      bySigned       mapping(int256 => uint256)                    slot 27    (no entries seen)
      byBool         mapping(bool => uint256)                      slot 28    (no entries seen)
      allowed        mapping(address => mapping(uint256 => bool))  slot 29    (1 entry seen)
        [0x70997970C51812dc3A010C7d01b50e0d17dc79C8]   (1 entry seen)
          [3] = true
      lists          mapping(address => uint256[])                 slot 30    (1 entry seen)
        [0x70997970C51812dc3A010C7d01b50e0d17dc79C8] = [71, 72]
      colorNames     mapping(enum Layouts.Color => string)         slot 31    (no entries seen)
      "
    `)
  })

  test('args: maxElements and maxBytes cut long values', async () => {
    const { rc, address } = await layoutsChain()
    const read = new StorageClient(eip1193Request(rc)).reader(address, rc.chain.head.number)
    expect(await readResolved(layout, read, layout.resolve('numbers'), { maxElements: 2 })).toMatchObject({ length: 3n, truncated: true, elements: [{ text: '41' }, { text: '42' }] })
    expect(await readResolved(layout, read, layout.resolve('longName'), { maxBytes: 10 })).toMatchObject({ length: 74n, truncated: true, text: '"a string t"' })
  })

  test('behavior: an ERC-20 read by name', async () => {
    const { rc, address } = await tokenChain()
    const token = parseLayout(Token)
    const read = new StorageClient(eip1193Request(rc)).reader(address, rc.chain.head.number)
    expect(await readResolved(token, read, token.resolve('_totalSupply'))).toEqual({ kind: 'value', type: 'uint256', text: '1000000000000000000000000' })
    expect(await readResolved(token, read, token.resolve(`_balances[${ALICE}]`))).toEqual({ kind: 'value', type: 'uint256', text: '5000000000000000000' })
    expect(await readResolved(token, read, token.resolve('_name'))).toMatchObject({ text: '"Ringchain Token"' })
  })
})
