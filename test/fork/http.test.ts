/**
 * Forking over HTTP: a `ringchain serve` process as the upstream (prepared by transactions), forked
 * by a second `ringchain serve --fork-url` process and in-process; and anvil as the upstream.
 */
import { expect, test } from 'vitest'
import { connectUpstream } from '../../src/upstream/index.js'
import { createRingchain } from '../../src/index.js'
import { runCli, serveJson } from '../cli/helpers.js'
import { startAnvil } from '../helpers/anvil.js'
import { storeCalldata } from '../helpers/chain.js'
import { findFoundryTool } from '../helpers/foundry.js'
import { BEEF, callsOf, countingSource, hex, httpRequest, prepareUpstream, slotHex, type Hex } from './helpers.js'

test('behavior: `serve --fork-url` matches the upstream process at the fork block, and keeps local writes local', { timeout: 60_000 }, async () => {
  const { ready: up } = await serveJson(['--deterministic', '--chain-id', '4242'])
  const upstream = httpRequest(up.httpUrl)
  const { contract, sender } = await prepareUpstream(upstream)
  const forkBlock = (await upstream({ method: 'eth_blockNumber' })) as Hex
  await upstream({ method: 'evm_mine' }) // the fork is at an older block than the upstream's head
  await upstream({ method: 'anvil_setStorageAt', params: [contract, '0x1', slotHex(0xdeadn)] })

  const { ready } = await serveJson(['--fork-url', up.httpUrl, '--fork-block-number', String(Number(forkBlock))])
  const fork = httpRequest(ready.httpUrl)
  expect(ready.chainId).toBe(4242)
  expect(await fork({ method: 'eth_blockNumber' })).toBe(forkBlock)
  for (const [method, ...params] of [
    ['eth_getBalance', BEEF],
    ['eth_getTransactionCount', sender],
    ['eth_getCode', contract],
    ['eth_getStorageAt', contract, '0x1'],
    ['eth_getStorageAt', contract, '0x2'],
  ] as const) {
    expect(await fork({ method, params: [...params, 'latest'] }), `${method}`).toEqual(await upstream({ method, params: [...params, forkBlock] }))
  }
  expect(await fork({ method: 'eth_getStorageAt', params: [contract, '0x1'] })).toBe(slotHex(0x1234n))

  await fork({ method: 'eth_sendTransaction', params: [{ from: sender, to: contract, data: hex(storeCalldata(2n, 0x66n)), gas: '0x186a0' }] })
  await fork({ method: 'eth_sendTransaction', params: [{ from: sender, to: BEEF, value: '0x1' }] })
  expect(await fork({ method: 'eth_getStorageAt', params: [contract, '0x2'] })).toBe(slotHex(0x66n))
  expect(await fork({ method: 'eth_getBalance', params: [BEEF] })).toBe('0x14d1120d7b160001')
  expect(await upstream({ method: 'eth_getStorageAt', params: [contract, '0x2'] })).toBe(slotHex(0x55n))
  expect(await upstream({ method: 'eth_getBalance', params: [BEEF] })).toBe('0x14d1120d7b160000')

  // evm_snapshot / evm_revert, then anvil_reset with forking at the upstream's newest block.
  const id = await fork({ method: 'evm_snapshot' })
  await fork({ method: 'anvil_setBalance', params: [BEEF, '0x2'] })
  await fork({ method: 'evm_revert', params: [id] })
  expect(await fork({ method: 'eth_getBalance', params: [BEEF] })).toBe('0x14d1120d7b160001')
  await fork({ method: 'anvil_reset', params: [{ forking: { jsonRpcUrl: up.httpUrl } }] })
  expect(await fork({ method: 'eth_blockNumber' })).toBe(await upstream({ method: 'eth_blockNumber' }))
  expect(await fork({ method: 'eth_getStorageAt', params: [contract, '0x1'] })).toBe(slotHex(0xdeadn))
  expect(await fork({ method: 'eth_getBalance', params: [BEEF] })).toBe('0x14d1120d7b160000')
})

