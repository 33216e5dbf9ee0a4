/**
 * The methods Foundry and viem's test actions call that anvil serves: `anvil_nodeInfo`,
 * `eth_getAccountInfo`, `eth_getAccount`, `eth_getHeaderByNumber`/`ByHash`, `evm_mine` with its
 * argument object, `evm_increaseTime`'s answer, `eth_sendUnsignedTransaction` and
 * `anvil_setMinGasPrice` (viem), and, when anvil 1.7.1 is installed, the same requests side by
 * side with anvil.
 */
import { createPublicClient, createTestClient, http, parseEther } from 'viem'
import { expect, test } from 'vitest'
import { ringchainChain } from '../e2e/helpers.js'
import { startAnvil, skipWithoutAnvil } from '../helpers/anvil.js'
import { result, rpcError, start } from '../helpers/rpc.js'

const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const STRANGER = '0x00000000000000000000000000000000000abc01'

test('default: anvil_nodeInfo describes the head and the next block', async () => {
  const rc = await start()
  const info = await result<Record<string, unknown>>(rc.httpUrl, 'anvil_nodeInfo', [])
  const head = await result<{ number: string; hash: string; timestamp: string }>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])
  expect(info).toMatchObject({
    currentBlockNumber: head.number,
    currentBlockTimestamp: Number(head.timestamp),
    currentBlockHash: head.hash,
    transactionOrder: 'fees',
    environment: { chainId: Number(rc.chain.common.chainId()), gasLimit: `0x${rc.chain.blockGasLimit.toString(16)}` },
    forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
  })
  expect(info.hardFork).toMatch(/^[A-Z]/)
})

test('default: eth_getAccountInfo and eth_getAccount at a block', async () => {
  const rc = await start()
  const code = '0x6001600055'
  // The setters change the head block's state in place: leave genesis behind first.
  await result(rc.httpUrl, 'evm_mine', [])
  await result(rc.httpUrl, 'anvil_setCode', [STRANGER, code])
  await result(rc.httpUrl, 'anvil_setBalance', [STRANGER, '0x64'])
  expect(await result(rc.httpUrl, 'eth_getAccountInfo', [STRANGER, 'latest'])).toEqual({ balance: '0x64', nonce: '0x0', code })
  const account = await result<Record<string, string>>(rc.httpUrl, 'eth_getAccount', [STRANGER, 'latest'])
  const proof = await result<Record<string, string>>(rc.httpUrl, 'eth_getProof', [STRANGER, [], 'latest'])
  expect(account).toEqual({ codeHash: proof.codeHash, storageRoot: proof.storageHash, balance: '0x64', nonce: '0x0' })
  // Genesis knew nothing of it.
  expect(await result(rc.httpUrl, 'eth_getAccountInfo', [STRANGER, '0x0'])).toEqual({ balance: '0x0', nonce: '0x0', code: '0x' })
  expect(await result(rc.httpUrl, 'eth_getAccount', [STRANGER, '0x0'])).toEqual({
    codeHash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    storageRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    balance: '0x0',
    nonce: '0x0',
  })
})

test('error: eth_getAccountInfo without its block argument', async () => {
  const rc = await start()
  expect((await rpcError(rc.httpUrl, 'eth_getAccountInfo', [DEV])).code).toBe(-32602)
})

test('default: eth_getHeaderByNumber and eth_getHeaderByHash are the block without its body', async () => {
  const rc = await start()
  await result(rc.httpUrl, 'evm_mine', [])
  const block = await result<Record<string, unknown>>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])
  const header = await result<Record<string, unknown>>(rc.httpUrl, 'eth_getHeaderByNumber', ['latest'])
  const { transactions: _t, uncles: _u, withdrawals: _w, size: _s, ...fields } = block
  expect(header).toMatchObject(fields)
  expect(Object.keys(header)).not.toContain('transactions')
  expect(header.size).toBe(`0x${rc.chain.head.block.header.serialize().length.toString(16)}`)
  expect(await result(rc.httpUrl, 'eth_getHeaderByHash', [block.hash])).toEqual(header)
  expect(await result(rc.httpUrl, 'eth_getHeaderByNumber', ['0x999'])).toBeNull()
})

