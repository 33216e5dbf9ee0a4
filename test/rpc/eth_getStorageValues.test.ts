// eth_getStorageValues end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. Storage is
// written by the tiny store contract (SSTORE(slot, value) from calldata). Shapes, limits and
// wording: geth's, as the execution-apis fixtures show them.

import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import type { StartOptions } from '../../src/index.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import { type Hex, post, result, rpcError, sendRaw, signedTx, start, toHex, word } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_getStorageValues'
const ZERO = word(0n)
const NOBODY = '0xc1cadaffffffffffffffffffffffffffffffffff'

/** A ringchain with two store contracts deployed by dev account 0 (blocks 1 and 2). */
async function setup(options: Omit<StartOptions, 'port'> = {}) {
  const rc = await start(options)
  let nonce = 0n
  const deploy = async () => {
    const hash = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, data: STORE_INITCODE, gasLimit: 200_000n }))
    return (await result<{ contractAddress: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).contractAddress
  }
  const a = await deploy()
  const b = await deploy()
  const write = (contract: Hex, slot: bigint, value: bigint) =>
    sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, to: contract, data: bytesToHex(storeCalldata(slot, value)) as Hex }))
  const read = (...params: unknown[]) => result<Record<string, Hex[]>>(rc.httpUrl, METHOD, params)
  return { rc, url: rc.httpUrl, a, b, write, read }
}

test('default', async () => {
  const { url, a, write } = await setup()
  await write(a, 0n, 0x38n)
  const answer = await post(url, { jsonrpc: '2.0', id: 1, method: METHOD, params: [{ [a]: [ZERO] }, 'latest'] })
  expect(answer.status).toBe(200)
  expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 1, result: { [a]: [word(0x38n)] } })
  expectSchemaValid(METHOD, JSON.parse(answer.text).result)
})

describe('args', () => {
  test('args: many slots of many accounts, in the order asked', async () => {
    const { a, b, write, read } = await setup()
    await write(a, 1n, 11n)
    await write(a, 2n, 12n)
    await write(b, 1n, 21n)
    expect(await read({ [a]: [word(2n), word(1n), word(3n)], [b]: [word(1n)], [NOBODY]: [word(1n)] })).toEqual({
      [a]: [word(12n), word(11n), ZERO],
      [b]: [word(21n)],
      [NOBODY]: [ZERO],
    })
  })

  test('args: block omitted is latest', async () => {
    const { a, write, read } = await setup()
    await write(a, 1n, 5n)
    expect(await read({ [a]: [word(1n)] })).toEqual(await read({ [a]: [word(1n)] }, 'latest'))
  })

  test('args: block as a number, a hash and pending', async () => {
    const { url, rc, a, write, read } = await setup()
    await write(a, 1n, 1n) // block 3
    await write(a, 1n, 2n) // block 4
    expect(await read({ [a]: [word(1n)] }, '0x3')).toEqual({ [a]: [word(1n)] })
    const hash = (await result<{ hash: Hex }>(url, 'eth_getBlockByNumber', ['0x3', false])).hash
    expect(await read({ [a]: [word(1n)] }, hash)).toEqual({ [a]: [word(1n)] })
    expect(await read({ [a]: [word(1n)] }, { blockNumber: toHex(3) })).toEqual({ [a]: [word(1n)] })
    await rc.chain.setMiningMode({ mode: 'manual' })
    await write(a, 1n, 3n)
    expect(await read({ [a]: [word(1n)] }, 'pending')).toEqual({ [a]: [word(3n)] })
    expect(await read({ [a]: [word(1n)] }, 'latest')).toEqual({ [a]: [word(2n)] })
  })

  test('args: an address spelled in mixed case is one account (the later list wins, as in geth)', async () => {
    const { a, write, read } = await setup()
    await write(a, 1n, 9n)
    const upper = `0x${a.slice(2).toUpperCase()}`
    expect(await read({ [upper]: [word(0n)], [a]: [word(1n)] })).toEqual({ [a]: [word(9n)] })
  })

  test('args: an account with an empty list alongside others', async () => {
    const { a, b, read } = await setup()
    expect(await read({ [a]: [], [b]: [word(0n)] })).toEqual({ [a]: [], [b]: [ZERO] })
  })

  test('args: 1024 slots is the most', async () => {
    const { a, read } = await setup()
    const slots = Array.from({ length: 1024 }, (_, i) => word(BigInt(i)))
    expect((await read({ [a]: slots }))[a]).toHaveLength(1024)
  })
})

describe('behavior', () => {
  test('behavior: reads equal eth_getStorageAt at every block of the window', async () => {
    const { url, a, write, read } = await setup()
    await write(a, 0n, 1n)
    await write(a, 0n, 0n)
    await write(a, 7n, 2n)
    for (let block = 0; block <= 5; block++) {
      const values = await read({ [a]: [word(0n), word(7n)] }, toHex(block))
      expect(values[a]).toEqual([await result(url, 'eth_getStorageAt', [a, '0x0', toHex(block)]), await result(url, 'eth_getStorageAt', [a, '0x7', toHex(block)])])
    }
  })

  test('behavior: a block that left the window is refused (4444)', async () => {
    const { url, a, write } = await setup({ window: 4 })
    for (let value = 1n; value <= 4n; value++) await write(a, 0n, value) // head 6: window 3..6
    expect(await rpcError(url, METHOD, [{ [a]: [ZERO] }, '0x1'])).toMatchObject({ code: 4444, data: { requested: '0x1', oldest: '0x3', head: '0x6' } })
  })
})

describe('errors', () => {
  test('error: empty request', async () => {
    const { url, a } = await setup()
    expect(await rpcError(url, METHOD, [{}, 'latest'])).toEqual({ code: -32602, message: 'empty request' })
    expect(await rpcError(url, METHOD, [{ [a]: [] }])).toEqual({ code: -32602, message: 'empty request' })
  })

  test('error: more than 1024 slots', async () => {
    const { url, a, b } = await setup()
    const slots = Array.from({ length: 600 }, (_, i) => word(BigInt(i)))
    expect(await rpcError(url, METHOD, [{ [a]: slots, [b]: slots }])).toEqual({ code: -38026, message: 'too many slots (max 1024)' })
  })

  test('error: a slot shorter than 32 bytes', async () => {
    const { url, a } = await setup()
    expect(await rpcError(url, METHOD, [{ [a]: ['0x00'] }])).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 2, want 64 for common.Hash' })
    expect(await rpcError(url, METHOD, [{ [a]: ['0x0'] }])).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Hash' })
  })

  test('error: an address without 0x', async () => {
    const { url, a } = await setup()
    expect(await rpcError(url, METHOD, [{ [a.slice(2)]: [ZERO] }])).toEqual({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' })
  })

  test('error: an address of the wrong length', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [{ '0x1234': [ZERO] }])).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 4, want 40 for Address' })
  })

  test('error: request not an object', async () => {
    const { url, a } = await setup()
    expect(await rpcError(url, METHOD, [[a]])).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal array into Go value of type map[common.Address][]common.Hash' })
  })

  test('error: slots not a list', async () => {
    const { url, a } = await setup()
    expect(await rpcError(url, METHOD, [{ [a]: ZERO }])).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type []common.Hash' })
  })

  test('error: missing request', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
  })
})
