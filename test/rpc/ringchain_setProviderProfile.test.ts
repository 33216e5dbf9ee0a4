// ringchain_setProviderProfile and the provider a profile makes, on the wire: statuses, headers and
// bodies over HTTP, errors over WebSocket, lagging reads, limits, drops. A fresh server per test.
import { expect, test } from 'vitest'
import { nextMessage, openWs, post, result, rpcError, send, start } from '../helpers/rpc.js'

const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params })

test('default: no profile is the perfect provider', async () => {
  const rc = await start()
  for (let i = 0; i < 20; i++) expect((await post(rc.httpUrl, call('eth_chainId'))).status).toBe(200)
})

test('behavior: over the daily limit, HTTP 429 with Retry-After and Infura\'s -32005, id echoed', async () => {
  const rc = await start({ providerProfile: { default: { rateLimit: { perDay: 3 } } } })
  // A batch counts as its calls: 2, then 1, then the limit is reached.
  expect((await post(rc.httpUrl, [call('eth_chainId', [], 1), call('eth_chainId', [], 2)])).status).toBe(200)
  expect((await post(rc.httpUrl, call('eth_chainId'))).status).toBe(200)
  const refused = await post(rc.httpUrl, call('eth_chainId', [], 'x'))
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(JSON.parse(refused.text)).toEqual({ jsonrpc: '2.0', id: 'x', error: { code: -32005, message: 'daily request count exceeded, request rate limited' } })
})

test('behavior: over WebSocket, the refused request gets its -32005 error', async () => {
  const rc = await start({ providerProfile: { default: { rateLimit: { perDay: 1 } } } })
  const ws = await openWs(rc.wsUrl)
  ws.send(JSON.stringify(call('eth_chainId', [], 1)))
  expect(JSON.parse(await nextMessage(ws)).result).toBe('0x7a69')
  ws.send(JSON.stringify(call('eth_chainId', [], 2)))
  expect(JSON.parse(await nextMessage(ws))).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32005, message: 'daily request count exceeded, request rate limited' } })
})

test('behavior: failures answer the profile\'s status with -32603, over WebSocket the -32603 alone', async () => {
  const rc = await start({ providerProfile: { default: { failures: { share: 1, status: 503 } } } })
  const failed = await post(rc.httpUrl, call('eth_chainId', [], 4))
  expect(failed.status).toBe(503)
  expect(JSON.parse(failed.text)).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'internal error' } })
  const ws = await openWs(rc.wsUrl)
  ws.send(JSON.stringify(call('eth_chainId', [], 5)))
  expect(JSON.parse(await nextMessage(ws)).error.code).toBe(-32603)
})

test('behavior: test controls pass untouched, so a test can always change the profile', async () => {
  const rc = await start({ providerProfile: { default: { failures: { share: 1, status: 503 } } } })
  expect((await post(rc.httpUrl, call('evm_mine'))).status).toBe(200)
  expect(await result(rc.httpUrl, 'ringchain_setProviderProfile', [null])).toBe(true)
  expect((await post(rc.httpUrl, call('eth_chainId'))).status).toBe(200)
})

test('behavior: a lagging backend answers latest as head - blocks', async () => {
  const rc = await start()
  for (let i = 0; i < 3; i++) await result(rc.httpUrl, 'evm_mine', [])
  await result(rc.httpUrl, 'ringchain_setProviderProfile', [{ default: { lagBlocks: { share: 1, blocks: 2 } } }])
  expect(await result(rc.httpUrl, 'eth_blockNumber', [])).toBe('0x1')
  expect((await result<{ number: string }>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])).number).toBe('0x1')
  expect(await result(rc.httpUrl, 'eth_getBlockByNumber', ['0x3', false])).toBeNull()
  expect((await rpcError(rc.httpUrl, 'eth_getBalance', [rc.accounts[0]!.address, '0x3'])).message).toBe('header not found')
})

test('behavior: the provider\'s limits on batches and eth_getLogs', async () => {
  const rc = await start({ providerProfile: { default: { limits: { batch: 2, getLogsBlockRange: 2 } } } })
  for (let i = 0; i < 3; i++) await result(rc.httpUrl, 'evm_mine', [])
  const batch = await post(rc.httpUrl, [call('eth_chainId', [], 1), call('eth_chainId', [], 2), call('eth_chainId', [], 3)])
  expect(JSON.parse(batch.text)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }])
  const wide = await rpcError(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }])
  expect(wide.code).toBe(-32602)
  expect(wide.message).toMatch(/^Log response size exceeded\. You can make eth_getLogs requests with up to a 2 block range/)
  expect(await result(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x3' }])).toEqual([])
})

