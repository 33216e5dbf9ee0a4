/**
 * A hosted provider's rate limits for one API key: a token bucket per second (as many tokens as
 * requests per second, refilled at that rate, so a burst of that size passes) and a counter per
 * UTC day. A request takes as many tokens as it has calls (a batch of 10 counts 10, as Infura and
 * Alchemy count batch members). Owns the arithmetic and the Retry-After it implies; the 429 and
 * its body are `serve.ts`'s.
 */

const DAY_MS = 86_400_000

/** Why a request was refused, and when to come back (whole seconds, at least 1). */
export interface RateRefusal {
  readonly limit: 'perSecond' | 'perDay'
  readonly retryAfterSeconds: number
}

export class RateLimiter {
  readonly #perSecond: number | undefined
  readonly #perDay: number | undefined
  #tokens: number
  #refilledAt: number
  #day = -1
  #usedToday = 0

  constructor(limits: { readonly perSecond?: number; readonly perDay?: number }, now: number) {
    this.#perSecond = limits.perSecond
    this.#perDay = limits.perDay
    this.#tokens = limits.perSecond ?? 0
    this.#refilledAt = now
  }

  /**
   * Takes `calls` requests' worth at `now` (ms), or refuses and takes nothing. A batch larger than
   * the bucket passes when the bucket is full and leaves it in debt, so it is never refused for ever.
   */
  take(calls: number, now: number): RateRefusal | undefined {
    const day = Math.floor(now / DAY_MS)
    if (day !== this.#day) {
      this.#day = day
      this.#usedToday = 0
    }
    if (this.#perDay !== undefined && this.#usedToday + calls > this.#perDay) {
      return { limit: 'perDay', retryAfterSeconds: Math.max(1, Math.ceil(((day + 1) * DAY_MS - now) / 1000)) }
    }
    const rate = this.#perSecond
    if (rate !== undefined) {
      this.#tokens = Math.min(rate, this.#tokens + ((now - this.#refilledAt) / 1000) * rate)
      this.#refilledAt = now
      const needed = Math.min(calls, rate)
      if (this.#tokens < needed) return { limit: 'perSecond', retryAfterSeconds: Math.max(1, Math.ceil((needed - this.#tokens) / rate)) }
      this.#tokens -= calls
    }
    this.#usedToday += calls
    return undefined
  }
}
