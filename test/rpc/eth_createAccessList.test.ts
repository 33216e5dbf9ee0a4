// eth_createAccessList end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. Contracts
// are hand-assembled (no compiler): the store contract (SSTORE(slot, value) from calldata), a proxy
// that CALLs it with its own calldata, and one that reads slot 0 and reverts. The gas reported must
// be what a real transaction carrying the list uses: the tests send one and compare receipts.

import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createRingchain } from '../../src/index.js'
import { fixtureExchange, startImported } from '../conformance/corpus.js'
import { STORE_INITCODE, initcode, storeCalldata } from '../helpers/chain.js'
import { type Hex, result, rpcError, sendRaw, signedTx, start, word } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_createAccessList'

interface AccessListJson {
  accessList: { address: Hex; storageKeys: Hex[] }[]
  error?: string
  gasUsed: Hex
}

/** Runtime: CALL(gas, target, 0, calldata) with its own calldata, then STOP. */
function proxyRuntime(target: Hex): string {
  return `0x36600060003760006000366000600073${target.slice(2)}5af100`
}

/** Runtime: SLOAD(0x42ff), then REVERT with no data. */
const REVERTER_RUNTIME = '0x6142ff545060006000fd'

async function setup() {
  const rc = await start()
  let nonce = 0n
  const deploy = async (code: Hex) => {
    const hash = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, data: code, gasLimit: 300_000n }))
    return (await result<{ contractAddress: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).contractAddress
  }
  const store = await deploy(STORE_INITCODE)
  const proxy = await deploy(initcode(proxyRuntime(store)))
  const reverter = await deploy(initcode(REVERTER_RUNTIME))
  const from = bytesToHex(rc.chain.accounts[0]!.address) as Hex
  const create = (call: Record<string, unknown>, ...rest: unknown[]) => result<AccessListJson>(rc.httpUrl, METHOD, [call, ...rest])
  /** Sends `call` as a real EIP-1559 transaction carrying `accessList`; returns its receipt's gasUsed. */
  const gasOfTransaction = async (call: { to: Hex; data: Hex }, accessList: AccessListJson['accessList']) => {
    const hash = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, to: call.to, data: call.data, gasLimit: 200_000n, accessList }))
    return (await result<{ gasUsed: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).gasUsed
  }
  return { rc, url: rc.httpUrl, store, proxy, reverter, from, create, gasOfTransaction }
}

const calldata = (slot: bigint, value: bigint) => bytesToHex(storeCalldata(slot, value)) as Hex

test('default', async () => {
  const { store, from, create, gasOfTransaction } = await setup()
  const call = { from, to: store, data: calldata(5n, 1n) }
  const answer = await create(call)
  expect(answer).toEqual({ accessList: [{ address: store, storageKeys: [word(5n)] }], gasUsed: expect.stringMatching(/^0x/) })
  expect(answer.gasUsed).toBe(await gasOfTransaction(call, answer.accessList))
  expectSchemaValid(METHOD, answer)
})

test('default: the fixture chain, as geth answered it (speconly fixtures included)', async () => {
  const rc = await startImported()
  for (const name of ['create-al-value-transfer', 'create-al-contract', 'create-al-contract-eip1559', 'create-al-abi-revert']) {
    const { request, response: expected } = fixtureExchange<{ result: unknown }>(METHOD, name)
    expect(await result(rc.httpUrl, METHOD, request.params), name).toEqual(expected.result)
  }
})

