import { createAccessList2930Tx, createEOACode7702Tx } from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util'
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
