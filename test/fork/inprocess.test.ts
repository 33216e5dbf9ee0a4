/** A chain forked from an in-process upstream ringchain: the fork point, lazy state, local writes on top. */
import { expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { initcode, storeCalldata } from '../helpers/chain.js'
import { BEEF, callsOf, countingSource, hex, prepareUpstream, slotHex, type Hex } from './helpers.js'

async function forked(options: { chainId?: bigint } = {}) {
  const upstream = await createRingchain({ deterministic: true, chainId: options.chainId ?? 4242n })
  const prepared = await prepareUpstream(upstream.request)
  const source = countingSource(upstream.request)
  const fork = await createRingchain({ fork: { source } })
  return { upstream, fork, source, ...prepared, close: () => Promise.all([fork.close(), upstream.close()]) }
}

const get = (rc: Ringchain, method: string, ...params: unknown[]) => rc.request({ method, params })

test('default: the fork continues from the upstream latest block, with its chain id', async () => {
  const { upstream, fork, close } = await forked()
  const head = (await get(upstream, 'eth_getBlockByNumber', 'latest', false)) as { number: Hex; hash: Hex }
  expect(await get(fork, 'eth_chainId')).toBe('0x1092')
  expect(await get(fork, 'eth_blockNumber')).toBe(head.number)
  await get(fork, 'evm_mine')
  const next = (await get(fork, 'eth_getBlockByNumber', 'latest', false)) as { number: Hex; parentHash: Hex }
  expect(BigInt(next.number)).toBe(BigInt(head.number) + 1n)
  expect(next.parentHash).toBe(head.hash)
  await close()
})

test('behavior: balances, nonces, code and storage are the upstream ones at the fork block', async () => {
  const { upstream, fork, contract, sender, close } = await forked()
  for (const [method, ...params] of [
    ['eth_getBalance', BEEF, 'latest'],
    ['eth_getTransactionCount', sender, 'latest'],
    ['eth_getCode', contract, 'latest'],
    ['eth_getStorageAt', contract, '0x1', 'latest'],
    ['eth_getStorageAt', contract, '0x2', 'latest'],
    ['eth_getStorageAt', contract, '0x3', 'latest'],
  ] as const) {
    expect(await get(fork, method, ...params), `${method} ${params.join(' ')}`).toEqual(await get(upstream, method, ...params))
  }
  await close()
})

test('behavior: a slot read twice, even at once, is fetched once', async () => {
  const { fork, contract, source, close } = await forked()
  await Promise.all([get(fork, 'eth_getStorageAt', contract, '0x1'), get(fork, 'eth_getStorageAt', contract, '0x1')])
  await get(fork, 'eth_getStorageAt', contract, '0x1')
  expect(callsOf(source, 'eth_getStorageAt')).toHaveLength(1)
  expect(callsOf(source, 'eth_getBalance').filter((p) => p[0] === contract)).toHaveLength(1)
  await close()
})

test('behavior: local transactions run on top and never reach the upstream', async () => {
  const { upstream, fork, contract, sender, source, close } = await forked()
  const forkBlock = (await get(fork, 'eth_blockNumber')) as Hex
  // A transfer, a contract write and a deploy, all local.
  await get(fork, 'eth_sendTransaction', { from: sender, to: BEEF, value: '0xde0b6b3a7640000' })
  await get(fork, 'eth_sendTransaction', { from: sender, to: contract, data: hex(storeCalldata(1n, 0x99n)), gas: '0x186a0' })
  const deploy = (await get(fork, 'eth_sendTransaction', { from: sender, data: (await get(upstream, 'eth_getTransactionByBlockNumberAndIndex', '0x1', '0x0') as { input: Hex }).input, gas: '0x30d40' })) as Hex
  const deployed = ((await get(fork, 'eth_getTransactionReceipt', deploy)) as { contractAddress: Hex; status: Hex })
  expect(deployed.status).toBe('0x1')
  await get(fork, 'eth_sendTransaction', { from: sender, to: deployed.contractAddress, data: hex(storeCalldata(7n, 0x77n)), gas: '0x186a0' })

  expect(await get(fork, 'eth_getBalance', BEEF)).toBe('0x22b1c8c1227a0000') // 1.5 + 1 ETH
  expect(await get(fork, 'eth_getStorageAt', contract, '0x1')).toBe(slotHex(0x99n))
  expect(await get(fork, 'eth_getStorageAt', contract, '0x1', forkBlock)).toBe(slotHex(0x1234n))
  expect(await get(fork, 'eth_getStorageAt', deployed.contractAddress, '0x7')).toBe(slotHex(0x77n))
  // A contract created here has no upstream storage to ask for.
  expect(callsOf(source, 'eth_getStorageAt').filter((p) => p[0] === deployed.contractAddress.toLowerCase())).toHaveLength(0)

  expect(await get(upstream, 'eth_getBalance', BEEF)).toBe('0x14d1120d7b160000')
  expect(await get(upstream, 'eth_getStorageAt', contract, '0x1')).toBe(slotHex(0x1234n))
  expect(await get(upstream, 'eth_getCode', deployed.contractAddress)).toBe('0x')
  expect(source.calls.every((c) => !c.method.startsWith('eth_send'))).toBe(true)
  await close()
})

test('behavior: snapshots, reverts and test-control writes work on forked state', async () => {
  const { fork, contract, close } = await forked()
  const forkBlock = (await get(fork, 'eth_blockNumber')) as Hex
  const id = await get(fork, 'evm_snapshot')
  await get(fork, 'anvil_setStorageAt', contract, '0x2', slotHex(0xabn))
  await get(fork, 'anvil_setBalance', BEEF, '0x1')
  expect(await get(fork, 'eth_getStorageAt', contract, '0x2')).toBe(slotHex(0xabn))
  expect(await get(fork, 'eth_getBalance', BEEF)).toBe('0x1')
  expect(await get(fork, 'evm_revert', id)).toBe(true)
  expect(await get(fork, 'eth_getStorageAt', contract, '0x2')).toBe(slotHex(0x55n))
  expect(await get(fork, 'eth_getBalance', BEEF)).toBe('0x14d1120d7b160000')
  // A write before any read keeps the upstream value at the fork block.
  await get(fork, 'evm_mine')
  await get(fork, 'anvil_setStorageAt', contract, '0x1', slotHex(0x1n))
  expect(await get(fork, 'eth_getStorageAt', contract, '0x1', forkBlock)).toBe(slotHex(0x1234n))
  await close()
})

test('behavior: the dev accounts hold the dev balance at the fork', async () => {
  const { fork, sender, close } = await forked()
  expect(await get(fork, 'eth_getBalance', sender)).toBe('0x21e19e0c9bab2400000')
  await close()
})

test('error: an upstream failure is a -32000 naming the upstream and the call, and is not kept', async () => {
  const { upstream, fork, source, close } = await forked()
  source.fail = 'HTTP 429'
  await expect(get(fork, 'eth_getBalance', BEEF)).rejects.toMatchObject({
    code: -32000,
    message: 'upstream in-process: eth_getBalance failed: HTTP 429',
  })
  await expect(get(fork, 'eth_call', { to: BEEF })).rejects.toMatchObject({ code: -32000 })
  source.fail = undefined
  expect(await get(fork, 'eth_getBalance', BEEF)).toBe(await get(upstream, 'eth_getBalance', BEEF))
  await close()
})

test('behavior: anvil_reset forks again at another block, or without forking gives a plain chain', async () => {
  const { upstream, fork, contract, close } = await forked()
  await get(fork, 'anvil_reset', { forking: { blockNumber: 2 } })
  expect(await get(fork, 'eth_blockNumber')).toBe('0x2')
  expect(await get(fork, 'eth_getStorageAt', contract, '0x1')).toBe(await get(upstream, 'eth_getStorageAt', contract, '0x1', '0x2'))
  expect(await get(fork, 'eth_getStorageAt', contract, '0x2')).toBe(slotHex(0n))
  await get(fork, 'anvil_reset')
  expect(await get(fork, 'eth_chainId')).toBe('0x7a69')
  expect(await get(fork, 'eth_blockNumber')).toBe('0x0')
  await close()
})

test('behavior: impersonation, bulk slot reads and storage inspection work on forked state', async () => {
  const { upstream, fork, contract, source, close } = await forked()
  // BEEF has no key here: impersonated, it sends from its upstream balance.
  await get(fork, 'anvil_impersonateAccount', BEEF)
  await get(fork, 'eth_sendTransaction', { from: BEEF, to: contract, data: hex(storeCalldata(3n, 0x33n)), gas: '0x186a0' })
  expect(await get(fork, 'eth_getStorageAt', contract, '0x3')).toBe(slotHex(0x33n))
  expect(BigInt((await get(fork, 'eth_getBalance', BEEF)) as Hex)).toBeLessThan(BigInt((await get(upstream, 'eth_getBalance', BEEF)) as Hex))
  // Several slots not held yet are fetched together, each once.
  const before = callsOf(source, 'eth_getStorageAt').length
  const values = (await get(fork, 'eth_getStorageValues', { [contract]: [slotHex(1n), slotHex(2n), slotHex(4n)] })) as Record<string, Hex[]>
  expect(Object.values(values)[0]).toEqual([slotHex(0x1234n), slotHex(0x55n), slotHex(0n)])
  expect(callsOf(source, 'eth_getStorageAt').length - before).toBe(3)
  // Storage inspection lists the slots the chain holds.
  const layout = (await get(fork, 'ringchain_storageLayout', contract)) as { slots: Array<{ slot: Hex }> }
  expect(layout.slots.map((s) => BigInt(s.slot))).toEqual([1n, 2n, 3n])
  await close()
})

test('behavior: BLOCKHASH of an upstream block before the fork is the upstream hash', async () => {
  const { upstream, fork, sender, close } = await forked()
  // Runtime: BLOCKHASH(calldata[0:32]) returned as one word.
  const deploy = (await get(fork, 'eth_sendTransaction', { from: sender, data: initcode('0x6000354060005260206000f3'), gas: '0x30d40' })) as Hex
  const { contractAddress } = (await get(fork, 'eth_getTransactionReceipt', deploy)) as { contractAddress: Hex }
  const older = (await get(upstream, 'eth_getBlockByNumber', '0x2', false)) as { hash: Hex }
  expect(await get(fork, 'eth_call', { to: contractAddress, data: slotHex(2n) })).toBe(older.hash)
  await close()
})
