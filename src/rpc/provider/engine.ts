/**
 * The provider simulation's state: the profile in force and, per API key, its rate limiter and
 * its seeded dice (one stream for failures, one for lags). Owns the decisions "is this request
 * refused, does it fail, does this read lag"; answering them on the wire is `serve.ts`'s (JSON-RPC)
 * and the transport's (statuses, WebSocket drops). Setting a profile starts every key afresh.
 */
import type { ProviderBehaviour, ProviderProfile } from './profile.js'
import { RateLimiter, type RateRefusal } from './rateLimit.js'
import { seededRandom, type Random } from './random.js'

/** WebSocket lifetime of a key's connections. */
export interface WsLifetime {
  readonly dropAfterMessages?: number
  readonly dropAfterSeconds?: number
}

/** One key's running state under the profile. */
class KeyState {
  readonly behaviour: ProviderBehaviour
  readonly #rate: RateLimiter | undefined
  readonly #failures: Random
  readonly #lags: Random

  constructor(behaviour: ProviderBehaviour, seed: number, apiKey: string, now: number) {
    this.behaviour = behaviour
    this.#rate = behaviour.rateLimit === undefined ? undefined : new RateLimiter(behaviour.rateLimit, now)
    this.#failures = seededRandom(seed, apiKey, 'failures')
    this.#lags = seededRandom(seed, apiKey, 'lags')
  }

  /** Takes a request of `calls` calls from the rate limits, or says why it is refused. */
  admit(calls: number, now: number): RateRefusal | undefined {
    return this.#rate?.take(calls, now)
  }

  /** The HTTP status this request fails with, or undefined when it is served (one draw a request). */
  failure(): number | undefined {
    const failures = this.behaviour.failures
    if (failures === undefined) return undefined
    return this.#failures() < failures.share ? failures.status : undefined
  }

  /** How many blocks behind this read is answered: 0 or the profile's `blocks` (one draw a read). */
  lag(): number {
    const lag = this.behaviour.lagBlocks
    if (lag === undefined) return 0
    return this.#lags() < lag.share ? lag.blocks : 0
  }
}

export type { KeyState }

/** The profile in force and every key's state under it. */
export class ProviderSimulation {
  readonly #now: () => number
  #profile: ProviderProfile | undefined
  #keys = new Map<string, KeyState>()

  constructor(profile: ProviderProfile | undefined, options: { readonly now?: () => number } = {}) {
    this.#profile = profile
    this.#now = options.now ?? Date.now
  }

  /** The profile in force, if any. */
  get profile(): ProviderProfile | undefined {
    return this.#profile
  }

  /** Puts `profile` in force (undefined: the perfect provider again); every key starts afresh. */
  set(profile: ProviderProfile | undefined): void {
    this.#profile = profile
    this.#keys = new Map()
  }

  now(): number {
    return this.#now()
  }

  /** The state of `apiKey`, or undefined when it meets the perfect provider (the hot path's one check). */
  stateOf(apiKey: string): KeyState | undefined {
    const profile = this.#profile
    if (profile === undefined) return undefined
    let state = this.#keys.get(apiKey)
    if (state === undefined) {
      const behaviour = profile.keys.get(apiKey) ?? profile.default
      if (behaviour === undefined) return undefined
      state = new KeyState(behaviour, profile.seed, apiKey, this.#now())
      this.#keys.set(apiKey, state)
    }
    return state
  }

  /** How long `apiKey`'s WebSocket connections live; undefined: for ever. */
  wsLifetime(apiKey: string): WsLifetime | undefined {
    return this.stateOf(apiKey)?.behaviour.ws
  }
}
