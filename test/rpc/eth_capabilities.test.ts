// eth_capabilities end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. ringchain
// serves every kind of data for the blocks of its window and nothing older, so each resource
// reports the window's oldest block and a window delete strategy of `window` blocks.

import { expect, test } from 'vitest'
import { type Hex, result, rpcError, start, toHex } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_capabilities'
const RESOURCES = ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs'] as const

interface Capabilities {
  head: { number: Hex; hash: Hex }
  [resource: string]: unknown
}

test('default', async () => {
  const rc = await start()
  const answer = await result<Capabilities>(rc.httpUrl, METHOD, [])
  const head = await result<{ number: Hex; hash: Hex }>(rc.httpUrl, 'eth_getBlockByNumber', ['latest', false])
  expect(answer.head).toEqual({ number: head.number, hash: head.hash })
  for (const resource of RESOURCES) {
    expect(answer[resource], resource).toEqual({ disabled: false, oldestBlock: '0x0', deleteStrategy: { type: 'window', retentionBlocks: '0x80' } })
  }
  expectSchemaValid(METHOD, answer)
})

test('behavior: the oldest block moves with the window, and is the oldest block a state read is served at', async () => {
  const rc = await start({ window: 4 })
  await result(rc.httpUrl, 'anvil_mine', ['0xa']) // head 10: window 7..10
  const answer = await result<Capabilities & { state: { oldestBlock: Hex; deleteStrategy: unknown } }>(rc.httpUrl, METHOD, [])
  expect(answer.head.number).toBe('0xa')
  expect(answer.state).toEqual({ disabled: false, oldestBlock: '0x7', deleteStrategy: { type: 'window', retentionBlocks: '0x4' } })
  const dev = '0x' + Buffer.from(rc.chain.accounts[0]!.address).toString('hex')
  await expect(result(rc.httpUrl, 'eth_getBalance', [dev, answer.state.oldestBlock])).resolves.toMatch(/^0x/)
  expect((await rpcError(rc.httpUrl, 'eth_getBalance', [dev, toHex(6)])).code).toBe(4444)
  expect((await rpcError(rc.httpUrl, 'eth_getProof', [dev, [], toHex(6)])).code).toBe(4444)
})

test('error: arguments', async () => {
  const rc = await start()
  expect(await rpcError(rc.httpUrl, METHOD, ['latest'])).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
})
