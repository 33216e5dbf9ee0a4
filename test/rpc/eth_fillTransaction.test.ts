import { createTx, createTxFromRLP, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createWalletClient, custom, type EIP1193Provider } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { prepareTransactionRequest, sendTransaction } from 'viem/actions'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import { post, start } from '../helpers/rpc.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

type Hex = `0x${string}`

async function setup() {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const [a, b] = rc.accounts as [{ address: Hex; privateKey: Hex }, { address: Hex; privateKey: Hex }]
  const request = (method: string, params: unknown[]) => rc.request({ method, params })
  const deploy = (await request('eth_sendTransaction', [{ from: a.address, data: STORE_INITCODE }])) as Hex
  const store = ((await request('eth_getTransactionReceipt', [deploy])) as { contractAddress: Hex }).contractAddress
  return { rc, a, b, request, store }
}

interface Filled {
  raw: Hex
  tx: Record<string, unknown>
}

test('default: nonce, gas and fees filled as eth_sendTransaction fills them, raw the unsigned EIP-1559 encoding', async () => {
  const { rc, a, request, store } = await setup()
  const data = bytesToHex(storeCalldata(1n, 2n))
  const { raw, tx } = (await request('eth_fillTransaction', [{ from: a.address, to: store, data }])) as Filled
  const base = rc.chain.nextBaseFee()!
  expect(tx).toMatchObject({
    type: '0x2',
    chainId: '0x7a69',
    nonce: await request('eth_getTransactionCount', [a.address, 'pending']),
    to: store,
    gas: await request('eth_estimateGas', [{ from: a.address, to: store, data }, 'pending']),
    maxPriorityFeePerGas: '0x3b9aca00',
    maxFeePerGas: `0x${(base * 2n + 1_000_000_000n).toString(16)}`,
    value: '0x0',
    input: data,
    accessList: [],
    v: '0x0',
    r: '0x0',
    s: '0x0',
    yParity: '0x0',
  })
  expect(tx.hash).toBe(bytesToHex(keccak_256(hexToBytes(raw))))
  const decoded = createTxFromRLP(hexToBytes(raw), { common: rc.chain.common })
  expect(decoded.isSigned()).toBe(false)
  expect(bytesToHex(decoded.data)).toBe(data)
  expect(`0x${decoded.gasLimit.toString(16)}`).toBe(tx.gas)
})

test('args: gasPrice gives a legacy transaction (geth), without chainId', async () => {
  const { a, b, request } = await setup()
  const { raw, tx } = (await request('eth_fillTransaction', [{ from: a.address, to: b.address, value: '0x1', gasPrice: '0x77359400' }])) as Filled
  expect(tx).toMatchObject({ type: '0x0', gas: '0x5208', gasPrice: '0x77359400' })
  expect(tx.chainId).toBeUndefined()
  expect(hexToBytes(raw)[0]! >= 0xc0).toBe(true)
})

test('args: accessList: carried into raw, and tx lists it as the decoded transaction does', async () => {
  const { rc, a, request, store } = await setup()
  const accessList = [{ address: store, storageKeys: [bytesToHex(storeCalldata(0n, 1n).subarray(32))] }]
  const { raw, tx } = (await request('eth_fillTransaction', [{ from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 2n)), accessList }])) as Filled
  const decoded = createTxFromRLP(hexToBytes(raw), { common: rc.chain.common })
  expect(tx.accessList).toEqual(accessList)
  expect(tx.accessList).toEqual((decoded.toJSON() as { accessList: unknown }).accessList)
})

test('error: a creation without data', async () => {
  const { a, request } = await setup()
  await expect(request('eth_fillTransaction', [{ from: a.address }])).rejects.toThrow('contract creation without any data provided')
})

test('behavior: viem prepares a transaction with eth_fillTransaction alone, and the signed result mines', async () => {
  const { rc, b, request, store } = await setup()
  const methods: string[] = []
  const provider = { request: (args: { method: string; params?: unknown }) => (methods.push(args.method), rc.request(args as never)) } as EIP1193Provider
  const account = privateKeyToAccount(b.privateKey)
  const client = createWalletClient({ account, transport: custom(provider) })
  const data = bytesToHex(storeCalldata(5n, 6n))
  await prepareTransactionRequest(client, { account, to: store, data, chain: null })
  expect(methods.filter((m) => m !== 'eth_chainId')).toEqual(['eth_fillTransaction'])
  const hash = await sendTransaction(client, { account, to: store, data, chain: null })
  expect(((await request('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1')
  expect(await request('eth_getStorageAt', [store, '0x5', 'latest'])).toBe(bytesToHex(storeCalldata(0n, 6n).subarray(32)))
})

test('behavior: raw is the unsigned encoding ethereumjs gives the same fields (legacy and EIP-1559, call and creation, access list)', async () => {
  const { rc, a, b, request, store } = await setup()
  const accessList = [{ address: store, storageKeys: [bytesToHex(storeCalldata(0n, 1n).subarray(32)), bytesToHex(new Uint8Array(32))] }]
  const requests = [
    { from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 2n)) },
    { from: a.address, to: b.address, value: '0xde0b6b3a7640000', nonce: '0x7f', gas: '0x5208' },
    { from: a.address, to: b.address, value: '0x1', gasPrice: '0x77359400' },
    { from: a.address, data: STORE_INITCODE, maxFeePerGas: '0x3b9aca01', maxPriorityFeePerGas: '0x3b9aca00' },
    { from: a.address, data: STORE_INITCODE, gasPrice: '0x1', gas: '0x30d40' },
    { from: a.address, to: store, data: bytesToHex(storeCalldata(1n, 2n)), accessList },
  ]
  for (const req of requests) {
    const { raw, tx } = (await request('eth_fillTransaction', [req])) as Filled
    const json = { ...tx, gasLimit: tx.gas, data: tx.input } as Record<string, unknown>
    for (const key of ['gas', 'input', 'v', 'r', 's', 'yParity', 'hash']) delete json[key]
    if (json.to === null) delete json.to
    expect(raw).toBe(bytesToHex(createTx(json as TypedTxData, { common: rc.chain.common }).serialize()))
  }
})

test('error: fields no transaction can carry keep ethereumjs\'s words (gas above the EIP-7825 cap, a nonce of 2^64-1)', async () => {
  const { a, b, request } = await setup()
  await expect(request('eth_fillTransaction', [{ from: a.address, to: b.address, gas: '0x1000001' }])).rejects.toThrow('Transaction gas limit 16777217 exceeds the maximum allowed by EIP-7825 (16777216)')
  await expect(request('eth_fillTransaction', [{ from: a.address, to: b.address, gas: '0x5208', nonce: '0xffffffffffffffff' }])).rejects.toThrow('nonce cannot equal or exceed MAX_UINT64')
})

test('behavior: the wire text is JSON.stringify\'s, raw first, a deployment\'s code in raw and input', async () => {
  const rc = await start()
  const a = rc.accounts[0]!
  const { text } = await post(rc.httpUrl, { jsonrpc: '2.0', id: 1, method: 'eth_fillTransaction', params: [{ from: a.address, data: STORE_INITCODE }] })
  const answer = JSON.parse(text) as { result: Filled }
  expect(text).toBe(JSON.stringify(answer))
  expect(Object.keys(answer.result)).toEqual(['raw', 'tx'])
  expect(answer.result.tx.input).toBe(STORE_INITCODE)
  expect(answer.result.raw).toContain(STORE_INITCODE.slice(2))
})
