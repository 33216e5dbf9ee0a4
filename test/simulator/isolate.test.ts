// Isolate mode: one chain per API key behind one server, created on first use, capped, dropped
// when idle; and ringchain_reset / anvil_reset / hardhat_reset, in isolate mode and without it.

import { createPublicClient, createWalletClient, http, parseEther, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, onTestFinished, test } from 'vitest'
import WebSocket from 'ws'
import { RingchainRpcError, createRingchain, startRingchain, type RunningRingchain, type StartOptions } from '../../src/index.js'
import { ringchainChain, within } from '../e2e/helpers.js'

const OTHER: Address = '0x000000000000000000000000000000000000beef'

async function start(options: StartOptions = {}): Promise<RunningRingchain> {
  const rc = await startRingchain({ port: 0, isolate: true, ...options })
  onTestFinished(() => rc.close())
  return rc
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
}

async function sendFromFirstAccount(rc: RunningRingchain, url: string): Promise<void> {
  const account = privateKeyToAccount(rc.accounts[0]!.privateKey)
  const wallet = createWalletClient({ chain: ringchainChain, transport: http(url), account })
  const hash = await wallet.sendTransaction({ to: OTHER, value: parseEther('1') })
  await createPublicClient({ chain: ringchainChain, transport: http(url) }).waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

describe('isolate', () => {
  test('default: two keys see independent nonces, blocks and balances', async () => {
    const rc = await start()
    const a = rc.urls('worker-a').httpUrl
    const b = rc.urls('worker-b').httpUrl
    const sender = rc.accounts[0]!.address
    // The same dev account sends from both chains: each starts at nonce 0.
    await sendFromFirstAccount(rc, a)
    await sendFromFirstAccount(rc, a)
    await sendFromFirstAccount(rc, b)
    expect(await rpc(a, 'eth_getTransactionCount', [sender, 'latest'])).toMatchObject({ result: '0x2' })
    expect(await rpc(b, 'eth_getTransactionCount', [sender, 'latest'])).toMatchObject({ result: '0x1' })
    expect(await rpc(a, 'eth_blockNumber')).toMatchObject({ result: '0x2' })
    expect(await rpc(b, 'eth_blockNumber')).toMatchObject({ result: '0x1' })
    expect(await rpc(a, 'eth_getBalance', [OTHER, 'latest'])).toMatchObject({ result: '0x1bc16d674ec80000' })
    expect(await rpc(rc.httpUrl, 'eth_getBalance', [OTHER, 'latest'])).toMatchObject({ result: '0x0' })
    // Same options, same genesis: only what happened after it differs.
    const genesisA = (await rpc(a, 'eth_getBlockByNumber', ['0x0', false])).result as { stateRoot: string }
    const genesisB = (await rpc(b, 'eth_getBlockByNumber', ['0x0', false])).result as { stateRoot: string }
    expect(genesisA.stateRoot).toBe(genesisB.stateRoot)
  })

  test('behavior: the in-process request and `chain` are the first key\'s chain', async () => {
    const rc = await start()
    await rpc(rc.httpUrl, 'evm_mine')
    expect(await rc.request({ method: 'eth_blockNumber' })).toBe('0x1')
    expect(rc.chain.head.number).toBe(1n)
    expect(await rpc(rc.urls('someone-else').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
  })

  test('behavior: without isolate every key shares one chain', async () => {
    const rc = await start({ isolate: false })
    await rpc(rc.urls('a').httpUrl, 'evm_mine')
    expect(await rpc(rc.urls('b').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x1' })
  })

  test('behavior: concurrent first requests of a key create one chain', async () => {
    const rc = await start({ isolate: { maxChains: 2 } })
    const url = rc.urls('fresh').httpUrl
    const answers = await Promise.all([rpc(url, 'evm_mine'), rpc(url, 'evm_mine'), rpc(url, 'evm_mine')])
    expect(answers.every((a) => a.error === undefined)).toBe(true)
    expect(await rpc(url, 'eth_blockNumber')).toMatchObject({ result: '0x3' })
  })

  test('error: past the cap, a new key gets -32005 and existing keys keep working', async () => {
    const rc = await start({ isolate: { maxChains: 3 } })
    expect(await rpc(rc.urls('one').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    expect(await rpc(rc.urls('two').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    const refused = await rpc(rc.urls('three').httpUrl, 'eth_blockNumber')
    expect(refused.error).toEqual({
      code: -32005,
      message:
        'isolated chain limit reached: 3 chains exist, one per API key, the first key\'s included; reuse a key, raise the cap ' +
        '(--max-chains, isolate.maxChains) or let idle chains go (--idle-timeout, isolate.idleTimeoutMs)',
      data: { maxChains: 3 },
    })
    expect(await rpc(rc.urls('two').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    expect(await rpc(rc.httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
  })

  test('behavior: an idle chain is dropped and its key gets a fresh one; the first key\'s never is', async () => {
    const rc = await start({ isolate: { maxChains: 2, idleTimeoutMs: 100 } })
    const url = rc.urls('sleepy').httpUrl
    await rpc(url, 'evm_mine')
    await rpc(rc.httpUrl, 'evm_mine')
    await new Promise((r) => setTimeout(r, 400))
    // Dropped: the key starts over on a new chain, and it fits under the cap again.
    expect(await rpc(url, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    expect(await rpc(rc.httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x1' })
  })

  test('behavior: past the cap, a new key gets a chain once another has gone idle', async () => {
    const rc = await start({ isolate: { maxChains: 2, idleTimeoutMs: 300 } })
    await rpc(rc.urls('old').httpUrl, 'evm_mine')
    expect((await rpc(rc.urls('new').httpUrl, 'eth_blockNumber')).error?.code).toBe(-32005)
    await new Promise((r) => setTimeout(r, 700))
    expect(await rpc(rc.urls('new').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
  })

  test('behavior: a chain with an open WebSocket is not idle', async () => {
    const rc = await start({ isolate: { idleTimeoutMs: 100 } })
    const socket = new WebSocket(rc.urls('subscriber').wsUrl)
    onTestFinished(() => socket.terminate())
    await within(new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject)), 5_000, 'WebSocket open')
    const answered = new Promise((resolve) => socket.once('message', resolve))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine' }))
    await within(answered, 5_000, 'evm_mine over WebSocket')
    await new Promise((r) => setTimeout(r, 400))
    expect(await rpc(rc.urls('subscriber').httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x1' })
  })

  test('error: bad limits are refused at start', async () => {
    await expect(startRingchain({ port: 0, isolate: { maxChains: 0 } })).rejects.toThrow('maxChains: expected a positive integer, got 0')
    await expect(startRingchain({ port: 0, isolate: { idleTimeoutMs: -1 } })).rejects.toThrow('idleTimeoutMs: expected a positive number, got -1')
  })

  test('behavior: close() closes every chain', async () => {
    const rc = await startRingchain({ port: 0, isolate: true })
    await rpc(rc.urls('x').httpUrl, 'evm_mine')
    const first = rc.chain
    await rc.close()
    await rc.close()
    expect(first.closed).toBe(true)
  })
})

describe('reset', () => {
  test.each(['ringchain_reset', 'anvil_reset', 'hardhat_reset'])('default: %s resets only the caller\'s chain', async (method) => {
    const rc = await start()
    const a = rc.urls('a').httpUrl
    const b = rc.urls('b').httpUrl
    await sendFromFirstAccount(rc, a)
    await rpc(b, 'evm_mine')
    const answer = await rpc(a, method, [])
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: method === 'anvil_reset' ? null : true })
    expect(await rpc(a, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    expect(await rpc(a, 'eth_getTransactionCount', [rc.accounts[0]!.address, 'latest'])).toMatchObject({ result: '0x0' })
    expect(await rpc(b, 'eth_blockNumber')).toMatchObject({ result: '0x1' })
  })

  test('behavior: resets the only chain without isolate, in-process too', async () => {
    const rc = await createRingchain({ mining: { mode: 'manual' } })
    onTestFinished(() => rc.close())
    const before = rc.chain
    await rc.request({ method: 'evm_mine' })
    await rc.request({ method: 'evm_setAutomine', params: [true] })
    const snapshot = await rc.request({ method: 'evm_snapshot' })
    expect(await rc.request({ method: 'hardhat_reset', params: [] })).toBe(true)
    expect(await rc.request({ method: 'eth_blockNumber' })).toBe('0x0')
    // Back to the options' mining mode; snapshots belonged to the old chain.
    expect(await rc.request({ method: 'anvil_getAutomine' })).toBe(false)
    expect(await rc.request({ method: 'evm_revert', params: [snapshot] })).toBe(false)
    expect(rc.chain).not.toBe(before)
    expect(before.closed).toBe(true)
  })

  test('args: viem\'s testClient.reset() payload ({ forking: { blockNumber: null } }) is accepted', async () => {
    const rc = await start({ isolate: false })
    await rpc(rc.httpUrl, 'evm_mine')
    expect(await rpc(rc.httpUrl, 'anvil_reset', [{ forking: { blockNumber: null } }])).toMatchObject({ result: null })
    expect(await rpc(rc.httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
  })

  test('error: forking an unreachable upstream keeps the chain and names the upstream', async () => {
    const rc = await createRingchain()
    onTestFinished(() => rc.close())
    const before = rc.chain
    const refused = rc.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1/v3/secret' } }] })
    await expect(refused).rejects.toThrow(RingchainRpcError)
    await expect(refused).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^upstream http:\/\/127\.0\.0\.1:1\/…: eth_(chainId|getBlockByNumber) failed: unreachable/) })
    expect(rc.chain).toBe(before)
  })

  test('behavior: requests made during a reset go to the new chain', async () => {
    const rc = await start()
    await rc.request({ method: 'evm_mine' })
    const [, number] = await Promise.all([rc.request({ method: 'ringchain_reset' }), rc.request({ method: 'eth_blockNumber' })])
    expect(number).toBe('0x0')
  })
})
