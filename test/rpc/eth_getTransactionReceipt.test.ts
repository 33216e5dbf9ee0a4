// eth_getTransactionReceipt end to end: receipts of every transaction type the default fork takes,
// of failures and creations, and of a pre-Byzantium chain, read as raw JSON-RPC over HTTP from a
// real ringchain on port 0. Presence rules: decisions.md ("Wire format"); every receipt is checked
// against the execution-apis OpenRPC schema, whose receipt object forbids extra keys.

import { generateAddress, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, test } from 'vitest'
import type { RunningRingchain, StartOptions } from '../../src/index.js'
import { fixtureExchange } from '../conformance/corpus.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import {
  FEE_CAP,
  type Hex,
  TIP,
  post,
  result,
  rpcError,
  start,
  toHex,
  txSender,
  word,
  wsRoundTrip,
} from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_getTransactionReceipt'
const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111'
/** Code that always reverts: PUSH1 0 PUSH1 0 REVERT. */
const REVERT_CODE: Hex = '0x60006000fd'
const EMPTY_BLOOM = `0x${'00'.repeat(256)}`

type Receipt = Record<string, unknown> & { logs: Record<string, unknown>[] }

interface Block {
  readonly hash: Hex
  readonly number: Hex
  readonly timestamp: Hex
  readonly baseFeePerGas: Hex
  readonly gasUsed: Hex
}

async function setup(options: Omit<StartOptions, 'port'> = {}) {
  const rc = await start(options)
  const sendTx = txSender(rc, { to: RECIPIENT })
  const get = (hash: string) => result<Receipt | null>(rc.httpUrl, METHOD, [hash])
  const block = (number: Hex | 'latest') => result<Block>(rc.httpUrl, 'eth_getBlockByNumber', [number, false])
  /** Deploys the storage contract (SSTORE + LOG1 from calldata) from account 9; gives its address. */
  const deployStore = async () => {
    const { hash } = await sendTx('eip1559', 9, { to: null, data: STORE_INITCODE, gasLimit: 200_000n })
    return (await get(hash))!.contractAddress as Hex
  }
  return { rc, url: rc.httpUrl, sendTx, get, block, deployStore }
}

function address(rc: RunningRingchain, index: number): Hex {
  return rc.accounts[index]!.address.toLowerCase() as Hex
}

function storeCall(slot: bigint, value: bigint): Hex {
  return `0x${Buffer.from(storeCalldata(slot, value)).toString('hex')}`
}

/** The 2048-bit bloom of some byte strings, computed here from keccak (yellow paper §4.3.1). */
function bloomOf(...items: Hex[]): Hex {
  const bloom = new Uint8Array(256)
  for (const item of items) {
    const h = keccak_256(hexToBytes(item))
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
    }
  }
  return `0x${Buffer.from(bloom).toString('hex')}`
}

/** The request and response of an execution-apis fixture file. */
const fixture = (name: string) => fixtureExchange<{ result: Record<string, unknown> | null }>(METHOD, name)

test('default', async () => {
  const { url, sendTx, deployStore } = await setup()
  const store = await deployStore()
  const { hash } = await sendTx('eip1559', 0, { to: store, data: storeCall(1n, 0x38n) })
  const answer = await post(url, { jsonrpc: '2.0', id: 1, method: METHOD, params: [hash] })
  expect(answer.status).toBe(200)
  const body = JSON.parse(answer.text)
  // The bytes sent are what JSON.stringify writes (the receipt's text is written out by hand).
  expect(answer.text).toBe(JSON.stringify(body))
  // Pretty-printed in wire order (geth's: receipt keys alphabetical, log keys in geth's struct order).
  expect(JSON.stringify(body, null, 2)).toMatchInlineSnapshot(`
    "{
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "blockHash": "0xa35842b3e453ab1735b399e0ca46cdb380aa7113e97921a7ed1907029c2fbce1",
        "blockNumber": "0x2",
        "contractAddress": null,
        "cumulativeGasUsed": "0xad89",
        "effectiveGasPrice": "0x6943bd7c",
        "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "gasUsed": "0xad89",
        "logs": [
          {
            "address": "0x700b6a60ce7eaaea56f065753d8dcb9653dbad35",
            "topics": [
              "0x0000000000000000000000000000000000000000000000000000000000000001"
            ],
            "data": "0x0000000000000000000000000000000000000000000000000000000000000038",
            "blockNumber": "0x2",
            "transactionHash": "0x4c718d72a202758b576cbcf27c6ade1bff42acd341593de55b947adb893de3df",
            "transactionIndex": "0x0",
            "blockHash": "0xa35842b3e453ab1735b399e0ca46cdb380aa7113e97921a7ed1907029c2fbce1",
            "blockTimestamp": "0x67748598",
            "logIndex": "0x0",
            "removed": false
          }
        ],
        "logsBloom": "0x00000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000040000001000000000000000000000000000000000000000000000000000000000000",
        "status": "0x1",
        "to": "0x700b6a60ce7eaaea56f065753d8dcb9653dbad35",
        "transactionHash": "0x4c718d72a202758b576cbcf27c6ade1bff42acd341593de55b947adb893de3df",
        "transactionIndex": "0x0",
        "type": "0x2"
      }
    }"
  `)
  expectSchemaValid(METHOD, body.result)
})

