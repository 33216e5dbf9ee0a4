// Where the CPU of one test goes: the JSON-RPC requests viem's flow of suite-flows.mjs sends are
// recorded once (in process), then replayed as they are, one at a time, N times: in process
// (dist/index.js) and against `ringchain serve` (dist/cli/main.js) over WebSocket and HTTP with
// a bare client. In process the figure is the chain's work; served, it is the server process's CPU
// (read from /proc), so the difference is what the transport adds. The replay client costs next to
// nothing, unlike viem, so a server's figure is not blurred by its client's.
//
// A recorded test replays exactly: every test starts from the same snapshot, so the signed
// transactions, nonces and estimates are the same each time.
//
//   node bench/flow-replay.mjs [N=40] [FLOW=viem|erc20|ethers] [ONLY=in-process,WebSocket,…] [ANVIL=1] [METHODS=1]   (env; RINGCHAIN_BENCH_CLI picks another
//   CLI, RINGCHAIN_BENCH_DIST another dist for in process)
//
// Prints, per test, ms and CPU ms (Linux /proc schedstat: the main thread, where JavaScript runs,
// and all threads, V8's JIT compiler and GC helpers included) for tests 4-20 (the suite section's
// measured range: 3 warm-up tests, then 15) and for the second half of the run.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserProvider } from 'ethers'
import { custom } from 'viem'
import WebSocket from 'ws'
import { FLOWS, HARDFORK, viemClients } from './suite-flows.mjs'
import { threadsCpuMs } from './proc-cpu.mjs'
import { stopProcess, warmupEnded } from './processes.mjs'
import { findAnvil } from './startup.mjs'
import { startAnvil, startRingchain } from './suite.mjs'

const N = Number(process.env.N ?? 40)
const FLOW = process.env.FLOW ?? 'viem'
const ONLY = process.env.ONLY
/** RINGCHAIN_BENCH_DIST: another build's dist (with a node_modules beside it: see calls.mjs) for the in-process rows. */
const DIST = process.env.RINGCHAIN_BENCH_DIST === undefined ? new URL('../dist/', import.meta.url) : pathToFileURL(`${resolve(process.env.RINGCHAIN_BENCH_DIST)}/`)
const loadRingchain = async () => (await import(new URL('index.js', DIST).href)).createRingchain

/**
 * One test's requests, as viem (or ethers, through the BrowserProvider the suite gives it in
 * process) sent them in process (its second test: the first warms the client up). ethers sends a
 * few requests together (the block number with the raw transaction, the three of `getFeeData`):
 * they are logged in the order sent and replayed one after another.
 * Run in a process of its own (`--record`), so that the in-process replay starts as cold as a server.
 */
async function record() {
  const createRingchain = await loadRingchain()
  const rc = await createRingchain({ hardfork: HARDFORK })
  let log = []
  const request = async (args) => {
    log.push({ method: args.method, params: args.params ?? [] })
    return rc.request(args)
  }
  const clients = {
    viem: viemClients(custom({ request })),
    ethers: { provider: new BrowserProvider({ request }, 31337, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 }), onStall: () => {} },
  }
  await FLOWS[FLOW].run(clients)
  log = []
  await FLOWS[FLOW].run(clients)
  await rc.close()
  return log
}

/** CPU ms so far of a process: its main thread (where JavaScript runs) and all its threads (V8's JIT and GC helpers too). */
const cpuOf = (pid) => () => ({ main: threadsCpuMs(pid, true), all: threadsCpuMs(pid) })

async function inProcess() {
  const createRingchain = await loadRingchain()
  const rc = await createRingchain({ hardfork: HARDFORK })
  return { request: (method, params) => rc.request({ method, params }), cpuMs: cpuOf(process.pid), stop: () => rc.close() }
}

function anvilBinary() {
  const found = findAnvil()
  if (found.binary === undefined) throw new Error(`ANVIL=1: ${found.reason}`)
  return found.binary
}

