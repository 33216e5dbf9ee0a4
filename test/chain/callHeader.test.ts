import { afterEach, expect, test } from 'vitest'
import { Chain, type ChainOptions } from '../../src/chain/chain.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { freeCallHeader } from '../../src/chain/execution/callHeader.js'

const chains: Chain[] = []
async function newChain(options: ChainOptions = {}): Promise<Chain> {
  const chain = await Chain.create({ deterministic: true, customCrypto: createCustomCrypto(), ...options })
  chains.push(chain)
  return chain
}
afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.close()))
})

const read = (header: ReturnType<typeof freeCallHeader>) => ({
  number: header.number,
  coinbase: header.coinbase.toString(),
  timestamp: header.timestamp,
  difficulty: header.difficulty,
  gasLimit: header.gasLimit,
  slotNumber: header.slotNumber,
})

test('default: the header\'s fields the EVM reads, with a base fee of 0', async () => {
  const chain = await newChain()
  const [record] = await chain.mine()
  const header = record!.block.header
  const free = freeCallHeader(header)
  expect(read(free)).toEqual(read(header))
  expect(free.prevRandao).toEqual(header.prevRandao)
  expect(free.getBlobGasPrice()).toBe(header.getBlobGasPrice())
  expect(header.baseFeePerGas).toBeGreaterThan(0n)
  expect(free.baseFeePerGas).toBe(0n)
})

test('behavior: the block\'s header is left as it was: not made the prototype of the view', async () => {
  const chain = await newChain()
  const header = chain.head.block.header
  const free = freeCallHeader(header)
  expect(Object.getPrototypeOf(free)).not.toBe(header)
  expect(header.baseFeePerGas).toBeGreaterThan(0n)
})

test('behavior: fields a fork does not have fail as the header fails (PREVRANDAO before the merge, BLOBBASEFEE before Cancun)', async () => {
  const chain = await newChain({ hardfork: 'london' })
  const header = chain.head.block.header
  const free = freeCallHeader(header)
  expect(() => free.prevRandao).toThrow()
  expect(() => header.prevRandao).toThrow()
  expect(() => free.getBlobGasPrice()).toThrow()
  expect(free.difficulty).toBe(header.difficulty)
})
