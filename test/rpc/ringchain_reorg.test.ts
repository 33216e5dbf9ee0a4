/**
 * ringchain_reorg: geth's way. The newest blocks are replaced by as many new ones; the dropped
 * blocks' transactions not re-included go back to the pool (and, in automine mode, into the next
 * blocks); `logs` subscriptions and log filters get the dropped logs again with `removed: true`
 * before the new chain's; `newHeads` sends the new chain's heads.
 */
import { bytesToHex } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import type { WebSocket } from 'ws'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import { openWs, result, rpcError, start, txSender, type Hex } from '../helpers/rpc.js'

interface Receipt {
  readonly contractAddress: Hex | null
  readonly blockNumber: Hex
}
interface Log {
  readonly removed: boolean
  readonly blockNumber: Hex
  readonly blockHash: Hex
  readonly data: Hex
  readonly transactionHash: Hex
}

/** A chain with a store contract (block 1) and three writes of slot 1 (values 1, 2, 3: blocks 2, 3, 4), each logging its value. */
async function withWrites() {
  const rc = await start()
  const send = txSender(rc, { gasLimit: 200_000n })
  const deploy = await send('eip1559', 0, { data: STORE_INITCODE })
  const store = (await result<Receipt>(rc.httpUrl, 'eth_getTransactionReceipt', [deploy.hash])).contractAddress!
  const writes: Hex[] = []
  const write = async (value: bigint) => {
    const sent = await send('eip1559', 0, { to: store, data: bytesToHex(storeCalldata(1n, value)) as Hex })
    writes.push(sent.hash)
  }
  for (const value of [1n, 2n, 3n]) await write(value)
  return { rc, store, writes, write }
}

/** Collects the notifications a connection receives, by subscription id. */
function collect(ws: WebSocket) {
  const answers = new Map<number, unknown>()
  const notes: { subscription: string; result: unknown }[] = []
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; params?: { subscription: string; result: unknown } }
    if (message.params !== undefined) notes.push(message.params)
    else answers.set(message.id!, message.result)
  })
  let id = 0
  const call = async (method: string, params: unknown[]) => {
    const mine = ++id
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: mine, method, params }))
    for (let i = 0; i < 200 && !answers.has(mine); i++) await new Promise((r) => setTimeout(r, 10))
    return answers.get(mine)
  }
  return { notes, call }
}

const valueOf = (log: Log) => BigInt(log.data)

test('default: the answer, removed logs first on a subscription and a filter, then the new chain', async () => {
  const { rc, store, writes } = await withWrites()
  const ws = collect(await openWs(rc.wsUrl))
  const logsId = await ws.call('eth_subscribe', ['logs', { address: store }])
  const headsId = await ws.call('eth_subscribe', ['newHeads'])
  const filter = await result<Hex>(rc.httpUrl, 'eth_newFilter', [{ address: store }])
  const old = [await result<{ hash: Hex }>(rc.httpUrl, 'eth_getBlockByNumber', ['0x3', false]), await result<{ hash: Hex }>(rc.httpUrl, 'eth_getBlockByNumber', ['0x4', false])]

  const answer = await result<{ removed: Hex[]; added: Hex[]; requeued: Hex[]; discarded: Hex[] }>(rc.httpUrl, 'ringchain_reorg', [{ depth: 2 }])
  expect(answer.removed).toEqual(old.map((b) => b.hash))
  expect(answer.added).toHaveLength(2)
  expect(answer.added.some((h) => answer.removed.includes(h))).toBe(false)
  expect(answer.requeued).toEqual([writes[1], writes[2]])
  expect(answer.discarded).toEqual([])

  // Automine mode: the requeued writes are mined right after the two new (empty) blocks.
  expect(await result(rc.httpUrl, 'eth_blockNumber', [])).toBe('0x6')
  const changes = await result<Log[]>(rc.httpUrl, 'eth_getFilterChanges', [filter])
  expect(changes.map((l) => [l.removed, l.blockNumber, valueOf(l)])).toEqual([
    [true, '0x3', 2n],
    [true, '0x4', 3n],
    [false, '0x5', 2n],
    [false, '0x6', 3n],
  ])
  expect(changes[0]!.blockHash).toBe(old[0]!.hash)
  for (let i = 0; i < 100 && ws.notes.length < 8; i++) await new Promise((r) => setTimeout(r, 10))
  const seen = ws.notes.map((n) => (n.subscription === logsId ? `log ${(n.result as Log).removed ? 'removed ' : ''}${valueOf(n.result as Log)}` : `head ${Number((n.result as { number: Hex }).number)}`))
  // Within a block, subscriptions hear in the order they were made: logs first.
  expect(seen).toEqual(['log removed 2', 'log removed 3', 'head 3', 'head 4', 'log 2', 'head 5', 'log 3', 'head 6'])
  expect(ws.notes.filter((n) => n.subscription === headsId).map((n) => (n.result as { hash: Hex }).hash).slice(0, 2)).toEqual(answer.added)
  // Every write is included once, in the new chain.
  for (const hash of writes) expect((await result<Receipt>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).blockNumber).toMatch(/^0x/)
  const logs = await result<Log[]>(rc.httpUrl, 'eth_getLogs', [{ address: store, fromBlock: '0x0' }])
  expect(logs.map((l) => [l.blockNumber, valueOf(l)])).toEqual([
    ['0x2', 1n],
    ['0x5', 2n],
    ['0x6', 3n],
  ])
})