describe('args', () => {
  test('args: a plain transfer needs no list', async () => {
    const { create, from, rc } = await setup()
    expect(await create({ from, to: bytesToHex(rc.chain.accounts[1]!.address), value: '0xa' })).toEqual({ accessList: [], gasUsed: '0x5208' })
  })

  test('args: the contract a call reaches through another is listed, the one called is not', async () => {
    const { store, proxy, from, create, gasOfTransaction } = await setup()
    const call = { from, to: proxy, input: calldata(7n, 1n) }
    const answer = await create(call)
    expect(answer.accessList).toEqual([{ address: store, storageKeys: [word(7n)] }])
    expect(answer.gasUsed).toBe(await gasOfTransaction({ to: proxy, data: call.input }, answer.accessList))
  })

  test('args: a list given is kept and extended; the sender is dropped from it unless it has slots', async () => {
    const { store, from, create } = await setup()
    const other = '0x00000000000000000000000000000000000000aa'
    const answer = await create({
      from,
      to: store,
      data: calldata(1n, 1n),
      accessList: [
        { address: other, storageKeys: [word(9n)] },
        { address: from, storageKeys: [] },
        { address: store, storageKeys: [word(3n)] },
      ],
    })
    // Sorted by address, keys sorted.
    expect(answer.accessList).toEqual([
      { address: other, storageKeys: [word(9n)] },
      { address: store, storageKeys: [word(1n), word(3n)] },
    ].sort((a, b) => (a.address < b.address ? -1 : 1)))
  })

  test('args: block as a number and pending', async () => {
    const { rc, store, from, create } = await setup() // head 3
    expect((await create({ from, to: store, data: calldata(1n, 1n) }, '0x0')).accessList).toEqual([]) // no code at genesis
    expect((await create({ from, to: store, data: calldata(1n, 1n) }, 'latest')).accessList).toEqual([{ address: store, storageKeys: [word(1n)] }])
    await rc.chain.setMiningMode({ mode: 'manual' })
    expect((await create({ from, to: store, data: calldata(1n, 1n) }, 'pending')).accessList).toEqual([{ address: store, storageKeys: [word(1n)] }])
  })

  test('args: fee fields (gas price, or fee cap and tip) do not change the list', async () => {
    const { store, from, create } = await setup()
    const call = { from, to: store, data: calldata(2n, 2n) }
    const plain = await create(call)
    expect(await create({ ...call, gasPrice: '0x3b9aca00' })).toEqual(plain)
    expect(await create({ ...call, maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' })).toEqual(plain)
  })

  test('args: a creation lists nothing for the address it creates', async () => {
    const { from, create } = await setup()
    const answer = await create({ from, data: STORE_INITCODE })
    expect(answer.accessList).toEqual([])
    expect(answer.error).toBeUndefined()
  })
})

describe('behavior', () => {
  test('behavior: a reverting call keeps the slots it touched and reports the failure', async () => {
    const { reverter, from, create } = await setup()
    const answer = await create({ from, to: reverter, gas: '0x186a0', input: '0x01' })
    expect(answer).toEqual({ accessList: [{ address: reverter, storageKeys: [word(0x42ffn)] }], error: 'execution reverted', gasUsed: expect.any(String) })
    expectSchemaValid(METHOD, answer)
  })

  test('behavior: a call out of gas reports it, with all its gas used', async () => {
    const { store, from, create } = await setup()
    const answer = await create({ from, to: store, data: calldata(1n, 1n), gas: '0x7530' })
    expect(answer).toEqual({ accessList: [{ address: store, storageKeys: [word(1n)] }], error: 'out of gas', gasUsed: '0x7530' })
  })

  test('behavior: nothing changes on the chain', async () => {
    const { rc, store, from, create, url } = await setup()
    const head = rc.chain.head.number
    await create({ from, to: store, data: calldata(1n, 5n) })
    expect(rc.chain.head.number).toBe(head)
    expect(await result(url, 'eth_getStorageAt', [store, '0x1'])).toBe(word(0n))
  })
})

describe('errors', () => {
  test('error: gas price and fee cap together', async () => {
    const { store, from, url } = await setup()
    const error = await rpcError(url, METHOD, [{ from, to: store, gasPrice: '0x1', maxFeePerGas: '0x1' }])
    expect(error).toEqual({ code: -32000, message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified' })
  })

  test('error: fee cap below the tip', async () => {
    const { store, from, url } = await setup()
    const error = await rpcError(url, METHOD, [{ from, to: store, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }])
    expect(error).toEqual({ code: -32000, message: 'maxFeePerGas (1) < maxPriorityFeePerGas (2)' })
  })

  test('error: gas below the intrinsic gas', async () => {
    const { store, from, url } = await setup()
    const error = await rpcError(url, METHOD, [{ from, to: store, gas: '0x5208', data: calldata(1n, 1n) }])
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^failed to apply transaction: 0x[0-9a-f]{64} err: intrinsic gas too low: have 21000, want \d+$/)
  })

  test('error: chain id of another chain', async () => {
    const { store, from, url } = await setup()
    expect(await rpcError(url, METHOD, [{ from, to: store, chainId: '0x1' }])).toEqual({ code: -32000, message: "chainId does not match node's (have=1, want=31337)" })
  })

  test('error: state overrides are not supported', async () => {
    const { store, from, url } = await setup()
    expect(await rpcError(url, METHOD, [{ from, to: store }, 'latest', { [store]: { balance: '0x1' } }])).toEqual({
      code: -32602,
      message: 'invalid argument 2: state overrides are not supported',
    })
  })

  test('error: unknown block hash', async () => {
    const { store, from, url } = await setup()
    expect(await rpcError(url, METHOD, [{ from, to: store }, word(1n)])).toMatchObject({ code: -32001 })
  })
})

test('error: a sender that cannot pay for the gas at the fee cap plus the value is refused, as geth\'s buyGas refuses it', async () => {
  const rc = await createRingchain({ deterministic: true })
  onTestFinished(() => rc.close())
  const poor = '0x00000000000000000000000000000000000000aa'
  await rc.request({ method: 'anvil_setBalance', params: [poor, '0x5'] })
  const attempt = rc.request({ method: 'eth_createAccessList', params: [{ from: poor, to: rc.accounts[1]!.address, gas: '0x5208', gasPrice: '0x1' }, 'latest'] })
  await expect(attempt).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^failed to apply transaction: 0x[0-9a-f]{64} err: insufficient funds for gas \* price \+ value: address 0x0{38}[aA]{2} have 5 want 21000$/) })
  // Enough for exactly that gas: answered.
  await rc.request({ method: 'anvil_setBalance', params: [poor, '0x5208'] })
  expect(await rc.request({ method: 'eth_createAccessList', params: [{ from: poor, to: rc.accounts[1]!.address, gas: '0x5208', gasPrice: '0x1' }, 'latest'] })).toMatchObject({ accessList: [], gasUsed: '0x5208' })
})
