// Expected against actual: values compared as what the field is, operator objects, and where a
// mismatch inside a list or an object is reported.
import { expect, test } from 'vitest'
import { Checker } from '../../src/scenario/match.js'
import { Scope } from '../../src/scenario/scope.js'
import { parseQuantity } from '../../src/scenario/values.js'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const scope = new Scope([{ kind: 'account', address: ALICE, index: 0 }])
scope.define('alice', { kind: 'account', address: ALICE })

function check(expected: unknown, actual: unknown, kind: Parameters<Checker['check']>[3] = 'auto') {
  const checker = new Checker(scope)
  checker.check('x', expected, actual, kind, ['x'])
  return checker.mismatches.map((m) => ({ field: m.field, expected: m.expected, actual: m.actual, path: m.path.join('.') }))
}

test('default: quantities compare as numbers, whatever way they are written', () => {
  expect(check(21000, '0x5208', 'quantity')).toEqual([])
  expect(check('1.5 ether', '0x14d1120d7b160000', 'quantity')).toEqual([])
  expect(check('30 gwei', 30_000_000_000n, 'quantity')).toEqual([])
  expect(check('0x01', '0x1', 'quantity')).toEqual([])
  expect(check(2, '0x1', 'quantity')).toEqual([{ field: 'x', expected: 2, actual: '0x1', path: 'x' }])
})

test('default: addresses by name, index or hex in any case', () => {
  expect(check('alice', ALICE, 'address')).toEqual([])
  expect(check(0, ALICE, 'address')).toEqual([])
  expect(check(ALICE.toUpperCase().replace('0X', '0x'), ALICE, 'address')).toEqual([])
  expect(check('alice', '0x0000000000000000000000000000000000000001', 'address')).toHaveLength(1)
})

test('default: status words', () => {
  expect(check('success', '0x1', 'status')).toEqual([])
  expect(check('reverted', '0x0', 'status')).toEqual([])
  expect(check('reverted', '0x1', 'status')).toHaveLength(1)
})

test('args: min, max, contains, matches, exists, not', () => {
  expect(check({ min: 1, max: '0x10' }, '0x8')).toEqual([])
  expect(check({ max: 7 }, '0x8')).toEqual([{ field: 'x', expected: '<= 7', actual: '0x8', path: 'x.max' }])
  expect(check({ contains: 'NONCE' }, 'nonce too low')).toEqual([])
  expect(check({ matches: '^0x[0-9a-f]{4}$' }, '0xabcd')).toEqual([])
  expect(check({ exists: false }, undefined)).toEqual([])
  expect(check({ exists: true }, null)).toEqual([{ field: 'x', expected: 'present', actual: null, path: 'x.exists' }])
  expect(check({ not: 5 }, '0x5')).toEqual([{ field: 'x', expected: 'not 5', actual: '0x5', path: 'x.not' }])
})

test('behavior: objects compare partially, and a mismatch inside names its place', () => {
  const actual = { number: '0x2', miner: ALICE, logs: [{ data: '0x' }, { data: '0x01' }] }
  expect(check({ number: 2, miner: 'alice' }, actual)).toEqual([])
  expect(check({ number: 3, logs: [{}, { data: '0x02' }] }, actual)).toEqual([
    { field: 'x.number', expected: 3, actual: '0x2', path: 'x.number' },
    { field: 'x.logs[1].data', expected: '0x02', actual: '0x01', path: 'x.logs.1.data' },
  ])
  expect(check([1, 2], ['0x1'])).toEqual([{ field: 'x.length', expected: 2, actual: 1, path: 'x' }])
})

test('behavior: ABI values compare by their type', () => {
  expect(check(['alice', '2 gwei'], [ALICE, 2_000_000_000n], { abi: { type: 'tuple', components: [{ type: 'address' }, { type: 'uint256' }] } })).toEqual([])
  expect(check(-1, -1n, { abi: { type: 'int8' } })).toEqual([])
  expect(check('0xABCD', '0xabcd', { abi: { type: 'bytes2' } })).toEqual([])
})

test('error: quantities that are not numbers', () => {
  expect(() => parseQuantity('1.5 wei')).toThrow('quantity: "1.5 wei" has more decimals than a wei allows')
  expect(() => parseQuantity('lots')).toThrow('quantity: expected a number, got "lots"')
  expect(() => parseQuantity(2 ** 60)).toThrow('write large numbers as strings')
})
