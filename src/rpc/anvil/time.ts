/**
 * Time controls: `evm_increaseTime`, `evm_setNextBlockTimestamp` (anvil's names alias them),
 * `anvil_setBlockTimestampInterval` and `anvil_removeBlockTimestampInterval`. The clock is
 * `src/chain/`'s.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { none } from '../params/decode.js'
import { seconds } from '../params/values.js'

/** The time methods over `chainFor`, with their aliases. */
export function timeMethods(chainFor: ChainFor) {
  // The total offset as a JSON number, as anvil answers (Hardhat sends it as a decimal string).
  const increaseTime = defineMethod([seconds], async ([s], ctx) => Number(await (await chainFor(ctx)).increaseTime(s)))
  const setNextTimestamp = defineMethod([seconds], async ([ts], ctx) => {
    await (await chainFor(ctx)).setNextBlockTimestamp(ts)
    return null
  })
  return {
    evm_increaseTime: increaseTime,
    anvil_increaseTime: increaseTime,
    evm_setNextBlockTimestamp: setNextTimestamp,
    anvil_setNextBlockTimestamp: setNextTimestamp,
    anvil_setBlockTimestampInterval: defineMethod([seconds], async ([s], ctx) => {
      await (await chainFor(ctx)).setBlockTimestampInterval(s)
      return null
    }),
    anvil_removeBlockTimestampInterval: defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).setBlockTimestampInterval(undefined)),
  } satisfies Registry
}
