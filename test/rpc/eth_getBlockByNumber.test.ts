// eth_getBlockByNumber / eth_getBlockByHash: the full-transactions flag is required, as in geth.
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

test('error: without the full-transactions flag: missing value for required argument 1 (-32602)', async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const head = (await rc.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }
  const missing = { code: -32602, message: 'missing value for required argument 1' }
  await expect(rc.request({ method: 'eth_getBlockByNumber', params: ['latest'] })).rejects.toMatchObject(missing)
  await expect(rc.request({ method: 'eth_getBlockByHash', params: [head.hash] })).rejects.toMatchObject(missing)
  await expect(rc.request({ method: 'eth_getBlockByHash', params: [head.hash, null] })).rejects.toMatchObject(missing)
  expect(await rc.request({ method: 'eth_getBlockByHash', params: [head.hash, true] })).toMatchObject({ hash: head.hash })
})

test('behavior: keys come in geth order (its JSON sorts them), the body after the header on a Prague chain', async () => {
  const rc = await createRingchain({ deterministic: true, hardfork: 'prague' })
  open.push(rc)
  const [from, to] = rc.accounts.map((a) => a.address)
  await rc.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })
  for (const full of [false, true]) {
    const block = (await rc.request({ method: 'eth_getBlockByNumber', params: ['latest', full] })) as Record<string, unknown>
    const keys = Object.keys(block)
    expect(keys).toEqual([...keys].sort())
    expect(keys).toEqual(expect.arrayContaining(['baseFeePerGas', 'parentBeaconBlockRoot', 'requestsHash', 'transactions', 'withdrawals', 'withdrawalsRoot']))
    expect((block.transactions as unknown[]).length).toBe(1)
  }
})
