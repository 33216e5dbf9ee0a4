/**
 * Clients that leave in the middle of a request or a subscription leave nothing behind: no open
 * handle, no subscription (eth_unsubscribe from another client finds none of theirs), no error
 * line, and the server answers as before. The subscriptions created after their client left have
 * no id to probe: `node bench/disconnects.mjs` runs 10,000 disconnects and measures the heap.
 */
import { request } from 'node:http'
import { connect } from 'node:net'
import { expect, onTestFinished, test, vi } from 'vitest'
import { WebSocket } from 'ws'
import { createRingchain, startRingchain } from '../../src/index.js'
import { RpcWs, captureLogger, postRaw, sleep } from './helpers.js'

const ROUNDS = 60

/**
 * Open handles by type, sockets and servers (timers come and go with the test's own waiting, and
 * with the keep-alive of the warm-up connection: they are compared on their own).
 */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const type of process.getActiveResourcesInfo()) if (type !== 'Timeout') counts[type] = (counts[type] ?? 0) + 1
  return counts
}

const timers = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length

/** The handles once they are back to `expected`, or after 5 s. (Polled by hand: expect.poll's own timers would count.) */
async function settledTo(expected: Record<string, number>): Promise<Record<string, number>> {
  const deadline = Date.now() + 5_000
  let now = handles()
  while (JSON.stringify(now) !== JSON.stringify(expected) && Date.now() < deadline) {
    await sleep(20)
    now = handles()
  }
  return now
}

test('behavior: clients cut mid-body, mid-request and mid-subscription leave no handle and no subscription', { timeout: 60_000 }, async () => {
  const log = captureLogger()
  const rc = await startRingchain({ port: 0, deterministic: true, mining: { mode: 'manual' }, logger: log.logger })
  onTestFinished(() => rc.close())
  const base = `127.0.0.1:${rc.port}`
  const departed: string[] = []

  const midBody = async () => {
    const socket = connect(rc.port, '127.0.0.1')
    socket.on('error', () => {})
    socket.write('POST /v3/k HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",')
    await new Promise((resolve) => setImmediate(resolve))
    socket.destroy()
    await new Promise((resolve) => socket.once('close', resolve))
  }
  const beforeAnswer = () =>
    new Promise<void>((resolve) => {
      const req = request(`http://${base}/v3/k`, { method: 'POST', agent: false })
      req.on('error', () => resolve())
      req.on('close', () => resolve())
      req.end('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",true]}')
      setImmediate(() => req.destroy())
    })
  const subscribedThenCut = async () => {
    const ws = await RpcWs.open(`ws://${base}/ws/v3/k`)
    for (const params of [['newHeads'], ['logs', {}], ['newPendingTransactions']]) {
      departed.push((await ws.call('eth_subscribe', params)).result as string)
    }
    ws.close() // no close frame: the TCP connection just goes
  }
  const cutInFlight = async () => {
    const ws = new WebSocket(`ws://${base}/ws/v3/k`)
    ws.on('error', () => {})
    await new Promise((resolve) => ws.once('open', resolve))
    // The subscription is created after its client is gone.
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    ws.terminate()
    await new Promise((resolve) => ws.once('close', resolve))
  }

  await postRaw(rc.httpUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}') // warm the server's lazy parts
  await sleep(50)
  const before = handles()
  const timersBefore = timers()
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all([midBody(), beforeAnswer(), subscribedThenCut(), cutInFlight()])
    // Blocks and pending transactions would be pushed to any subscription still there.
    if (round % 10 === 9) await rc.request({ method: 'evm_mine', params: [] })
  }
  // Sockets close on both ends asynchronously; the server's side may lag a moment behind.
  expect(await settledTo(before)).toEqual(before)
  expect(timers()).toBeLessThanOrEqual(timersBefore)

  const probe = await RpcWs.open(rc.wsUrl)
  onTestFinished(() => probe.close())
  const left = []
  for (const id of departed) if ((await probe.call('eth_unsubscribe', [id])).result !== false) left.push(id)
  expect(departed).toHaveLength(3 * ROUNDS)
  expect(left).toEqual([])
  expect(log.errors()).toEqual([])
  expect((await postRaw(rc.httpUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')).text).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
})

test('behavior: a filter nobody polls for 5 minutes is dropped, as geth drops it; a polled one lives on', async () => {
  const rc = await createRingchain({ deterministic: true })
  onTestFinished(() => rc.close())
  const abandoned = await rc.request({ method: 'eth_newBlockFilter', params: [] })
  const polled = await rc.request({ method: 'eth_newBlockFilter', params: [] })
  const now = Date.now()
  const clock = vi.spyOn(Date, 'now')
  onTestFinished(() => clock.mockRestore())
  clock.mockReturnValue(now + 4 * 60_000)
  await rc.request({ method: 'evm_mine', params: [] })
  expect(await rc.request({ method: 'eth_getFilterChanges', params: [polled] })).toHaveLength(1)
  clock.mockReturnValue(now + 5 * 60_000 + 1_000)
  await rc.request({ method: 'evm_mine', params: [] })
  expect(await rc.request({ method: 'eth_getFilterChanges', params: [polled] })).toHaveLength(1)
  await expect(rc.request({ method: 'eth_getFilterChanges', params: [abandoned] })).rejects.toThrow('filter not found')
})
