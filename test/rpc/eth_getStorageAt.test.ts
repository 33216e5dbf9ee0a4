// eth_getStorageAt end to end: raw JSON-RPC over HTTP (and once over WebSocket) to a real ringchain
// on port 0. Storage is written by a tiny contract (SSTORE(slot, value) from calldata), so every
// value read here was put there by a mined transaction. Wording of errors: geth's, as the
// execution-apis fixtures show it; window and block errors: decisions.md.

import { describe, expect, test } from 'vitest'
import type { StartOptions } from '../../src/index.js'
import { fixtureExchange } from '../conformance/corpus.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import {
  type Hex,
  mappingSlot,
  post,
  result,
  rpcError,
  send,
  sendRaw,
  signedTx,
  start,
  toHex,
  word,
  wsRoundTrip,
} from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_getStorageAt'
const ZERO = word(0n)

/** A ringchain with the storage contract deployed by dev account 0 (block 1, auto-mining). */
async function setup(options: Omit<StartOptions, 'port'> = {}) {
  const rc = await start(options)
  let nonce = 0n
  const deploy = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, data: STORE_INITCODE, gasLimit: 200_000n }))
  const receipt = await result<{ contractAddress: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [deploy])
  const contract = receipt.contractAddress
  /** Sends a transaction that stores `value` at `slot` (mined at once unless mining is manual). */
  const write = (slot: bigint | Hex, value: bigint) =>
    sendRaw(
      rc,
      signedTx(rc.chain, 'eip1559', 0, {
        nonce: nonce++,
        to: contract,
        data: `0x${Buffer.from(storeCalldata(typeof slot === 'bigint' ? slot : BigInt(slot), value)).toString('hex')}`,
      }),
    )
  const read = (...params: unknown[]) => result<Hex>(rc.httpUrl, METHOD, [contract, ...params])
  const blockHash = async (number: bigint | 'latest') =>
    (await result<{ hash: Hex }>(rc.httpUrl, 'eth_getBlockByNumber', [typeof number === 'bigint' ? toHex(number) : number, false])).hash
  return { rc, url: rc.httpUrl, contract, write, read, blockHash }
}

/** The request/response pairs of an execution-apis fixture file. */
const fixture = (name: string) => fixtureExchange(METHOD, name)

test('default', async () => {
  const { url, contract, write } = await setup()
  await write(0n, 0x38n)
  const answer = await post(url, { jsonrpc: '2.0', id: 1, method: METHOD, params: [contract, '0x0', 'latest'] })
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toBe('application/json')
  expect(answer.text).toMatchInlineSnapshot(`"{"jsonrpc":"2.0","id":1,"result":"0x0000000000000000000000000000000000000000000000000000000000000038"}"`)
  expectSchemaValid(METHOD, JSON.parse(answer.text).result)
})

