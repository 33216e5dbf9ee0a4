/**
 * Malformed transactions through eth_sendRawTransaction: bad RLP, bad signatures, the wrong chain,
 * absurd fees and nonces, oversize data, unknown types. Each is refused with -32000 and geth's
 * message (ethereumjs's own words where geth's are those of its RLP decoder), and leaves the pool,
 * the chain and every balance as they were. One chain serves every case: that nothing changes is
 * the property under test.
 */
import { RLP } from '@ethereumjs/rlp'
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startRingchain, type RunningRingchain } from '../../src/index.js'
import { captureLogger, fingerprint, postRaw } from './helpers.js'

const TO = '0x00000000000000000000000000000000000000aa'
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

let rc: RunningRingchain
const log = captureLogger()
/** Fields of a correctly signed EIP-1559 transfer (nonce 0 of dev account 0), to take apart. */
let fields: Uint8Array[]
let good: string

function transfer(overrides: Partial<Parameters<typeof createFeeMarket1559Tx>[0]> = {}): TypedTransaction {
  return createFeeMarket1559Tx(
    { chainId: 31337n, nonce: 0n, to: TO, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, ...overrides },
    { common: rc.chain.common },
  ).sign(rc.chain.accounts[0]!.privateKey)
}

/** An EIP-1559 envelope around `list`, signed or not. */
function typed(list: Uint8Array[], type = 2): string {
  return bytesToHex(new Uint8Array([type, ...RLP.encode(list)]))
}

/** `fields` with field `index` (chainId 0, nonce 1, tip 2, fee cap 3, gas 4, ..., v 9, r 10, s 11) replaced. */
function withField(index: number, value: Uint8Array): string {
  return typed(fields.map((f, i) => (i === index ? value : f)))
}

/** A legacy transfer with its `v` replaced (EIP-155: 35 + 2 * chainId + parity). */
function legacyWithV(v: number): string {
  const tx = createLegacyTx({ nonce: 0n, to: TO, gasLimit: 21_000n, gasPrice: 10n ** 10n }, { common: rc.chain.common }).sign(rc.chain.accounts[0]!.privateKey)
  const list = RLP.decode(tx.serialize()) as Uint8Array[]
  list[6] = new Uint8Array([v])
  return bytesToHex(RLP.encode(list))
}

beforeAll(async () => {
  rc = await startRingchain({ port: 0, deterministic: true, mining: { mode: 'manual' }, logger: log.logger })
  const signed = transfer()
  good = bytesToHex(signed.serialize())
  fields = RLP.decode(signed.serialize().subarray(1)) as Uint8Array[]
  // Some history and one pending transaction (account 1), so that "unchanged" means something.
  await rc.request({ method: 'evm_mine', params: [] })
  await rc.request({ method: 'eth_sendTransaction', params: [{ from: rc.accounts[1]!.address, to: TO, value: '0x5' }] })
})
afterAll(() => rc.close())

const ADDRESSES = [TO, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8']

/** Sends `raw`, expects -32000 with `message`, and that nothing changed. */
async function refused(raw: () => string, message: string | RegExp): Promise<void> {
  const before = await fingerprint(rc, ADDRESSES)
  const res = await postRaw(rc.httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw()] }))
  expect(res.status).toBe(200)
  const { error } = JSON.parse(res.text) as { error: { code: number; message: string } }
  expect(error.code).toBe(-32000)
  if (typeof message === 'string') expect(error.message).toBe(message)
  else expect(error.message).toMatch(message)
  expect(await fingerprint(rc, ADDRESSES)).toBe(before)
  expect(log.errors()).toEqual([])
}

describe('bad RLP', () => {
  test('error: empty', () => refused(() => '0x', 'typed transaction too short'))
  test('error: an empty list', () => refused(() => '0xc0', 'rlp: too few elements for transaction'))
  test('error: a string, not a list', () => refused(() => '0x80', 'rlp: expected input list for transaction'))
  test('error: truncated', () => refused(() => good.slice(0, 60), /^rlp: /))
  test('error: trailing bytes', () => refused(() => `${good}00`, /^rlp: /))
  test('error: a typed envelope around an empty list', () => refused(() => '0x02c0', 'rlp: too few elements for transaction'))
  test('error: a field that is a list', () => refused(() => typed([fields[0]!, [] as unknown as Uint8Array, ...fields.slice(2)]), /^(rlp: |invalid transaction: )/))
  test('error: a nonce with a leading zero', () => refused(() => withField(1, new Uint8Array([0, 1])), /^invalid transaction: nonce cannot have leading zeroes/))
})

