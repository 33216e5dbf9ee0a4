/**
 * ringchain's own node methods: `ringchain_uptime` (milliseconds since the registry was built),
 * `ringchain_warmup` (what the server's warm-up has done, `{ state: 'off' }` without one) and
 * `ringchain_reset` (the caller's chain, as new; `anvil_reset` and `hardhat_reset` alias it with
 * their own answers). How a chain is replaced is the simulator's, handed in as `options.reset`.
 */
import type { MethodsOptions, ResetTarget } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toQuantity } from '../hex.js'
import { anyValue, none, optional } from '../params/decode.js'

/** The node methods of ringchain's namespace, with the reset aliases. */
export function ringchainNodeMethods(options: MethodsOptions) {
  const startedAt = Date.now()
  // `answer` is what each node returns; `plain` what a reset without `forking` gives: anvil's is
  // a plain dev chain, Hardhat's and ringchain's a chain from the options (forked again if they fork).
  const reset = (answer: true | null, plain: ResetTarget | undefined) =>
    defineMethod([optional(anyValue)], async ([arg], ctx) => {
      if (options.reset === undefined) throw new ServerError('reset is not available on this server')
      await options.reset(ctx, resetTarget(arg) ?? plain)
      return answer
    })
  return {
    ringchain_uptime: defineMethod(none, () => toQuantity(Date.now() - startedAt)),
    ringchain_warmup: defineMethod(none, () => options.warmup?.() ?? { state: 'off' }),
    ringchain_reset: reset(true, undefined),
    anvil_reset: reset(null, { fork: null }),
    hardhat_reset: reset(true, undefined),
  } satisfies Registry
}

/**
 * The `forking` of a reset (`{ forking: { jsonRpcUrl?, blockNumber? } }`): undefined without one.
 * viem's `testClient.reset()` always sends `{ forking: { blockNumber } }`, the URL left out: that
 * forks the options' upstream again, or on a chain that does not fork, is a reset as new.
 */
function resetTarget(arg: unknown): ResetTarget | undefined {
  const forking = typeof arg === 'object' && arg !== null ? (arg as { forking?: unknown }).forking : undefined
  if (forking === undefined || forking === null) return undefined
  if (typeof forking !== 'object') throw new InvalidParamsError('invalid argument 0: forking must be an object')
  const { jsonRpcUrl, blockNumber } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown }
  if (jsonRpcUrl !== undefined && jsonRpcUrl !== null && typeof jsonRpcUrl !== 'string') throw new InvalidParamsError('invalid argument 0: forking.jsonRpcUrl must be a string')
  let number: bigint | undefined
  if (blockNumber !== undefined && blockNumber !== null) {
    if (!(typeof blockNumber === 'number' && Number.isSafeInteger(blockNumber) && blockNumber >= 0) && !(typeof blockNumber === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(blockNumber))) {
      throw new InvalidParamsError('invalid argument 0: forking.blockNumber must be a block number')
    }
    number = BigInt(blockNumber)
  }
  const url = typeof jsonRpcUrl === 'string' && jsonRpcUrl !== '' ? jsonRpcUrl : undefined
  return { fork: { ...(url === undefined ? {} : { url }), ...(number === undefined ? {} : { blockNumber: number }) } }
}
