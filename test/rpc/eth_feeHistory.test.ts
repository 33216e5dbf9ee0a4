// eth_feeHistory as geth's gas price oracle answers it (eth/gasprice/feehistory.go): reward
// percentiles weighted by gas used, blob fee fields, `reward` only when asked, geth's refusals.
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { STORE_INITCODE, send, signed1559 } from '../helpers/chain.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

const GWEI = 1_000_000_000n

async function chain(options: Parameters<typeof createRingchain>[0] = {}) {
  const rc = await createRingchain({ deterministic: true, ...options })
  open.push(rc)
  const fail = async (params: unknown[]) => {
    try {
      await rc.request({ method: 'eth_feeHistory', params })
    } catch (e) {
      return e as { code: number; message: string }
    }
    throw new Error('eth_feeHistory succeeded')
  }
  return { rc, fail }
}

/** One block: a heavy transaction with a low tip (a deployment at 1 gwei), a light one with a high tip (a transfer at 5 gwei). */
async function heavyCheapLightDear(rc: Ringchain) {
  const to = rc.chain.accounts[2]!.address
  await send(rc.chain, signed1559(rc.chain, 0, { nonce: 0n, data: Buffer.from(STORE_INITCODE.slice(2), 'hex'), gasLimit: 200_000n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI }))
  await send(rc.chain, signed1559(rc.chain, 1, { nonce: 0n, to, value: 1n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 5n * GWEI }))
  await rc.request({ method: 'evm_mine', params: [] })
}

test('default: reward percentiles are weighted by gas used, as geth\'s processBlock', async () => {
  const { rc } = await chain({ mining: { mode: 'manual' } })
  await heavyCheapLightDear(rc)
  const history = (await rc.request({ method: 'eth_feeHistory', params: ['0x1', 'latest', [10, 50, 90]] })) as { reward: string[][]; oldestBlock: string }
  const block = (await rc.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasUsed: string; transactions: string[] }
  expect(block.transactions).toHaveLength(2)
  // The deployment uses over half the block's gas: 50% of the gas is reached inside it, at 1 gwei
  // (picked by count, 50% would be the second transaction's 5 gwei).
  const receipts = (await rc.request({ method: 'eth_getBlockReceipts', params: ['latest'] })) as { gasUsed: string; contractAddress: string | null }[]
  const deployGas = BigInt(receipts.find((r) => r.contractAddress !== null)!.gasUsed)
  expect(deployGas * 100n > BigInt(block.gasUsed) * 50n && deployGas * 100n < BigInt(block.gasUsed) * 90n).toBe(true)
  expect(history).toMatchObject({ oldestBlock: '0x1', reward: [[`0x${GWEI.toString(16)}`, `0x${GWEI.toString(16)}`, `0x${(5n * GWEI).toString(16)}`]] })
})

test('behavior: blob fee fields are present, and reward only when percentiles are asked', async () => {
  const { rc } = await chain()
  await rc.request({ method: 'evm_mine', params: [] })
  const plain = (await rc.request({ method: 'eth_feeHistory', params: ['0x2', 'latest'] })) as Record<string, unknown>
  expect(Object.keys(plain).sort()).toEqual(['baseFeePerBlobGas', 'baseFeePerGas', 'blobGasUsedRatio', 'gasUsedRatio', 'oldestBlock'])
  expect(plain).toMatchObject({ oldestBlock: '0x0', blobGasUsedRatio: [0, 0] })
  expect(plain.baseFeePerBlobGas).toHaveLength(3)
  expect(plain.baseFeePerGas).toHaveLength(3)
  expect(await rc.request({ method: 'eth_feeHistory', params: ['0x1', 'latest', []] })).not.toHaveProperty('reward')
  // An empty block rewards 0 at every percentile.
  expect(await rc.request({ method: 'eth_feeHistory', params: ['0x1', 'latest', [25, 75]] })).toMatchObject({ reward: [['0x0', '0x0']] })
})

test('behavior: a count of 0 gets geth\'s empty answer (oldest 0, a null gasUsedRatio, nothing else), whatever the newest block', async () => {
  const { rc } = await chain()
  await rc.request({ method: 'evm_mine', params: [] })
  expect(await rc.request({ method: 'eth_feeHistory', params: ['0x0', 'latest', [50]] })).toStrictEqual({ oldestBlock: '0x0', gasUsedRatio: null })
  expect(await rc.request({ method: 'eth_feeHistory', params: ['0x0', '0x99'] })).toStrictEqual({ oldestBlock: '0x0', gasUsedRatio: null })
})

test('error: unsorted, repeated or out-of-range percentiles: invalid reward percentile (-32000)', async () => {
  const { fail } = await chain()
  expect(await fail(['0x1', 'latest', [50, 10]])).toMatchObject({ code: -32000, message: 'invalid reward percentile: #0:50.000000 >= #1:10.000000' })
  expect(await fail(['0x1', 'latest', [10, 10]])).toMatchObject({ message: 'invalid reward percentile: #0:10.000000 >= #1:10.000000' })
  expect(await fail(['0x1', 'latest', [101]])).toMatchObject({ message: 'invalid reward percentile: 101.000000' })
  expect(await fail(['0x1', 'latest', [-1]])).toMatchObject({ message: 'invalid reward percentile: -1.000000' })
  expect(await fail(['0x1', 'latest', ['50']])).toMatchObject({ code: -32602, message: 'invalid argument 2: json: cannot unmarshal string into Go value of type float64' })
})

test('error: a newest block after the head: request beyond head block', async () => {
  const { fail } = await chain()
  expect(await fail(['0x1', '0x5'])).toMatchObject({ code: -32000, message: 'request beyond head block: requested 5, head 0' })
})

test('error: a range that ends before the window: pruned history (4444); one that starts before it is clamped', async () => {
  const { rc, fail } = await chain({ window: 4 })
  await rc.request({ method: 'anvil_mine', params: ['0xa'] })
  expect((await fail(['0x2', '0x3'])).code).toBe(4444)
  const clamped = (await rc.request({ method: 'eth_feeHistory', params: ['0x5', '0x8'] })) as { oldestBlock: string; gasUsedRatio: number[] }
  expect(clamped.oldestBlock).toBe(`0x${rc.chain.oldest.number.toString(16)}`)
  expect(clamped.gasUsedRatio).toHaveLength(Number(8n - rc.chain.oldest.number + 1n))
})

test('behavior: viem getFeeHistory reads the weighted rewards', async () => {
  const { rc } = await chain({ mining: { mode: 'manual' } })
  await heavyCheapLightDear(rc)
  const client = createPublicClient({ transport: custom(rc) })
  const history = await client.getFeeHistory({ blockCount: 1, rewardPercentiles: [50, 90] })
  expect(history.reward).toEqual([[GWEI, 5n * GWEI]])
  expect(history.oldestBlock).toBe(1n)
})
