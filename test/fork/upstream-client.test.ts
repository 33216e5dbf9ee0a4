import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { ForkSourceError } from '../../src/chain/fork/source.js'
import { connectUpstream, maskedLabel, type UpstreamOptions } from '../../src/upstream/index.js'
import { backoffDelay } from '../../src/upstream/retry.js'
import { callsOf, fakeUpstream } from './fakeUpstream.js'

/** Short waits so that retries and timeouts take milliseconds. */
const fast: UpstreamOptions = { timeoutMs: 300, retries: 2, backoffMs: 5, maxBackoffMs: 40 }

async function failure(promise: Promise<unknown>): Promise<ForkSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ForkSourceError)
  return error as ForkSourceError
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

for (const transport of ['http', 'ws'] as const) {
  describe(transport, () => {
    const urlOf = (fake: { httpUrl: string; wsUrl: string }) => (transport === 'http' ? fake.httpUrl : fake.wsUrl)

    test('default: a call is answered with its result', async () => {
      const fake = await fakeUpstream()
      const upstream = connectUpstream(urlOf(fake), fast)
      expect(await upstream.request('eth_echo', ['0x1', true])).toEqual(['0x1', true])
      await upstream.close()
    })

    test('behavior: calls of one turn go out as one batch, each answered with its own result', async () => {
      const fake = await fakeUpstream()
      const upstream = connectUpstream(urlOf(fake), fast)
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => upstream.request('eth_echo', [i])))
      expect(results).toEqual(Array.from({ length: 10 }, (_, i) => [i]))
      expect(fake.exchanges.length).toBe(1)
      expect(fake.exchanges[0]!.length).toBe(10)
      await upstream.close()
    })

    test('behavior: a batch holds at most batchSize calls', async () => {
      const fake = await fakeUpstream()
      const upstream = connectUpstream(urlOf(fake), { ...fast, batchSize: 4 })
      await Promise.all(Array.from({ length: 10 }, (_, i) => upstream.request('eth_echo', [i])))
      expect(fake.exchanges.map((e) => e.length)).toEqual([4, 4, 2])
      await upstream.close()
    })

    test('behavior: identical calls in flight are sent once', async () => {
      const fake = await fakeUpstream()
      const upstream = connectUpstream(urlOf(fake), fast)
      const results = await Promise.all([
        upstream.request('eth_getBalance', ['0xab', '0x1']),
        upstream.request('eth_getBalance', ['0xab', '0x1']),
        upstream.request('eth_getBalance', ['0xab', '0x2']),
        upstream.request('eth_getBalance', ['0xab', '0x1']),
      ])
      expect(results).toEqual(Array(4).fill('eth_getBalance'))
      expect(callsOf(fake).map((c) => c.params)).toEqual([
        ['0xab', '0x1'],
        ['0xab', '0x2'],
      ])
      // Once answered, the same call goes out again (caching is the caller's business).
      await upstream.request('eth_getBalance', ['0xab', '0x1'])
      expect(callsOf(fake).length).toBe(3)
      await upstream.close()
    })

    test('behavior: a single call goes as a plain request, not a batch of one', async () => {
      const fake = await fakeUpstream(() => ({ kind: 'no-batches' }))
      const upstream = connectUpstream(urlOf(fake), fast)
      expect(await upstream.request('eth_echo', [1])).toEqual([1])
      expect(fake.exchanges.length).toBe(1)
      await upstream.close()
    })

    test('behavior: a node that refuses batches gets the calls one by one, from then on', async () => {
      const fake = await fakeUpstream(() => ({ kind: 'no-batches' }))
      const upstream = connectUpstream(urlOf(fake), fast)
      expect(await Promise.all([1, 2, 3].map((i) => upstream.request('eth_echo', [i])))).toEqual([[1], [2], [3]])
      expect(await Promise.all([4, 5].map((i) => upstream.request('eth_echo', [i])))).toEqual([[4], [5]])
      expect(fake.exchanges.map((e) => e.length)).toEqual([3, 1, 1, 1, 1, 1])
      await upstream.close()
    })

    test('behavior: a throttled answer (-32005) is tried again', async () => {
      const fake = await fakeUpstream((n) => (n === 1 ? { kind: 'error', code: -32005, message: 'limit exceeded' } : { kind: 'answer' }))
      const upstream = connectUpstream(urlOf(fake), fast)
      expect(await upstream.request('eth_echo', [7])).toEqual([7])
      expect(fake.exchanges.length).toBe(2)
      await upstream.close()
    })

    test('error: a definitive JSON-RPC error is not retried and names the call and the upstream code', async () => {
      const fake = await fakeUpstream(() => ({ kind: 'error', code: -32000, message: 'missing trie node abc (path ) state 0x12 is not available' }))
      const upstream = connectUpstream(urlOf(fake), fast)
      const error = await failure(upstream.request('eth_getBalance', ['0xab', '0x1']))
      expect(error.method).toBe('eth_getBalance')
      expect(error.upstreamCode).toBe(-32000)
      expect(error.message).toContain('missing trie node')
      expect(fake.exchanges.length).toBe(1)
      await upstream.close()
    })

    test('error: an upstream that never answers times out, after the bounded retries', async () => {
      const fake = await fakeUpstream(() => ({ kind: 'silence' }))
      const upstream = connectUpstream(urlOf(fake), { ...fast, timeoutMs: 100, retries: 1 })
      const error = await failure(upstream.request('eth_chainId', []))
      expect(error.reason).toBe('timeout after 100 ms after 2 attempts')
      expect(fake.exchanges.length).toBe(2)
      await upstream.close()
    })

    test('error: an unreachable upstream, with the URL masked', async () => {
      const port = await freePort()
      const url = transport === 'http' ? `http://127.0.0.1:${port}/v3/SECRETKEY123` : `ws://127.0.0.1:${port}/ws/v3/SECRETKEY123`
      const upstream = connectUpstream(url, fast)
      const error = await failure(upstream.request('eth_chainId', []))
      expect(error.reason).toMatch(/^unreachable \(.*ECONNREFUSED.*\) after 3 attempts$/)
      expect(error.label).toBe(`${transport}://127.0.0.1:${port}/…`)
      expect(`${error.message} ${error.stack}`).not.toContain('SECRETKEY123')
      await upstream.close()
    })

    test('behavior: credentials in the URL go as Basic authorization, never into the label', async () => {
      const fake = await fakeUpstream()
      const url = urlOf(fake).replace('://', '://user:pa55word@')
      const upstream = connectUpstream(url, fast)
      expect(await upstream.request('eth_echo', [1])).toEqual([1])
      expect(fake.authorization).toBe(`Basic ${Buffer.from('user:pa55word').toString('base64')}`)
      expect(upstream.label).not.toMatch(/user|pa55word|SECRETKEY123/)
      await upstream.close()
    })

    test('error: pending calls fail clearly when the client closes', async () => {
      const fake = await fakeUpstream(() => ({ kind: 'silence' }))
      const upstream = connectUpstream(urlOf(fake), { ...fast, timeoutMs: 10_000 })
      const pending = upstream.request('eth_chainId', [])
      while (fake.exchanges.length === 0) await new Promise((r) => setTimeout(r, 5))
      await upstream.close()
      expect((await failure(pending)).reason).toBe('client closed')
      expect((await failure(upstream.request('eth_chainId', []))).reason).toBe('client closed')
    })
  })
}

