// eth_baseFee end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. The answer is the
// base fee per gas of the next block: the block mined next must carry exactly it.

import { expect, test } from 'vitest'
import { fixtureExchange, startImported } from '../conformance/corpus.js'
import { type Hex, result, rpcError, sendRaw, signedTx, start } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_baseFee'

async function nextHeader(url: string): Promise<{ baseFeePerGas: Hex }> {
  await result(url, 'evm_mine', [])
  return result(url, 'eth_getBlockByNumber', ['latest', false])
}

test('default', async () => {
  const rc = await start()
  const fee = await result<Hex>(rc.httpUrl, METHOD, [])
  expect(fee).toBe((await nextHeader(rc.httpUrl)).baseFeePerGas)
  expectSchemaValid(METHOD, fee)
})

test('default: the fixture chain, as geth answered it', async () => {
  const rc = await startImported()
  const expected = fixtureExchange<{ result: Hex }>(METHOD, 'get-current-basefee').response
  expect(await result(rc.httpUrl, METHOD, [])).toBe(expected.result)
})

test('behavior: follows the gas the head used (up after a full block, down after an empty one)', async () => {
  const rc = await start({ blockGasLimit: 100_000n })
  const before = BigInt(await result<Hex>(rc.httpUrl, METHOD, []))
  // A block more than half full raises the next base fee.
  await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: '0x00000000000000000000000000000000000000aa', gasLimit: 100_000n, data: `0x${'ff'.repeat(1000)}` }))
  const raised = BigInt(await result<Hex>(rc.httpUrl, METHOD, []))
  expect(raised).toBeGreaterThan(before)
  expect(BigInt((await nextHeader(rc.httpUrl)).baseFeePerGas)).toBe(raised)
  // That next block was empty: the one after it is cheaper.
  expect(BigInt(await result<Hex>(rc.httpUrl, METHOD, []))).toBeLessThan(raised)
})

test('behavior: null before London (no base fee)', async () => {
  const rc = await start({ hardfork: 'berlin' })
  expect(await result(rc.httpUrl, METHOD, [])).toBeNull()
})

test('error: arguments', async () => {
  const rc = await start()
  expect(await rpcError(rc.httpUrl, METHOD, ['latest'])).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
})