test('args: requeue false drops the transactions not re-included', async () => {
  const { rc, writes } = await withWrites()
  const answer = await result<{ requeued: Hex[]; discarded: Hex[] }>(rc.httpUrl, 'ringchain_reorg', [{ depth: 2, requeue: false }])
  expect(answer).toMatchObject({ requeued: [], discarded: [writes[1], writes[2]] })
  expect(await result(rc.httpUrl, 'eth_getTransactionByHash', [writes[1]])).toBeNull()
  expect(await result(rc.httpUrl, 'eth_blockNumber', [])).toBe('0x4')
})

test('args: transactions by hash land in the block at their offset', async () => {
  const { rc, writes } = await withWrites()
  await result(rc.httpUrl, 'evm_setAutomine', [false])
  const answer = await result<{ added: Hex[]; requeued: Hex[] }>(rc.httpUrl, 'ringchain_reorg', [{ depth: 3, transactions: [[writes[0], 1], [writes[1], 1]] }])
  for (const hash of [writes[0], writes[1]]) expect((await result<Receipt>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).blockNumber).toBe('0x3')
  // Value 3's write waits in the pool (manual mining).
  expect(answer.requeued).toEqual([writes[2]])
  expect(await result(rc.httpUrl, 'eth_getTransactionByHash', [writes[2]])).toMatchObject({ blockNumber: null })
})

test('behavior: nothing accepted is lost across repeated reorgs', async () => {
  const { rc, writes, write } = await withWrites()
  for (const depth of [1, 3, 2]) {
    await result(rc.httpUrl, 'ringchain_reorg', [{ depth }])
    await write(BigInt(writes.length + 1))
  }
  const included = new Map<Hex, number>()
  const head = Number(await result<Hex>(rc.httpUrl, 'eth_blockNumber', []))
  for (let n = 0; n <= head; n++) {
    const block = await result<{ transactions: Hex[] }>(rc.httpUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
    for (const hash of block.transactions) included.set(hash, (included.get(hash) ?? 0) + 1)
  }
  const pool = await result<{ pending: Hex; queued: Hex }>(rc.httpUrl, 'txpool_status', [])
  for (const hash of writes) expect(included.get(hash)).toBe(1)
  expect(pool).toEqual({ pending: '0x0', queued: '0x0' })
})

test.each([
  [{ depth: 0 }, 'Reorg depth must be at least 1: depth 0'],
  [{ depth: 9 }, 'Reorg depth must not exceed current chain height: current height 4, depth 9'],
  [{ depth: 2, transactions: [[bytesToHex(new Uint8Array(32)), 2]] }, 'Block number for reorg tx will exceed the reorged chain height. Block number 2 must not exceed (depth-1) 1'],
  [{ depth: 2, transactions: [[bytesToHex(new Uint8Array(32)), 0]] }, /transaction 0x0{64} is neither in a block the reorg drops nor pending/],
  [{ depth: 1, reqeue: false }, 'invalid argument 0: unknown member "reqeue"'],
  [{}, 'invalid argument 0: missing "depth"'],
])('error: %j', async (request, message) => {
  const { rc } = await withWrites()
  const error = await rpcError(rc.httpUrl, 'ringchain_reorg', [request])
  expect(error.code).toBe(-32602)
  expect(error.message).toMatch(message)
  expect(await result(rc.httpUrl, 'eth_blockNumber', [])).toBe('0x4')
})