describe('http', () => {
  test('behavior: 503 and 429 are retried with backoff until an answer comes', async () => {
    const statuses = [503, 429]
    const fake = await fakeUpstream((n) => (n <= statuses.length ? { kind: 'status', status: statuses[n - 1]!, headers: { 'retry-after': '0' } } : { kind: 'answer' }))
    const upstream = connectUpstream(fake.httpUrl, fast)
    expect(await upstream.request('eth_echo', ['ok'])).toEqual(['ok'])
    expect(fake.exchanges.length).toBe(3)
    await upstream.close()
  })

  test('behavior: a Retry-After longer than the cap waits the cap, not the hour asked', async () => {
    const fake = await fakeUpstream((n) => (n === 1 ? { kind: 'status', status: 429, headers: { 'retry-after': '3600' } } : { kind: 'answer' }))
    const upstream = connectUpstream(fake.httpUrl, fast)
    expect(await upstream.request('eth_echo', ['ok'])).toEqual(['ok'])
    await upstream.close()
  })

  test('error: rate limited (429) after the bounded attempts', async () => {
    const fake = await fakeUpstream(() => ({ kind: 'status', status: 429 }))
    const upstream = connectUpstream(fake.httpUrl, fast)
    const error = await failure(upstream.request('eth_getCode', ['0xab', '0x5']))
    expect(error.message).toBe(`upstream ${maskedLabel(fake.httpUrl)}: eth_getCode failed: rate limited (429) after 3 attempts`)
    expect(fake.exchanges.length).toBe(3)
    await upstream.close()
  })

  test('behavior: close ends a backoff at once, failing its calls', async () => {
    const fake = await fakeUpstream(() => ({ kind: 'status', status: 503 }))
    const upstream = connectUpstream(fake.httpUrl, { ...fast, backoffMs: 60_000, maxBackoffMs: 60_000 })
    const pending = upstream.request('eth_chainId', [])
    while (fake.exchanges.length === 0) await new Promise((r) => setTimeout(r, 5))
    await upstream.close()
    expect((await failure(pending)).reason).toBe('client closed')
    expect(fake.exchanges.length).toBe(1)
  })

  test('error: a 4xx other than 429 is not retried', async () => {
    const fake = await fakeUpstream(() => ({ kind: 'status', status: 401 }))
    const upstream = connectUpstream(fake.httpUrl, fast)
    expect((await failure(upstream.request('eth_chainId', []))).reason).toBe('HTTP 401')
    expect(fake.exchanges.length).toBe(1)
    await upstream.close()
  })

  test('behavior: at most `concurrency` batches are in flight', async () => {
    const fake = await fakeUpstream(() => ({ kind: 'silence' }))
    const upstream = connectUpstream(fake.httpUrl, { ...fast, timeoutMs: 10_000, batchSize: 1, concurrency: 2 })
    const results = Promise.allSettled(Array.from({ length: 6 }, (_, i) => upstream.request('eth_echo', [i])))
    for (let i = 0; i < 100 && fake.exchanges.length < 2; i++) await new Promise((r) => setTimeout(r, 5))
    // The other four wait for a slot: none reaches the node while the first two are unanswered.
    await new Promise((r) => setTimeout(r, 100))
    expect(fake.exchanges.length).toBe(2)
    await upstream.close()
    expect((await results).every((r) => r.status === 'rejected')).toBe(true)
    expect(fake.exchanges.length).toBe(2)
  })
})