describe('args: every transaction type', () => {
  test('args: legacy transaction without EIP-155', async () => {
    const { rc, sendTx, get, block } = await setup()
    const { hash } = await sendTx('legacy', 0, { gasPrice: 7_000_000_000n })
    const mined = await block('0x1')
    const receipt = await get(hash)
    expect(receipt).toStrictEqual({
      blockHash: mined.hash,
      blockNumber: '0x1',
      contractAddress: null,
      cumulativeGasUsed: '0x5208',
      effectiveGasPrice: '0x1a13b8600', // the gas price
      from: address(rc, 0),
      gasUsed: '0x5208',
      logs: [],
      logsBloom: EMPTY_BLOOM,
      status: '0x1',
      to: RECIPIENT,
      transactionHash: hash,
      transactionIndex: '0x0',
      type: '0x0',
    })
    expectSchemaValid(METHOD, receipt)
  })

  test('args: legacy transaction with EIP-155', async () => {
    const { sendTx, get } = await setup()
    const { hash } = await sendTx('legacy-eip155', 0)
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ type: '0x0', status: '0x1', effectiveGasPrice: toHex(FEE_CAP), gasUsed: '0x5208' })
    expectSchemaValid(METHOD, receipt)
  })

  test('args: EIP-2930 access-list transaction', async () => {
    const { sendTx, get } = await setup()
    const accessList = [{ address: RECIPIENT, storageKeys: [word(1n)] }]
    const { hash } = await sendTx('eip2930', 0, { accessList })
    const receipt = await get(hash)
    // 21000 + 2400 per address + 1900 per storage key
    expect(receipt).toMatchObject({ type: '0x1', status: '0x1', effectiveGasPrice: toHex(FEE_CAP), gasUsed: toHex(21_000 + 2_400 + 1_900) })
    expectSchemaValid(METHOD, receipt)
  })

  test('args: EIP-1559 transaction (effectiveGasPrice = base fee + tip)', async () => {
    const { sendTx, get, block } = await setup()
    const { hash } = await sendTx('eip1559', 0)
    const mined = await block('0x1')
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ type: '0x2', status: '0x1', effectiveGasPrice: toHex(BigInt(mined.baseFeePerGas) + TIP) })
    expectSchemaValid(METHOD, receipt)
  })

  test('args: EIP-1559 transaction whose fee cap bounds the tip (effectiveGasPrice = maxFeePerGas)', async () => {
    const { rc, sendTx, get, block } = await setup()
    const cap = rc.chain.nextBaseFee()! + 5n
    // A tip of the whole cap: only 5 wei of it fit above the base fee.
    const { hash } = await sendTx('eip1559', 0, { maxFeePerGas: cap, maxPriorityFeePerGas: cap })
    const mined = await block('0x1')
    expect(BigInt(mined.baseFeePerGas) + 5n).toBe(cap)
    expect(await get(hash)).toMatchObject({ effectiveGasPrice: toHex(cap) })
  })

  test('args: EIP-7702 set-code transaction', async () => {
    const { rc, sendTx, get } = await setup()
    const authority = address(rc, 5)
    const { hash } = await sendTx('eip7702', 0, { to: authority, authority: 5, delegate: RECIPIENT })
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ type: '0x4', status: '0x1', to: authority, contractAddress: null, logs: [] })
    expectSchemaValid(METHOD, receipt)
  })

  test('args: EIP-4844 blob transaction (blobGasUsed and blobGasPrice; on a Prague chain: cell proofs make the default fork slow)', async () => {
    const { sendTx, get, block } = await setup({ hardfork: 'prague' })
    const { hash } = await sendTx('eip4844', 0)
    const transfer = await sendTx('eip1559', 1)
    const receipt = await get(hash)
    expect(receipt).toMatchObject({
      type: '0x3',
      status: '0x1',
      blobGasUsed: toHex(131_072), // one blob
      blobGasPrice: '0x1', // the minimum: no excess blob gas yet
      effectiveGasPrice: toHex(BigInt((await block('0x1')).baseFeePerGas) + TIP),
    })
    expect(Object.keys(receipt!)).toEqual(Object.keys(fixture('get-blob-tx').response.result!))
    // Only blob transactions carry the blob fields.
    expect(await get(transfer.hash)).not.toHaveProperty('blobGasUsed')
    expect(await get(transfer.hash)).not.toHaveProperty('blobGasPrice')
    expectSchemaValid(METHOD, receipt)
  })

  test('behavior: keys come in geth order (as the execution-apis fixtures show them)', async () => {
    const { sendTx, get, deployStore } = await setup()
    const store = await deployStore()
    const { hash } = await sendTx('eip1559', 0, { to: store, data: storeCall(1n, 2n) })
    const ours = (await get(hash))!
    const geths = fixture('get-dynamic-fee').response.result!
    expect(Object.keys(ours)).toEqual(Object.keys(geths))
    expect(Object.keys(ours.logs[0]!)).toEqual(Object.keys((geths.logs as object[])[0]!))
  })
})

