import { expect, test } from 'vitest'
import { nextMessage, openWs, start } from '../helpers/rpc.js'

async function call(ws: Awaited<ReturnType<typeof openWs>>, id: number, method: string, params: unknown[]): Promise<unknown> {
  const answer = nextMessage(ws)
  ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
  return (JSON.parse(await answer) as { result: unknown }).result
}

test('default: the subscribing connection cancels its subscription once', async () => {
  const rc = await start()
  const ws = await openWs(rc.wsUrl)
  const id = await call(ws, 1, 'eth_subscribe', ['newHeads'])
  expect(await call(ws, 2, 'eth_unsubscribe', [id])).toBe(true)
  expect(await call(ws, 3, 'eth_unsubscribe', [id])).toBe(false)
})

test('behavior: another connection cannot cancel a subscription, even knowing its id', async () => {
  const rc = await start()
  const owner = await openWs(rc.wsUrl)
  const other = await openWs(rc.wsUrl)
  const id = await call(owner, 1, 'eth_subscribe', ['newHeads'])
  expect(await call(other, 1, 'eth_unsubscribe', [id])).toBe(false)
  // the owner still gets its notifications
  const notification = nextMessage(owner)
  await rc.request({ method: 'evm_mine', params: [] })
  expect(JSON.parse(await notification)).toMatchObject({ method: 'eth_subscription', params: { subscription: id } })
  expect(await call(owner, 2, 'eth_unsubscribe', [id])).toBe(true)
})
