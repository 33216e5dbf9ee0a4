// A lagging backend's view of reads: which calls change and how.
import { expect, test } from 'vitest'
import { asOfBlock, isLaggableRead } from '../../../src/rpc/provider/lag.js'

const call = (method: string, params?: unknown[]) => ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })

test('default: eth_blockNumber answers the lagged number', () => {
  expect(asOfBlock(call('eth_blockNumber'), 9n)).toEqual({ result: '0x9' })
})

test('args: latest or an absent block becomes the lagged number', () => {
  expect(asOfBlock(call('eth_getBalance', ['0xaa']), 9n)).toEqual({ call: call('eth_getBalance', ['0xaa', '0x9']) })
  expect(asOfBlock(call('eth_getStorageAt', ['0xaa', '0x0', 'latest']), 9n)).toEqual({ call: call('eth_getStorageAt', ['0xaa', '0x0', '0x9']) })
  expect(asOfBlock(call('eth_getBlockByNumber', ['latest', false]), 9n)).toEqual({ call: call('eth_getBlockByNumber', ['0x9', false]) })
})

test('args: other tags, hashes and blocks the backend has are left alone', () => {
  for (const block of ['safe', 'finalized', 'earliest', 'pending', '0x9', { blockHash: '0x' + '11'.repeat(32) }]) {
    const read = call('eth_getCode', ['0xaa', block])
    expect(asOfBlock(read, 9n)).toEqual({ call: read })
  }
})

test('behavior: a block past the lagged head is unknown to the backend', () => {
  expect(asOfBlock(call('eth_getBlockByNumber', ['0xa', false]), 9n)).toEqual({ result: null })
  const state = asOfBlock(call('eth_getBalance', ['0xaa', { blockNumber: '0xa' }]), 9n)
  expect('error' in state && state.error.message).toBe('header not found')
})

test('args: eth_getLogs ends (and by default starts) at the lagged head', () => {
  expect(asOfBlock(call('eth_getLogs', [{ address: '0xaa' }]), 9n)).toEqual({ call: call('eth_getLogs', [{ address: '0xaa', fromBlock: '0x9', toBlock: '0x9' }]) })
  expect(asOfBlock(call('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }]), 9n)).toEqual({ call: call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x9' }]) })
})

test('args: writes and hash lookups are not reads a lagging backend changes', () => {
  expect(isLaggableRead('eth_sendRawTransaction')).toBe(false)
  expect(isLaggableRead('eth_chainId')).toBe(false)
  expect(isLaggableRead('eth_call')).toBe(true)
})