test('args: evm_mine takes a timestamp, or { timestamp, blocks }', async () => {
  const rc = await start()
  const head = Number(rc.chain.head.block.header.timestamp)
  await result(rc.httpUrl, 'evm_mine', [head + 100])
  expect(rc.chain.head.block.header.timestamp).toBe(BigInt(head + 100))
  const before = rc.chain.head.number
  await result(rc.httpUrl, 'evm_mine', [{ timestamp: head + 1000, blocks: 2 }])
  expect(rc.chain.head.number).toBe(before + 2n)
  expect(rc.chain.blockByNumber(before + 1n)!.block.header.timestamp).toBe(BigInt(head + 1000))
  expect((await rpcError(rc.httpUrl, 'evm_mine', [head])).code).toBe(-32602)
})

test('behavior: evm_increaseTime answers the total offset as a JSON number (anvil)', async () => {
  const rc = await start()
  expect(await result(rc.httpUrl, 'evm_increaseTime', [100])).toBe(100)
  expect(await result(rc.httpUrl, 'evm_increaseTime', ['0x10'])).toBe(116)
})

test('behavior: viem sendUnsignedTransaction sends from an account nobody holds the key of', async () => {
  const rc = await start()
  const testClient = createTestClient({ mode: 'anvil', chain: ringchainChain, transport: http(rc.httpUrl) })
  const publicClient = createPublicClient({ chain: ringchainChain, transport: http(rc.httpUrl) })
  await testClient.setBalance({ address: STRANGER, value: parseEther('1') })
  const hash = await testClient.sendUnsignedTransaction({ from: STRANGER, to: DEV, value: 1234n })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 5_000 })
  expect(receipt.status).toBe('success')
  expect(receipt.from).toBe(STRANGER)
  expect(await publicClient.getTransactionCount({ address: STRANGER })).toBe(1)
})

test('error: viem sendUnsignedTransaction from an account that cannot pay', async () => {
  const rc = await start()
  const testClient = createTestClient({ mode: 'anvil', chain: ringchainChain, transport: http(rc.httpUrl) })
  await expect(testClient.sendUnsignedTransaction({ from: STRANGER, to: DEV, value: 1n })).rejects.toThrow(/insufficient funds/)
})

test('error: viem setMinGasPrice is refused on an EIP-1559 chain, as anvil and Hardhat refuse it', async () => {
  const rc = await start()
  const testClient = createTestClient({ mode: 'anvil', chain: ringchainChain, transport: http(rc.httpUrl) })
  await expect(testClient.setMinGasPrice({ gasPrice: 1n })).rejects.toThrow(/anvil_setMinGasPrice is not supported when EIP-1559 is active/)
  expect(await rpcError(rc.httpUrl, 'hardhat_setMinGasPrice', ['0x1'])).toEqual({ code: -32602, message: 'hardhat_setMinGasPrice is not supported when EIP-1559 is active' })
})

test('behavior: side by side with anvil 1.7.1 (nodeInfo keys, account reads, increaseTime, setMinGasPrice)', async (ctx) => {
  skipWithoutAnvil(ctx)
  const rc = await start()
  const anvil = await startAnvil()
  const both = async (method: string, params: unknown[]) => [await result(rc.httpUrl, method, params), await result(anvil, method, params)] as const
  const [mine, theirs] = (await both('anvil_nodeInfo', [])) as [Record<string, Record<string, unknown>>, Record<string, Record<string, unknown>>]
  expect(Object.keys(mine).sort()).toEqual(Object.keys(theirs).sort())
  expect(Object.keys(mine.environment!).sort()).toEqual(Object.keys(theirs.environment!).sort())
  expect(mine.forkConfig).toEqual(theirs.forkConfig)
  expect(typeof mine.currentBlockTimestamp).toBe(typeof theirs.currentBlockTimestamp)
  for (const method of ['eth_getAccountInfo', 'eth_getAccount']) {
    const [a, b] = await both(method, [STRANGER, 'latest'])
    expect(a, method).toEqual(b)
  }
  const [offsetA, offsetB] = await both('evm_increaseTime', [100])
  expect(typeof offsetA).toBe(typeof offsetB)
  // anvil's offset starts as its genesis time minus a clock read a moment later: when a second
  // ticks over between the two it answers 99 (seen in CI), so the two agree to within that second.
  const seconds = (v: unknown) => Number(typeof v === 'string' ? BigInt(v) : (v as number))
  expect(seconds(offsetA)).toBe(100)
  expect(Math.abs(seconds(offsetA) - seconds(offsetB))).toBeLessThanOrEqual(1)
  expect(await rpcError(rc.httpUrl, 'anvil_setMinGasPrice', ['0x1'])).toEqual(await rpcError(anvil, 'anvil_setMinGasPrice', ['0x1']))
}, 90_000)
