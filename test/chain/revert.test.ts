import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test } from 'vitest'
import { describeRevert, errorSignaturesOfAbi, explainRevert, gethRevertReason, registerErrorSignatures } from '../../src/chain/revert.js'

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'))
const word = (value: bigint) => value.toString(16).padStart(64, '0')
const selector = (signature: string) => Buffer.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex')

test('default: Error(string) gives its string', () => {
  const data = hex(`08c379a0${word(32n)}${word(10n)}${Buffer.from('user error').toString('hex').padEnd(64, '0')}`)
  expect(explainRevert(data)).toEqual({ kind: 'error', reason: 'user error' })
  expect(describeRevert(data)).toBe('user error')
})

test('behavior: Panic(uint256) gives geth’s meaning, and ringchain adds the code', () => {
  const data = hex(`4e487b71${word(0x11n)}`)
  expect(gethRevertReason(data)).toBe('arithmetic underflow or overflow')
  expect(describeRevert(data)).toBe('arithmetic underflow or overflow (0x11)')
  expect(describeRevert(hex(`4e487b71${word(0x99n)}`))).toBe('unknown panic code: 0x99 (0x99)')
})

test('behavior: a common custom error is named, with its arguments', () => {
  const data = hex(`${selector('OwnableUnauthorizedAccount(address)')}${word(0xabcn)}`)
  expect(explainRevert(data)).toEqual({ kind: 'custom', reason: 'OwnableUnauthorizedAccount(0x0000000000000000000000000000000000000abc)' })
  // geth names only Error and Panic.
  expect(gethRevertReason(data)).toBeUndefined()
})

test('behavior: custom errors of a registered ABI are named', () => {
  const data = hex(`${selector('TooLate(uint256,bool)')}${word(5n)}${word(1n)}`)
  expect(explainRevert(data)).toBeUndefined()
  registerErrorSignatures(errorSignaturesOfAbi([{ type: 'error', name: 'TooLate', inputs: [{ type: 'uint256' }, { type: 'bool' }] }, { type: 'function', name: 'f', inputs: [] }]))
  expect(explainRevert(data)?.reason).toBe('TooLate(5, true)')
})

test('error: data too short or unknown is not explained', () => {
  expect(explainRevert(hex('08c3'))).toBeUndefined()
  expect(explainRevert(hex('deadbeef'))).toBeUndefined()
})
