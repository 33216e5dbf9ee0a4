/**
 * `eth_feeHistory`, as geth's gas price oracle answers it (eth/gasprice/feehistory.go): base fees
 * and blob base fees of a range of blocks plus the next one, gas and blob gas used ratios, and
 * reward percentiles weighted by the gas each transaction used.
 *
 * Owns: the percentile checks, the range (refused past the head, clamped to the window, the
 * pruned-history error when it ends before the window) and geth's `processBlock`. Leaves the
 * blocks and receipts, computed when mined, to `src/chain/`.
 */
import type { Chain } from '../../chain/chain.js'
import { BlockOutOfWindowError } from '../../chain/errors.js'
import type { BlockRecord } from '../../chain/types.js'
import { numberOf } from '../context.js'
import { ServerError } from '../errors.js'
import { toQuantity } from '../hex.js'
import type { BlockNumberParam } from '../params/block.js'
import type { Param } from '../params/decode.js'
import { cannotUnmarshal, decodeArray, jsonKind } from '../params/go.js'

/** The most blocks one request covers (geth's default history limits). */
const MAX_BLOCKS = 1024n
/** The most percentiles one request asks for (geth's maxQueryLimit). */
const MAX_PERCENTILES = 100

/** geth's `[]float64` of reward percentiles (each a JSON number). */
export const rewardPercentiles: Param<readonly number[]> = {
  decode: (value) =>
    decodeArray(value, '[]float64').map((p) => {
      if (typeof p !== 'number') throw cannotUnmarshal(jsonKind(p), 'float64')
      return p
    }),
}

/** The wire answer (geth's feeHistoryResult; `reward` only when percentiles were asked). */
export interface FeeHistory {
  oldestBlock: string
  reward?: string[][]
  baseFeePerGas: string[]
  gasUsedRatio: number[]
  baseFeePerBlobGas: string[]
  blobGasUsedRatio: number[]
}

/**
 * geth's answer to a count of 0, given before it looks at anything else: its oracle returns nil
 * slices, which `feeHistoryResult` writes as a null `gasUsedRatio` and leaves the `omitempty` fields out.
 */
export interface EmptyFeeHistory {
  oldestBlock: '0x0'
  gasUsedRatio: null
}

/** The fee history of `count` blocks ending at `newest`, with the `percentiles` of tips paid. */
export function feeHistory(chain: Chain, count: bigint, newest: BlockNumberParam, percentiles: readonly number[]): FeeHistory | EmptyFeeHistory {
  if (count === 0n) return { oldestBlock: '0x0', gasUsedRatio: null }
  checkPercentiles(percentiles)
  const head = chain.head.number
  const last = numberOf(chain, newest)
  if (last > head) throw new ServerError(`request beyond head block: requested ${last}, head ${head}`)
  const oldest = chain.oldest.number
  if (last < oldest) throw new BlockOutOfWindowError(last, oldest, head)
  const n = count > MAX_BLOCKS ? MAX_BLOCKS : count
  const first = last - n + 1n < oldest ? oldest : last - n + 1n

  const out: FeeHistory = { oldestBlock: toQuantity(first), baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [] }
  const rewards: string[][] = []
  for (let b = first; b <= last; b++) {
    const record = chain.blockByNumber(b)!
    const header = record.block.header
    out.baseFeePerGas.push(toQuantity(header.baseFeePerGas ?? 0n))
    out.baseFeePerBlobGas.push(toQuantity(header.excessBlobGas === undefined ? 0n : header.getBlobGasPrice()))
    out.gasUsedRatio.push(Number(header.gasUsed) / Number(header.gasLimit))
    out.blobGasUsedRatio.push(blobGasUsedRatio(record))
    if (percentiles.length > 0) rewards.push(blockRewards(record, percentiles).map(toQuantity))
  }
  const lastHeader = chain.blockByNumber(last)!.block.header
  const next = last === head ? undefined : chain.blockByNumber(last + 1n)!.block.header
  out.baseFeePerGas.push(toQuantity(next === undefined ? (chain.nextBaseFee() ?? 0n) : (next.baseFeePerGas ?? 0n)))
  out.baseFeePerBlobGas.push(
    toQuantity(lastHeader.excessBlobGas === undefined ? 0n : next === undefined ? lastHeader.calcNextBlobGasPrice(chain.common) : next.getBlobGasPrice()),
  )
  if (percentiles.length > 0) out.reward = rewards
  return out
}

/** geth's checks: at most 100 percentiles, each in 0..100, strictly increasing (its words). */
function checkPercentiles(percentiles: readonly number[]): void {
  if (percentiles.length > MAX_PERCENTILES) throw new ServerError(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`)
  for (let i = 0; i < percentiles.length; i++) {
    const p = percentiles[i]!
    if (p < 0 || p > 100) throw new ServerError(`invalid reward percentile: ${goFloat(p)}`)
    const previous = percentiles[i - 1]
    if (previous !== undefined && p <= previous) {
      throw new ServerError(`invalid reward percentile: #${i - 1}:${goFloat(previous)} >= #${i}:${goFloat(p)}`)
    }
  }
}

/** Go's `%f`. */
function goFloat(x: number): string {
  return x.toFixed(6)
}

/** The block's blob gas used over the most its fork allows (0 without blobs). */
function blobGasUsedRatio(record: BlockRecord): number {
  const header = record.block.header
  if (header.blobGasUsed === undefined) return 0
  const max = header.common.getBlobGasSchedule().maxBlobGasPerBlock
  return max === 0n ? 0 : Number(header.blobGasUsed) / Number(max)
}

/**
 * geth's `processBlock`: the tips paid, sorted, each weighted by the gas its transaction used; a
 * percentile is the tip of the transaction whose gas reaches that share of the block's gas used.
 */
function blockRewards(record: BlockRecord, percentiles: readonly number[]): bigint[] {
  const header = record.block.header
  if (record.transactions.length === 0) return percentiles.map(() => 0n)
  const baseFee = header.baseFeePerGas ?? 0n
  // Array.prototype.sort is stable, as geth's SortStableFunc.
  const sorted = record.transactions
    .map((t) => ({ gasUsed: t.receipt.gasUsed, reward: t.receipt.effectiveGasPrice - baseFee }))
    .sort((x, y) => (x.reward < y.reward ? -1 : x.reward > y.reward ? 1 : 0))
  const blockGasUsed = Number(header.gasUsed)
  let index = 0
  let sumGasUsed = sorted[0]!.gasUsed
  return percentiles.map((p) => {
    // geth: uint64(float64(gasUsed) * p / 100)
    const threshold = BigInt(Math.floor((blockGasUsed * p) / 100))
    while (sumGasUsed < threshold && index < sorted.length - 1) {
      index++
      sumGasUsed += sorted[index]!.gasUsed
    }
    return sorted[index]!.reward
  })
}
