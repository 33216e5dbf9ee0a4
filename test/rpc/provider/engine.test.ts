// The provider simulation's decisions, on a clock the test moves: rate limits, seeded failures and
// lags, keys apart, a new profile starting afresh.
import { expect, test } from 'vitest'
import { ProviderSimulation } from '../../../src/rpc/provider/engine.js'
import { parseProviderProfile } from '../../../src/rpc/provider/profile.js'
import { RateLimiter } from '../../../src/rpc/provider/rateLimit.js'
import { seededRandom } from '../../../src/rpc/provider/random.js'

const T0 = Date.UTC(2026, 0, 1, 12) // noon: a day boundary is far

test('behavior: no profile, or a key without a section and no default, meets the perfect provider', () => {
  expect(new ProviderSimulation(undefined).stateOf('k')).toBeUndefined()
  const only = new ProviderSimulation(parseProviderProfile({ other: { failures: { share: 1, status: 503 } } }))
  expect(only.stateOf('k')).toBeUndefined()
  expect(only.stateOf('other')?.failure()).toBe(503)
})

test('behavior: per second, a burst of the bucket passes, the next is refused until a token is back', () => {
  const limiter = new RateLimiter({ perSecond: 3 }, T0)
  expect([limiter.take(1, T0), limiter.take(1, T0), limiter.take(1, T0)]).toEqual([undefined, undefined, undefined])
  expect(limiter.take(1, T0 + 10)).toEqual({ limit: 'perSecond', retryAfterSeconds: 1 })
  expect(limiter.take(1, T0 + 340)).toBeUndefined() // 0.34 s × 3/s ≥ 1 token
  expect(limiter.take(1, T0 + 350)).toEqual({ limit: 'perSecond', retryAfterSeconds: 1 })
})

test('behavior: a batch takes one token per call; one larger than the bucket passes only when it is full', () => {
  const limiter = new RateLimiter({ perSecond: 2 }, T0)
  expect(limiter.take(5, T0)).toBeUndefined() // full bucket: passes, leaves it 3 in debt
  expect(limiter.take(1, T0 + 1000)).toEqual({ limit: 'perSecond', retryAfterSeconds: 1 }) // -3 + 2 = -1
  expect(limiter.take(1, T0 + 2000)).toBeUndefined() // -1 + 2 = 1
})

test('behavior: per day, refused until the next UTC day, Retry-After counting down to it', () => {
  const limiter = new RateLimiter({ perDay: 2 }, T0)
  expect(limiter.take(2, T0)).toBeUndefined()
  expect(limiter.take(1, T0)).toEqual({ limit: 'perDay', retryAfterSeconds: 12 * 3600 })
  expect(limiter.take(1, T0 + 12 * 3600 * 1000)).toBeUndefined()
})

test('behavior: the same seed gives the same failures, another seed others, keys apart', () => {
  const draws = (seed: number, key: string) => {
    const simulation = new ProviderSimulation(parseProviderProfile({ seed, default: { failures: { share: 0.5, status: 503 } } }))
    return Array.from({ length: 32 }, () => simulation.stateOf(key)!.failure() ?? 200)
  }
  const first = draws(7, 'a')
  expect(draws(7, 'a')).toEqual(first)
  expect(first).toContain(503)
  expect(first).toContain(200)
  expect(draws(8, 'a')).not.toEqual(first)
  expect(draws(7, 'b')).not.toEqual(first)
})

test('behavior: the failures are the seeded stream drawn against the share', () => {
  const simulation = new ProviderSimulation(parseProviderProfile({ seed: 3, default: { failures: { share: 0.3, status: 502 } } }))
  const random = seededRandom(3, 'k', 'failures')
  for (let i = 0; i < 20; i++) expect(simulation.stateOf('k')!.failure()).toBe(random() < 0.3 ? 502 : undefined)
})

test('behavior: lags draw from their own stream, so reads do not shift the failures', () => {
  const profile = parseProviderProfile({ seed: 1, default: { failures: { share: 0.5, status: 503 }, lagBlocks: { share: 0.5, blocks: 2 } } })
  const plain = new ProviderSimulation(profile)
  const reading = new ProviderSimulation(profile)
  const failures = (simulation: ProviderSimulation, lagsBetween: number) =>
    Array.from({ length: 16 }, () => {
      for (let i = 0; i < lagsBetween; i++) simulation.stateOf('k')!.lag()
      return simulation.stateOf('k')!.failure()
    })
  expect(failures(reading, 3)).toEqual(failures(plain, 0))
  const lags = Array.from({ length: 32 }, () => plain.stateOf('k')!.lag())
  expect(new Set(lags)).toEqual(new Set([0, 2]))
})

test('behavior: setting a profile starts every key afresh (limits and dice)', () => {
  let now = T0
  const profile = parseProviderProfile({ default: { rateLimit: { perDay: 1 } } })
  const simulation = new ProviderSimulation(profile, { now: () => now })
  expect(simulation.stateOf('k')!.admit(1, now)).toBeUndefined()
  expect(simulation.stateOf('k')!.admit(1, now)?.limit).toBe('perDay')
  simulation.set(profile)
  now += 1
  expect(simulation.stateOf('k')!.admit(1, now)).toBeUndefined()
  simulation.set(undefined)
  expect(simulation.stateOf('k')).toBeUndefined()
})

test('args: wsLifetime is the key section\'s ws', () => {
  const simulation = new ProviderSimulation(parseProviderProfile({ default: { ws: { dropAfterMessages: 3 } } }))
  expect(simulation.wsLifetime('any')).toEqual({ dropAfterMessages: 3 })
})
