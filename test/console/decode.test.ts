import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { AbiCoder, id } from 'ethers'
import { expect, test } from 'vitest'
import { decodeConsoleLog } from '../../src/chain/console/decode.js'

/** Calldata of `signature` (as the library hashes it) with `values`, `types` as the ABI encodes them. */
function calldata(signature: string, types: readonly string[], values: readonly unknown[]): Uint8Array {
  return Buffer.from(id(signature).slice(2, 10) + AbiCoder.defaultAbiCoder().encode(types, values).slice(2), 'hex')
}
const log = (types: readonly string[], ...values: unknown[]) => decodeConsoleLog(calldata(`log(${types.join(',')})`, types, values))

test('default: arguments of each type, space-separated', () => {
  expect(log([])).toBe('')
  expect(log(['uint256', 'bool', 'address'], 42n, true, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8')).toBe('42 true 0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  expect(log(['int256'], -5n)).toBe('-5')
  expect(log(['bytes'], '0xdeadbeef')).toBe('0xdeadbeef')
  expect(log(['bytes4'], '0x12345678')).toBe('0x12345678')
})

test('behavior: a leading string is a format (%s %d %i %o %x %e %%)', () => {
  expect(log(['string', 'uint256'], 'balance %d wei', 5n)).toBe('balance 5 wei')
  expect(log(['string', 'address', 'uint256'], '%s sent %i', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 7n)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8 sent 7')
  expect(log(['string', 'uint256'], 'hex %x', 255n)).toBe('hex 0xff')
  expect(log(['string', 'string'], 'quoted %o', 'a')).toBe("quoted 'a'")
  expect(log(['string', 'uint256'], '%e', 1500n)).toBe('1.5e3')
  expect(log(['string', 'uint256'], '%18e ETH', 1_250_000_000_000_000_000n)).toBe('1.25 ETH')
  expect(log(['string', 'uint256'], '100%% of %d', 3n)).toBe('100% of 3')
  expect(log(['string', 'string'], '%d', 'x')).toBe('NaN')
})

test('behavior: extra arguments follow; missing ones leave the specifier', () => {
  expect(log(['string', 'uint256', 'bool'], 'a %s', 1n, false)).toBe('a 1 false')
  expect(log(['string'], 'no %s here')).toBe('no %s here')
})

test('behavior: the legacy selectors (uint, int, named forms) decode too', () => {
  expect(decodeConsoleLog(calldata('log(uint)', ['uint256'], [9n]))).toBe('9')
  expect(decodeConsoleLog(calldata('log(string,uint)', ['string', 'uint256'], ['n=%d', 9n]))).toBe('n=9')
  expect(decodeConsoleLog(calldata('logInt(int)', ['int256'], [-1n]))).toBe('-1')
  expect(decodeConsoleLog(calldata('logBytes3(bytes3)', ['bytes3'], ['0xabcdef']))).toBe('0xabcdef')
  expect(decodeConsoleLog(calldata('logUint(uint256)', ['uint256'], [3n]))).toBe('3')
})

test('error: unknown selector or truncated calldata decodes to nothing', () => {
  expect(decodeConsoleLog(calldata('transfer(address,uint256)', ['address', 'uint256'], ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 1n]))).toBeUndefined()
  expect(decodeConsoleLog(calldata('log(string)', ['string'], ['hello']).subarray(0, 40))).toBeUndefined()
  expect(decodeConsoleLog(new Uint8Array([1, 2]))).toBeUndefined()
})

// Hardhat's own library: every selector it sends must decode. Installed beside the benches (see PREAMBLE).
const HARDHAT_CONSOLE = join(homedir(), '.cache/ringchain-bench/node_modules/hardhat/console.sol')
test('behavior: every function of Hardhat’s console.sol decodes', (ctx) => {
  if (!existsSync(HARDHAT_CONSOLE)) {
    console.log(`skipped: ${HARDHAT_CONSOLE} is not installed (npm install --prefix ~/.cache/ringchain-bench hardhat)`)
    ctx.skip()
  }
  const signatures = [...readFileSync(HARDHAT_CONSOLE, 'utf8').matchAll(/encodeWithSignature\("([^"]+)"/g)].map((m) => m[1]!)
  expect(new Set(signatures).size).toBeGreaterThan(370)
  const sample: Record<string, unknown> = { uint256: 1n, int256: -1n, string: 's', bool: true, address: '0x0000000000000000000000000000000000000001', bytes: '0x01' }
  const undecoded = signatures.filter((signature) => {
    const types = signature.slice(signature.indexOf('(') + 1, -1).split(',').filter((t) => t !== '')
    const values = types.map((t) => sample[t] ?? `0x${'01'.repeat(Number(t.slice(5)))}`)
    return decodeConsoleLog(calldata(signature, types, values)) === undefined
  })
  expect(undecoded).toEqual([])
})
