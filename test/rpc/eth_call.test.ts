// eth_call's fees and balance, as geth's: a call naming no fee pays nothing; one naming a fee, or
// carrying value, must be able to pay for all its gas at the fee cap plus the value, or it gets
// geth's `insufficient funds for gas * price + value` (-32000). Checked through viem as well.
import { toChecksumAddress } from '@ethereumjs/util'
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

/** A chain and an account holding exactly `balance` wei. */
async function setup(balance: bigint) {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const poor = '0x00000000000000000000000000000000000000aa' as const
  await rc.request({ method: 'anvil_setBalance', params: [poor, `0x${balance.toString(16)}`] })
  const to = rc.accounts[1]!.address
  const error = async (call: Record<string, string>) => {
    try {
      await rc.request({ method: 'eth_call', params: [{ from: poor, to, ...call }, 'latest'] })
    } catch (e) {
      return e as { code: number; message: string }
    }
    throw new Error('the call succeeded')
  }
  return { rc, poor, to, error }
}

const hex = (n: bigint) => `0x${n.toString(16)}`

test('default: no fee fields, no gas charge: an empty account can call', async () => {
  const { rc, to } = await setup(0n)
  expect(await rc.request({ method: 'eth_call', params: [{ from: '0x00000000000000000000000000000000000000aa', to, gas: '0x5208' }, 'latest'] })).toBe('0x')
})

test('error: value beyond the balance gets geth\'s insufficient funds, with have and want', async () => {
  const { poor, error } = await setup(5n)
  const e = await error({ value: '0x6' })
  expect(e).toMatchObject({ code: -32000, message: `insufficient funds for gas * price + value: address ${toChecksumAddress(poor)} have 5 want 6` })
})

test('args: maxFeePerGas: the balance must cover gas at the fee cap, plus the value', async () => {
  const gas = 30_000n
  const fee = 2_000_000_000n
  const { rc, poor, to, error } = await setup(gas * fee + 1n)
  // Exactly enough: gas * maxFeePerGas + value.
  expect(await rc.request({ method: 'eth_call', params: [{ from: poor, to, gas: hex(gas), maxFeePerGas: hex(fee), value: '0x1' }, 'latest'] })).toBe('0x')
  const e = await error({ gas: hex(gas), maxFeePerGas: hex(fee), value: '0x2' })
  expect(e.message).toBe(`insufficient funds for gas * price + value: address ${toChecksumAddress(poor)} have ${gas * fee + 1n} want ${gas * fee + 2n}`)
})

test('args: gasPrice without gas: the gas is the call cap, all of it paid for', async () => {
  const { rc, error } = await setup(10n ** 15n)
  const e = await error({ gasPrice: hex(10n ** 9n) })
  expect(e.message).toMatch(new RegExp(`want ${rc.chain.callGasCap * 10n ** 9n}$`))
})

test('error: a fee cap below the base fee, or a tip above the fee cap, are refused as geth refuses them', async () => {
  const { rc, poor, error } = await setup(10n ** 18n)
  const baseFee = rc.chain.head.block.header.baseFeePerGas!
  expect((await error({ maxFeePerGas: '0x1' })).message).toBe(`max fee per gas less than block base fee: address ${toChecksumAddress(poor)}, maxFeePerGas: 1, baseFee: ${baseFee}`)
  expect((await error({ maxFeePerGas: hex(baseFee), maxPriorityFeePerGas: hex(baseFee + 1n) })).message).toMatch(/^max priority fee per gas higher than max fee per gas: /)
  expect((await error({ gasPrice: '0x1', maxFeePerGas: '0x1' })).message).toBe('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
})

test('behavior: GASPRICE in a call is the effective price (base fee plus tip, at most the cap)', async () => {
  const { rc } = await setup(0n)
  const rich = rc.accounts[0]!.address
  // Runtime: GASPRICE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN, run as init code of a creation call.
  const data = '0x3a60005260206000f3'
  const baseFee = rc.chain.head.block.header.baseFeePerGas!
  const price = async (fees: Record<string, string>) => BigInt((await rc.request({ method: 'eth_call', params: [{ from: rich, data, ...fees }, 'latest'] })) as string)
  expect(await price({})).toBe(0n)
  expect(await price({ maxFeePerGas: hex(baseFee * 3n), maxPriorityFeePerGas: '0x7' })).toBe(baseFee + 7n)
  expect(await price({ maxFeePerGas: hex(baseFee + 3n), maxPriorityFeePerGas: '0x7' })).toBe(baseFee + 3n)
})

test('behavior: viem: a call with value from an account that cannot pay fails with geth\'s message', async () => {
  const { rc, poor, to } = await setup(1n)
  const client = createPublicClient({ transport: custom(rc) })
  await expect(client.call({ account: poor, to, value: 2n })).rejects.toThrow(/insufficient funds for gas \* price \+ value: address 0x[0-9a-fA-F]{40} have 1 want 2/)
})

test('behavior: the block a call runs in is the one asked for, its base fee 0 when the call pays nothing (geth)', async () => {
  const { rc } = await setup(0n)
  const rich = rc.accounts[0]!.address
  await rc.request({ method: 'evm_mine', params: [] })
  await rc.request({ method: 'evm_mine', params: [] })
  // Init code returning NUMBER, TIMESTAMP, COINBASE, GASLIMIT, BASEFEE, PREVRANDAO, BLOBBASEFEE as seven words.
  const data = '0x' + ['43', '42', '41', '45', '48', '44', '4a'].map((op, i) => `${op}60${(i * 32).toString(16).padStart(2, '0')}52`).join('') + '60e06000f3'
  const env = async (block: string, fees: Record<string, string>) => {
    const out = (await rc.request({ method: 'eth_call', params: [{ from: rich, data, ...fees }, block] })) as string
    return Array.from({ length: 7 }, (_, i) => BigInt(`0x${out.slice(2 + i * 64, 2 + (i + 1) * 64)}`))
  }
  for (const number of [1n, 2n]) {
    const header = rc.chain.blockByNumber(number)!.block.header
    const expected = [header.number, header.timestamp, BigInt(header.coinbase.toString()), header.gasLimit, header.baseFeePerGas!, BigInt(`0x${Buffer.from(header.mixHash).toString('hex')}`), header.getBlobGasPrice()!]
    const paying = { maxFeePerGas: hex(header.baseFeePerGas! * 2n), maxPriorityFeePerGas: '0x1' }
    expect(await env(hex(number), paying)).toEqual(expected)
    expect(await env(hex(number), {})).toEqual(expected.map((v, i) => (i === 4 ? 0n : v)))
  }
})