describe('args', () => {
  test('args: slot 0x0', async () => {
    const { read, write } = await setup()
    await write(0n, 7n)
    expect(await read('0x0', 'latest')).toBe(word(7n))
  })

  test('args: short slot (odd number of digits, no padding)', async () => {
    const { read, write } = await setup()
    await write(0xabcn, 5n)
    expect(await read('0xabc', 'latest')).toBe(word(5n))
    expect(await read('0x0abc', 'latest')).toBe(word(5n))
  })

  test('args: 64-digit slot with leading zeros', async () => {
    const { read, write } = await setup()
    await write(3n, 9n)
    expect(await read(word(3n), 'latest')).toBe(word(9n))
  })

  test('args: slot of a mapping element (keccak of key and slot, service.md §4.2)', async () => {
    const { read, write } = await setup()
    const slot = mappingSlot(0x1234n, 1n)
    await write(slot, 42n)
    expect(await read(slot, 'latest')).toBe(word(42n))
    expect(await read('0x1', 'latest')).toBe(ZERO)
  })

  test('args: block as a quantity', async () => {
    const { read, write } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await read('0x0', '0x2')).toBe(word(1n))
    expect(await read('0x0', '0x3')).toBe(word(2n))
    expect(await read('0x0', '0x1')).toBe(ZERO)
  })

  test('args: blockTag latest', async () => {
    const { read, write } = await setup()
    await write(0n, 1n)
    await write(0n, 2n)
    expect(await read('0x0', 'latest')).toBe(word(2n))
  })

  test('args: blockTag earliest (the oldest block still in the window)', async () => {
    const { rc, read, write } = await setup({ window: 4 })
    for (let value = 1n; value <= 5n; value++) await write(0n, value) // blocks 2..6: window is 3..6
    expect(await read('0x0', 'earliest')).toBe(word(2n))
    expect(await read('0x0', 'earliest')).toBe(await read('0x0', '0x3'))
    expect(rc.chain.oldest.number).toBe(3n)
  })

  test('args: blockTag earliest is genesis while the window holds it', async () => {
    const { read, write } = await setup()
    await write(0n, 1n)
    expect(await read('0x0', 'earliest')).toBe(ZERO) // the contract does not exist at genesis
  })

  test('args: blockTag safe and finalized lag the head by 32 and 64 blocks', async () => {
    const { rc, read, write } = await setup()
    await write(0n, 0xan) // block 2
    await rc.chain.mine(40n) // head 42
    await write(0n, 0xbn) // block 43
    await rc.chain.mine(40n) // head 83
    await write(0n, 0xcn) // block 84: safe = 52, finalized = 20
    expect(await read('0x0', 'latest')).toBe(word(0xcn))
    expect(await read('0x0', 'safe')).toBe(word(0xbn))
    expect(await read('0x0', 'finalized')).toBe(word(0xan))
    expect(await read('0x0', 'safe')).toBe(await read('0x0', toHex(84 - 32)))
    expect(await read('0x0', 'finalized')).toBe(await read('0x0', toHex(84 - 64)))
  })

  test('args: blockTag safe and finalized never go below the oldest block of the window', async () => {
    const { read, write } = await setup({ window: 8 })
    for (let value = 1n; value <= 10n; value++) await write(0n, value) // blocks 2..11: window 4..11
    expect(await read('0x0', 'safe')).toBe(word(3n))
    expect(await read('0x0', 'finalized')).toBe(word(3n))
    expect(await read('0x0', 'earliest')).toBe(word(3n))
  })

  test('args: blockTag pending sees a pending write in manual mode', async () => {
    const { url, read, write } = await setup()
    await write(0n, 1n)
    expect(await result(url, 'evm_setAutomine', [false])).toBe(null)
    const hash = await write(0n, 2n)
    expect(await result(url, 'eth_getTransactionReceipt', [hash])).toBe(null) // still pending
    expect(await read('0x0', 'pending')).toBe(word(2n))
    expect(await read('0x0', 'latest')).toBe(word(1n))
    expect(await read('0x0', { blockNumber: 'pending' })).toBe(word(2n))
  })

  test('args: blockTag pending is latest when the pool is empty', async () => {
    const { read, write } = await setup()
    await write(0n, 1n)
    expect(await read('0x0', 'pending')).toBe(word(1n))
  })

  test('args: 32-byte block hash', async () => {
    const { read, write, blockHash } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await read('0x0', await blockHash(2n))).toBe(word(1n))
    expect(await read('0x0', await blockHash(3n))).toBe(word(2n))
  })

  test('args: EIP-1898 {blockNumber}', async () => {
    const { read, write } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await read('0x0', { blockNumber: '0x2' })).toBe(word(1n))
    expect(await read('0x0', { blockNumber: 'latest' })).toBe(word(2n))
  })

  test('args: EIP-1898 {blockHash}', async () => {
    const { read, write, blockHash } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await read('0x0', { blockHash: await blockHash(2n) })).toBe(word(1n))
  })

  test('args: EIP-1898 {blockHash, requireCanonical: true}', async () => {
    const { read, write, blockHash } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await read('0x0', { blockHash: await blockHash(2n), requireCanonical: true })).toBe(word(1n))
    expect(await read('0x0', { blockHash: await blockHash(3n), requireCanonical: false })).toBe(word(2n))
  })

  test('args: absent block param is latest', async () => {
    const { read, write } = await setup()
    await write(0n, 0x38n)
    expect(await read('0x0')).toBe(word(0x38n))
    expect(await read('0x0', null)).toBe(word(0x38n))
  })
})

