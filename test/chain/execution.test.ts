import { createEOACode7702Tx, createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util'
import { afterEach, expect, test, vi } from 'vitest'
import { CallExecutor } from '../../src/chain/execution/executor.js'
import type { Ringchain } from '../../src/index.js'
import { STORE_INITCODE, initcode, storeCalldata, word } from '../helpers/chain.js'
import { READ_WRITE_RUNTIME, bruteForce, estimateSetup, proxyRuntime } from '../helpers/estimate.js'

const open: Ringchain[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

const setup = () => estimateSetup(open)

test('behavior: estimates are the least gas that succeeds, as a brute-force search finds it', async () => {
  const { a, b, request, deploy } = await setup()
  const store = await deploy(initcode(READ_WRITE_RUNTIME))
  const proxy = await deploy(initcode(proxyRuntime(store)))
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 5n)) }])
  const cases: Record<string, Record<string, unknown>> = {
    'storage write': { from: a.address, to: store, data: bytesToHex(storeCalldata(2n, 7n)) },
    'clearing a slot (refund)': { from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 0n)) },
    'nested CALL needing the 63/64 reserve': { from: a.address, to: proxy, data: bytesToHex(storeCalldata(3n, 9n)) },
    deployment: { from: a.address, data: STORE_INITCODE },
    'plain transfer': { from: a.address, to: b.address, value: '0x1' },
  }
  for (const [name, call] of Object.entries(cases)) {
    const estimate = BigInt((await request('eth_estimateGas', [call])) as string)
    expect({ name, estimate }).toEqual({ name, estimate: await bruteForce(request, call) })
  }
})

test('behavior: a mined transaction succeeds with the estimate and fails with one gas less (nested CALL)', async () => {
  const { rc, a, request, deploy } = await setup()
  const store = await deploy(initcode(READ_WRITE_RUNTIME))
  const proxy = await deploy(initcode(proxyRuntime(store)))
  const data = storeCalldata(4n, 11n)
  const estimate = BigInt((await request('eth_estimateGas', [{ from: a.address, to: proxy, data: bytesToHex(data) }])) as string)
  const common = rc.chain.common
  const statusWith = async (gasLimit: bigint) => {
    const nonce = BigInt((await request('eth_getTransactionCount', [a.address, 'pending'])) as string)
    const tx = createFeeMarket1559Tx({ chainId: common.chainId(), nonce, to: hexToBytes(proxy), data, gasLimit, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(hexToBytes(a.privateKey))
    const hash = await request('eth_sendRawTransaction', [bytesToHex(tx.serialize())])
    return ((await request('eth_getTransactionReceipt', [hash])) as { status: string }).status
  }
  const snapshot = await request('evm_snapshot', [])
  expect(await statusWith(estimate - 1n)).toBe('0x0')
  await request('evm_revert', [snapshot])
  expect(await statusWith(estimate)).toBe('0x1')
})

test('behavior: a typical contract-call estimate runs the EVM at most 3 times', async () => {
  const { a, request, deploy } = await setup()
  const store = await deploy(initcode(READ_WRITE_RUNTIME))
  const runs = vi.spyOn(CallExecutor.prototype, 'run')
  await request('eth_estimateGas', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(2n, 7n)) }])
  expect(runs.mock.calls.length).toBeGreaterThan(0)
  expect(runs.mock.calls.length).toBeLessThanOrEqual(3)
})

test('args: blockTag: eth_call sees the state of the block asked for, and pending sees the pool', async () => {
  const { a, request, deploy } = await setup()
  const store = await deploy(initcode(READ_WRITE_RUNTIME))
  const read = { from: a.address, to: store, data: bytesToHex(word(1n)) }
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 5n)) }])
  const older = (await request('eth_blockNumber', [])) as string
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 6n)) }])
  await request('evm_setAutomine', [false])
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 7n)) }])
  expect(await request('eth_call', [read, older])).toBe(bytesToHex(word(5n)))
  expect(await request('eth_call', [read, 'latest'])).toBe(bytesToHex(word(6n)))
  expect(await request('eth_call', [read, 'pending'])).toBe(bytesToHex(word(7n)))
})

test('behavior: a self-sponsored EIP-7702 call (cast send --auth) estimates enough for its delegated code, and mines with it', async () => {
  const { rc, a, request, deploy } = await setup()
  const store = await deploy(STORE_INITCODE)
  const nonce = BigInt((await request('eth_getTransactionCount', [a.address, 'pending'])) as string)
  // The sender signs for nonce + 1: its own transaction's nonce is spent first.
  const auth = eoaCode7702SignAuthorization({ chainId: `0x${rc.chain.common.chainId().toString(16)}`, address: store, nonce: `0x${(nonce + 1n).toString(16)}` }, hexToBytes(a.privateKey))
  const quantity = (bytes: Uint8Array) => `0x${bytes.length === 0 ? '0' : BigInt(bytesToHex(bytes)).toString(16)}`
  const authorizationList = [{ chainId: quantity(auth[0]), address: store, nonce: quantity(auth[2]), yParity: quantity(auth[3]), r: quantity(auth[4]), s: quantity(auth[5]) }]
  const data = bytesToHex(storeCalldata(3n, 9n))
  const estimate = BigInt((await request('eth_estimateGas', [{ from: a.address, to: a.address, data, type: '0x4', authorizationList }])) as string)
  // More than the intrinsic gas alone (21000 + 25000 + calldata): the delegated SSTORE was counted.
  expect(estimate > 46_300n).toBe(true)
  const common = rc.chain.common
  const tx = createEOACode7702Tx(
    { chainId: common.chainId(), nonce, to: hexToBytes(a.address), data, gasLimit: estimate, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [auth] },
    { common },
  ).sign(hexToBytes(a.privateKey))
  const hash = await request('eth_sendRawTransaction', [bytesToHex(tx.serialize())])
  expect(((await request('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1')
  expect(await request('eth_getStorageAt', [a.address, '0x3', 'latest'])).toBe(bytesToHex(word(9n)))
})

/** STATICCALL(0xffff gas, the identity precompile, no data), then STOP. */
const CALLS_IDENTITY_RUNTIME = '0x5f5f5f5f600461fffffa00'

test('behavior: the precompiles are warm in every call, with or without an access list before it, as in a mined transaction', async () => {
  const { a, request, deploy } = await setup()
  const caller = await deploy(initcode(CALLS_IDENTITY_RUNTIME))
  const plain = { from: a.address, to: caller }
  const identity = '0x0000000000000000000000000000000000000004'
  const listed = { ...plain, accessList: [{ address: identity, storageKeys: [bytesToHex(word(1n))] }] }
  const estimate = async (call: Record<string, unknown>) => BigInt((await request('eth_estimateGas', [call])) as string)
  const first = await estimate(plain)
  // EIP-2930: 2400 for the address and 1900 for the key; the precompile was warm without it.
  expect(await estimate(listed)).toBe(first + 2400n + 1900n)
  expect(await estimate(plain)).toBe(first)
  const hash = await request('eth_sendTransaction', [{ ...plain, gas: `0x${first.toString(16)}` }])
  const receipt = (await request('eth_getTransactionReceipt', [hash])) as { status: string; gasUsed: string }
  expect({ status: receipt.status, gasUsed: BigInt(receipt.gasUsed) }).toEqual({ status: '0x1', gasUsed: first })
})
