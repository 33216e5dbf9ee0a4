// eth_getLogs by block hash: a hash the window does not hold is geth's -32000 `unknown block`.
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'

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