describe('behavior', () => {
  test('behavior: status 0x0 when execution fails; the receipt is still there', async () => {
    const { url, sendTx, get } = await setup()
    const reverter: Hex = '0x000000000000000000000000000000000000dead'
    expect(await result(url, 'anvil_setCode', [reverter, REVERT_CODE])).toBe(true)
    const { hash } = await sendTx('eip1559', 0, { to: reverter })
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ status: '0x0', to: reverter, contractAddress: null, logs: [], logsBloom: EMPTY_BLOOM })
    expect(receipt).not.toHaveProperty('root')
    expectSchemaValid(METHOD, receipt)
  })

  test('behavior: contractAddress is set on creation (from sender and nonce) and null otherwise', async () => {
    const { rc, url, sendTx, get } = await setup()
    await sendTx('eip1559', 0) // nonce 0: a transfer
    const { hash, nonce } = await sendTx('legacy-eip155', 0, { to: null, data: STORE_INITCODE, gasLimit: 200_000n })
    const expected = `0x${Buffer.from(generateAddress(hexToBytes(address(rc, 0)), hexToBytes(toHex(nonce)))).toString('hex')}`
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ status: '0x1', to: null, contractAddress: expected })
    expect(expected).toBe('0xe7f1725e7734ce288f8367e1bb143e90bb3f0512') // account 0, nonce 1
    expect(await result(url, 'eth_getCode', [expected, 'latest'])).not.toBe('0x')
    expectSchemaValid(METHOD, receipt)
  })

  test('behavior: a failed creation still has its contractAddress (geth)', async () => {
    const { url, sendTx, get } = await setup()
    const { hash } = await sendTx('eip1559', 0, { to: null, data: REVERT_CODE })
    const receipt = await get(hash)
    expect(receipt).toMatchObject({ status: '0x0', to: null, contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3' })
    expect(await result(url, 'eth_getCode', [receipt!.contractAddress, 'latest'])).toBe('0x')
    expectSchemaValid(METHOD, receipt)
  })

  test('behavior: logs carry their place in the block; logIndex counts across the whole block', async () => {
    const { rc, url, sendTx, get, block, deployStore } = await setup()
    const store = await deployStore() // block 1
    expect(await result(url, 'evm_setAutomine', [false])).toBe(null)
    const first = await sendTx('eip1559', 0, { to: store, data: storeCall(7n, 0x70n) })
    const transfer = await sendTx('eip1559', 1)
    const third = await sendTx('eip1559', 2, { to: store, data: storeCall(8n, 0x80n) })
    await rc.chain.mine(1n)
    const mined = await block('0x2')
    const [a, b, c] = [(await get(first.hash))!, (await get(transfer.hash))!, (await get(third.hash))!]
    expect(c.logs).toStrictEqual([
      {
        address: store,
        topics: [word(8n)],
        data: word(0x80n),
        blockNumber: '0x2',
        transactionHash: third.hash,
        transactionIndex: '0x2',
        blockHash: mined.hash,
        blockTimestamp: mined.timestamp,
        logIndex: '0x1',
        removed: false,
      },
    ])
    expect(a.logs.map((log) => [log.logIndex, log.transactionIndex])).toEqual([['0x0', '0x0']])
    expect(b.logs).toEqual([])
    // Blooms: the address and the topic of each log; all zero without logs.
    expect(a.logsBloom).toBe(bloomOf(store, word(7n)))
    expect(c.logsBloom).toBe(bloomOf(store, word(8n)))
    expect(b.logsBloom).toBe(EMPTY_BLOOM)
    // Gas: each its own, cumulative through the block.
    const gas = (r: Receipt, key: string) => BigInt(r[key] as Hex)
    expect(gas(a, 'cumulativeGasUsed')).toBe(gas(a, 'gasUsed'))
    expect(gas(b, 'cumulativeGasUsed')).toBe(gas(a, 'cumulativeGasUsed') + gas(b, 'gasUsed'))
    expect(gas(c, 'cumulativeGasUsed')).toBe(gas(b, 'cumulativeGasUsed') + gas(c, 'gasUsed'))
    expect(toHex(gas(c, 'cumulativeGasUsed'))).toBe(mined.gasUsed)
    for (const r of [a, b, c]) expectSchemaValid(METHOD, r)
  })

  test('behavior: receipt is null while the transaction is pending, and set once it is mined', async () => {
    const { rc, sendTx, get } = await setup({ mining: { mode: 'manual' } })
    const { hash } = await sendTx('eip1559', 0)
    expect(await get(hash)).toBe(null)
    await rc.chain.mine(1n)
    expect(await get(hash)).toMatchObject({ transactionHash: hash, blockNumber: '0x1', status: '0x1' })
  })

  test('behavior: receipt is null once its block leaves the window', async () => {
    const { rc, sendTx, get } = await setup({ window: 4 })
    const { hash } = await sendTx('eip1559', 0) // block 1
    await rc.chain.mine(3n) // window 1..4
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

  test('behavior: receipts before Byzantium carry root instead of status', async () => {
    const { rc, sendTx, get, block } = await setup({ hardfork: 'spuriousDragon' })
    const { hash } = await sendTx('legacy-eip155', 0)
    const creation = await sendTx('legacy', 1, { to: null, data: STORE_INITCODE, gasLimit: 200_000n })
    const mined = await block('0x1')
    const receipt = await get(hash)
    expect(receipt).toStrictEqual({
      blockHash: mined.hash,
      blockNumber: '0x1',
      contractAddress: null,
      cumulativeGasUsed: '0x5208',
      effectiveGasPrice: toHex(FEE_CAP),
      from: address(rc, 0),
      gasUsed: '0x5208',
      logs: [],
      logsBloom: EMPTY_BLOOM,
      root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      to: RECIPIENT,
      transactionHash: hash,
      transactionIndex: '0x0',
      type: '0x0',
    })
    const second = await get(creation.hash)
    expect(second).toHaveProperty('root')
    expect(second).not.toHaveProperty('status')
    expect(second!.root).not.toBe(receipt!.root)
    expect(second!.contractAddress).toMatch(/^0x[0-9a-f]{40}$/)
    expect(Object.keys(fixture('get-legacy-receipt').response.result!)).toEqual(Object.keys(receipt!))
    expectSchemaValid(METHOD, receipt)
    expectSchemaValid(METHOD, second)
    expect(rc.chain.common.hardfork()).toBe('spuriousDragon')
  })

  test('behavior: from Byzantium on, status and never root', async () => {
    const { sendTx, get } = await setup({ hardfork: 'byzantium' })
    const { hash } = await sendTx('legacy-eip155', 0)
    const receipt = await get(hash)
    expect(receipt).toHaveProperty('status', '0x1')
    expect(receipt).not.toHaveProperty('root')
    expectSchemaValid(METHOD, receipt)
  })

  test('behavior: the same request over WebSocket gets the same answer', async () => {
    const { rc, url, sendTx, deployStore } = await setup()
    const store = await deployStore()
    const { hash } = await sendTx('eip1559', 0, { to: store, data: storeCall(1n, 1n) })
    const body = JSON.stringify({ jsonrpc: '2.0', id: 99, method: METHOD, params: [hash] })
    expect(await wsRoundTrip(rc.wsUrl, body)).toBe((await post(url, body)).text)
  })
})

describe('errors', () => {
  test('error: hash of the wrong length', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, ['0x12'])).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 2, want 64 for common.Hash' })
  })

  test('error: hash that is not hex', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [`0x${'zz'.repeat(32)}`])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Hash',
    })
    expect(await rpcError(url, METHOD, [{ hash: `0x${'00'.repeat(32)}` }])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash',
    })
  })

  test('error: missing args', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
    expect(await rpcError(url, METHOD, [null])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
  })

  test('error: too many args', async () => {
    const { url } = await setup()
    expect(await rpcError(url, METHOD, [`0x${'00'.repeat(32)}`, 'latest'])).toEqual({ code: -32602, message: 'too many arguments, want at most 1' })
  })
})
