// The upstream's part of a forked chain's window over RPC: blocks, transactions, receipts, logs
// and state at blocks up to the fork block come from the upstream (cached); later ones are local;
// before the window, 4444. The upstream here is a second ringchain on 127.0.0.1, reached through
// the real upstream client over HTTP or WebSocket. The forked chain is a local ringchain whose
// `fork` is set by the test (its own blocks up to the fork block are shadowed by the upstream's),
// so these assertions hold for a true fork as well.
import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import type { ForkPoint, ForkSource } from '../../src/chain/fork/source.js'
import type { RunningRingchain } from '../../src/index.js'
import { connectUpstream } from '../../src/upstream/index.js'
import { STORE_INITCODE, signed1559, storeCalldata } from '../helpers/chain.js'
import { result, rpcError, start, toHex } from '../helpers/rpc.js'
import { fakeUpstream } from './fakeUpstream.js'

/** Blocks the upstream has when it is forked: its head. */
const FORK_BLOCK = 10n
const READS = /^eth_(get|call|estimateGas|createAccessList)/

interface Block {
  hash: string
  number: string
  transactions: string[]
}

/** A ForkSource that records the methods asked of it. */
function counting(source: ForkSource): { source: ForkSource; asked: string[] } {
  const asked: string[] = []
  return { asked, source: { label: source.label, request: (m, p) => (asked.push(m), source.request(m, p)), close: () => source.close() } }
}

/** Makes `rc`'s chain one forked at the upstream's block `blockNumber`. */
async function forkOnto(rc: RunningRingchain, source: ForkSource, blockNumber = FORK_BLOCK): Promise<void> {
  const block = (await source.request('eth_getBlockByNumber', [toHex(blockNumber), false])) as Block
  const fork: ForkPoint = { source, blockNumber, blockHash: block.hash }
  Object.defineProperty(rc.chain, 'fork', { value: fork })
}

/**
 * The upstream: a storage contract written in blocks 2-5 (each write logs its slot), a transfer in
 * block 6, empty blocks up to 10.
 */
async function upstreamWithHistory(): Promise<{ up: RunningRingchain; store: string; txs: string[] }> {
  const up = await start()
  const chain = up.chain
  const txs: string[] = []
  const sendTx = async (tx: Parameters<typeof chain.sendRawTransaction>[0]) => txs.push(bytesToHex(await chain.sendRawTransaction(tx)))
  await sendTx(signed1559(chain, 0, { nonce: 0n, data: Buffer.from(STORE_INITCODE.slice(2), 'hex'), gasLimit: 200_000n }).serialize())
  const receipt = await result<{ contractAddress: string }>(up.httpUrl, 'eth_getTransactionReceipt', [txs[0]])
  const store = Buffer.from(receipt.contractAddress.slice(2), 'hex')
  for (let i = 1n; i <= 4n; i++) await sendTx(signed1559(chain, 0, { nonce: i, to: store, data: storeCalldata(i, i * 100n), gasLimit: 100_000n }).serialize())
  await sendTx(signed1559(chain, 1, { nonce: 0n, to: chain.accounts[2]!.address, value: 10n ** 18n }).serialize())
  await result(up.httpUrl, 'anvil_mine', [toHex(FORK_BLOCK - 6n)])
  expect(await result(up.httpUrl, 'eth_blockNumber', [])).toBe(toHex(FORK_BLOCK))
  return { up, store: receipt.contractAddress, txs }
}

/**
 * The forked chain: a window of 16, local blocks after the fork block, one of them deploying and
 * writing a storage contract of its own (from another account than the upstream's).
 */
async function forkedChain(source: ForkSource): Promise<{ rc: RunningRingchain; localTx: string }> {
  const rc = await start({ window: 16 })
  await result(rc.httpUrl, 'anvil_mine', [toHex(FORK_BLOCK + 1n)])
  const chain = rc.chain
  const deploy = bytesToHex(await chain.sendRawTransaction(signed1559(chain, 5, { nonce: 0n, data: Buffer.from(STORE_INITCODE.slice(2), 'hex'), gasLimit: 200_000n }).serialize()))
  const { contractAddress } = await result<{ contractAddress: string }>(rc.httpUrl, 'eth_getTransactionReceipt', [deploy])
  const localTx = bytesToHex(
    await chain.sendRawTransaction(signed1559(chain, 5, { nonce: 1n, to: Buffer.from(contractAddress.slice(2), 'hex'), data: storeCalldata(9n, 900n), gasLimit: 100_000n }).serialize()),
  )
  await forkOnto(rc, source)
  return { rc, localTx }
}

