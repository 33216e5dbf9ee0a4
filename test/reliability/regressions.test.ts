/**
 * The hostile inputs the fuzz and the load runs found, pinned one by one. Each used to give
 * -32603 (an unhandled error), to change state on a refused request, to wedge the chain for good,
 * or to hold the only thread; each now gets a clear answer and leaves the chain working.
 */
import { expect, onTestFinished, test } from 'vitest'
import { createRingchain, startRingchain, type Ringchain } from '../../src/index.js'
import { captureLogger, postRaw, sleep } from './helpers.js'

async function chain(): Promise<Ringchain & { log: ReturnType<typeof captureLogger> }> {
  const log = captureLogger()
  const rc = await createRingchain({ deterministic: true, logger: log.logger })
  onTestFinished(() => rc.close())
  return Object.assign(rc, { log })
}

async function refusal(rc: Ringchain, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await rc.request({ method, params })
  } catch (error) {
    const { code, message } = error as { code: number; message: string }
    return { code, message }
  }
  throw new Error(`${method} was accepted`)
}

test('error: a timestamp past 2^64-1 is refused, so the chain can always mine its next block', async () => {
  const rc = await chain()
  // Before: accepted, and every later block failed to store its beacon root (a 33-byte value): the chain was wedged.
  expect(await refusal(rc, 'evm_setNextBlockTimestamp', [`0x${'f'.repeat(64)}`])).toMatchObject({ code: -32602 })
  expect(await refusal(rc, 'evm_mine', [{ timestamp: `0x1${'0'.repeat(16)}` }])).toMatchObject({ code: -32602 })
  await rc.request({ method: 'evm_increaseTime', params: ['0xffffffffffffff'] })
  expect(await refusal(rc, 'evm_increaseTime', ['0xffffffffffffffff'])).toEqual({ code: -32602, message: 'time offset 18518801667747479550 s is beyond 2^64-1' })
  await rc.request({ method: 'evm_mine', params: [] })
  await rc.request({ method: 'evm_mine', params: [] })
  expect(await rc.request({ method: 'eth_blockNumber', params: [] })).toBe('0x2')
  expect(rc.log.errors()).toEqual([])
})

test('error: times that are not whole numbers are invalid params, not internal errors', async () => {
  const rc = await chain()
  for (const [method, params] of [
    ['evm_increaseTime', [1.5]],
    ['evm_increaseTime', [{}]],
    ['evm_setNextBlockTimestamp', [{ blockNumber: '0x0' }]],
    ['evm_mine', [1.5]],
    ['evm_mine', [{ timestamp: 'abc' }]],
    ['evm_mine', [{ blocks: -1 }]],
  ] as const) {
    expect(await refusal(rc, method, [...params]), `${method} ${JSON.stringify(params)}`).toMatchObject({ code: -32602 })
  }
  // A refused evm_mine sets no timestamp: the next block is 12 s after genesis, as always.
  await rc.request({ method: 'evm_mine', params: [] })
  const block = (await rc.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { timestamp: string }
  expect(BigInt(block.timestamp)).toBe(1_735_689_600n + 12n)
  expect(rc.log.errors()).toEqual([])
})

test('error: nonce 2^64-1 and beyond is refused by anvil_setNonce; calls from the account keep working', async () => {
  const rc = await chain()
  const from = rc.accounts[0]!.address
  expect(await refusal(rc, 'anvil_setNonce', [from, '0xffffffffffffffff'])).toEqual({ code: -32602, message: 'invalid argument 1: nonce must be below 2^64-1 (EIP-2681)' })
  expect(await refusal(rc, 'hardhat_setNonce', [from, `0x${'f'.repeat(40)}`])).toMatchObject({ code: -32602 })
  await rc.request({ method: 'anvil_setNonce', params: [from, '0xfffffffffffffffe'] })
  expect(await rc.request({ method: 'eth_call', params: [{ from, to: from }] })).toBe('0x')
  expect(await rc.request({ method: 'eth_estimateGas', params: [{ from, to: from }] })).toBe('0x5208')
  expect(rc.log.errors()).toEqual([])
})

test('error: a next base fee beyond 2^64-1 is refused: default fees built on it would overflow 2^256', async () => {
  const rc = await chain()
  expect(await refusal(rc, 'anvil_setNextBlockBaseFeePerGas', [`0x${'f'.repeat(60)}`])).toMatchObject({ code: -32602 })
  await rc.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: ['0xffffffffffff'] })
  await rc.request({ method: 'evm_mine', params: [] })
  const from = rc.accounts[0]!.address
  expect(await rc.request({ method: 'eth_createAccessList', params: [{ from, to: from }, 'pending'] })).toHaveProperty('gasUsed')
  expect(rc.log.errors()).toEqual([])
})

test('behavior: a block time longer than a Node timer can hold (2^31-1 ms) does not mine every millisecond', async () => {
  const rc = await createRingchain({ deterministic: true, mining: { mode: 'interval', blockTimeMs: 1e10 } })
  onTestFinished(() => rc.close())
  await rc.request({ method: 'evm_setIntervalMining', params: [1e12] })
  await sleep(300)
  // Before: Node ran the timer every 1 ms instead, mining ~100 blocks a second.
  expect(await rc.request({ method: 'eth_blockNumber', params: [] })).toBe('0x0')
})

test('error: an id that is not a JSON number is a parse error, not an answer that is not JSON', async () => {
  const log = captureLogger()
  const rc = await startRingchain({ port: 0, logger: log.logger })
  onTestFinished(() => rc.close())
  for (const id of ['01', '1.', '-', '1e5e5', '-2.1e99e+86', '1-2']) {
    const res = await postRaw(rc.httpUrl, `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`)
    expect(res.text, id).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
  }
  // Numbers a double cannot hold are still echoed exactly.
  expect((await postRaw(rc.httpUrl, '{"jsonrpc":"2.0","id":12345678901234567890123,"method":"eth_chainId"}')).text).toBe(
    '{"jsonrpc":"2.0","id":12345678901234567890123,"result":"0x7a69"}',
  )
})
