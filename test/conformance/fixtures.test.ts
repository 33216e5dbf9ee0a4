/**
 * The execution-apis rpc-compat fixtures (`../shared/conformance`), replayed against ringchain after
 * it imported the chain they were recorded on: the 40 core fixtures must match geth exactly over
 * HTTP (`--hive --schema`), WebSocket must answer every fixture request as HTTP does, and the
 * counts of the other families are printed (they do not fail the run).
 * The send fixtures change the pool, so every run gets a freshly imported chain.
 */
import { readFileSync } from 'node:fs'
import { expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { CORE_FAMILIES, TESTS, fixtures, runFixtures, startImported } from './corpus.js'

test('default: the imported head is the chain geth recorded (block 54, head = safe = finalized)', async () => {
  const rc = await startImported()
  const getGenesis = readFileSync(`${TESTS}eth_getBlockByNumber/get-genesis.io`, 'utf8')
  const genesisHash = /"hash":"(0x[0-9a-f]{64})"/.exec(getGenesis)![1]
  const head = JSON.parse(readFileSync(`${TESTS}headfcu.json`, 'utf8')) as { params: [{ headBlockHash: string }] }
  const block = async (tag: string) => (await rc.request({ method: 'eth_getBlockByNumber', params: [tag, false] })) as { number: string; hash: string }
  expect((await block('0x0')).hash).toBe(genesisHash)
  for (const tag of ['latest', 'safe', 'finalized']) {
    expect(await block(tag)).toMatchObject({ number: '0x36', hash: head.params[0].headBlockHash })
  }
  expect(rc.chain.miningMode).toEqual({ mode: 'manual' })
})

test('behavior: the 40 core fixtures pass over HTTP, exactly (--hive --schema)', async () => {
  const rc = await startImported()
  const run = await runFixtures(rc.httpUrl, ['--hive', '--schema', ...CORE_FAMILIES])
  expect(run.summary, run.output).toBe('40 passed, 0 failed')
  expect(run.code, run.output).toBe(0)
}, 120_000)

/** Families of the methods served since the core ones: their 16 fixtures must pass as well. */
const ADDED_FAMILIES = ['eth_baseFee', 'eth_capabilities', 'eth_config', 'eth_createAccessList', 'eth_getProof', 'eth_getStorageValues'] as const

test('behavior: the 16 fixtures of eth_getProof, eth_getStorageValues, eth_createAccessList, eth_config, eth_capabilities, eth_baseFee pass (--hive --schema)', async () => {
  const rc = await startImported()
  const run = await runFixtures(rc.httpUrl, ['--hive', '--schema', ...ADDED_FAMILIES])
  expect(run.summary, run.output).toBe('16 passed, 0 failed')
  expect(run.code, run.output).toBe(0)
}, 120_000)

/** The raw-encoding debug methods: 11 fixtures, checked against geth's answers and the schema. */
const RAW_FAMILIES = ['debug_getRawBlock', 'debug_getRawHeader', 'debug_getRawReceipts', 'debug_getRawTransaction'] as const

test('behavior: the 11 fixtures of debug_getRawBlock, debug_getRawHeader, debug_getRawReceipts, debug_getRawTransaction pass (--hive --schema)', async () => {
  const rc = await startImported()
  const run = await runFixtures(rc.httpUrl, ['--hive', '--schema', ...RAW_FAMILIES])
  expect(run.summary, run.output).toBe('11 passed, 0 failed')
  expect(run.code, run.output).toBe(0)
}, 120_000)

/** The debug_trace* families: the corpus's schema has no debug methods, so each answer is compared with geth's own, exactly. */
const TRACE_FAMILIES = ['debug_traceTransaction', 'debug_traceBlockByNumber', 'debug_traceBlockByHash'] as const

test('behavior: every debug_trace* fixture gets the answer geth recorded (results exactly, errors by code)', async () => {
  const rc = await startImported()
  let compared = 0
  for (const fixture of fixtures().filter((f) => TRACE_FAMILIES.some((family) => f.name.startsWith(`${family}/`)))) {
    for (const { request, response } of fixture.exchanges) {
      const got = (await (await fetch(rc.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).json()) as { error?: { code: number } }
      const want = JSON.parse(response) as { error?: { code: number } }
      if (want.error !== undefined) expect(got.error?.code, fixture.name).toBe(want.error.code)
      else expect(got, fixture.name).toEqual(want)
      compared++
    }
  }
  expect(compared).toBe(14)
}, 120_000)

test('behavior: over WebSocket every fixture request gets the answer it gets over HTTP', async () => {
  // Two fresh chains, fed the same requests in the same order: one over HTTP, one over WebSocket.
  const [overHttp, overWs] = await Promise.all([startImported(), startImported()])
  const ws = await connect(overWs.wsUrl)
  let compared = 0
  for (const fixture of fixtures()) {
    for (const { request } of fixture.exchanges) {
      const viaHttp = await (await fetch(overHttp.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).text()
      const viaWs = await roundTrip(ws, request)
      expect(JSON.parse(viaWs), `${fixture.name}: ${request.slice(0, 120)}`).toEqual(JSON.parse(viaHttp))
      compared++
    }
  }
  expect(compared).toBeGreaterThanOrEqual(110)
}, 120_000)

test('behavior: every fixture family (counts printed, not required)', async () => {
  const rc = await startImported()
  const run = await runFixtures(rc.httpUrl, ['--hive', '--schema', '-q'])
  expect(run.summary, run.output).toBeDefined()
  const lines = [...run.families].sort(([a], [b]) => a.localeCompare(b)).map(([family, c]) => `  ${family.padEnd(40)} ${c.passed} passed, ${c.failed} failed`)
  console.log(`execution-apis fixtures, all families (--hive --schema): ${run.summary}\n${lines.join('\n')}`)
  // The core families are required above; here they must at least not regress when run with the rest.
  for (const family of [...CORE_FAMILIES, ...ADDED_FAMILIES]) expect(run.families.get(family)?.failed ?? 0, run.output).toBe(0)
}, 120_000)

function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
    onTestFinished(() => ws.terminate())
  })
}

function roundTrip(ws: WebSocket, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer over WebSocket to ${body.slice(0, 120)}`)), 60_000)
    ws.once('message', (data: Buffer) => {
      clearTimeout(timer)
      resolve(data.toString('utf8'))
    })
    ws.send(body)
  })
}
