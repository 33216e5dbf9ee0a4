/**
 * Mining controls: `evm_mine`, `anvil_mine` (Hardhat's `hardhat_mine` aliases it), automine on
 * and off, and interval mining (`evm_setIntervalMining` in milliseconds, anvil's in seconds).
 *
 * Owns: each node's spelling of the arguments. Leaves block production and the mining modes to
 * `src/chain/`.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError } from '../errors.js'
import { anyValue, none, optional, type Param } from '../params/decode.js'
import { bool, quantity, seconds } from '../params/values.js'

/** evm_mine's optional argument: the next timestamp (a number or a quantity), or ganache's `{ timestamp, blocks }`. */
const mineOptions: Param<{ readonly timestamp?: bigint; readonly blocks?: bigint }> = {
  decode(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: seconds.decode(value) }
    const { timestamp, blocks } = value as { readonly timestamp?: unknown; readonly blocks?: unknown }
    return {
      ...(timestamp === undefined || timestamp === null ? {} : { timestamp: seconds.decode(timestamp) }),
      ...(blocks === undefined || blocks === null ? {} : { blocks: seconds.decode(blocks) }),
    }
  },
}

/** An interval as a JSON number or a quantity string; refused when negative or not a number. */
function intervalOf(value: unknown, unit: string): number {
  const n = typeof value === 'string' ? Number(quantity.decode(value)) : Number(value)
  if (!Number.isFinite(n) || n < 0) throw new InvalidParamsError(`invalid argument 0: interval must be a number of ${unit}`)
  return n
}

/** The mining methods over `chainFor`, with their aliases. */
export function miningMethods(chainFor: ChainFor) {
  const mine = defineMethod([optional(quantity), optional(quantity)], async ([count, interval], ctx) => {
    await (await chainFor(ctx)).mine(count ?? 1n, interval)
    return '0x0'
  })
  const setAutomine = defineMethod([bool], async ([on], ctx) => {
    await (await chainFor(ctx)).setMiningMode(on ? { mode: 'auto' } : { mode: 'manual' })
    return null
  })
  const getAutomine = defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).miningMode.mode === 'auto')
  return {
    evm_mine: defineMethod([optional(mineOptions)], async ([options], ctx) => {
      const chain = await chainFor(ctx)
      if (options?.timestamp !== undefined) await chain.setNextBlockTimestamp(options.timestamp)
      await chain.mine(options?.blocks ?? 1n)
      return '0x0'
    }),
    anvil_mine: mine,
    hardhat_mine: mine,
    evm_setAutomine: setAutomine,
    anvil_setAutomine: setAutomine,
    anvil_getAutomine: getAutomine,
    hardhat_getAutomine: getAutomine,
    // anvil and Hardhat take seconds or milliseconds by method; 0 turns interval mining off.
    evm_setIntervalMining: defineMethod([anyValue], async ([ms], ctx) => {
      const value = intervalOf(ms, 'milliseconds')
      await (await chainFor(ctx)).setMiningMode(value === 0 ? { mode: 'manual' } : { mode: 'interval', blockTimeMs: value })
      return null
    }),
    anvil_setIntervalMining: defineMethod([anyValue], async ([s], ctx) => {
      const value = intervalOf(s, 'seconds')
      await (await chainFor(ctx)).setMiningMode(value === 0 ? { mode: 'manual' } : { mode: 'interval', blockTimeMs: value * 1000 })
      return null
    }),
  } satisfies Registry
}