for (const transport of ['http', 'ws'] as const) {
  describe(`upstream over ${transport}`, () => {
    const setup = async () => {
      const { up, store, txs } = await upstreamWithHistory()
      const counted = counting(connectUpstream(transport === 'http' ? up.httpUrl : up.wsUrl))
      const { rc, localTx } = await forkedChain(counted.source)
      const same = async (method: string, params: unknown[]) => {
        const theirs = await result(up.httpUrl, method, params)
        expect(await result(rc.httpUrl, method, params), `${method} ${JSON.stringify(params)}`).toEqual(theirs)
        return theirs
      }
      return { up, rc, store, txs, localTx, same, asked: counted.asked, close: () => counted.source.close() }
    }

    test('behavior: blocks up to the fork block are the upstream\'s, later ones local', async () => {
      const { rc, up, same, close } = await setup()
      for (const n of [0n, 1n, 3n, 6n, FORK_BLOCK]) for (const full of [false, true]) await same('eth_getBlockByNumber', [toHex(n), full])
      const upstreamBlock = (await same('eth_getBlockByNumber', ['0x3', false])) as Block
      await same('eth_getBlockByHash', [upstreamBlock.hash, true])
      await same('eth_getBlockTransactionCountByNumber', ['0x2'])
      await same('eth_getBlockTransactionCountByHash', [upstreamBlock.hash])
      await same('eth_getUncleCountByBlockNumber', ['0x2'])
      await same('eth_getHeaderByNumber', ['0x4'])
      await same('eth_getHeaderByHash', [upstreamBlock.hash])
      const local = await result<Block>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])
      expect(local.hash).toBe(bytesToHex(rc.chain.head.hash))
      expect(await result(rc.httpUrl, 'eth_getBlockByHash', [local.hash, false])).toEqual(local)
      // The upstream's later blocks are not the forked chain's.
      await result(up.httpUrl, 'anvil_mine', ['0x5'])
      const upstreamLater = await result<Block>(up.httpUrl, 'eth_getBlockByNumber', [toHex(FORK_BLOCK + 2n), false])
      expect(await result(rc.httpUrl, 'eth_getBlockByHash', [upstreamLater.hash, false])).toBeNull()
      await close()
    })

    test('behavior: transactions and receipts of the upstream\'s blocks, by hash, by block and index, by block', async () => {
      const { rc, same, txs, localTx, close } = await setup()
      for (const hash of txs) {
        await same('eth_getTransactionByHash', [hash])
        await same('eth_getTransactionReceipt', [hash])
      }
      const block2 = (await same('eth_getBlockByNumber', ['0x2', false])) as Block
      await same('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x0'])
      await same('eth_getTransactionByBlockHashAndIndex', [block2.hash, '0x0'])
      expect(await result(rc.httpUrl, 'eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x1'])).toBeNull()
      await same('eth_getBlockReceipts', ['0x4'])
      await same('eth_getBlockReceipts', [block2.hash])
      // A local transaction is the local chain's; an unknown hash is null.
      expect(await result<{ blockNumber: string }>(rc.httpUrl, 'eth_getTransactionReceipt', [localTx])).toMatchObject({ blockNumber: toHex(FORK_BLOCK + 3n) })
      expect(await result(rc.httpUrl, 'eth_getTransactionByHash', [`0x${'12'.repeat(32)}`])).toBeNull()
      await close()
    })

    test('behavior: logs over a range across the fork point: the upstream\'s, then the local ones, in order', async () => {
      const { up, rc, store, close } = await setup()
      const upstreamLogs = await result<{ blockNumber: string }[]>(up.httpUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: toHex(FORK_BLOCK) }])
      expect(upstreamLogs.length).toBe(4)
      const localLogs = await result<unknown[]>(rc.httpUrl, 'eth_getLogs', [{ fromBlock: toHex(FORK_BLOCK + 1n), toBlock: 'latest' }])
      expect(localLogs.length).toBe(1)
      const all = await result<unknown[]>(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
      expect(all).toEqual([...upstreamLogs, ...localLogs])
      // Filters by address and topic reach the upstream's part too.
      const slot3 = `0x${'3'.padStart(64, '0')}`
      const filtered = await result<unknown[]>(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x1', address: store, topics: [slot3] }])
      expect(filtered).toEqual(await result(up.httpUrl, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: toHex(FORK_BLOCK), address: store, topics: [slot3] }]))
      expect(filtered.length).toBe(1)
      const block4 = await result<Block>(up.httpUrl, 'eth_getBlockByNumber', ['0x4', false])
      expect(await result(rc.httpUrl, 'eth_getLogs', [{ blockHash: block4.hash }])).toEqual(await result(up.httpUrl, 'eth_getLogs', [{ blockHash: block4.hash }]))
      const filter = await result<string>(rc.httpUrl, 'eth_newFilter', [{ fromBlock: '0x0' }])
      expect(await result(rc.httpUrl, 'eth_getFilterLogs', [filter])).toEqual(all)
      await close()
    })

    test('behavior: state at a block before the fork is the upstream\'s; local writes stay local', async () => {
      const { up, rc, store, same, asked, close } = await setup()
      const [a1, a2] = [up.accounts[1]!.address, up.accounts[2]!.address]
      for (const n of ['0x5', '0x6', '0x9']) {
        await same('eth_getBalance', [a1, n])
        await same('eth_getBalance', [a2, n])
        await same('eth_getTransactionCount', [a1, n])
        await same('eth_getCode', [store, n])
        await same('eth_getStorageAt', [store, '0x2', n])
        await same('eth_getProof', [store, ['0x1'], n])
        await same('eth_call', [{ to: store, data: '0x' }, n])
      }
      const block5 = await result<Block>(up.httpUrl, 'eth_getBlockByNumber', ['0x5', false])
      await same('eth_getStorageAt', [store, '0x4', { blockHash: block5.hash }])
      await result(rc.httpUrl, 'anvil_setBalance', [a2, '0x1234'])
      expect(await result(rc.httpUrl, 'eth_getBalance', [a2, 'latest'])).toBe('0x1234')
      expect(await result(rc.httpUrl, 'eth_getBalance', [a2, '0x9'])).toBe(await result(up.httpUrl, 'eth_getBalance', [a2, '0x9']))
      expect(await result(up.httpUrl, 'eth_getBalance', [a2, 'latest'])).not.toBe('0x1234')
      expect(asked.filter((m) => !READS.test(m))).toEqual([])
      await close()
    })

    test('behavior: each answer is asked of the upstream once', async () => {
      const { rc, txs, asked, close } = await setup()
      const reads: [string, unknown[]][] = [
        ['eth_getBlockByNumber', ['0x3', true]],
        ['eth_getTransactionReceipt', [txs[2]]],
        ['eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x8' }]],
        ['eth_getBalance', [rc.accounts[1]!.address, '0x4']],
      ]
      const first = await Promise.all(reads.map(([m, p]) => result(rc.httpUrl, m, p)))
      const count = asked.length
      expect(count).toBeGreaterThan(0)
      expect(await Promise.all(reads.map(([m, p]) => result(rc.httpUrl, m, p)))).toEqual(first)
      expect(asked.length).toBe(count)
      await close()
    })

    test('error: upstream blocks that left the window are pruned history (4444); their transactions are unknown', async () => {
      const { rc, txs, close } = await setup()
      // Window 16: at head 24 the window starts at block 9, after the upstream's transactions.
      await result(rc.httpUrl, 'anvil_mine', [toHex(24n - (FORK_BLOCK + 3n))])
      expect(await rpcError(rc.httpUrl, 'eth_getBlockByNumber', ['0x5', false])).toMatchObject({ code: 4444 })
      expect(await rpcError(rc.httpUrl, 'eth_getBalance', [rc.accounts[1]!.address, '0x5'])).toMatchObject({ code: 4444 })
      expect(await rpcError(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x5', toBlock: 'latest' }])).toMatchObject({ code: 4444 })
      for (const hash of txs) expect(await result(rc.httpUrl, 'eth_getTransactionByHash', [hash])).toBeNull()
      expect(await result<Block>(rc.httpUrl, 'eth_getBlockByNumber', ['0x9', false])).toMatchObject({ number: '0x9' })
      await close()
    })
  })
}

