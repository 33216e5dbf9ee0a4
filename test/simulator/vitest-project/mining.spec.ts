// A second file, likely in the other worker: its chain is its own, and reverted after each test too.
import { expect } from 'vitest'
import { test } from '../../../src/vitest.js'

for (const round of [1, 2]) {
  test(`round ${round}: mines on its own chain`, async ({ ringchain }) => {
    expect(await ringchain.request({ method: 'eth_blockNumber' })).toBe('0x0')
    await ringchain.request({ method: 'anvil_mine', params: ['0x5'] })
    expect(await ringchain.request({ method: 'eth_blockNumber' })).toBe('0x5')
  })
}

test('error: failures come back as RingchainRpcError', async ({ ringchain }) => {
  await expect(ringchain.request({ method: 'eth_nothing' })).rejects.toMatchObject({ name: 'RingchainRpcError', code: -32601 })
})
