// What the transport costs per request, measured in CPU rather than elapsed time: the same
// JSON-RPC calls made in process (no transport), over HTTP and over WebSocket to one `ringchain
// serve`, and to anvil, in batches that take turns. CPU is read from /proc/<pid>/task/<tid>/schedstat
// (nanoseconds on CPU; Linux only), so a busy machine, which stretches elapsed time several fold,
// moves it far less. For ringchain, the main thread's (JavaScript runs there; V8's background
// threads, JIT compiler and GC helpers, are shown apart); in process, that of a child holding only
// the chain, handed each batch whole; for anvil, every thread's. `transport` is the HTTP or
// WebSocket figure minus the in-process one.
//
//   npm run build && node bench/transport.mjs [--rounds 12] [--batch 20] [--no-anvil]

import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { encodeFunctionData, http, webSocket } from 'viem'
import { threadsCpuMs } from './proc-cpu.mjs'
import { HARDFORK, Store, accounts, devChain } from './suite-flows.mjs'
import { stopProcess } from './processes.mjs'
import { startAnvil, startRingchain } from './suite.mjs'
import { findAnvil } from './startup.mjs'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '12' }, batch: { type: 'string', default: '20' }, 'no-anvil': { type: 'boolean', default: false }, 'in-process-child': { type: 'boolean', default: false } },
})
const ROUNDS = Number(values.rounds)
const BATCH = Number(values.batch)

// The in-process target lives in a child of its own, so that its CPU is the chain's alone (this
// process also runs the other targets' clients): it answers a whole batch per IPC message.
if (values['in-process-child']) {
  const { createRingchain } = await import(new URL('../dist/index.js', import.meta.url).href)
  const ringchain = await createRingchain({ hardfork: HARDFORK })
  process.on('message', async ({ seq, requests }) => {
    try {
      const results = []
      for (const args of requests) results.push(await ringchain.request(args))
      process.send({ seq, results })
    } catch (e) {
      process.send({ seq, error: e.message })
    }
  })
  process.send({ ready: true })
  await new Promise((resolve) => process.once('disconnect', resolve))
  process.exit(0)
}

if (process.platform !== 'linux') {
  console.log(`transport: not measured on ${process.platform} (it reads the server's CPU from /proc/<pid>/task/*/schedstat)`)
  process.exit(0)
}