async function served(transport, server = 'ringchain') {
  const cachePath = mkdtempSync(join(tmpdir(), 'flow-replay-anvil-'))
  const { child, httpUrl, wsUrl } = server === 'anvil' ? await startAnvil(anvilBinary(), cachePath) : await startRingchain()
  // Replayed once its warm-up (src/warmup/) has ended; RINGCHAIN_WARMUP=off replays against a cold server.
  if (server === 'ringchain') await warmupEnded(httpUrl)
  const stopChild = async () => (await stopProcess(child), rmSync(cachePath, { recursive: true, force: true }))
  let id = 1
  const answer = (text) => {
    const parsed = JSON.parse(text)
    if (parsed.error !== undefined) throw new Error(parsed.error.message)
    return parsed.result
  }
  if (transport === 'http') {
    const request = async (method, params) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method, params })
      return answer(await (await fetch(httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text())
    }
    return { request, cpuMs: cpuOf(child.pid), stop: stopChild }
  }
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  let waiting
  ws.on('message', (data) => waiting(String(data)))
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      waiting = (text) => {
        try {
          resolve(answer(text))
        } catch (e) {
          reject(e)
        }
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }))
    })
  return { request, cpuMs: cpuOf(child.pid), stop: () => (ws.close(), stopChild()) }
}

const RECEIPT_RETRIES = 1_000

/** Wall ms per method over the tests replayed while set (METHODS=1: the second half's). */
let methodMs

/** One replayed test; the snapshot id of this run goes to its revert. */
async function replay(log, request) {
  let snapshot
  for (const { method, params } of log) {
    const started = performance.now()
    let result = await request(method, method === 'evm_revert' ? [snapshot] : params)
    // anvil answers a send once pooled and mines it a moment later: ask again, as clients poll.
    for (let again = 0; method === 'eth_getTransactionReceipt' && result === null && again < RECEIPT_RETRIES; again++) result = await request(method, params)
    methodMs?.set(method, (methodMs.get(method) ?? 0) + performance.now() - started)
    if (method === 'evm_snapshot') snapshot = result
    if (method === 'eth_getTransactionReceipt' && result?.status !== '0x1') throw new Error('a replayed transaction failed')
  }
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
if (process.argv[2] === '--record') {
  process.stdout.write(JSON.stringify(await record()))
  process.exit(0)
}
const log = JSON.parse(execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--record'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))
console.log(`${FLOW}: ${log.length} requests per test (${[...new Set(log.map((l) => l.method))].join(', ')}), ${N} tests each`)
const targets = [['in process', inProcess], ['WebSocket', () => served('ws')], ['HTTP', () => served('http')]]
// ANVIL=1: the same requests replayed against anvil too (its defaults are the same accounts, chain id and automine).
if (process.env.ANVIL === '1') targets.push(['anvil WebSocket', () => served('ws', 'anvil')], ['anvil HTTP', () => served('http', 'anvil')])
for (const [name, open] of targets.filter(([name]) => ONLY === undefined || ONLY.split(',').some((only) => only.replace('-', ' ') === name))) {
  const target = await open()
  const ms = []
  const main = []
  const all = []
  for (let i = 0; i < N; i++) {
    if (process.env.METHODS === '1' && i === N >> 1) methodMs = new Map()
    const before = target.cpuMs()
    const started = performance.now()
    await replay(log, target.request)
    ms.push(performance.now() - started)
    const after = target.cpuMs()
    main.push(after.main - before.main)
    all.push(after.all - before.all)
  }
  await target.stop()
  const range = (from, to) => `${mean(ms.slice(from, to)).toFixed(1)} ms, CPU ${mean(main.slice(from, to)).toFixed(1)} main thread / ${mean(all.slice(from, to)).toFixed(1)} all threads`
  console.log(`  ${name.padEnd(15)} tests 4-20: ${range(3, 20)} | second half: ${range(N >> 1)}`)
  if (methodMs !== undefined) console.log(`    second half, ms per test in: ${[...methodMs].map(([method, total]) => `${method} ${(total / (N - (N >> 1))).toFixed(2)}`).join(', ')}`)
  methodMs = undefined
}
