/**
 * Fees: `eth_gasPrice`, `eth_maxPriorityFeePerGas`, `eth_baseFee`, `eth_blobBaseFee`,
 * `eth_feeHistory`.
 *
 * Owns: the node's suggestions (next base fee plus a 1 gwei tip) and fee history over the window.
 * Leaves the base-fee rules to `src/chain/` and ethereumjs.
 */
import { numberOf, type ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toQuantity } from '../hex.js'
import { blockNumber } from '../params/block.js'
import { anyValue, none, optional } from '../params/decode.js'
import { quantity } from '../params/values.js'

/** The tip the node suggests, as anvil and Hardhat do: 1 gwei. */
const TIP = 1_000_000_000n

/** The fee methods over `chainFor`. */
export function feeMethods(chainFor: ChainFor) {
  return {
    eth_gasPrice: defineMethod(none, async (_p, ctx) => {
      const base = (await chainFor(ctx)).nextBaseFee()
      return toQuantity(base === undefined ? TIP : base + TIP)
    }),
    eth_maxPriorityFeePerGas: defineMethod(none, () => toQuantity(TIP)),

    /** The base fee per gas of the next block; `null` before London. */
    eth_baseFee: defineMethod(none, async (_p, ctx) => {
      const next = (await chainFor(ctx)).nextBaseFee()
      return next === undefined ? null : toQuantity(next)
    }),

    eth_blobBaseFee: defineMethod(none, async (_p, ctx) => {
      const chain = await chainFor(ctx)
      const header = chain.head.block.header
      return toQuantity(header.excessBlobGas === undefined ? 0n : header.calcNextBlobGasPrice(chain.common))
    }),

    eth_feeHistory: defineMethod([quantity, blockNumber, optional(anyValue)], async ([count, newest, percentiles], ctx) => {
      const chain = await chainFor(ctx)
      if (count === 0n) return { oldestBlock: toQuantity(0), baseFeePerGas: [], gasUsedRatio: [] }
      const newestNumber = numberOf(chain, newest)
      const last = newestNumber > chain.head.number ? chain.head.number : newestNumber
      const n = count > 1024n ? 1024n : count
      let first = last - n + 1n
      if (first < chain.oldest.number) first = chain.oldest.number
      const baseFees: string[] = []
      const ratios: number[] = []
      const rewards: string[][] = []
      const wanted = Array.isArray(percentiles) ? (percentiles as unknown[]).filter((p): p is number => typeof p === 'number') : undefined
      for (let b = first; b <= last; b++) {
        const record = chain.blockByNumber(b)!
        const h = record.block.header
        baseFees.push(toQuantity(h.baseFeePerGas ?? 0n))
        ratios.push(Number(h.gasUsed) / Number(h.gasLimit))
        if (wanted !== undefined) {
          const tips = record.transactions.map((t) => t.receipt.effectiveGasPrice - (h.baseFeePerGas ?? 0n)).sort((x, y) => (x < y ? -1 : 1))
          rewards.push(wanted.map((p) => toQuantity(tips.length === 0 ? 0n : tips[Math.min(tips.length - 1, Math.floor((p / 100) * tips.length))]!)))
        }
      }
      baseFees.push(toQuantity(chain.head.number === last ? (chain.nextBaseFee() ?? 0n) : (chain.blockByNumber(last + 1n)!.block.header.baseFeePerGas ?? 0n)))
      return { oldestBlock: toQuantity(first), baseFeePerGas: baseFees, gasUsedRatio: ratios, ...(wanted === undefined ? {} : { reward: rewards }) }
    }),
  } satisfies Registry
}
