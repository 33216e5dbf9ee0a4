/**
 * `eth_simulateV1` through viem's `simulateBlocks` and `simulateCalls`: several blocks with state
 * and block overrides, `traceTransfers` (ERC-7528 logs), `validation` and full transactions; and
 * nothing it does reaches the chain.
 */
import { createPublicClient, http, parseEther, type Hex } from 'viem'
import { expect, test } from 'vitest'
import { ringchainChain } from '../e2e/helpers.js'
import { result, rpcError, start } from '../helpers/rpc.js'

const A = '0xc000000000000000000000000000000000000000'
const B = '0xc100000000000000000000000000000000000000'
const C = '0xc200000000000000000000000000000000000000'
const ETHER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
/** Returns TIMESTAMP and NUMBER as two words: `TIMESTAMP 0 MSTORE NUMBER 32 MSTORE 64 0 RETURN`. */
const CLOCK: Hex = '0x42600052436020526040 6000f3'.replace(/ /g, '') as Hex

async function client() {
  const rc = await start()
  return { rc, viem: createPublicClient({ chain: ringchainChain, transport: http(rc.httpUrl) }) }
}

test('default: two blocks, ether moved across them, the chain untouched', async () => {
  const { rc, viem } = await client()
  const head = rc.chain.head.number
  const blocks = await viem.simulateBlocks({
    blocks: [
      { stateOverrides: [{ address: A, balance: parseEther('1') }], calls: [{ account: A, to: B, value: 1000n }] },
      { calls: [{ account: B, to: C, value: 600n }] },
    ],
  })
  expect(blocks.map((b) => b.number)).toEqual([head + 1n, head + 2n])
  expect(blocks[1]!.parentHash).toBe(blocks[0]!.hash)
  expect(blocks[1]!.timestamp - blocks[0]!.timestamp).toBe(12n)
  expect(blocks.map((b) => b.calls.map((c) => [c.status, c.gasUsed]))).toEqual([[['success', 21000n]], [['success', 21000n]]])
  expect(rc.chain.head.number).toBe(head)
  expect(await viem.getBalance({ address: A })).toBe(0n)
})

test('args: blockOverrides are what the block and its code see (a gap is filled with empty blocks)', async () => {
  const { rc } = await client()
  const number = rc.chain.head.number + 5n
  const blocks = await result<{ number: string; calls: { returnData: string }[] }[]>(rc.httpUrl, 'eth_simulateV1', [
    { blockStateCalls: [{ blockOverrides: { number: `0x${number.toString(16)}`, time: '0x77359400' }, stateOverrides: { [C]: { code: CLOCK } }, calls: [{ to: C }] }] },
    'latest',
  ])
  expect(blocks.map((b) => BigInt(b.number))).toEqual([number - 4n, number - 3n, number - 2n, number - 1n, number])
  expect(blocks[4]!.calls[0]!.returnData).toBe(`0x${(2_000_000_000).toString(16).padStart(64, '0')}${number.toString(16).padStart(64, '0')}`)
})

test('args: traceTransfers gives an ERC-7528 Transfer log per ether transfer', async () => {
  const { viem } = await client()
  const [block] = await viem.simulateBlocks({
    traceTransfers: true,
    blocks: [{ stateOverrides: [{ address: A, balance: 5000n }], calls: [{ account: A, to: B, value: 1000n }] }],
  })
  const [log] = block!.calls[0]!.logs!
  expect(log!.address).toBe(ETHER)
  expect(log!.topics).toEqual(['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `0x${A.slice(2).padStart(64, '0')}`, `0x${B.slice(2).padStart(64, '0')}`])
  expect(BigInt(log!.data)).toBe(1000n)
  expect(log!.blockHash).toBe(block!.hash)
})

test('args: validation checks the base fee; returnFullTransactions gives the transactions', async () => {
  const { rc } = await client()
  const call = { from: A, to: B, value: '0x1' }
  const refused = await rpcError(rc.httpUrl, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ stateOverrides: { [A]: { balance: '0xffffffffffffffff' } }, calls: [call] }] }, 'latest'])
  expect(refused.code).toBe(-38012)
  const [block] = await result<{ transactions: { from: string; hash: string }[]; baseFeePerGas: string }[]>(rc.httpUrl, 'eth_simulateV1', [
    { validation: true, returnFullTransactions: true, blockStateCalls: [{ stateOverrides: { [A]: { balance: '0xffffffffffffffff' } }, calls: [{ ...call, maxFeePerGas: '0x174876e800' }] }] },
    'latest',
  ])
  expect(BigInt(block!.baseFeePerGas)).toBeGreaterThan(0n)
  expect(block!.transactions[0]).toMatchObject({ from: A, to: B, value: '0x1', r: '0x0', s: '0x0' })
})

test('behavior: simulateCalls reports a revert without stopping', async () => {
  const { viem } = await client()
  const { results } = await viem.simulateCalls({
    account: A,
    stateOverrides: [{ address: C, code: '0x60006000fd' }],
    calls: [{ to: C }, { to: B, value: 0n }],
  })
  expect(results.map((r) => r.status)).toEqual(['failure', 'success'])
})

test('error: block numbers out of order (-38020), timestamps (-38021), too many blocks (-38026)', async () => {
  const { rc } = await client()
  const simulate = (blockStateCalls: unknown[]) => rpcError(rc.httpUrl, 'eth_simulateV1', [{ blockStateCalls }, 'latest'])
  const next = rc.chain.head.number + 1n
  expect((await simulate([{ blockOverrides: { number: `0x${next.toString(16)}` } }, { blockOverrides: { number: `0x${next.toString(16)}` } }])).code).toBe(-38020)
  expect((await simulate([{ blockOverrides: { time: '0x1' } }])).code).toBe(-38021)
  expect((await simulate([{ blockOverrides: { number: `0x${(next + 300n).toString(16)}` } }])).code).toBe(-38026)
})
