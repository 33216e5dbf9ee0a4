/**
 * The estimator's one-run answer: a contract call that cannot see its gas limit succeeds with
 * exactly the gas its first run used, and is answered from that run; one that could see it is
 * checked and searched as before. Each case is compared with a brute-force search.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData } from 'viem'
import { afterEach, expect, test, vi } from 'vitest'
import { CallExecutor } from '../../src/chain/execution/executor.js'
import type { Ringchain } from '../../src/index.js'
import { Store, Token } from '../fixtures/contracts/artifacts.js'
import { initcode, storeCalldata, word } from '../helpers/chain.js'
import { READ_WRITE_RUNTIME, bruteForce, estimateSetup, proxyRuntime, type Hex, type Request } from '../helpers/estimate.js'

const open: Ringchain[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

/** Reverts unless GAS at entry exceeds 100000. */
const NEEDS_GAS_RUNTIME = '0x5a620186a01015600b57005b60006000fd'
/** Reverts when BALANCE(CALLER) exceeds calldata word 0: the caller must have bought enough gas. */
const NEEDS_POOR_CALLER_RUNTIME = '0x333160003510600a57005b5f5ffd'

/** SSTORE(word 0, word 1), then `spare` JUMPDESTs (1 gas each): what is left at the SSTORE's stipend check beyond its own cost. */
function storeThenSpend(spare: number): string {
  return `0x60203560003555${'5b'.repeat(spare)}00`
}

/** EIP-7623's floor on what a transaction with `data` to an account uses: 21000 and 10 a token (a zero byte is 1 token, another byte 4). */
function calldataFloor(data: string | undefined): bigint {
  const bytes = hexToBytes((data ?? '0x') as Hex)
  const tokens = bytes.reduce((sum, byte) => sum + (byte === 0 ? 1n : 4n), 0n)
  return 21_000n + 10n * tokens
}

/** The estimate of `call` and how many times the EVM ran for it. */
async function estimateCounted(request: Request, call: Record<string, unknown>): Promise<{ estimate: bigint; runs: number }> {
  const runs = vi.spyOn(CallExecutor.prototype, 'run')
  try {
    const estimate = BigInt((await request('eth_estimateGas', [call])) as string)
    return { estimate, runs: runs.mock.calls.length }
  } finally {
    runs.mockRestore()
  }
}

test('behavior: calls that cannot see their gas limit are answered from one run, and the answer is the least gas that succeeds', async () => {
  const { a, request, deploy } = await estimateSetup(open)
  const store = await deploy(Store.bytecode)
  const readWrite = await deploy(initcode(READ_WRITE_RUNTIME))
  // A no-op SSTORE of a cold slot costs 2200: with 101 gas spent after it, 2301 are left at its stipend check.
  const storeAbove = await deploy(initcode(storeThenSpend(101)))
  await request('eth_sendTransaction', [{ from: a.address, to: readWrite, data: bytesToHex(storeCalldata(1n, 5n)) }])
  await request('eth_sendTransaction', [{ from: a.address, to: storeAbove, data: bytesToHex(storeCalldata(1n, 5n)) }])
  // Calldata whose EIP-7623 floor exceeds what the call uses: the run gets the floor's gas.
  const floorData = bytesToHex(storeCalldata(1n, 5n)) + 'ff'.repeat(2000)
  const cases: Record<string, Record<string, unknown>> = {
    'Store.store(42)': { from: a.address, to: store, data: encodeFunctionData({ abi: Store.abi, functionName: 'store', args: [42n] }) },
    'Store deployment': { from: a.address, data: Store.bytecode },
    'clearing a slot (refund)': { from: a.address, to: readWrite, data: bytesToHex(storeCalldata(1n, 0n)) },
    'SSTORE with 2301 gas left at its stipend check': { from: a.address, to: storeAbove, data: bytesToHex(storeCalldata(1n, 5n)) },
    'calldata floor above the gas used': { from: a.address, to: storeAbove, data: floorData },
  }
  for (const [name, call] of Object.entries(cases)) {
    const { estimate, runs } = await estimateCounted(request, call)
    // eth_call does not hold a call to the floor that a transaction must pay (the brute force runs eth_call).
    const floor = calldataFloor(call.data as string | undefined)
    const least = await bruteForce(request, call)
    expect({ name, estimate, runs }).toEqual({ name, estimate: least > floor ? least : floor, runs: 1 })
  }
  expect(await estimateCounted(request, cases['calldata floor above the gas used']!)).toEqual({ estimate: calldataFloor(floorData), runs: 1 })
})