describe('behavior', () => {
  test('behavior: older blocks keep their values after later writes', async () => {
    const { read, write } = await setup()
    await write(0n, 1n) // block 2
    await write(1n, 0xffn) // block 3
    await write(0n, 2n) // block 4
    await write(0n, 0n) // block 5: cleared
    expect([await read('0x0', '0x1'), await read('0x0', '0x2'), await read('0x0', '0x3'), await read('0x0', '0x4'), await read('0x0', '0x5')]).toEqual([
      ZERO,
      word(1n),
      word(1n),
      word(2n),
      ZERO,
    ])
    expect(await read('0x1', '0x2')).toBe(ZERO)
    expect(await read('0x1', '0x5')).toBe(word(0xffn))
  })

  test('behavior: values written before the window are still read inside it', async () => {
    const { rc, read, write } = await setup({ window: 4 })
    await write(0n, 5n) // block 2
    await write(1n, 6n) // block 3
    await write(1n, 0n) // block 4: cleared again
    await rc.chain.mine(10n) // head 14, window 11..14
    for (const block of ['earliest', '0xb', '0xc', 'finalized', 'safe', 'latest']) {
      expect(await read('0x0', block), block).toBe(word(5n))
      expect(await read('0x1', block), block).toBe(ZERO)
    }
  })

  test('behavior: two writes to a slot in one block: the block holds the last', async () => {
    const { rc, url, read, write } = await setup()
    await write(0n, 1n) // block 2
    await result(url, 'evm_setAutomine', [false])
    await write(0n, 8n)
    await write(0n, 9n)
    expect(await read('0x0', 'pending')).toBe(word(9n))
    await rc.chain.mine(1n) // block 3
    expect(await read('0x0', '0x3')).toBe(word(9n))
    expect(await read('0x0', '0x2')).toBe(word(1n))
  })

  test('behavior: storage of an account delegated with EIP-7702 is its own', async () => {
    const { rc, url, contract, read } = await setup()
    const authority = rc.accounts[5]!.address
    const calldata = `0x${Buffer.from(storeCalldata(3n, 0x77n)).toString('hex')}` as Hex
    await sendRaw(rc, signedTx(rc.chain, 'eip7702', 1, { nonce: 0n, to: authority, authority: 5, delegate: contract, data: calldata }))
    expect(await result(url, METHOD, [authority, '0x3', 'latest'])).toBe(word(0x77n))
    expect(await read('0x3', 'latest')).toBe(ZERO)
  })

  test('behavior: anvil_setStorageAt changes the head in place; older blocks keep their values', async () => {
    const { url, contract, read, write } = await setup()
    await write(0n, 1n) // block 2
    await write(0n, 2n) // block 3
    expect(await result(url, 'anvil_setStorageAt', [contract, '0x0', word(0x42n)])).toBe(true)
    expect(await read('0x0', 'latest')).toBe(word(0x42n))
    expect(await read('0x0', '0x3')).toBe(word(0x42n)) // the head, changed in place
    expect(await read('0x0', '0x2')).toBe(word(1n))
    expect(await read('0x0', 'pending')).toBe(word(0x42n))
  })

  test('behavior: the value is always 32 bytes, left-padded', async () => {
    const { read, write } = await setup()
    const big = (1n << 255n) + 1n
    await write(0n, 1n)
    await write(1n, big)
    expect(await read('0x0')).toMatch(/^0x0{63}1$/)
    expect(await read('0x1')).toBe(`0x8${'0'.repeat(62)}1`)
    expect(await read('0x2')).toBe(ZERO)
  })

  test('behavior: an account without code or storage reads zero (execution-apis fixture)', async () => {
    const { url } = await setup()
    const { request, response } = fixture('get-storage-unknown-account')
    expect(JSON.parse((await post(url, request)).text)).toEqual(response)
  })

  test('behavior: a system contract reads as written by the chain (EIP-2935 keeps parent hashes)', async () => {
    const { rc, url, blockHash } = await setup()
    await rc.chain.mine(3n)
    const history = '0x0000f90827f1c53a10cb7a02335b175320002935'
    for (const n of [0n, 1n, 2n, 3n]) {
      expect(await result(url, METHOD, [history, toHex(n), toHex(n + 1n)])).toBe(await blockHash(n))
    }
  })

  test('behavior: the same request over WebSocket gets the same answer', async () => {
    const { rc, url, contract, write } = await setup()
    await write(0n, 0x38n)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: METHOD, params: [contract, '0x0', 'latest'] })
    const overHttp = (await post(url, body)).text
    expect(await wsRoundTrip(rc.wsUrl, body)).toBe(overHttp)
    expect(JSON.parse(overHttp)).toEqual({ jsonrpc: '2.0', id: 7, result: word(0x38n) })
  })

  test('behavior: every result validates against the OpenRPC schema', async () => {
    const { read, write } = await setup()
    await write(0n, (1n << 256n) - 1n)
    for (const value of [await read('0x0'), await read('0x5'), await read('0x0', '0x1')]) expectSchemaValid(METHOD, value)
  })
})