describe('ws', () => {
  test('behavior: one connection for many batches, opened again after a drop, the dropped batch sent again', async () => {
    const fake = await fakeUpstream((n) => (n === 2 ? { kind: 'drop' } : { kind: 'answer' }))
    const upstream = connectUpstream(fake.wsUrl, fast)
    expect(await upstream.request('eth_echo', [1])).toEqual([1])
    expect(await upstream.request('eth_echo', [2])).toEqual([2])
    expect(await upstream.request('eth_echo', [3])).toEqual([3])
    expect(fake.connections).toBe(2)
    expect(fake.exchanges.map((e) => e[0]!.params)).toEqual([[1], [2], [2], [3]])
    await upstream.close()
  })
})

describe('label', () => {
  test('default: scheme and host only; path, query and credentials are masked', () => {
    expect(maskedLabel('https://eth-mainnet.example.io/v2/abcdef0123456789')).toBe('https://eth-mainnet.example.io/…')
    expect(maskedLabel('wss://user:pa55@node.example:8546')).toBe('wss://node.example:8546')
    expect(maskedLabel('https://rpc.example/?apikey=SECRET')).toBe('https://rpc.example/…')
    expect(maskedLabel('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
    expect(maskedLabel('not a url')).toBe('<invalid upstream URL>')
  })

  test('error: a URL that is neither http(s) nor ws(s)', () => {
    expect(() => connectUpstream('ftp://host/KEY')).toThrow(/must be http\(s\):\/\/ or ws\(s\):\/\//)
  })
})

describe('backoff', () => {
  const policy = { retries: 3, backoffMs: 100, maxBackoffMs: 1000 }
  test('default: doubles per attempt with jitter between half and the whole, capped', () => {
    expect([1, 2, 3, 5].map((a) => backoffDelay(policy, a, undefined, () => 0))).toEqual([50, 100, 200, 500])
    expect([1, 2, 3, 5].map((a) => backoffDelay(policy, a, undefined, () => 1))).toEqual([100, 200, 400, 1000])
  })
  test('args: Retry-After is honoured up to the cap', () => {
    expect(backoffDelay(policy, 1, 300)).toBe(300)
    expect(backoffDelay(policy, 1, 3_600_000)).toBe(1000)
  })
})
