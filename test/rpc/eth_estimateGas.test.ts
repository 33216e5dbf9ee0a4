import { createAccessList2930Tx, createEOACode7702Tx } from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util'
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

async function setup() {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const [a, b] = rc.accounts
  const deploy = (await rc.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, data: STORE_INITCODE }] })) as string
  const receipt = (await rc.request({ method: 'eth_getTransactionReceipt', params: [deploy] })) as { contractAddress: `0x${string}` }
  return { rc, a: a!, b: b!, store: receipt.contractAddress }
}

test('default: a plain transfer estimates exactly 21000', async () => {
  const { rc, a, b } = await setup()
  expect(await rc.request({ method: 'eth_estimateGas', params: [{ from: a.address, to: b.address, value: '0x1' }] })).toBe('0x5208')
})

test('args: an access list counts in the estimate, and the estimate is enough to send with', async () => {
  const { rc, a, store } = await setup()
  const accessList = [{ address: store, storageKeys: [bytesToHex(new Uint8Array(32))] }]
  const data = bytesToHex(storeCalldata(0n, 7n))
  const plain = BigInt((await rc.request({ method: 'eth_estimateGas', params: [{ from: a.address, to: store, data }] })) as string)
  const withList = BigInt((await rc.request({ method: 'eth_estimateGas', params: [{ from: a.address, to: store, data, accessList }] })) as string)
  // 2400 for the address and 1900 for the key, less the cold-access surcharges they save
  expect(withList).not.toBe(plain)
  const tx = createAccessList2930Tx({ chainId: rc.chain.common.chainId(), nonce: 1n, to: store, data, gasLimit: withList, gasPrice: 10n ** 10n, accessList }, { common: rc.chain.common }).sign(rc.chain.accounts[0]!.privateKey)
  const hash = (await rc.request({ method: 'eth_sendRawTransaction', params: [bytesToHex(tx.serialize())] })) as string
  const receipt = (await rc.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; gasUsed: string }
  expect(receipt.status).toBe('0x1')
  expect(BigInt(receipt.gasUsed) <= withList).toBe(true)
})

test('args: an authorization list counts in the estimate and delegates during it', async () => {
  const { rc, a, b, store } = await setup()
  const authority = rc.chain.accounts[1]!
  const auth = eoaCode7702SignAuthorization({ chainId: '0x0', address: store as `0x${string}`, nonce: '0x0' }, authority.privateKey)
  const quantity = (bytes: Uint8Array) => `0x${bytes.length === 0 ? '0' : BigInt(bytesToHex(bytes)).toString(16)}`
  const authorizationList = [{ chainId: '0x0', address: store, nonce: '0x0', yParity: quantity(auth[3]), r: quantity(auth[4]), s: quantity(auth[5]) }]
  const data = bytesToHex(storeCalldata(3n, 9n))
  // the call writes storage in the authority's account only if the delegation is applied first
  const estimate = BigInt((await rc.request({ method: 'eth_estimateGas', params: [{ from: a.address, to: b.address, data, authorizationList }] })) as string)
  const tx = createEOACode7702Tx(
    { chainId: rc.chain.common.chainId(), nonce: 1n, to: hexToBytes(b.address), data, gasLimit: estimate, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [auth] },
    { common: rc.chain.common },
  ).sign(rc.chain.accounts[0]!.privateKey)
  const hash = (await rc.request({ method: 'eth_sendRawTransaction', params: [bytesToHex(tx.serialize())] })) as string
  const receipt = (await rc.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string }
  expect(receipt.status).toBe('0x1')
  expect(await rc.request({ method: 'eth_getStorageAt', params: [b.address, '0x3', 'latest'] })).toBe(bytesToHex(storeCalldata(0n, 9n).subarray(32)))
})

/** Init code that loops until its gas runs out: JUMPDEST PUSH1 0 JUMP. */
const LOOP = '0x5b600056'

async function estimateError(rc: Ringchain, call: Record<string, string>): Promise<{ code: number; message: string }> {
  try {
    await rc.request({ method: 'eth_estimateGas', params: [call] })
  } catch (e) {
    return e as { code: number; message: string }
  }
  throw new Error('the estimate succeeded')
}

test('error: a call out of gas even at the cap: gas required exceeds allowance (cap), -32000', async () => {
  const { rc, a } = await setup()
  // The gas asked for is the cap (a smaller one than the chain's keeps the loop short).
  expect(await estimateError(rc, { from: a.address, data: LOOP, gas: '0x100000' })).toEqual(
    expect.objectContaining({ code: -32000, message: 'gas required exceeds allowance (1048576)' }),
  )
})

test('args: maxFeePerGas: the cap is what the balance pays for, as geth', async () => {
  const { rc } = await setup()
  const poor = '0x00000000000000000000000000000000000000bb'
  const fee = 10n ** 10n
  await rc.request({ method: 'anvil_setBalance', params: [poor, `0x${(100_000n * fee + 5n).toString(16)}`] })
  expect((await estimateError(rc, { from: poor, data: LOOP, maxFeePerGas: `0x${fee.toString(16)}` })).message).toBe('gas required exceeds allowance (100000)')
  // The value is set aside first.
  expect((await estimateError(rc, { from: poor, data: LOOP, maxFeePerGas: `0x${fee.toString(16)}`, value: `0x${(50_000n * fee).toString(16)}` })).message).toBe('gas required exceeds allowance (50000)')
  // Below a plain transfer's cost: nothing runs.
  expect((await estimateError(rc, { from: poor, to: poor, maxFeePerGas: `0x${(fee * 10n).toString(16)}` })).message).toBe('gas required exceeds allowance (10000)')
  // A value the balance does not exceed.
  expect((await estimateError(rc, { from: poor, to: poor, maxFeePerGas: '0x1', value: `0x${(100_000n * fee + 5n).toString(16)}` })).message).toBe('insufficient funds for transfer')
  // No fee: no cap from the balance, but the value must still be there.
  expect(await rc.request({ method: 'eth_estimateGas', params: [{ from: poor, to: poor, value: '0x1' }] })).toBe('0x5208')
  expect((await estimateError(rc, { from: poor, to: poor, value: `0x${(100_000n * fee + 6n).toString(16)}` })).message).toMatch(/^insufficient funds for gas \* price \+ value: /)
})

test('behavior: viem: estimateGas of a call that never ends reports geth\'s allowance error', async () => {
  // A small block gas limit keeps the loop short (viem sends no gas with an estimate).
  const rc = await createRingchain({ deterministic: true, blockGasLimit: 1_000_000n })
  open.push(rc)
  const client = createPublicClient({ transport: custom(rc) })
  await expect(client.estimateGas({ account: rc.accounts[0]!.address, data: LOOP })).rejects.toThrow(/gas required exceeds allowance \(1000000\)/)
})
