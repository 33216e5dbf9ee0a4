/**
 * `ringchain_setProviderProfile [profile]`: puts a provider profile in force at runtime (the JSON
 * of `--provider-profile`); `null` or nothing brings back the perfect provider. Every key's rate
 * limits, dice and WebSocket lifetimes start afresh. The simulation itself is handed in
 * (`options.provider`); what a profile does is `rpc/provider/`'s.
 */
import type { MethodsOptions } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { anyValue, optional } from '../params/decode.js'
import { InvalidProviderProfileError, parseProviderProfile } from '../provider/profile.js'

/** `ringchain_setProviderProfile`. */
export function providerMethods(options: MethodsOptions) {
  return {
    ringchain_setProviderProfile: defineMethod([optional(anyValue)], ([json]) => {
      const simulation = options.provider
      if (simulation === undefined) throw new ServerError('provider profiles are not available on this server')
      try {
        simulation.set(json === undefined ? undefined : parseProviderProfile(json))
      } catch (e) {
        if (e instanceof InvalidProviderProfileError) throw new InvalidParamsError(`invalid argument 0: ${e.message}`)
        throw e
      }
      return true
    }),
  } satisfies Registry
}
