// Real clients against a ringchain that answers as a hosted provider (a provider profile): viem's
// HTTP retries meet 429 and 503 and recover, viem's WebSocket transport reconnects after a drop
// and its subscription resumes, ethers v6 meets a 429. Server on 127.0.0.1, port 0.

import { JsonRpcProvider, Network } from 'ethers'
import { createPublicClient, http, webSocket } from 'viem'
import { expect, onTestFinished, test } from 'vitest'
import { startRingchain, type StartOptions } from '../../src/index.js'
import { seededRandom } from '../../src/rpc/provider/random.js'
import { ringchainChain, within } from './helpers.js'

async function start(options: Omit<StartOptions, 'port'>) {
  const rc = await startRingchain({ port: 0, deterministic: true, ...options })
  onTestFinished(() => rc.close())
  return rc
}

/** An HTTP viem client that remembers every status it got; retries as viem does by default. */
function viemOverHttp(url: string, retryDelay?: number) {
  const statuses: number[] = []
  const client = createPublicClient({
    chain: ringchainChain,
    transport: http(url, { ...(retryDelay === undefined ? {} : { retryDelay }), onFetchResponse: (response) => void statuses.push(response.status) }),
  })
  return { client, statuses }
}

// viem 2.5x reads the JSON-RPC error of a 429 rather than its status: -32005 is retried with its
// exponential backoff (150 ms × 2, 4, 8), not after Retry-After; by its third retry (~2.1 s) a token is back.
test('behavior: viem meets a 429 (-32005), backs off and gets its answer', async () => {
  const rc = await start({ providerProfile: { default: { rateLimit: { perSecond: 1 } } } })
  const { client, statuses } = viemOverHttp(rc.httpUrl)
  // The first takes the only token; the second is refused until it is back (1 s).
  const answers = await within(Promise.all([client.request({ method: 'eth_chainId' }), client.request({ method: 'eth_chainId' })]), 8_000, 'both calls')
  expect(answers).toEqual(['0x7a69', '0x7a69'])
  expect(statuses).toContain(429)
  expect(statuses.filter((s) => s === 200)).toHaveLength(2)
})

test('behavior: viem meets a 503 and retries into a healthy backend', async () => {
  // The seed whose failure dice fail the first request and serve the second (the engine's own stream).
  const seed = Array.from({ length: 100 }, (_, s) => s).find((s) => {
    const dice = seededRandom(s, 'ringchain', 'failures')
    return dice() < 0.5 && dice() >= 0.5
  })!
  const rc = await start({ providerProfile: { seed, default: { failures: { share: 0.5, status: 503 } } } })
  const { client, statuses } = viemOverHttp(rc.httpUrl, 10)
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(0n)
  expect(statuses).toEqual([503, 200])
})

test('behavior: viem\'s WebSocket transport reconnects after a drop and its block subscription resumes', async () => {
  // A connection carries 4 messages: subscribe, its answer, two blocks. More blocks need new connections.
  const rc = await start({ providerProfile: { default: { ws: { dropAfterMessages: 4 } } } })
  const client = createPublicClient({
    chain: ringchainChain,
    transport: webSocket(rc.wsUrl, { keepAlive: false, reconnect: { delay: 50, attempts: 20 }, retryCount: 0 }),
  })
  const seen = new Set<bigint>()
  const unwatch = client.watchBlockNumber({ onBlockNumber: (n) => void seen.add(n), emitOnBegin: false, onError: () => {} })
  onTestFinished(async () => {
    unwatch()
    await (await client.transport.getRpcClient()).close()
  })
  // Mine until six blocks came through (at most two a connection), bounded in count and time.
  const deadline = Date.now() + 10_000
  for (let mined = 0; seen.size < 6 && mined < 60 && Date.now() < deadline; mined++) {
    await rc.request({ method: 'evm_mine' })
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(seen.size).toBeGreaterThanOrEqual(6)
})

test('behavior: ethers v6 retries a 429 at once (it reads Retry-After as milliseconds) and gives up within the second', async () => {
  const requests: string[] = []
  const rc = await start({
    providerProfile: { default: { rateLimit: { perSecond: 1 } } },
    logger: { error: () => {}, warn: () => {}, debug: (line) => void requests.push(line) },
  })
  const provider = new JsonRpcProvider(rc.httpUrl, Network.from(31337), { staticNetwork: true, batchMaxCount: 1 })
  onTestFinished(() => provider.destroy())
  const [first, second] = await within(Promise.allSettled([provider.send('eth_chainId', []), provider.send('eth_chainId', [])]), 8_000, 'both calls')
  expect(first).toEqual({ status: 'fulfilled', value: '0x7a69' })
  expect(second.status).toBe('rejected')
  expect(String((second as PromiseRejectedResult).reason)).toMatch(/exceeded maximum retry limit/)
  // ethers' 12 attempts, each refused: it did retry, just not long enough.
  expect(requests.length).toBe(13)
})
