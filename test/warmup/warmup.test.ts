// The served warm-up (src/warmup/): a typical test run again and again on a scratch chain while
// the server is idle. What a user relies on: it never touches the chain served, it waits while
// real requests come, `close()` ends it, it can be turned off, and it reports what it did.

import { readFileSync } from 'node:fs'
import { cachedDataVersionTag } from 'node:v8'
import { createServer, type AddressInfo } from 'node:net'
import { getAbiItem, toEventSelector, toFunctionSelector, type Abi, type AbiEvent, type AbiFunction } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createRingchain, startRingchain, type RunningRingchain, type StartOptions } from '../../src/index.js'
import { IdleWatch } from '../../src/warmup/idleWatch.js'
import { STORE_BYTECODE } from '../../src/warmup/storeContract.js'
import { TRANSFER_TOPIC, WARM_TOKEN_BYTECODE, WARM_TOKEN_SELECTORS } from '../../src/warmup/tokenContract.js'
import { Warmup } from '../../src/warmup/warmup.js'
import { rpc, serveJson } from '../cli/helpers.js'
import { deferred, within } from '../e2e/helpers.js'

async function start(options: StartOptions): Promise<RunningRingchain> {
  const rc = await startRingchain({ port: 0, ...options })
  onTestFinished(() => rc.close())
  return rc
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the warm-up of a served chain', () => {
  test('behavior: it runs its tests over HTTP and WebSocket on a chain of its own and leaves the served chain as it was', async () => {
    const rc = await start({ warmup: { tests: 4 } })
    const report = await within(rc.warmedUp(), 60_000, 'the warm-up')
    expect(report).toMatchObject({ state: 'done', tests: 4 })
    // Each test: snapshot, deploy and three writes with what viem and ethers ask around each, reads, a token's life, revert.
    expect((report as { requests: number }).requests).toBeGreaterThan(4 * 60)
    expect((await rpc(rc.httpUrl, 'ringchain_warmup')).result).toEqual(report)
    expect((await rpc(rc.httpUrl, 'eth_blockNumber')).result).toBe('0x0')
    expect((await rpc(rc.httpUrl, 'eth_getTransactionCount', [rc.accounts[0]!.address, 'latest'])).result).toBe('0x0')
    expect((await rpc(rc.httpUrl, 'eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }])).result).toEqual([])
  })

  test("behavior: V8's flags are as they were once it has ended, run to the end or stopped half-way (the code cache is stamped with them)", async () => {
    const stamp = cachedDataVersionTag()
    const done = await start({ warmup: { tests: 2 } })
    expect(await within(done.warmedUp(), 60_000, 'the warm-up')).toMatchObject({ state: 'done' })
    expect(cachedDataVersionTag()).toBe(stamp)
    const stopped = await startRingchain({ port: 0, warmup: { tests: 1_000 } })
    for (let i = 0; i < 100 && ((await rpc(stopped.httpUrl, 'ringchain_warmup')).result as { requests: number }).requests < 20; i++) await sleep(300)
    await within(stopped.close(), 10_000, 'close()')
    expect((await stopped.warmedUp()).state).toBe('stopped')
    expect(cachedDataVersionTag()).toBe(stamp)
  })

  test('behavior: it completes whatever the served chain runs: an old hardfork (its contract and 1559 sends need London: the default fork then) and another chain id', async () => {
    for (const options of [{ hardfork: 'chainstart' }, { hardfork: 'berlin', chainId: 5n }, { hardfork: 'london' }]) {
      const rc = await start({ ...options, warmup: { tests: 2 } })
      expect(await within(rc.warmedUp(), 60_000, `the warm-up of ${JSON.stringify(options, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`)).toMatchObject({ state: 'done', tests: 2 })
    }
  })

  test('behavior: close() ends a warm-up under way and waits for its scratch chain and server to go', async () => {
    const rc = await startRingchain({ port: 0, warmup: { tests: 1_000 } })
    let running = false
    // Asked more often than every 200 ms, the server would never be idle long enough to begin.
    for (let i = 0; i < 100 && !running; i++) {
      await sleep(300)
      const { state, requests } = (await rpc(rc.httpUrl, 'ringchain_warmup')).result as { state: string; requests: number }
      running = state === 'running' && requests > 20
    }
    expect(running).toBe(true)
    await within(rc.close(), 10_000, 'close()')
    const report = await rc.warmedUp()
    expect(report.state).toBe('stopped')
    expect((report as { tests: number }).tests).toBeLessThan(1_000)
  })

  test('behavior: close() before the warm-up has begun ends it without a request sent', async () => {
    const rc = await startRingchain({ port: 0, warmup: { tests: 10 } })
    await within(rc.close(), 10_000, 'close()')
    expect(await rc.warmedUp()).toMatchObject({ state: 'stopped', tests: 0, requests: 0 })
  })

  test('behavior: `warmup: false`, RINGCHAIN_WARMUP=off and =0 turn it off; an option beats the environment; a bad value is refused', async () => {
    expect(await (await start({ warmup: false })).warmedUp()).toEqual({ state: 'off' })
    const saved = process.env.RINGCHAIN_WARMUP
    process.env.RINGCHAIN_WARMUP = 'off'
    try {
      const off = await start({})
      expect((await rpc(off.httpUrl, 'ringchain_warmup')).result).toEqual({ state: 'off' })
      const on = await start({ warmup: { tests: 1 } })
      expect(await within(on.warmedUp(), 60_000, 'the warm-up')).toMatchObject({ state: 'done', tests: 1 })
      process.env.RINGCHAIN_WARMUP = '0'
      expect(await (await start({})).warmedUp()).toEqual({ state: 'off' })
      process.env.RINGCHAIN_WARMUP = 'lots'
      await expect(startRingchain({ port: 0 })).rejects.toThrow('RINGCHAIN_WARMUP: expected off or a number of tests, got lots')
    } finally {
      if (saved === undefined) delete process.env.RINGCHAIN_WARMUP
      else process.env.RINGCHAIN_WARMUP = saved
    }
  })

  test('bad input: a warm-up of a negative or fractional number of tests is refused before anything listens', async () => {
    await expect(startRingchain({ port: 0, warmup: { tests: -1 } })).rejects.toThrow('warmup.tests: expected a whole number of tests, got -1')
    await expect(startRingchain({ port: 0, warmup: { tests: 1.5 } })).rejects.toThrow(RangeError)
  })

  test('behavior: asked the moment the server listens, before its chain is built, ringchain_warmup says waiting, not off', async () => {
    let asked: Promise<{ result?: unknown }> | undefined
    // onListening runs before the chain is built: the request waits at the startup gate.
    await start({ warmup: { tests: 1 }, onListening: ({ httpUrl }) => void (asked = rpc(httpUrl, 'ringchain_warmup')) })
    expect(asked).toBeDefined()
    expect(((await asked!).result as { state: string }).state).toBe('waiting')
  })

  test('behavior: in process there is no server to warm: ringchain_warmup answers off', async () => {
    const rc = await createRingchain()
    onTestFinished(() => rc.close())
    expect(await rc.request({ method: 'ringchain_warmup' })).toEqual({ state: 'off' })
  })

  test('behavior: `ringchain serve` warms up by default and not with --no-warmup', async () => {
    const env = { ...process.env }
    delete env.RINGCHAIN_WARMUP
    const on = await serveJson([], { env })
    const off = await serveJson(['--no-warmup'], { env })
    expect((await rpc(off.ready.httpUrl, 'ringchain_warmup')).result).toEqual({ state: 'off' })
    let state = 'waiting'
    for (let i = 0; i < 300 && (state === 'waiting' || state === 'running'); i++) {
      await sleep(200)
      state = ((await rpc(on.ready.httpUrl, 'ringchain_warmup')).result as { state: string }).state
    }
    expect(state).toBe('done')
    expect(on.cli.stderr()).not.toContain('warm-up failed')
  })
})

describe('its parts', () => {
  test('behavior: the idle watch counts a request busy from its start to its end, and idle only after the time asked', async () => {
    const idle = new IdleWatch()
    const answer = deferred<string>()
    const handler = idle.track((_body: string) => answer.promise)
    const pending = handler('{}')
    expect(idle.idleFor(0)).toBe(false)
    answer.resolve('ok')
    await pending
    expect(idle.idleFor(0)).toBe(true)
    expect(idle.idleFor(60_000)).toBe(false)
    await expect(idle.track(async () => Promise.reject(new Error('refused')))()).rejects.toThrow('refused')
    expect(idle.idleFor(0)).toBe(true)
  })

  test('behavior: no warm-up request goes out while the server is busy, and they go once it is idle', async () => {
    // A served chain without a warm-up of its own is the scratch service; a fake watch says when the "real" server is idle.
    const scratch = await start({ warmup: false })
    let busy = true
    const idle = { idleFor: () => !busy } as unknown as IdleWatch
    const warmup = new Warmup({ idle, tests: 1, scratch: async () => ({ httpUrl: scratch.httpUrl, wsUrl: scratch.wsUrl, close: async () => {} }) })
    onTestFinished(async () => void (await warmup.stop()))
    await sleep(600)
    expect(warmup.report).toMatchObject({ state: 'waiting', requests: 0 })
    busy = false
    expect(await within(warmup.ended, 60_000, 'the warm-up')).toMatchObject({ state: 'done', tests: 1 })
  })

  test('behavior: a warm-up kept waiting past the keep-alive timeout of the scratch server connects again and goes on', async () => {
    const scratch = await start({ warmup: false, server: { keepAliveTimeoutMs: 100 } })
    let requests = 0
    let busyUntil = 0
    // Busy for 400 ms after the 30th warm-up request: the scratch server drops the idle connection meanwhile.
    const idle = { idleFor: () => performance.now() >= busyUntil } as unknown as IdleWatch
    const warmup = new Warmup({ idle, tests: 2, scratch: async () => ({ httpUrl: scratch.httpUrl, wsUrl: scratch.wsUrl, close: async () => {} }) })
    onTestFinished(async () => void (await warmup.stop()))
    const counting = setInterval(() => {
      if (requests < 30 && warmup.report.requests >= 30) busyUntil = performance.now() + 400
      requests = warmup.report.requests
    }, 1)
    onTestFinished(() => clearInterval(counting))
    expect(await within(warmup.ended, 60_000, 'the warm-up')).toMatchObject({ state: 'done', tests: 2 })
    expect(busyUntil).toBeGreaterThan(0)
  })

  test('behavior: stop() ends a warm-up whose request is never answered', async () => {
    const scratch = await start({ warmup: false })
    // A server that accepts connections and never answers.
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => void silent.close())
    const httpUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v3/warmup`
    const idle = { idleFor: () => true } as unknown as IdleWatch
    const warmup = new Warmup({ idle, tests: 1, scratch: async () => ({ httpUrl, wsUrl: scratch.wsUrl, close: async () => {} }) })
    await sleep(500)
    expect(warmup.report).toMatchObject({ state: 'running', requests: 0 })
    expect(await within(warmup.stop(), 5_000, 'stop()')).toMatchObject({ state: 'stopped', tests: 0 })
  })

  test('behavior: a warm-up that meets a wrong answer stops and says why', async () => {
    const scratch = await start({ warmup: false, accounts: 0 })
    const idle = { idleFor: () => true } as unknown as IdleWatch
    const report = await within(new Warmup({ idle, tests: 1, scratch: async () => ({ httpUrl: scratch.httpUrl, wsUrl: scratch.wsUrl, close: async () => {} }) }).ended, 30_000, 'the warm-up')
    expect(report).toMatchObject({ state: 'failed', reason: 'the scratch chain has no dev account' })
  })

  test('behavior: the contract it deploys is Store.sol as compiled in test/fixtures', () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/contracts/Store.json', import.meta.url), 'utf8')) as { bytecode: string }
    expect(STORE_BYTECODE).toBe(fixture.bytecode)
  })

  test('behavior: the token it deploys is WarmToken.sol as compiled in test/fixtures, with the selectors and topic of its ABI', () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/contracts/WarmToken.json', import.meta.url), 'utf8')) as { bytecode: string; abi: Abi }
    expect(WARM_TOKEN_BYTECODE).toBe(fixture.bytecode)
    for (const [name, selector] of Object.entries(WARM_TOKEN_SELECTORS)) expect(toFunctionSelector(getAbiItem({ abi: fixture.abi, name }) as AbiFunction), name).toBe(selector)
    expect(toEventSelector(getAbiItem({ abi: fixture.abi, name: 'Transfer' }) as AbiEvent)).toBe(TRANSFER_TOPIC)
  })
})