const me = accounts[0].address
const fees = { chainId: 31337, type: 'eip1559', maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
const storeCall = (v) => encodeFunctionData({ abi: Store.abi, functionName: 'store', args: [v] })

/** Deploys Store through `request`; resolves with what the rows need. */
async function prepare(request) {
  const nonce = Number(await request({ method: 'eth_getTransactionCount', params: [me, 'pending'] }))
  const deploy = await accounts[0].signTransaction({ ...fees, nonce, data: Store.bytecode, gas: 1_000_000n })
  const hash = await request({ method: 'eth_sendRawTransaction', params: [deploy] })
  // anvil may answer the send before it mines: ask again, a bounded number of times.
  let receipt = null
  for (let i = 0; receipt === null && i < 1_000; i++) {
    receipt = await request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (receipt === null) await new Promise((resolve) => setTimeout(resolve, 2))
  }
  if (receipt?.status !== '0x1') throw new Error('Store deployment failed')
  return { store: receipt.contractAddress, hash }
}

/** The rows: one request each, built once per batch (the storage writes: one per request). */
const ROWS = {
  eth_chainId: () => ({ method: 'eth_chainId', params: [] }),
  eth_getBalance: () => ({ method: 'eth_getBalance', params: [me, 'latest'] }),
  eth_getTransactionReceipt: (f) => ({ method: 'eth_getTransactionReceipt', params: [f.hash] }),
  'eth_call (view)': (f) => ({ method: 'eth_call', params: [{ to: f.store, data: encodeFunctionData({ abi: Store.abi, functionName: 'balances', args: [me] }) }, 'latest'] }),
  'eth_estimateGas (call)': (f) => ({ method: 'eth_estimateGas', params: [{ from: me, to: f.store, data: storeCall(7n) }] }),
  eth_fillTransaction: (f) => ({ method: 'eth_fillTransaction', params: [{ from: me, to: f.store, data: storeCall(7n) }] }),
  'eth_sendRawTransaction (storage write)': null,
}

/** Times one batch of `row` on `target`: { cpu, wall } in ms per request. */
async function batch(target, row) {
  const fixture = target.fixture
  let requests
  if (ROWS[row] === null) {
    let nonce = Number(await target.request({ method: 'eth_getTransactionCount', params: [me, 'pending'] }))
    requests = []
    for (let i = 0; i < BATCH; i++) {
      const raw = await accounts[0].signTransaction({ ...fees, nonce: nonce++, to: fixture.store, data: storeCall(BigInt(i + 1)), gas: 100_000n })
      requests.push({ method: 'eth_sendRawTransaction', params: [raw] })
    }
  } else {
    requests = Array.from({ length: BATCH }, () => ROWS[row](fixture))
  }
  const cpu0 = threadsCpuMs(target.pid, target.mainOnly)
  const all0 = threadsCpuMs(target.pid)
  const wall0 = performance.now()
  await target.run(requests)
  const cpu = (threadsCpuMs(target.pid, target.mainOnly) - cpu0) / BATCH
  return { cpu, background: (threadsCpuMs(target.pid) - all0) / BATCH - cpu, wall: (performance.now() - wall0) / BATCH }
}

const targets = []
const processes = []
const scratch = mkdtempSync(join(tmpdir(), 'ringchain-bench-transport-'))
try {
  const child = fork(new URL(import.meta.url).pathname, ['--in-process-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  processes.push(child)
  await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`in-process child exited with ${code}`)))
  })
  let seq = 0
  const run = (requests) =>
    new Promise((resolve, reject) => {
      const mine = ++seq
      const onMessage = (m) => {
        if (m.seq !== mine) return
        child.off('message', onMessage)
        if (m.error !== undefined) reject(new Error(m.error))
        else resolve(m.results)
      }
      child.on('message', onMessage)
      child.send({ seq: mine, requests })
    })
  targets.push({ name: 'ringchain in-process', request: async (args) => (await run([args]))[0], run, pid: child.pid, mainOnly: true })

  const ringchain = await startRingchain()
  processes.push(ringchain.child)
  const pid = ringchain.child.pid
  targets.push({ name: 'ringchain HTTP', request: http(ringchain.httpUrl, { retryCount: 0 })({ chain: devChain }).request, pid, mainOnly: true })
  targets.push({ name: 'ringchain WS', request: webSocket(ringchain.wsUrl, { retryCount: 0 })({ chain: devChain }).request, pid, mainOnly: true })

  const anvil = values['no-anvil'] ? { reason: '--no-anvil' } : findAnvil()
  if (anvil.binary !== undefined) {
    const server = await startAnvil(anvil.binary, mkdtempSync(join(scratch, 'anvil-')))
    processes.push(server.child)
    const pid = server.child.pid
    targets.push({ name: 'anvil HTTP', request: http(server.httpUrl, { retryCount: 0 })({ chain: devChain }).request, pid, mainOnly: false })
    targets.push({ name: 'anvil WS', request: webSocket(server.wsUrl, { retryCount: 0 })({ chain: devChain }).request, pid, mainOnly: false })
  } else {
    console.error(`anvil: not measured (${anvil.reason})`)
  }

  for (const target of targets) {
    target.fixture = await prepare(target.request)
    target.run ??= async (requests) => {
      for (const args of requests) await target.request(args)
    }
  }

  /** results[row][target] = [{ cpu, wall }, …], one entry per measured round. */
  const results = {}
  for (let round = 0; round < ROUNDS; round++) {
    // The first two rounds warm the JIT of every process up and are not counted.
    for (const row of Object.keys(ROWS)) {
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(i + round) % targets.length]
        const measured = await batch(target, row)
        if (round >= 2) ((results[row] ??= {})[target.name] ??= []).push(measured)
      }
    }
  }

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]
  }
  const names = targets.map((t) => t.name)
  const figure = (key) => (row, name) => (results[row][name] === undefined ? undefined : median(results[row][name].map((m) => m[key])))
  const cpuOf = figure('cpu')
  const wallOf = figure('wall')
  const backgroundOf = figure('background')
  const ringchainNames = names.filter((n) => n.startsWith('ringchain'))
  const cell = (v) => (v === undefined ? '–' : v.toFixed(3))
  const lines = [
    `CPU per request, ms (median of ${ROUNDS - 2} batches of ${BATCH}, from schedstat; ringchain: the main thread, anvil: every thread). node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `| method | ${names.join(' | ')} | transport HTTP | transport WS |`,
    `|---|${names.map(() => '---:').join('|')}|---:|---:|`,
  ]
  for (const row of Object.keys(ROWS)) {
    const base = cpuOf(row, 'ringchain in-process')
    const over = (name) => (cpuOf(row, name) === undefined ? undefined : cpuOf(row, name) - base)
    lines.push(`| ${row} | ${names.map((n) => cell(cpuOf(row, n))).join(' | ')} | ${cell(over('ringchain HTTP'))} | ${cell(over('ringchain WS'))} |`)
  }
  lines.push('', `ringchain's V8 background threads (JIT compiler, GC helpers), CPU ms per request:`, '', `| method | ${ringchainNames.join(' | ')} |`, `|---|${ringchainNames.map(() => '---:').join('|')}|`)
  for (const row of Object.keys(ROWS)) lines.push(`| ${row} | ${ringchainNames.map((n) => cell(backgroundOf(row, n))).join(' | ')} |`)
  lines.push('', `Elapsed ms per request, for reference (one request in flight; on a busy machine mostly waiting for a CPU):`, '', `| method | ${names.join(' | ')} |`, `|---|${names.map(() => '---:').join('|')}|`)
  for (const row of Object.keys(ROWS)) lines.push(`| ${row} | ${names.map((n) => cell(wallOf(row, n))).join(' | ')} |`)
  console.log(lines.join('\n'))
} finally {
  await Promise.all(processes.map((child) => stopProcess(child)))
  rmSync(scratch, { recursive: true, force: true })
}
process.exit(0)