test('behavior: over HTTP, each account and slot is fetched once', { timeout: 60_000 }, async () => {
  const { ready: up } = await serveJson(['--deterministic'])
  const { contract } = await prepareUpstream(httpRequest(up.httpUrl))
  const source = countingSource(({ method, params = [] }) => upstreamSource.request(method, params), 'counted')
  const upstreamSource = connectUpstream(up.httpUrl)
  const fork = await createRingchain({ fork: { source } })
  const read = () => fork.request({ method: 'eth_getStorageAt', params: [contract, '0x2'] })
  expect(await Promise.all([read(), read()])).toEqual([slotHex(0x55n), slotHex(0x55n)])
  expect(await read()).toBe(slotHex(0x55n))
  await fork.request({ method: 'eth_call', params: [{ to: contract, data: hex(storeCalldata(2n, 1n)) }] })
  expect(callsOf(source, 'eth_getStorageAt')).toHaveLength(1)
  expect(callsOf(source, 'eth_getCode').filter((p) => p[0] === contract)).toHaveLength(1)
  console.log(`upstream requests for two reads, a read and a call: ${source.calls.length} (${[...new Set(source.calls.map((c) => c.method))].join(', ')})`)
  await fork.close()
  await upstreamSource.close()
})

test('behavior: forks anvil and reads a deployed contract and its storage', { timeout: 120_000 }, async (context) => {
  const anvil = findFoundryTool('anvil')
  if ('reason' in anvil) {
    console.warn(`skipped: ${anvil.reason}`)
    context.skip()
    return
  }
  const url = await startAnvil()
  const upstream = httpRequest(url)
  const { contract, sender } = await prepareUpstream(upstream)
  const source = countingSource(({ method, params = [] }) => http.request(method, params), 'anvil')
  const http = connectUpstream(url)
  const fork = await createRingchain({ fork: { source } })
  const get = (method: string, ...params: unknown[]) => fork.request({ method, params })
  expect(await get('eth_chainId')).toBe(await upstream({ method: 'eth_chainId' }))
  expect(await get('eth_getCode', contract)).toBe(await upstream({ method: 'eth_getCode', params: [contract, 'latest'] }))
  expect(await get('eth_getStorageAt', contract, '0x1')).toBe(slotHex(0x1234n))
  expect(await get('eth_getStorageAt', contract, '0x1')).toBe(slotHex(0x1234n))
  expect(await get('eth_getBalance', BEEF)).toBe('0x14d1120d7b160000')
  expect(callsOf(source, 'eth_getStorageAt')).toHaveLength(1)
  // A local write on top of anvil's state.
  await get('eth_sendTransaction', { from: sender, to: contract, data: hex(storeCalldata(1n, 0x42n)), gas: '0x186a0' })
  expect(await get('eth_getStorageAt', contract, '0x1')).toBe(slotHex(0x42n))
  expect(await upstream({ method: 'eth_getStorageAt', params: [contract, '0x1', 'latest'] })).toBe(slotHex(0x1234n))
  const head = (await get('eth_getBlockByNumber', 'latest', false)) as { parentHash: Hex; number: Hex }
  const forkBlock = (await upstream({ method: 'eth_getBlockByNumber', params: [`0x${(BigInt(head.number) - 1n).toString(16)}`, false] })) as { hash: Hex }
  expect(head.parentHash).toBe(forkBlock.hash)
  await fork.close()
  await http.close()
})

test('error: --fork-block-number without --fork-url, or a URL that is not http(s)/ws(s), exits 2', async () => {
  for (const [args, message] of [
    [['--fork-block-number', '5'], '--fork-block-number needs --fork-url'],
    [['--fork-url', 'ftp://127.0.0.1:1'], '--fork-url: expected an http(s) or ws(s) URL'],
  ] as const) {
    const cli = runCli(['serve', '--port', '0', ...args])
    expect(await cli.exit()).toBe(2)
    expect(cli.stderr()).toContain(message)
  }
})