describe('upstream trouble', () => {
  test('error: an unreachable upstream is a -32000 naming it (masked) and the call', async () => {
    const fake = await fakeUpstream()
    const source = connectUpstream(fake.httpUrl, { retries: 1, backoffMs: 5 })
    const rc = await start({ window: 16 })
    await result(rc.httpUrl, 'anvil_mine', ['0x8'])
    Object.defineProperty(rc.chain, 'fork', { value: { source, blockNumber: 5n, blockHash: `0x${'00'.repeat(32)}` } satisfies ForkPoint })
    await fake.close()
    const error = await rpcError(rc.httpUrl, 'eth_getBlockByNumber', ['0x3', false])
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^upstream http:\/\/127\.0\.0\.1:\d+\/…: eth_getBlockByNumber failed: unreachable \(ECONNREFUSED\) after 2 attempts$/)
    expect(JSON.stringify(error)).not.toContain('SECRETKEY123')
    await source.close()
  })

  test('error: a pruned block at the upstream is its error, passed on with its code', async () => {
    const fake = await fakeUpstream(() => ({ kind: 'error', code: -32000, message: 'missing trie node 0xabc' }))
    const source = connectUpstream(fake.wsUrl)
    const rc = await start({ window: 16 })
    await result(rc.httpUrl, 'anvil_mine', ['0x8'])
    Object.defineProperty(rc.chain, 'fork', { value: { source, blockNumber: 5n, blockHash: `0x${'00'.repeat(32)}` } satisfies ForkPoint })
    const error = await rpcError(rc.httpUrl, 'eth_getBalance', [rc.accounts[0]!.address, '0x2'])
    expect(error).toMatchObject({ code: -32000, data: { upstreamCode: -32000 } })
    expect(error.message).toMatch(/^upstream ws:\/\/127\.0\.0\.1:\d+\/…: eth_getBalance failed: the upstream answered error -32000: missing trie node 0xabc$/)
    expect(fake.exchanges.length).toBe(1)
    await source.close()
  })
})