test('behavior: eth_getLogs over the result cap gets Infura\'s -32005', async () => {
  const rc = await start({ providerProfile: { default: { limits: { getLogsResults: 1 } } } })
  // Two logs in one block: a contract whose constructor emits LOG0 twice (PUSH0 PUSH0 LOG0 ×2, STOP).
  const from = rc.accounts[0]!.address
  await result(rc.httpUrl, 'eth_sendTransaction', [{ from, data: '0x5f5fa05f5fa000' }])
  const error = await rpcError(rc.httpUrl, 'eth_getLogs', [{ fromBlock: '0x0' }])
  expect(error).toEqual({ code: -32005, message: 'query returned more than 1 results' })
})

test('behavior: latency is waited per method before the call runs', async () => {
  const rc = await start({ providerProfile: { default: { latencyMs: { eth_chainId: 200 } } } })
  const started = performance.now()
  await result(rc.httpUrl, 'eth_chainId', [])
  // A lower bound only (no timing upper bound on a busy machine): the wait did happen.
  expect(performance.now() - started).toBeGreaterThanOrEqual(190)
})

test('behavior: a WebSocket is cut after its messages (both ways), without a close frame', async () => {
  const rc = await start({ providerProfile: { default: { ws: { dropAfterMessages: 2 } } } })
  const ws = await openWs(rc.wsUrl)
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  ws.send(JSON.stringify(call('eth_chainId'))) // message 1, its answer message 2
  expect(JSON.parse(await nextMessage(ws)).result).toBe('0x7a69')
  ws.send(JSON.stringify(call('eth_chainId', [], 2))) // the third: the connection goes
  expect(await closed).toBe(1006)
})

test('behavior: a WebSocket is cut after its seconds', async () => {
  const rc = await start({ providerProfile: { default: { ws: { dropAfterSeconds: 0.2 } } } })
  const ws = await openWs(rc.wsUrl)
  expect(await new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))).toBe(1006)
})

test('error: an invalid profile is -32602 naming the field, and changes nothing', async () => {
  const rc = await start()
  const error = await rpcError(rc.httpUrl, 'ringchain_setProviderProfile', [{ default: { failures: { share: 0.5, status: 200 } } }])
  expect(error).toEqual({ code: -32602, message: 'invalid argument 0: default.failures.status: expected an HTTP error status (400..599), got 200' })
  expect((await send(rc.httpUrl, 'eth_chainId', [])).result).toBe('0x7a69')
})

test('behavior: the same seed gives the same sequence of failures', async () => {
  const statuses = async (seed: number) => {
    const rc = await start({ providerProfile: { seed, default: { failures: { share: 0.5, status: 502 } } } })
    const seen: number[] = []
    for (let i = 0; i < 24; i++) seen.push((await post(rc.httpUrl, call('eth_chainId'))).status)
    return seen
  }
  const first = await statuses(11)
  expect(first).toContain(502)
  expect(first).toContain(200)
  expect(await statuses(11)).toEqual(first)
  expect(await statuses(12)).not.toEqual(first)
})

test('args: a key\'s own section wins over default; other keys meet default', async () => {
  const rc = await start({ providerProfile: { default: { failures: { share: 1, status: 502 } }, calm: {} } })
  expect((await post(rc.urls('calm').httpUrl, call('eth_chainId'))).status).toBe(200)
  expect((await post(rc.urls('other').httpUrl, call('eth_chainId'))).status).toBe(502)
})

test('behavior: in-process (createRingchain), a refusal is the JSON-RPC error thrown', async () => {
  const { createRingchain } = await import('../../src/index.js')
  const rc = await createRingchain({ providerProfile: { default: { rateLimit: { perDay: 1 } } } })
  try {
    expect(await rc.request({ method: 'eth_chainId' })).toBe('0x7a69')
    await expect(rc.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: -32005, message: 'daily request count exceeded, request rate limited' })
  } finally {
    await rc.close()
  }
})