describe('bad signatures', () => {
  test('error: s = 0', () => refused(() => withField(11, new Uint8Array()), 'invalid sender'))
  test('error: high s (malleable)', () => refused(() => withField(11, bigIntToBytes(SECP256K1_N - BigInt(bytesToHex(fields[11]!)))), 'invalid sender'))
  test('error: r = 0', () => refused(() => withField(10, new Uint8Array()), 'invalid sender'))
  test('error: y parity above 1', () => refused(() => withField(9, new Uint8Array([5])), 'invalid sender'))
  test('error: a legacy v that is neither 27/28 nor EIP-155', () => refused(() => legacyWithV(30), 'invalid sender'))
  test('error: a flipped bit in r recovers another, unfunded, sender', () =>
    refused(() => {
      const r = Uint8Array.from(fields[10]!)
      r[5]! ^= 1
      return withField(10, r)
    }, /^insufficient funds for gas \* price \+ value: address 0x[0-9a-f]{40} have 0 want 210000000000001$/))
})

describe('wrong chain', () => {
  test('error: a typed transaction for chain 1', () => refused(() => withField(0, new Uint8Array([1])), 'invalid chain id for signer'))
  test('error: an EIP-155 legacy transaction for chain 1', () => refused(() => legacyWithV(37), 'invalid chain id for signer'))
})

describe('absurd fees, gas, value and nonces', () => {
  test('error: tip above the fee cap', () => refused(() => withField(2, bigIntToBytes(10n ** 11n)), 'max priority fee per gas higher than max fee per gas'))
  test('error: fee cap below the base fee', () =>
    refused(() => bytesToHex(transfer({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }).serialize()), /^max fee per gas less than block base fee: address 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266, maxFeePerGas: 1, baseFee: \d+$/))
  test('error: gas times fee cap beyond 2^256', () => refused(() => withField(3, bigIntToBytes(2n ** 256n - 1n)), 'invalid transaction: gasLimit * maxFeePerGas cannot exceed MAX_INTEGER (2^256-1)'))
  test('error: a fee cap longer than 32 bytes', () => refused(() => withField(3, new Uint8Array(33).fill(0xff)), /^invalid transaction: maxFeePerGas cannot exceed MAX_INTEGER \(2\^256-1\)/))
  test('error: gas above the block gas limit', () => refused(() => withField(4, bigIntToBytes(2n ** 64n - 1n)), 'exceeds block gas limit'))
  test('error: gas below the intrinsic gas', () => refused(() => bytesToHex(transfer({ gasLimit: 20_999n }).serialize()), 'intrinsic gas too low: gas 20999, minimum needed 21000'))
  test('error: a value beyond the balance', () =>
    refused(() => bytesToHex(transfer({ value: 10n ** 30n }).serialize()), 'insufficient funds for gas * price + value: address 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 have 10000000000000000000000 want 1000000000000000210000000000000'))
  test('error: nonce 2^64-1', () => refused(() => withField(1, bigIntToBytes(2n ** 64n - 1n)), 'nonce has max value'))
  test('error: nonce 2^64', () => refused(() => withField(1, bigIntToBytes(2n ** 64n)), /^invalid transaction: nonce cannot equal or exceed MAX_UINT64/))
})

describe('size and type', () => {
  test('error: data over 128 KiB', () => refused(() => bytesToHex(transfer({ data: new Uint8Array(130 * 1024), gasLimit: 3_000_000n }).serialize()), 'oversized data'))
  test('error: 4 MiB of data is refused the same way, well under the body limit', () => refused(() => bytesToHex(new Uint8Array([2, ...RLP.encode([...fields.slice(0, 7), new Uint8Array(2 * 1024 * 1024), ...fields.slice(8)])])), 'oversized data'))
  test('error: an unknown transaction type', () => refused(() => `0x05${good.slice(4)}`, 'transaction type not supported'))
  test('error: a type byte of 0x7f', () => refused(() => `0x7f${good.slice(4)}`, 'transaction type not supported'))
  test('error: a blob transaction without its sidecar', () => refused(() => `0x03${good.slice(4)}`, 'blob transaction without its blobs: send it in its network form, with the sidecar'))
})

describe('the pool refuses what it holds or what it would replace cheaply', () => {
  test('error: already known, and a replacement below +10%', async () => {
    const hash = await postRaw(rc.httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [good] }))
    expect(JSON.parse(hash.text).result).toMatch(/^0x[0-9a-f]{64}$/)
    await refused(() => good, 'already known')
    await refused(() => bytesToHex(transfer({ value: 2n, maxFeePerGas: 105n * 10n ** 8n, maxPriorityFeePerGas: 105n * 10n ** 7n }).serialize()), 'replacement transaction underpriced')
    expect(log.errors()).toEqual([])
  })
})
