// eth_call's and eth_estimateGas's third and fourth arguments, as geth takes them: state overrides
// (balance, nonce, code, storage replaced or patched) and block overrides, laid over the block's
// state for this call only. Through viem's `stateOverride` as well.
import { createPublicClient, custom, parseEther } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

const TARGET = '0x00000000000000000000000000000000000000c0' as const
const SLOT0 = `0x${'0'.repeat(64)}` as const
const SLOT1 = '0x' + '0'.repeat(63) + '1'
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}` as const
/** Returns storage slot 0 + slot 1: PUSH0 SLOAD PUSH1 1 SLOAD ADD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN. */
const SUM_SLOTS = '0x5f54600154015f5260205ff3'
/** Returns NUMBER, then TIMESTAMP, as two words. */
const NUMBER_AND_TIME = '0x435f52426020526040' + '5ff3'
/** Returns the caller's balance: CALLER BALANCE PUSH0 MSTORE PUSH1 32 PUSH0 RETURN. */
const CALLER_BALANCE = '0x33315f5260205ff3' as const

async function chain() {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  return rc
}

async function error(promise: Promise<unknown>) {
  try {
    await promise
  } catch (e) {
    return e as { code: number; message: string }
  }
  throw new Error('the request succeeded')
}

test('state: code and a patched slot (stateDiff) keep the other slots of the account', async () => {
  const rc = await chain()
  await rc.request({ method: 'anvil_setCode', params: [TARGET, SUM_SLOTS] })
  await rc.request({ method: 'anvil_setStorageAt', params: [TARGET, SLOT0, word(40n)] })
  await rc.request({ method: 'anvil_setStorageAt', params: [TARGET, SLOT1, word(2n)] })
  expect(await rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest'] })).toBe(word(42n))
  const patched = await rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', { [TARGET]: { stateDiff: { [SLOT1]: word(60n) } } }] })
  expect(patched).toBe(word(100n))
  // The override lasts for that call only.
  expect(await rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest'] })).toBe(word(42n))
})

test('state: `state` replaces the whole storage (unnamed slots read zero)', async () => {
  const rc = await chain()
  await rc.request({ method: 'anvil_setCode', params: [TARGET, SUM_SLOTS] })
  await rc.request({ method: 'anvil_setStorageAt', params: [TARGET, SLOT0, word(40n)] })
  const replaced = await rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', { [TARGET]: { state: { [SLOT1]: word(7n) } } }] })
  expect(replaced).toBe(word(7n))
})

test('state: code given to an empty account runs, at a past block too', async () => {
  const rc = await chain()
  await rc.request({ method: 'evm_mine', params: [] })
  const result = await rc.request({ method: 'eth_call', params: [{ to: TARGET }, '0x0', { [TARGET]: { code: SUM_SLOTS, state: { [SLOT0]: word(5n) } } }] })
  expect(result).toBe(word(5n))
})

test('state: a balance override is what BALANCE reads and what pays for value and gas', async () => {
  const rc = await chain()
  const poor = '0x00000000000000000000000000000000000000aa'
  await rc.request({ method: 'anvil_setCode', params: [TARGET, CALLER_BALANCE] })
  const overrides = { [poor]: { balance: '0x3e8' } }
  expect(await rc.request({ method: 'eth_call', params: [{ from: poor, to: TARGET }, 'latest', overrides] })).toBe(word(1000n))
  // Sending 1 ether from an empty account is estimable once it has the balance.
  const to = rc.accounts[1]!.address
  const e = await error(rc.request({ method: 'eth_estimateGas', params: [{ from: poor, to, value: '0xde0b6b3a7640000' }] }))
  expect(e.code).toBe(-32000)
  const gas = await rc.request({ method: 'eth_estimateGas', params: [{ from: poor, to, value: '0xde0b6b3a7640000' }, 'latest', { [poor]: { balance: '0x' + (2n * 10n ** 18n).toString(16) } }] })
  expect(gas).toBe('0x5208')
})

test('block: number and time overrides are what NUMBER and TIMESTAMP read', async () => {
  const rc = await chain()
  await rc.request({ method: 'anvil_setCode', params: [TARGET, NUMBER_AND_TIME] })
  const result = (await rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', null, { number: '0x1234', time: '0x5678' }] })) as string
  expect(result).toBe(word(0x1234n) + word(0x5678n).slice(2))
})

test('viem: readContract-style call with stateOverride', async () => {
  const rc = await chain()
  const client = createPublicClient({ transport: custom(rc) })
  const data = await client.call({ to: TARGET, stateOverride: [{ address: TARGET, code: SUM_SLOTS, stateDiff: [{ slot: SLOT0, value: word(9n) }] }] })
  expect(data.data).toBe(word(9n))
  const balance = await client.call({ account: '0x00000000000000000000000000000000000000aa', to: TARGET, stateOverride: [{ address: TARGET, code: CALLER_BALANCE }, { address: '0x00000000000000000000000000000000000000aa', balance: parseEther('3') }] })
  expect(BigInt(balance.data!)).toBe(parseEther('3'))
})

test('error: malformed overrides get -32602 naming the Go type and field', async () => {
  const rc = await chain()
  const notObject = await error(rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', 'nope'] }))
  expect(notObject).toMatchObject({ code: -32602, message: 'invalid argument 2: json: cannot unmarshal string into Go value of type override.StateOverride' })
  const both = await error(rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', { [TARGET]: { state: {}, stateDiff: {} } }] }))
  expect(both).toMatchObject({ code: -32602, message: `invalid argument 2: account ${TARGET} has both 'state' and 'stateDiff'` })
  const badBalance = await error(rc.request({ method: 'eth_estimateGas', params: [{ to: TARGET }, 'latest', { [TARGET]: { balance: 'x' } }] }))
  expect(badBalance.code).toBe(-32602)
  expect(badBalance.message).toMatch(/^invalid argument 2: .*OverrideAccount\.balance/)
  const badBlock = await error(rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', null, []] }))
  expect(badBlock).toMatchObject({ code: -32602, message: 'invalid argument 3: json: cannot unmarshal array into Go value of type override.BlockOverrides' })
})

test('error: movePrecompileToAddress is refused outside eth_simulateV1, naming the account', async () => {
  const rc = await chain()
  const e = await error(rc.request({ method: 'eth_call', params: [{ to: TARGET }, 'latest', { '0x0000000000000000000000000000000000000001': { movePrecompileToAddress: TARGET } }] }))
  expect(e).toMatchObject({ code: -32000, message: 'account 0x0000000000000000000000000000000000000001: movePrecompileToAddress is applied by eth_simulateV1 only' })
})
