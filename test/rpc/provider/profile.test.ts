// The provider profile's shape: what parses, and errors that name the bad field.
import { describe, expect, test } from 'vitest'
import { InvalidProviderProfileError, parseProviderProfile } from '../../../src/rpc/provider/profile.js'

const ISSUE_EXAMPLE = {
  default: {
    rateLimit: { perSecond: 5, perDay: 100000 },
    latencyMs: { eth_call: 50 },
    lagBlocks: { share: 0.5, blocks: 1 },
    failures: { share: 0.2, status: 503 },
    ws: { dropAfterMessages: 1000, dropAfterSeconds: 300 },
    limits: { batch: 100, getLogsBlockRange: 10000, getLogsResults: 10000 },
  },
  seed: 1,
}

test('default: the example profile parses, every section kept', () => {
  const profile = parseProviderProfile(ISSUE_EXAMPLE)
  expect(profile.seed).toBe(1)
  expect(profile.default).toEqual(ISSUE_EXAMPLE.default)
  expect(profile.keys.size).toBe(0)
})

test('args: other top-level names are API keys; seed defaults to 0', () => {
  const profile = parseProviderProfile({ 'worker-1': { failures: { share: 1, status: 502 } } })
  expect(profile.seed).toBe(0)
  expect(profile.default).toBeUndefined()
  expect(profile.keys.get('worker-1')).toEqual({ failures: { share: 1, status: 502 } })
})

describe('errors name the field', () => {
  const cases: [string, unknown, string][] = [
    ['not an object', [], 'profile: expected an object, got []'],
    ['seed', { seed: -1 }, 'seed: expected an integer >= 0, got -1'],
    ['unknown section', { default: { retries: 1 } }, 'default.retries: unknown field (expected rateLimit, latencyMs, lagBlocks, failures, ws or limits)'],
    ['share above 1', { default: { failures: { share: 2, status: 503 } } }, 'default.failures.share: expected a share between 0 and 1, got 2'],
    ['status not an error', { default: { failures: { share: 0.1, status: 200 } } }, 'default.failures.status: expected an HTTP error status (400..599), got 200'],
    ['missing status', { default: { failures: { share: 0.1 } } }, 'default.failures.status: required'],
    ['unknown field in a section', { k: { rateLimit: { perMinute: 1 } } }, 'k.rateLimit.perMinute: unknown field (expected perSecond or perDay)'],
    ['zero rate', { default: { rateLimit: { perSecond: 0 } } }, 'default.rateLimit.perSecond: expected an integer >= 1, got 0'],
    ['negative latency', { default: { latencyMs: { '*': -5 } } }, 'default.latencyMs.*: expected milliseconds (a number >= 0), got -5'],
    ['lag blocks fraction', { default: { lagBlocks: { share: 0.5, blocks: 1.5 } } }, 'default.lagBlocks.blocks: expected an integer >= 1, got 1.5'],
    ['ws seconds', { default: { ws: { dropAfterSeconds: 0 } } }, 'default.ws.dropAfterSeconds: expected a number > 0, got 0'],
    ['empty key', { '': {} }, '"": an API key must not be empty'],
  ]
  for (const [name, json, message] of cases) {
    test(`error: ${name}`, () => {
      let thrown: unknown
      try {
        parseProviderProfile(json)
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(InvalidProviderProfileError)
      expect((thrown as Error).message).toBe(message)
    })
  }
})

test('behavior: the presets in scenarios/profiles/ are valid profiles', async () => {
  const { readdirSync, readFileSync } = await import('node:fs')
  const dir = new URL('../../../scenarios/profiles/', import.meta.url).pathname
  const presets = readdirSync(dir).filter((f) => f.endsWith('.json'))
  expect(presets).toEqual(expect.arrayContaining(['infura-free.json', 'flaky.json', 'lagging.json']))
  for (const file of presets) expect(() => parseProviderProfile(JSON.parse(readFileSync(dir + file, 'utf8'))), file).not.toThrow()
})
