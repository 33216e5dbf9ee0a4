import { test } from 'ringchain/vitest'
import { expect } from 'vitest'
import { joinPair } from './together.js'

const meet = joinPair('storage', 'transfer')
// A contract whose code stores 0x2a in slot 0: PUSH1 0x2a PUSH1 0 SSTORE STOP
const CODE = '0x602a60005500'
const INIT = `0x69${CODE.slice(2).padEnd(20, '0')}600052600a6016f3` // returns CODE

test('deploys and writes a slot, and the other worker does not see it', async ({ ringchain }) => {
  const from = ringchain.accounts[0].address
  const request = ringchain.request
  const deployHash = await request({ method: 'eth_sendTransaction', params: [{ from, data: INIT }] })
  const { contractAddress } = await request({ method: 'eth_getTransactionReceipt', params: [deployHash] })
  await request({ method: 'eth_sendTransaction', params: [{ from, to: contractAddress }] })
  await meet('wrote')
  expect(await request({ method: 'eth_getStorageAt', params: [contractAddress, '0x0', 'latest'] })).toBe(`0x${'2a'.padStart(64, '0')}`)
  expect(await request({ method: 'eth_blockNumber' })).toBe('0x2')
  await meet('read')
})

test('the next test starts from the snapshot', async ({ ringchain }) => {
  expect(await ringchain.request({ method: 'eth_blockNumber' })).toBe('0x0')
  expect(await ringchain.request({ method: 'eth_getTransactionCount', params: [ringchain.accounts[0].address, 'latest'] })).toBe('0x0')
})