test('behavior: an ERC-20 deployment, transfer, approve and transferFrom are answered from one run, each the least gas that succeeds', async () => {
  const { a, b, request, deploy } = await estimateSetup(open)
  const deployData = encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Bench', 'BNC', 1_000_000n] })
  const token = await deploy(deployData)
  const call = (functionName: string, args: unknown[]) => encodeFunctionData({ abi: Token.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
  const c = '0x00000000000000000000000000000000000000cc'
  // b may spend 500 of a's tokens; c holds some already (a transfer to it changes a slot that is not zero).
  await request('eth_sendTransaction', [{ from: a.address, to: token, data: call('approve', [b.address, 500n]) }])
  await request('eth_sendTransaction', [{ from: a.address, to: token, data: call('transfer', [c, 1n]) }])
  const cases: Record<string, Record<string, unknown>> = {
    deployment: { from: a.address, data: deployData },
    'transfer to a new holder': { from: a.address, to: token, data: call('transfer', [b.address, 100n]) },
    'transfer to a holder': { from: a.address, to: token, data: call('transfer', [c, 100n]) },
    approve: { from: a.address, to: token, data: call('approve', [c, 7n]) },
    'approve to zero (refund)': { from: a.address, to: token, data: call('approve', [b.address, 0n]) },
    transferFrom: { from: b.address, to: token, data: call('transferFrom', [a.address, c, 200n]) },
    'transferFrom of the whole allowance (refund)': { from: b.address, to: token, data: call('transferFrom', [a.address, c, 500n]) },
  }
  for (const [name, params] of Object.entries(cases)) {
    const { estimate, runs } = await estimateCounted(request, params)
    const floor = calldataFloor(params.data as string)
    const least = await bruteForce(request, params)
    expect({ name, estimate, runs }).toEqual({ name, estimate: least > floor ? least : floor, runs: 1 })
  }
})

test('behavior: calls that could see their gas limit are checked and searched, and the answer is the least gas that succeeds', async () => {
  const { a, b, request, deploy } = await estimateSetup(open)
  const readWrite = await deploy(initcode(READ_WRITE_RUNTIME))
  const proxy = await deploy(initcode(proxyRuntime(readWrite)))
  const askingProxy = await deploy(initcode(proxyRuntime(readWrite, 'PUSH4 0xffffffff')))
  const needsGas = await deploy(initcode(NEEDS_GAS_RUNTIME))
  const needsPoor = await deploy(initcode(NEEDS_POOR_CALLER_RUNTIME))
  // 2200 for the no-op SSTORE and 100 after it: exactly the stipend left at its check, which fails.
  const storeAtEdge = await deploy(initcode(storeThenSpend(100)))
  await request('eth_sendTransaction', [{ from: a.address, to: storeAtEdge, data: bytesToHex(storeCalldata(1n, 5n)) }])
  // The code of each case has run on the mining VM and in an eth_call before it is estimated.
  await request('eth_sendTransaction', [{ from: a.address, to: needsGas, gas: '0x30000' }])
  await request('eth_call', [{ from: a.address, to: needsGas }, 'latest'])
  // b buys gas at 10 gwei; the call succeeds once it has bought 1,000,000 gas, whatever it uses.
  const gasPrice = 10_000_000_000n
  const balance = BigInt((await request('eth_getBalance', [b.address, 'latest'])) as string)
  const poorEnough = bytesToHex(storeCalldata(balance - 1_000_000n * gasPrice, 0n).subarray(0, 32))
  const cases: Record<string, Record<string, unknown>> = {
    'GAS opcode': { from: a.address, to: needsGas },
    'nested CALL needing the 63/64 reserve': { from: a.address, to: proxy, data: bytesToHex(storeCalldata(3n, 9n)) },
    // A read: no SSTORE in the callee whose stipend check would stop the shortcut on its own.
    'nested CALL asking for more than it has': { from: a.address, to: askingProxy, data: bytesToHex(word(3n)) },
    'SSTORE with 2300 gas left at its stipend check': { from: a.address, to: storeAtEdge, data: bytesToHex(storeCalldata(1n, 5n)) },
    "a read of the balance that bought the gas": { from: b.address, to: needsPoor, data: poorEnough, gasPrice: `0x${gasPrice.toString(16)}` },
  }
  for (const [name, call] of Object.entries(cases)) {
    const { estimate, runs } = await estimateCounted(request, call)
    expect({ name, estimate }).toEqual({ name, estimate: await bruteForce(request, call) })
    expect({ name, checked: runs >= 2 }).toEqual({ name, checked: true })
  }
  expect(BigInt((await request('eth_estimateGas', [cases['a read of the balance that bought the gas']!])) as string)).toBe(1_000_000n)
})
