// eth_getLogs by block hash: a hash the window does not hold is geth's -32000 `unknown block`;
// over a range, the logs of the receipts.
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import { post, result, start, type Hex } from '../helpers/rpc.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

const UNKNOWN = `0x${'ab'.repeat(32)}` as const

test('default: the logs of a block of the window, by its hash', async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const head = (await rc.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }
  expect(await rc.request({ method: 'eth_getLogs', params: [{ blockHash: head.hash }] })).toEqual([])
})

test('error: an unknown block hash: -32000 unknown block', async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  await expect(rc.request({ method: 'eth_getLogs', params: [{ blockHash: UNKNOWN }] })).rejects.toMatchObject({ code: -32000, message: 'unknown block' })
  const client = createPublicClient({ transport: custom(rc) })
  await expect(client.getLogs({ blockHash: UNKNOWN })).rejects.toThrow(/unknown block/)
})

test('behavior: the logs of a range are those of their receipts, the bytes what JSON.stringify writes', async () => {
  const rc = await start()
  const from = rc.accounts[0]!.address
  const deployed = await result<Hex>(rc.httpUrl, 'eth_sendTransaction', [{ from, data: STORE_INITCODE }])
  const store = (await result<{ contractAddress: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [deployed])).contractAddress
  const receipts: { logs: unknown[] }[] = []
  for (const [slot, value] of [[1n, 2n], [3n, 4n]] as const) {
    const hash = await result<Hex>(rc.httpUrl, 'eth_sendTransaction', [{ from, to: store, data: bytesToHex(storeCalldata(slot, value)) }])
    receipts.push(await result(rc.httpUrl, 'eth_getTransactionReceipt', [hash]))
  }
  const { text } = await post(rc.httpUrl, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ address: store, fromBlock: '0x0', toBlock: 'latest' }] })
  const answer = JSON.parse(text) as { result: unknown[] }
  expect(text).toBe(JSON.stringify(answer))
  expect(answer.result).toHaveLength(2)
  expect(answer.result).toEqual(receipts.flatMap((r) => r.logs))
})
