/**
 * anvil_reorg and anvil_rollback: anvil 1.7.1's shapes, answers and errors; the dropped blocks'
 * transactions not given again are gone; a request given is signed with nonces counted from the
 * common block. The same script runs side by side with anvil when it is installed.
 */
import { expect, test } from 'vitest'
import { startAnvil, skipWithoutAnvil } from '../helpers/anvil.js'
import { result, rpcError, send, start, type Hex } from '../helpers/rpc.js'

const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const TO = '0x0000000000000000000000000000000000000abc'

interface Tx {
  readonly hash: Hex
  readonly nonce: Hex
  readonly from: Hex
  readonly to: Hex
  readonly value: Hex
  readonly blockNumber: Hex
}

/** What a node answers to one reorg script; the same on ringchain and anvil. */
async function observe(url: string) {
  const out: Record<string, unknown> = {}
  const transfer = (value: number) => result<Hex>(url, 'eth_sendTransaction', [{ from: DEV, to: TO, value: `0x${value.toString(16)}` }])
  await result(url, 'evm_mine', [])
  await result(url, 'evm_mine', [])
  const first = await transfer(1) // block 3
  const second = await transfer(2) // block 4
  // anvil answers eth_sendTransaction before its automine has mined the block: wait for it (bounded).
  for (let i = 0; i < 100 && (await result(url, 'eth_getTransactionReceipt', [second])) === null; i++) await new Promise((r) => setTimeout(r, 20))
  const oldHead = await result<{ hash: Hex }>(url, 'eth_getBlockByNumber', ['latest', false])
  const error = async (method: string, params: unknown[]) => {
    const e = await rpcError(url, method, params)
    return { code: e.code, message: e.message }
  }
  out.errors = {
    tooDeep: await error('anvil_reorg', [5, []]),
    offset: await error('anvil_reorg', [2, [[{ to: TO }, 2]]]),
    rollbackTooDeep: await error('anvil_rollback', [9]),
    badRaw: await error('anvil_reorg', [1, [['0x02f8', 0]]]),
    missingPairs: (await error('anvil_reorg', [1])).code,
  }
  out.unchanged = await result(url, 'eth_blockNumber', [])
  out.reorg = await result(url, 'anvil_reorg', [2, [[{ from: DEV, to: TO, value: '0x5' }, 1]]])
  out.height = await result(url, 'eth_blockNumber', [])
  out.dropped = [await result(url, 'eth_getTransactionByHash', [first]), await result(url, 'eth_getTransactionReceipt', [second])]
  const head = await result<{ hash: Hex; transactions: Hex[] }>(url, 'eth_getBlockByNumber', ['latest', false])
  out.headChanged = head.hash !== oldHead.hash
  out.middle = (await result<{ transactions: Hex[] }>(url, 'eth_getBlockByNumber', ['0x3', false])).transactions.length
  const given = await result<Tx>(url, 'eth_getTransactionByHash', [head.transactions[0]])
  out.given = { nonce: given.nonce, from: given.from, to: given.to, value: given.value, blockNumber: given.blockNumber }
  out.nonce = await result(url, 'eth_getTransactionCount', [DEV, 'latest'])
  out.pool = await result(url, 'txpool_status', [])
  // A raw transaction from another account, in place of the head.
  const raw = await result<Hex>(url, 'eth_signTransaction', [{ from: OTHER, to: TO, value: '0x7', nonce: '0x0', gas: '0x5208', maxFeePerGas: '0x3b9aca000', maxPriorityFeePerGas: '0x1' }])
  out.rawReorg = await result(url, 'anvil_reorg', [1, [[raw, 0]]])
  const rawHead = await result<{ number: Hex; transactions: Hex[] }>(url, 'eth_getBlockByNumber', ['latest', false])
  out.rawHead = { number: rawHead.number, count: rawHead.transactions.length, gone: (await result(url, 'eth_getTransactionByHash', [given.hash])) === null }
  out.rollback = await result(url, 'anvil_rollback', [null])
  out.afterRollback = await result(url, 'eth_blockNumber', [])
  out.rollbackTwo = await result(url, 'anvil_rollback', [2])
  out.afterRollbackTwo = await result(url, 'eth_blockNumber', [])
  out.nonceAfterRollback = await result(url, 'eth_getTransactionCount', [DEV, 'latest'])
  return out
}

test('default: a reorg, a raw reorg and rollbacks, with their errors', async () => {
  const rc = await start()
  expect(await observe(rc.httpUrl)).toMatchInlineSnapshot(`
    {
      "afterRollback": "0x3",
      "afterRollbackTwo": "0x1",
      "dropped": [
        null,
        null,
      ],
      "errors": {
        "badRaw": {
          "code": -32602,
          "message": "Failed to decode transaction",
        },
        "missingPairs": -32602,
        "offset": {
          "code": -32602,
          "message": "Block number for reorg tx will exceed the reorged chain height. Block number 2 must not exceed (depth-1) 1",
        },
        "rollbackTooDeep": {
          "code": -32602,
          "message": "Rollback depth must not exceed current chain height: current height 4, depth 9",
        },
        "tooDeep": {
          "code": -32602,
          "message": "Reorg depth must not exceed current chain height: current height 4, depth 5",
        },
      },
      "given": {
        "blockNumber": "0x4",
        "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "nonce": "0x0",
        "to": "0x0000000000000000000000000000000000000abc",
        "value": "0x5",
      },
      "headChanged": true,
      "height": "0x4",
      "middle": 0,
      "nonce": "0x1",
      "nonceAfterRollback": "0x0",
      "pool": {
        "pending": "0x0",
        "queued": "0x0",
      },
      "rawHead": {
        "count": 1,
        "gone": true,
        "number": "0x4",
      },
      "rawReorg": null,
      "reorg": null,
      "rollback": null,
      "rollbackTwo": null,
      "unchanged": "0x4",
    }
  `)
})

test('error: a depth of 0 is refused with -32602 and nothing changes (anvil answers -32603)', async () => {
  const rc = await start()
  await result(rc.httpUrl, 'evm_mine', [])
  for (const [method, params] of [
    ['anvil_reorg', [0, []]],
    ['anvil_rollback', [0]],
  ] as const) {
    expect(await rpcError(rc.httpUrl, method, [...params])).toMatchObject({ code: -32602, message: expect.stringMatching(/depth must be at least 1: depth 0/) })
  }
  expect(await result(rc.httpUrl, 'eth_blockNumber', [])).toBe('0x1')
})

test('behavior: side by side with anvil 1.7.1', async (ctx) => {
  skipWithoutAnvil(ctx)
  const rc = await start()
  const anvil = await startAnvil()
  expect(await observe(rc.httpUrl)).toEqual(await observe(anvil))
})

test('behavior: an EIP-1898 read at an orphaned hash is refused; the hash is unknown to block reads', async () => {
  const rc = await start()
  await result(rc.httpUrl, 'evm_mine', [])
  const old = await result<{ hash: Hex }>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])
  await result(rc.httpUrl, 'anvil_reorg', [1, []])
  expect(await result(rc.httpUrl, 'eth_getBlockByHash', [old.hash, false])).toBeNull()
  expect(await rpcError(rc.httpUrl, 'eth_getBalance', [DEV, { blockHash: old.hash }])).toEqual({ code: -32000, message: 'hash is not currently canonical' })
  expect((await send(rc.httpUrl, 'eth_getBlockReceipts', [{ blockHash: old.hash }])).result).toBeNull()
})
