import { createLegacyTx } from '@ethereumjs/tx'
import { bytesToHex, generateAddress, hexToBytes } from '@ethereumjs/util'
import { AbiCoder, id } from 'ethers'
import { expect, test } from 'vitest'
import { createRingchain, type ConsoleLog } from '../../src/simulator.js'
import { initcode } from '../helpers/chain.js'

// Runtime code: STATICCALL the console address with this call's calldata, then stop; with a
// value, revert with Panic(0x11) afterwards. A contract that forwards what the test encodes.
const CONSOLE = '000000000000000000636f6e736f6c652e6c6f67'
const FORWARDER = `3660006000376000600036600073${CONSOLE}5afa503415603f57634e487b7160e01b600052601160045260246000fd5b00`
const encode = (signature: string, types: string[], values: unknown[]) =>
  hexToBytes(`0x${id(signature).slice(2, 10)}${AbiCoder.defaultAbiCoder().encode(types, values).slice(2)}`)

async function setup() {
  const logs: ConsoleLog[] = []
  const info: string[] = []
  const rc = await createRingchain({ deterministic: true, onConsole: (log) => logs.push(log), logger: { error: () => {}, info: (m) => info.push(m) } })
  const key = hexToBytes(rc.accounts[0]!.privateKey)
  const from = hexToBytes(rc.accounts[0]!.address)
  let nonce = 0n
  const send = (data: Uint8Array | `0x${string}`, to?: Uint8Array, value = 0n) =>
    rc.chain.sendRawTransaction(createLegacyTx({ nonce: nonce++, gasLimit: 300_000n, gasPrice: 10n ** 10n, data, value, ...(to === undefined ? {} : { to }) }, { common: rc.chain.common }).sign(key).serialize())
  await send(initcode(FORWARDER))
  const contract = generateAddress(from, new Uint8Array())
  return { rc, logs, info, send, contract, from }
}

test('default: a mined transaction’s console.log reaches onConsole and the info log, with its hash', async () => {
  const { rc, logs, info, send, contract } = await setup()
  const hash = await send(encode('log(string,uint256)', ['string', 'uint256'], ['balance %d', 42n]), contract)
  expect(logs).toEqual([{ transaction: bytesToHex(hash), address: bytesToHex(contract), message: 'balance 42' }])
  expect(info).toEqual([`transaction ${bytesToHex(hash)} in block 2\n  console.log: balance 42`])
  await rc.close()
})

test('behavior: eth_call and eth_estimateGas report theirs once, as "call" and "estimateGas"', async () => {
  const { rc, logs, info, contract } = await setup()
  const data = bytesToHex(encode('log(string)', ['string'], ['from a call']))
  await rc.request({ method: 'eth_call', params: [{ to: bytesToHex(contract), data }, 'latest'] })
  await rc.request({ method: 'eth_estimateGas', params: [{ to: bytesToHex(contract), data }] })
  expect(logs.map((l) => [l.transaction, l.message])).toEqual([
    ['call', 'from a call'],
    ['estimateGas', 'from a call'],
  ])
  expect(info).toEqual(['eth_call\n  console.log: from a call', 'eth_estimateGas\n  console.log: from a call'])
  await rc.close()
})

test('behavior: a mined transaction that reverts is logged with its reason, after what it printed', async () => {
  const { rc, logs, info, send, contract } = await setup()
  const hash = await send(encode('log(bool)', ['bool'], [true]), contract, 1n)
  expect(logs.map((l) => l.message)).toEqual(['true'])
  expect(info).toEqual([`transaction ${bytesToHex(hash)} in block 2 reverted: arithmetic underflow or overflow (0x11)\n  console.log: true`])
  await rc.close()
})

test('behavior: calls to other accounts print nothing', async () => {
  const { rc, logs, info, send } = await setup()
  await send('0x', hexToBytes('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'))
  expect(logs).toEqual([])
  expect(info).toEqual([])
  await rc.close()
})
