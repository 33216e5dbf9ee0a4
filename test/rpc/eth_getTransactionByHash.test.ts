// eth_getTransactionByHash end to end: transactions of every type the default fork takes, signed with
// dev keys and sent with eth_sendRawTransaction, then read back as raw JSON-RPC over HTTP from a real
// ringchain on port 0. Field presence follows decisions.md ("Wire format"); every result is checked
// against the execution-apis OpenRPC schema.

import type { Blob4844Tx, TypedTransaction } from '@ethereumjs/tx'
import { describe, expect, test } from 'vitest'
import type { RunningRingchain, StartOptions } from '../../src/index.js'
import { fixtureExchange } from '../conformance/corpus.js'
import { STORE_INITCODE } from '../helpers/chain.js'
import {
  FEE_CAP,
  type Hex,
  TIP,
  type TxKind,
  post,
  result,
  rpcError,
  start,
  toHex,
  txSender,
  wsRoundTrip,
} from '../helpers/rpc.js'
import { expectSchemaValid, schemaErrors } from '../helpers/schema.js'

const METHOD = 'eth_getTransactionByHash'
const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111'
const ACCESS_LIST = [{ address: '0x2222222222222222222222222222222222222222' as Hex, storageKeys: [`0x${'00'.repeat(31)}01` as Hex] }]

interface Block {
  readonly hash: Hex
  readonly number: Hex
  readonly timestamp: Hex
  readonly baseFeePerGas: Hex
}

async function setup(options: Omit<StartOptions, 'port'> = {}) {
  const rc = await start(options)
  /** Signs a transaction of `kind` from dev account `from` (next nonce) and sends it; gives the hash and the signed tx. */
  const sendTx = txSender(rc, { to: RECIPIENT })
  const get = (hash: string) => result<Record<string, unknown> | null>(rc.httpUrl, METHOD, [hash])
  const block = (number: Hex | 'latest') => result<Block>(rc.httpUrl, 'eth_getBlockByNumber', [number, false])
  return { rc, url: rc.httpUrl, sendTx, get, block }
}

function address(rc: RunningRingchain, index: number): Hex {
  return rc.accounts[index]!.address.toLowerCase() as Hex
}

/** The signature fields every transaction object carries. */
function signature(tx: TypedTransaction) {
  return { v: toHex(tx.v!), r: toHex(tx.r!), s: toHex(tx.s!) }
}

/** The block fields of an included transaction. */
function inBlock(block: Block, index: number) {
  return { blockHash: block.hash, blockNumber: block.number, blockTimestamp: block.timestamp, transactionIndex: toHex(index) }
}

/** The request and response of an execution-apis fixture file. */
const fixture = (name: string) => fixtureExchange(METHOD, name)

test('default', async () => {
  const { url, sendTx } = await setup()
  const { hash } = await sendTx('eip1559', 0, { value: 1n, data: '0xc0ffee' })
  const answer = await post(url, { jsonrpc: '2.0', id: 1, method: METHOD, params: [hash] })
  expect(answer.status).toBe(200)
  const body = JSON.parse(answer.text)
  // Pretty-printed in wire order (geth's field order).
  expect(JSON.stringify(body, null, 2)).toMatchInlineSnapshot(`
    "{
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "blockHash": "0x32c9474f86968f5b6bd30d6a3170e753349e8900301d419b9e775e2494a8758d",
        "blockNumber": "0x1",
        "blockTimestamp": "0x6774858c",
        "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "gas": "0x186a0",
        "gasPrice": "0x6fc23ac0",
        "maxFeePerGas": "0x2540be400",
        "maxPriorityFeePerGas": "0x3b9aca00",
        "hash": "0xcc0c530ae39ccbd094045d237a08cfe195b4200c7d2e6bc5be600e3bbd7a954e",
        "input": "0xc0ffee",
        "nonce": "0x0",
        "to": "0x1111111111111111111111111111111111111111",
        "transactionIndex": "0x0",
        "value": "0x1",
        "type": "0x2",
        "accessList": [],
        "chainId": "0x7a69",
        "v": "0x1",
        "r": "0xe98029a68fb1e50662bd6e9fd1bedb6203be442f6c2f622d5356de1aff391fcc",
        "s": "0x138c9e394c6a202eab478a352b204150c9a01fd6880b8905cd3055937c8a864",
        "yParity": "0x1"
      }
    }"
  `)
  expectSchemaValid(METHOD, body.result)
})

