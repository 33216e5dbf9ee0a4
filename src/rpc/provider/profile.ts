/**
 * A provider profile: how a hosted provider (Infura, Alchemy…) misbehaves, per API key, read from
 * JSON (`ringchain serve --provider-profile FILE`, `ringchain_setProviderProfile`). Owns the shape
 * and its validation, whose errors name the bad field; what the behaviours do is `engine.ts`'s and
 * `serve.ts`'s. No profile, or a key with no section and no `default`, is today's perfect provider.
 */

/** What one API key (or `default`) meets. Every part is optional: absent, it is perfect. */
export interface ProviderBehaviour {
  /** Requests per second (a token bucket of that size, refilled at that rate) and per UTC day. */
  readonly rateLimit?: { readonly perSecond?: number; readonly perDay?: number }
  /** Milliseconds waited before each call is answered, by method; `*` for every other method. */
  readonly latencyMs?: Readonly<Record<string, number>>
  /** A share (0..1) of reads answered by a backend `blocks` behind the head. */
  readonly lagBlocks?: { readonly share: number; readonly blocks: number }
  /** A share (0..1) of requests answered with this HTTP status and -32603. */
  readonly failures?: { readonly share: number; readonly status: number }
  /** WebSocket connections cut after this many messages (both ways) or seconds. */
  readonly ws?: { readonly dropAfterMessages?: number; readonly dropAfterSeconds?: number }
  /** Largest batch, `eth_getLogs` block range and `eth_getLogs` result count served. */
  readonly limits?: { readonly batch?: number; readonly getLogsBlockRange?: number; readonly getLogsResults?: number }
}

/** A whole profile: the seed of every random choice, a default section and one per API key. */
export interface ProviderProfile {
  readonly seed: number
  readonly default?: ProviderBehaviour
  readonly keys: ReadonlyMap<string, ProviderBehaviour>
}

/** A profile as JSON: `seed`, `default`, and one section per API key. */
export interface ProviderProfileJson {
  readonly seed?: number
  readonly default?: ProviderBehaviour
  readonly [apiKey: string]: ProviderBehaviour | number | undefined
}

/** A profile that is not valid; the message names the field (`default.failures.share: …`). */
export class InvalidProviderProfileError extends Error {
  override name = 'InvalidProviderProfileError'
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`)
  }
}

/**
 * Checks a parsed JSON profile and gives it typed; throws `InvalidProviderProfileError`.
 * @example parseProviderProfile({ seed: 1, default: { failures: { share: 0.2, status: 503 } } })
 */
export function parseProviderProfile(json: unknown): ProviderProfile {
  const top = object(json, 'profile')
  let seed = 0
  let fallback: ProviderBehaviour | undefined
  const keys = new Map<string, ProviderBehaviour>()
  for (const [name, value] of Object.entries(top)) {
    if (name === 'seed') seed = integer(value, 'seed', 0)
    else if (name === 'default') fallback = behaviour(value, 'default')
    else if (name === '') throw new InvalidProviderProfileError('""', 'an API key must not be empty')
    else keys.set(name, behaviour(value, name))
  }
  return fallback === undefined ? { seed, keys } : { seed, default: fallback, keys }
}

type Fields = Record<string, unknown>

function behaviour(json: unknown, at: string): ProviderBehaviour {
  const fields = object(json, at)
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(fields)) {
    const path = `${at}.${name}`
    switch (name) {
      case 'rateLimit':
        out[name] = section(value, path, { perSecond: positive, perDay: positive })
        break
      case 'latencyMs':
        out[name] = latencies(value, path)
        break
      case 'lagBlocks':
        out[name] = section(value, path, { share, blocks: positive }, ['share', 'blocks'])
        break
      case 'failures':
        out[name] = section(value, path, { share, status: httpError }, ['share', 'status'])
        break
      case 'ws':
        out[name] = section(value, path, { dropAfterMessages: positive, dropAfterSeconds: positiveNumber })
        break
      case 'limits':
        out[name] = section(value, path, { batch: positive, getLogsBlockRange: positive, getLogsResults: positive })
        break
      default:
        throw new InvalidProviderProfileError(path, 'unknown field (expected rateLimit, latencyMs, lagBlocks, failures, ws or limits)')
    }
  }
  return out as ProviderBehaviour
}

type Check = (value: unknown, at: string) => number

function section(json: unknown, at: string, checks: Readonly<Record<string, Check>>, required: readonly string[] = []): Fields {
  const fields = object(json, at)
  const out: Record<string, number> = {}
  for (const [name, value] of Object.entries(fields)) {
    const check = checks[name]
    if (check === undefined) throw new InvalidProviderProfileError(`${at}.${name}`, `unknown field (expected ${Object.keys(checks).join(' or ')})`)
    out[name] = check(value, `${at}.${name}`)
  }
  for (const name of required) if (!(name in out)) throw new InvalidProviderProfileError(`${at}.${name}`, 'required')
  return out
}

function latencies(json: unknown, at: string): Record<string, number> {
  const fields = object(json, at)
  const out: Record<string, number> = {}
  for (const [method, value] of Object.entries(fields)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InvalidProviderProfileError(`${at}.${method}`, `expected milliseconds (a number >= 0), got ${show(value)}`)
    out[method] = value
  }
  return out
}

function object(json: unknown, at: string): Fields {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidProviderProfileError(at, `expected an object, got ${show(json)}`)
  return json as Fields
}

function integer(value: unknown, at: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new InvalidProviderProfileError(at, `expected an integer >= ${min}, got ${show(value)}`)
  return value
}

function positive(value: unknown, at: string): number {
  return integer(value, at, 1)
}

function positiveNumber(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InvalidProviderProfileError(at, `expected a number > 0, got ${show(value)}`)
  return value
}

function share(value: unknown, at: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new InvalidProviderProfileError(at, `expected a share between 0 and 1, got ${show(value)}`)
  return value
}

function httpError(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 400 || value > 599) throw new InvalidProviderProfileError(at, `expected an HTTP error status (400..599), got ${show(value)}`)
  return value
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value)
}