describe('errors', () => {
  test('error: bad address', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, ['0x1234', '0x0', 'latest'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 4, want 40 for common.Address',
    })
    expect(await rpcError(url, METHOD, [`0x${'zz'.repeat(20)}`, '0x0', 'latest'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address',
    })
  })

  test('error: slot longer than 32 bytes (execution-apis fixture, exact)', async () => {
    const { url } = await setup()
    const { request, response } = fixture('get-storage-invalid-key-too-large')
    expect(JSON.parse((await post(url, request)).text)).toEqual(response)
    expect(response).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^storage key too long \(want at most 32 bytes\): "0x0{65}"$/) } })
  })

  test('error: invalid hex in slot (execution-apis fixture, exact)', async () => {
    const { url } = await setup()
    const { request, response } = fixture('get-storage-invalid-key')
    expect(JSON.parse((await post(url, request)).text)).toEqual(response)
    expect(response).toMatchObject({ error: { code: -32602, message: 'invalid hex in storage key: "0xasdf"' } })
  })

  test('error: slot that is not a string', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, 1, 'latest'])).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal number into Go value of type string',
    })
  })

  test('error: block before the window', async () => {
    const { rc, url, contract, write } = await setup({ window: 4 })
    for (let value = 1n; value <= 5n; value++) await write(0n, value) // head 6, window 3..6
    const pruned = {
      code: 4444,
      message: 'pruned history unavailable: block 1 is outside the served window 3..6',
      data: { requested: '0x1', oldest: '0x3', head: '0x6' },
    }
    expect(await rpcError(url, METHOD, [contract, '0x0', '0x1'])).toEqual(pruned)
    expect(await rpcError(url, METHOD, [contract, '0x0', { blockNumber: '0x1' }])).toEqual(pruned)
    expect(await rpcError(url, METHOD, [contract, '0x0', '0x0'])).toMatchObject({ code: 4444, data: { requested: '0x0' } })
    expect(rc.chain.head.number).toBe(6n)
  })

  test('error: block hash of a block that has left the window is unknown', async () => {
    const { url, contract, write, blockHash } = await setup({ window: 4 })
    const hashOfBlock1 = await blockHash(1n)
    for (let value = 1n; value <= 5n; value++) await write(0n, value)
    expect(await rpcError(url, METHOD, [contract, '0x0', hashOfBlock1])).toEqual({ code: -32001, message: 'block not found' })
  })

  test('error: block after the head', async () => {
    const { url, contract } = await setup() // head 1
    expect(await rpcError(url, METHOD, [contract, '0x0', '0x2'])).toEqual({ code: -32000, message: 'header not found' })
    expect(await rpcError(url, METHOD, [contract, '0x0', { blockNumber: '0x64' }])).toEqual({ code: -32000, message: 'header not found' })
  })

  test('error: unknown block hash', async () => {
    const { url, contract } = await setup()
    const unknown = `0x${'ab'.repeat(32)}`
    expect(await rpcError(url, METHOD, [contract, '0x0', unknown])).toEqual({ code: -32001, message: 'block not found' })
    expect(await rpcError(url, METHOD, [contract, '0x0', { blockHash: unknown }])).toEqual({ code: -32001, message: 'block not found' })
    expect(await rpcError(url, METHOD, [contract, '0x0', { blockHash: unknown, requireCanonical: true }])).toEqual({
      code: -32001,
      message: 'block not found',
    })
  })

  test('error: bad block param', async () => {
    const { url, contract } = await setup()
    const cases: [unknown, string][] = [
      ['lates', 'invalid argument 2: hex string without 0x prefix'],
      ['0xzz', 'invalid argument 2: invalid hex string'],
      ['0x07', 'invalid argument 2: hex number with leading zero digits'],
      [7, 'invalid argument 2: json: cannot unmarshal number into Go value of type string'],
      [{ blockHash: `0x${'00'.repeat(32)}`, blockNumber: '0x1' }, 'invalid argument 2: cannot specify both BlockHash and BlockNumber, choose one or the other'],
      [
        { blockHash: `0x${'00'.repeat(32)}`, requireCanonical: 'yes' },
        'invalid argument 2: json: cannot unmarshal string into Go struct field BlockNumberOrHash.requireCanonical of type bool',
      ],
    ]
    for (const [block, message] of cases) {
      expect(await rpcError(url, METHOD, [contract, '0x0', block]), JSON.stringify(block)).toEqual({ code: -32602, message })
    }
  })

  // Known departure, src/rpc/params/block.ts (decodeEip1898): `{}` gets -32602 with geth's bare text
  // `invalid arguments; neither block nor hash specified`, which does not name the argument as
  // decisions.md asks for bad params. Flip to `test` once the message carries `invalid argument 2: `.
  test('error: EIP-1898 object with neither blockNumber nor blockHash names the argument', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, '0x0', {}])).toEqual({ code: -32602, message: expect.stringMatching(/^invalid argument 2: /) })
  })

  test('error: too many args', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, '0x0', 'latest', 'latest'])).toEqual({ code: -32602, message: 'too many arguments, want at most 3' })
  })

  test('error: missing args', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
    expect(await rpcError(url, METHOD, [contract])).toEqual({ code: -32602, message: 'missing value for required argument 1' })
    expect(await rpcError(url, METHOD, [contract, null])).toEqual({ code: -32602, message: 'missing value for required argument 1' })
    // params absent altogether reads as []
    const answer = await post(url, { jsonrpc: '2.0', id: 1, method: METHOD })
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'missing value for required argument 0' } })
  })

  test('error: errors travel with HTTP 200 and the request id', async () => {
    const { url, contract } = await setup()
    const answer = await send(url, METHOD, [contract, '0x0', '0x99'], 'abc')
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32000, message: 'header not found' } })
  })
})
