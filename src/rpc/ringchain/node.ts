/**
 * ringchain's own node methods: `ringchain_uptime` (milliseconds since the registry was built) and
 * `ringchain_reset` (the caller's chain, as new; `anvil_reset` and `hardhat_reset` alias it with
 * their own answers). How a chain is replaced is the simulator's, handed in as `options.reset`.
 */
import type { MethodsOptions } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toQuantity } from '../hex.js'
import { anyValue, none, optional } from '../params/decode.js'

/** The node methods of ringchain's namespace, with the reset aliases. */
export function ringchainNodeMethods(options: MethodsOptions) {
  const startedAt = Date.now()
  // `answer` is what each node returns.
  const reset = (answer: true | null) =>
    defineMethod([optional(anyValue)], async ([arg], ctx) => {
      if (options.reset === undefined) throw new ServerError('reset is not available on this server')
      // viem's testClient.reset() always sends `{ forking: { blockNumber } }`; only a URL asks for a fork.
      const forking = typeof arg === 'object' && arg !== null ? (arg as { forking?: { jsonRpcUrl?: unknown } }).forking : undefined
      if (typeof forking?.jsonRpcUrl === 'string' && forking.jsonRpcUrl !== '') throw new InvalidParamsError('invalid argument 0: forking is not supported')
      await options.reset(ctx)
      return answer
    })
  return {
    ringchain_uptime: defineMethod(none, () => toQuantity(Date.now() - startedAt)),
    ringchain_reset: reset(true),
    anvil_reset: reset(null),
    hardhat_reset: reset(true),
  } satisfies Registry
}