describe('args: every transaction type', () => {
  test('args: legacy transaction without EIP-155 (no chainId, v 27/28, no yParity)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const { hash, tx } = await sendTx('legacy', 0, { value: 5n, data: '0x01', gasPrice: 7_000_000_000n })
    const got = await get(hash)
    expect(got).toStrictEqual({
      ...inBlock(await block('0x1'), 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: '0x1a13b8600',
      hash,
      input: '0x01',
      nonce: '0x0',
      to: RECIPIENT,
      value: '0x5',
      type: '0x0',
      ...signature(tx),
    })
    expect(['0x1b', '0x1c']).toContain(got!.v)
    expectSchemaValid(METHOD, got)
  })

  test('args: legacy transaction with EIP-155 (chainId, v = 2·chainId + 35/36)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const { hash, tx } = await sendTx('legacy-eip155', 0)
    const got = await get(hash)
    expect(got).toStrictEqual({
      ...inBlock(await block('0x1'), 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: toHex(FEE_CAP),
      hash,
      input: '0x',
      nonce: '0x0',
      to: RECIPIENT,
      value: '0x0',
      type: '0x0',
      chainId: '0x7a69',
      ...signature(tx),
    })
    expect([toHex(31337 * 2 + 35), toHex(31337 * 2 + 36)]).toContain(got!.v)
    expectSchemaValid(METHOD, got)
  })

  test('args: EIP-2930 access-list transaction (accessList, chainId, yParity and v)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const { hash, tx } = await sendTx('eip2930', 0, { accessList: ACCESS_LIST })
    const got = await get(hash)
    expect(got).toStrictEqual({
      ...inBlock(await block('0x1'), 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: toHex(FEE_CAP),
      hash,
      input: '0x',
      nonce: '0x0',
      to: RECIPIENT,
      value: '0x0',
      type: '0x1',
      accessList: ACCESS_LIST,
      chainId: '0x7a69',
      ...signature(tx),
      yParity: toHex(tx.v!),
    })
    expect(['0x0', '0x1']).toContain(got!.yParity)
    expectSchemaValid(METHOD, got)
  })

  test('args: EIP-1559 transaction (fee caps; gasPrice is what it paid)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const { hash, tx } = await sendTx('eip1559', 0, { accessList: ACCESS_LIST })
    const mined = await block('0x1')
    const got = await get(hash)
    expect(got).toStrictEqual({
      ...inBlock(mined, 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: toHex(BigInt(mined.baseFeePerGas) + TIP),
      maxFeePerGas: toHex(FEE_CAP),
      maxPriorityFeePerGas: toHex(TIP),
      hash,
      input: '0x',
      nonce: '0x0',
      to: RECIPIENT,
      value: '0x0',
      type: '0x2',
      accessList: ACCESS_LIST,
      chainId: '0x7a69',
      ...signature(tx),
      yParity: toHex(tx.v!),
    })
    const receipt = await result<{ effectiveGasPrice: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])
    expect(got!.gasPrice).toBe(receipt.effectiveGasPrice)
    expectSchemaValid(METHOD, got)
  })

  test('args: EIP-7702 set-code transaction (authorizationList)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const authority = address(rc, 5)
    const { hash, tx } = await sendTx('eip7702', 0, { to: authority, authority: 5, delegate: RECIPIENT })
    const mined = await block('0x1')
    const got = await get(hash)
    const [auth] = (tx as TypedTransaction & { authorizationList: Uint8Array[][] }).authorizationList
    const quantity = (bytes: Uint8Array) => toHex(bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`))
    expect(got).toStrictEqual({
      ...inBlock(mined, 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: toHex(BigInt(mined.baseFeePerGas) + TIP),
      maxFeePerGas: toHex(FEE_CAP),
      maxPriorityFeePerGas: toHex(TIP),
      hash,
      input: '0x',
      nonce: '0x0',
      to: authority,
      value: '0x0',
      type: '0x4',
      accessList: [],
      chainId: '0x7a69',
      authorizationList: [
        { chainId: '0x7a69', address: RECIPIENT, nonce: '0x0', yParity: quantity(auth![3]!), r: quantity(auth![4]!), s: quantity(auth![5]!) },
      ],
      ...signature(tx),
      yParity: toHex(tx.v!),
    })
    // The delegation took: the authority's code is now 0xef0100 ++ delegate.
    expect(await result(rc.httpUrl, 'eth_getCode', [authority, 'latest'])).toBe(`0xef0100${RECIPIENT.slice(2)}`)
    expectSchemaValid(METHOD, got)
  })

  test('args: EIP-4844 blob transaction (on a Prague chain: cell proofs make the default fork slow)', async () => {
    const { rc, sendTx, get, block } = await setup({ hardfork: 'prague' })
    const { hash, tx } = await sendTx('eip4844', 0, { maxFeePerBlobGas: 3_000_000_000n, accessList: ACCESS_LIST })
    const mined = await block('0x1')
    const got = await get(hash)
    expect(got).toStrictEqual({
      ...inBlock(mined, 0),
      from: address(rc, 0),
      gas: '0x186a0',
      gasPrice: toHex(BigInt(mined.baseFeePerGas) + TIP),
      maxFeePerGas: toHex(FEE_CAP),
      maxPriorityFeePerGas: toHex(TIP),
      maxFeePerBlobGas: '0xb2d05e00',
      hash,
      input: '0x',
      nonce: '0x0',
      to: RECIPIENT,
      value: '0x0',
      type: '0x3',
      accessList: ACCESS_LIST,
      chainId: '0x7a69',
      blobVersionedHashes: (tx as Blob4844Tx).blobVersionedHashes,
      ...signature(tx),
      yParity: toHex(tx.v!),
    })
    expect(got!.blobVersionedHashes).toEqual([expect.stringMatching(/^0x01[0-9a-f]{62}$/)])
    expect(Object.keys(got!)).toEqual(Object.keys((fixture('get-blob-tx').response as { result: object }).result))
    expectSchemaValid(METHOD, got)
  })

  test('behavior: keys come in geth order for each type (as the execution-apis fixtures show them)', async () => {
    const { sendTx, get } = await setup()
    const kinds: [TxKind, string][] = [
      ['legacy', 'get-legacy-tx'],
      ['eip2930', 'get-access-list'],
      ['eip1559', 'get-dynamic-fee'],
      ['eip7702', 'get-setcode-tx'],
    ]
    for (const [kind, name] of kinds) {
      const { hash } = await sendTx(kind, 0, { accessList: ACCESS_LIST })
      const ours = Object.keys((await get(hash))!)
      const geths = Object.keys((fixture(name).response as { result: object }).result)
      expect(ours, kind).toEqual(geths)
    }
  })
})

describe('behavior', () => {
  test('behavior: pending transaction has its block fields present and null', async () => {
    const { url, sendTx, get } = await setup({ mining: { mode: 'manual' } })
    const { hash } = await sendTx('eip1559', 0)
    const got = await get(hash)
    expect(got).toMatchObject({ blockHash: null, blockNumber: null, blockTimestamp: null, transactionIndex: null, hash })
    for (const key of ['blockHash', 'blockNumber', 'blockTimestamp', 'transactionIndex']) expect(got).toHaveProperty(key, null)
    expect(await result(url, 'eth_getTransactionReceipt', [hash])).toBe(null)
    // The execution-apis schema has no pending form: exactly these four nulls are what it refuses.
    expect(schemaErrors(METHOD, got).filter((line) => !line.includes('matches none of oneOf'))).toEqual([
      '$result.blockHash: expected type string (block hash), got null null',
      '$result.blockNumber: expected type string (block number), got null null',
      '$result.blockTimestamp: expected type string (block timestamp), got null null',
      '$result.transactionIndex: expected type string (transaction index), got null null',
    ])
  })

  test('behavior: pending fee-market transaction shows gasPrice = maxFeePerGas; a legacy one its gasPrice', async () => {
    const { sendTx, get } = await setup({ mining: { mode: 'manual' } })
    const dynamic = await sendTx('eip1559', 0, { maxFeePerGas: 12_345_678_901n })
    expect(await get(dynamic.hash)).toMatchObject({ gasPrice: '0x2dfdc1c35', maxFeePerGas: '0x2dfdc1c35', maxPriorityFeePerGas: toHex(TIP) })
    const setCode = await sendTx('eip7702', 1, { maxFeePerGas: 12_345_678_901n, authority: 6 })
    expect(await get(setCode.hash)).toMatchObject({ gasPrice: '0x2dfdc1c35', maxFeePerGas: '0x2dfdc1c35' })
    const legacy = await sendTx('legacy-eip155', 2, { gasPrice: 3_000_000_000n })
    expect(await get(legacy.hash)).toMatchObject({ gasPrice: '0xb2d05e00' })
    expect(await get(legacy.hash)).not.toHaveProperty('maxFeePerGas')
  })

  test('behavior: a pending transaction gets its block fields once mined', async () => {
    const { rc, sendTx, get, block } = await setup({ mining: { mode: 'manual' } })
    const { hash } = await sendTx('eip1559', 0)
    expect(await get(hash)).toMatchObject({ blockHash: null })
    await rc.chain.mine(1n)
    const mined = await block('latest')
    const got = await get(hash)
    expect(got).toMatchObject(inBlock(mined, 0))
    expect(got!.gasPrice).toBe(toHex(BigInt(mined.baseFeePerGas) + TIP))
    expectSchemaValid(METHOD, got)
  })

  test('behavior: transactionIndex is the position in the block', async () => {
    const { rc, sendTx, get, block } = await setup({ mining: { mode: 'manual' } })
    const first = await sendTx('eip1559', 0, { maxPriorityFeePerGas: 3n * TIP })
    const second = await sendTx('legacy-eip155', 1, { gasPrice: 2n * TIP })
    const third = await sendTx('eip2930', 2, { gasPrice: 1n * FEE_CAP })
    await rc.chain.mine(1n)
    const mined = await block('0x1')
    // Ordered by tip: the 2930 tx pays the most above the base fee.
    expect(await get(third.hash)).toMatchObject(inBlock(mined, 0))
    expect(await get(first.hash)).toMatchObject(inBlock(mined, 1))
    expect(await get(second.hash)).toMatchObject(inBlock(mined, 2))
  })

  test('behavior: contract creation has to null', async () => {
    const { sendTx, get } = await setup()
    const { hash } = await sendTx('legacy-eip155', 0, { to: null, data: STORE_INITCODE, gasLimit: 200_000n })
    const got = await get(hash)
    expect(got).toMatchObject({ to: null, input: STORE_INITCODE })
    expectSchemaValid(METHOD, got)
  })

  test('behavior: transaction is null once its block leaves the window', async () => {
    const { rc, sendTx, get } = await setup({ window: 4 })
    const { hash } = await sendTx('eip1559', 0) // block 1
    await rc.chain.mine(3n) // blocks 1..4: still in
    expect(await get(hash)).toMatchObject({ blockNumber: '0x1' })
    await rc.chain.mine(1n) // window 2..5
    expect(await get(hash)).toBe(null)
  })

  test('behavior: unknown hash is null (execution-apis fixtures, exact)', async () => {
    const { url } = await setup()
    for (const name of ['get-notfound-tx', 'get-empty-tx']) {
      const { request, response } = fixture(name)
      expect(JSON.parse((await post(url, request)).text), name).toEqual(response)
    }
    expectSchemaValid(METHOD, null)
  })

  test('behavior: a dropped pending transaction is null', async () => {
    const { url, sendTx, get } = await setup({ mining: { mode: 'manual' } })
    const { hash } = await sendTx('eip1559', 0)
    expect(await result(url, 'anvil_dropTransaction', [hash])).toBe(true)
    expect(await get(hash)).toBe(null)
  })

  test('behavior: the same request over WebSocket gets the same answer', async () => {
    const { rc, url, sendTx } = await setup()
    const { hash } = await sendTx('eip2930', 0, { accessList: ACCESS_LIST })
    for (const id of [1, 'x']) {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: METHOD, params: [hash] })
      expect(await wsRoundTrip(rc.wsUrl, body)).toBe((await post(url, body)).text)
    }
  })
})

describe('errors', () => {
  test('error: hash of the wrong length', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, ['0x1234'])).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 4, want 64 for common.Hash' })
    expect(await rpcError(url, METHOD, [`0x${'00'.repeat(33)}`])).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 66, want 64 for common.Hash',
    })
  })

  test('error: hash that is not hex', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [`0x${'zz'.repeat(32)}`])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Hash',
    })
    expect(await rpcError(url, METHOD, ['00'.repeat(32)])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash',
    })
    expect(await rpcError(url, METHOD, [1])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash',
    })
  })

  test('error: missing args', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
  })

  test('error: too many args', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [`0x${'00'.repeat(32)}`, true])).toEqual({ code: -32602, message: 'too many arguments, want at most 1' })
  })
})
