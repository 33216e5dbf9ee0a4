/**
 * Fees: `eth_gasPrice`, `eth_maxPriorityFeePerGas`, `eth_baseFee`, `eth_blobBaseFee`,
 * `eth_feeHistory`.
 *
 * Owns: the node's suggestions (next base fee plus a 1 gwei tip). Leaves fee history to
 * `feeHistory.ts`, the base-fee rules to `src/chain/` and ethereumjs.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toQuantity } from '../hex.js'
import { blockNumber } from '../params/block.js'
import { none, optional } from '../params/decode.js'
import { quantity } from '../params/values.js'
import { feeHistory, rewardPercentiles } from './feeHistory.js'

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

    eth_feeHistory: defineMethod([quantity, blockNumber, optional(rewardPercentiles, [])], async ([count, newest, percentiles], ctx) =>
      feeHistory(await chainFor(ctx), count, newest, percentiles),
    ),
  } satisfies Registry
}
