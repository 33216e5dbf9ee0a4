import { createEVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { fastTable, type OpcodeEntry, type OpcodeTable } from '../../src/chain/execution/fastOpcodes.js'
import { analyseJumps, JumpAnalyses, type JumpAnalysis } from '../../src/chain/execution/jumpAnalysis.js'
import { interpreterClass } from '../../src/chain/execution/leanEvm.js'
import { createDevCommon } from '../../src/chain/genesis.js'
import Token from '../../scenarios/contracts/Token.json' with { type: 'json' }

// The fast interpreter's jump analysis (src/chain/execution/jumpAnalysis.ts) must hand the
// interpreter exactly what ethereumjs's `_getValidJumpDestinations` hands it.

async function stockAnalysis() {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'osaka' })
  const evm = await createEVM({ common })
  const table = fastTable((evm as unknown as { _opcodeMap: OpcodeTable })._opcodeMap, common)
  const stock = (await interpreterClass(evm)).prototype as unknown as { _getValidJumpDestinations(this: unknown, code: Uint8Array): JumpAnalysis }
  // ethereumjs's method reads `lookupOpInfo` and `common` of its interpreter.
  const interpreter = { common, lookupOpInfo: (op: number) => table[op] }
  return { table, analyse: (code: Uint8Array) => stock._getValidJumpDestinations.call(interpreter, code) }
}

const CODES: Record<string, string> = {
  empty: '0x',
  'jumpdests, push data holding 0x5b': '0x5b605b5b7f' + '5b'.repeat(32) + '5b56',
  'every push size': '0x' + Array.from({ length: 32 }, (_, i) => (0x60 + i).toString(16) + 'a7'.repeat(i + 1)).join('') + '5b',
  'push cut short by the end of the code': '0x5b7fff01',
  'push32 of a full word': '0x7f' + 'ff'.repeat(32) + '00',
  'push8 cut short': '0x67' + '0102030405',
  'push0 and invalid opcodes': '0x5f5ffe0c5b',
  'ERC-20 init code': Token.bytecode,
}

for (const [name, hex] of Object.entries(CODES)) {
  test(`behavior: the analysis is ethereumjs's (${name})`, async () => {
    const { table, analyse } = await stockAnalysis()
    const code = hexToBytes(hex as `0x${string}`)
    const expected = analyse(code)
    const actual = analyseJumps(code, table)
    expect(actual.jumps).toEqual(expected.jumps)
    expect(actual.pushes).toEqual(expected.pushes)
    // The same entries, holes (push data) in the same places.
    expect(actual.opcodesCached.length).toBe(expected.opcodesCached.length)
    for (let i = 0; i < code.length; i++) expect(i in actual.opcodesCached, `offset ${i}`).toBe(i in expected.opcodesCached)
    expect(actual.opcodesCached.every((entry: OpcodeEntry, i) => entry === expected.opcodesCached[i])).toBe(true)
  })
}

test('behavior: code seen before, in the same array or a new one, is analysed once', () => {
  const analyses = new JumpAnalyses()
  const made: number[] = []
  const analyse = (code: Uint8Array) => (made.push(code.length), analyseJumps(code, []))
  const code = hexToBytes('0x600456605b00')
  const first = analyses.of(code, analyse)
  expect(analyses.of(code, analyse)).toBe(first)
  expect(analyses.of(code.slice(), analyse)).toBe(first)
  // Same length, other content: its own analysis.
  const other = hexToBytes('0x5b5b5b5b5b5b')
  expect(analyses.of(other, analyse).jumps).toEqual(Uint8Array.of(1, 1, 1, 1, 1, 1))
  expect(made).toEqual([6, 6])
})

test('behavior: a change to the array analysed before is not taken for the code it held', () => {
  const analyses = new JumpAnalyses()
  const code = hexToBytes('0x5b5b')
  analyses.of(code, (c) => analyseJumps(c, []))
  // A new array with the old content hits the kept copy, not the array since written.
  code.set([0x60, 0x5b])
  expect(analyses.of(hexToBytes('0x5b5b'), (c) => analyseJumps(c, [])).jumps).toEqual(Uint8Array.of(1, 1))
})

test('behavior: the content cache starts over past its bound, analyses stay right', () => {
  const analyses = new JumpAnalyses()
  let made = 0
  const analyse = (code: Uint8Array) => (made++, analyseJumps(code, []))
  // Code `i` of 16 KiB, in a new array each time.
  const code = (i: number) => {
    const bytes = new Uint8Array(16 * 1024).fill(0x5b)
    bytes[0] = i
    return bytes
  }
  for (let round = 0; round < 2; round++) for (let i = 0; i < 20; i++) expect(analyses.of(code(i), analyse).jumps[0]).toBe(0)
  expect(made).toBe(20)
  // 40 more (640 KiB in all, past the 512 KiB kept): the first ones were let go.
  for (let i = 20; i < 60; i++) analyses.of(code(i), analyse)
  expect(made).toBe(60)
  expect(analyses.of(code(0x5b), analyse).jumps[0]).toBe(1)
  analyses.of(code(0), analyse)
  expect(made).toBe(62)
})
