#!/usr/bin/env node
// ringchain beside anvil and a bare Node ceiling server, in one run, on loopback: startup, automined
// transfers and storage writes, reads of the three spec methods over HTTP keep-alive and one
// WebSocket at 1 and 32 requests in flight, a read at head−127 against one at the head, and
// resident memory as blocks pile up. Prints one markdown table with the ratios ringchain/anvil and
// ringchain/ceiling and writes it, with every raw figure as JSON, to bench/results/. See bench/README.md.
//
//   npm run bench                          (builds first; about 3 minutes, under 5)
//   node bench/run.mjs --quick             (or RINGCHAIN_BENCH_QUICK=1: shorter runs, fewer blocks, about 1 minute)
//   node bench/run.mjs --only reads,mine   (sections: suite, wake, startup, mine, reads, window, fire, memory, fork)
//   node bench/run.mjs --only fork         (a forked test flow: ringchain --fork-url vs anvil --fork-url
//                                           on one local upstream, ms and upstream calls per test)
//   node bench/run.mjs --no-anvil          (ringchain, the ceiling and the floor only)
//   node bench/run.mjs --only reads --busy (reads with a CPU-bound neighbour at nice 19 keeping the
//                                           CPUs out of idle: what one request in flight costs
//                                           without the wake-up from idle; not for the README table)
//   node bench/run.mjs --anvil-memory      (anvil's memory up to 20k blocks too: adds about 2 minutes)

import { fork, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, generateAddress, hexToBytes, intToBytes, setLengthLeft } from '@ethereumjs/util'
import { readyLine, sleep, stopProcess, waitForRpc, warmupEnded } from './processes.mjs'
import { anvilReady, findAnvil, freePort, ringchainCommand, ringchainNodeCommand, ringchainReady, series } from './startup.mjs'
import { suiteSection, suiteTables } from './suite.mjs'
import { fireSection } from './fire.mjs'
import { forkSection, forkTable } from './fork.mjs'
import { sendWaitSection, sendWaitTable } from './send-wait.mjs'
import { wakeSection, wakeTable } from './wake.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const option = (name) => {
  const at = argv.findIndex((a) => a === name || a.startsWith(name + '='))
  if (at === -1) return undefined
  return argv[at].includes('=') ? argv[at].slice(name.length + 1) : argv[at + 1]
}
const quick = flag('--quick') || process.env.RINGCHAIN_BENCH_QUICK === '1'
const SECTIONS = ['suite', 'wake', 'startup', 'mine', 'reads', 'window', 'fire', 'memory', 'fork']
const only = new Set((option('--only') ?? SECTIONS.join(',')).split(','))
for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section ${s} (one of ${SECTIONS.join(', ')})`)
const withAnvil = !flag('--no-anvil')
const busy = flag('--busy')

const CONFIG = quick
  ? { startupRuns: 3, fire: 500, transfers: 300, calls: 300, chunk: 150, warmupMs: 150, durationMs: 500, rounds: 1, memoryBlocks: [1_000, 2_000, 5_000], anvilMemoryBlocks: [1_000, 2_000] }
  : { startupRuns: 5, fire: 2_000, transfers: 2_000, calls: 2_000, chunk: 250, warmupMs: 250, durationMs: 1_000, rounds: 2, memoryBlocks: [1_000, 5_000, 10_000, 20_000], anvilMemoryBlocks: [1_000, 5_000] }
if (flag('--anvil-memory')) CONFIG.anvilMemoryBlocks = CONFIG.memoryBlocks

// The well-known dev keys of the `test … junk` mnemonic: both nodes fund them at genesis.
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
].map((k) => hexToBytes(k))
const ADDRESSES = ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']

// `sstore(calldata[0:32], calldata[32:64])`, behind the usual copy-and-return init code. Each call
// writes slot i % 8 (so every slot has history inside the window) with the value i + 1.
const RUNTIME = '6020356000355500'
const INIT = '0x6008600c60003960086000f3' + RUNTIME
const SLOTS = 8

const log = (message) => process.stderr.write(message + '\n')

// --- transactions ---------------------------------------------------------------------------------

function signedTransactions() {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
  const sign = (key, data) => bytesToHex(createFeeMarket1559Tx({ chainId: 31337n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, ...data }, { common }).sign(key).serialize())
  const transfers = Array.from({ length: CONFIG.transfers }, (_, i) => sign(KEYS[0], { nonce: BigInt(i), to: ADDRESSES[1], value: 1n, gasLimit: 21_000n }))
  const deploy = sign(KEYS[2], { nonce: 0n, data: INIT, gasLimit: 200_000n })
  const contract = bytesToHex(generateAddress(hexToBytes(ADDRESSES[2]), new Uint8Array()))
  const word = (n) => bytesToHex(setLengthLeft(intToBytes(n), 32)).slice(2)
  const calls = Array.from({ length: CONFIG.calls }, (_, i) => sign(KEYS[2], { nonce: BigInt(i + 1), to: contract, gasLimit: 100_000n, data: '0x' + word(i % SLOTS) + word(i + 1) }))
  // The first transfer's hash: its block has left the window once the mine section is over.
  const firstTransferHash = bytesToHex(createFeeMarket1559Tx({ chainId: 31337n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, nonce: 0n, to: ADDRESSES[1], value: 1n, gasLimit: 21_000n }, { common }).sign(KEYS[0]).hash())
  return { transfers, deploy, contract, calls, firstTransferHash }
}

// --- processes ------------------------------------------------------------------------------------

/** Posts one JSON-RPC call (no keep-alive: setup and polling only, never measured). */
function rpc(url, method, params = []) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => {
        try {
          const answer = JSON.parse(text)
          if (answer.error !== undefined) reject(new Error(`${method}: ${answer.error.message}`))
          else resolve(answer.result)
        } catch (e) {
          reject(e)
        }
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

// anvil persists states beyond its in-memory ones under ~/.foundry/anvil/tmp and leaves them there
// when stopped: every anvil of the run gets a directory of its own here, removed at the end.
const anvilCache = mkdtempSync(join(tmpdir(), 'ringchain-bench-anvil-'))
const anvilArgs = (extra = []) => ['--cache-path', anvilCache, ...extra]
// anvil's near-head mode (128 states in memory, nothing on disk), ringchain's shape.
const PRUNED = ['--prune-history', '128']

/**
 * A server under test: its process, its URLs. `name` is ringchain, anvil, anvil-pruned, ceiling or
 * floor (the ceiling's node:net variant, HTTP only).
 * `probe`: ringchain with bench/gc-probe.mjs loaded, for the memory section.
 */
async function startNode(name, { probe = false } = {}) {
  if (name.startsWith('anvil')) {
    const port = await freePort()
    // --silent: anvil otherwise prints every request, where ringchain runs at log level warn.
    const child = spawn(anvilBinary, ['--port', String(port), '--silent', ...anvilArgs(name === 'anvil-pruned' ? PRUNED : [])], { stdio: ['ignore', 'ignore', 'pipe'] })
    const httpUrl = `http://127.0.0.1:${port}`
    await waitForRpc(httpUrl, child, name)
    return { name, child, httpUrl, wsUrl: `ws://127.0.0.1:${port}` }
  }
  const [command, args] =
    name === 'ringchain'
      ? probe
        ? // Node flags: the memory probe's ringchain is started by Node itself, not through the bin's #! line.
          [ringchainNodeCommand.command, ['--expose-gc', '--import', pathToFileURL(join(here, 'gc-probe.mjs')).href, ...ringchainNodeCommand.args]]
        : [ringchainCommand.command, ringchainCommand.args]
      : [process.execPath, [join(here, 'ceiling.mjs'), ...(name === 'floor' ? ['--net'] : [])]]
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', probe ? 'pipe' : 'inherit'] })
  const probes = []
  if (probe) {
    let buffer = ''
    child.stderr.on('data', (d) => {
      buffer += d
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 1)
        if (line.startsWith('gc-probe ')) probes.shift()?.(JSON.parse(line.slice(9)))
        else process.stderr.write(line + '\n')
      }
    })
  }
  // The ceiling prints ringchain's ready line: JSON with httpUrl (and wsUrl).
  const info = await readyLine(child, name)
  // ringchain warms itself up while idle after its start (src/warmup/): measured once that has ended.
  if (name === 'ringchain') await warmupEnded(info.httpUrl)
  /** Runs a full collection in the server (probe only) and resolves with its process.memoryUsage(). */
  const collect = () =>
    new Promise((resolve) => {
      probes.push(resolve)
      child.kill('SIGUSR2')
    })
  return { name, child, httpUrl: info.httpUrl, wsUrl: info.wsUrl, collect: probe ? collect : undefined }
}

/** Resident memory of a process, MiB (Linux /proc). */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? NaN : Number(match[1]) / 1024
}

/** CPU seconds a process has used (Linux /proc: utime + stime). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

// --- the load process -----------------------------------------------------------------------------

const loader = fork(join(here, 'load.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
let nextSeq = 1
const waiting = new Map()
loader.on('message', ({ seq, result, error }) => {
  const w = waiting.get(seq)
  waiting.delete(seq)
  if (error !== undefined) w.reject(new Error(error))
  else w.resolve(result)
})
/** Runs a job in the load process against `node`; adds the server's CPU seconds over the whole job. */
function job(node, spec) {
  const seq = nextSeq++
  const cpu0 = cpuSeconds(node.child.pid)
  return new Promise((resolve, reject) => {
    waiting.set(seq, { resolve, reject })
    loader.send({ seq, job: { ...spec, serverPid: node.child.pid } })
  }).then((result) => ({ ...result, jobServerCpuSeconds: cpuSeconds(node.child.pid) - cpu0 }))
}

// --- sections -------------------------------------------------------------------------------------

const results = { config: { quick, busy, ...CONFIG }, machine: { node: process.version, cpus: cpus().length, model: cpus()[0]?.model }, startedAt: new Date().toISOString() }
const anvilFound = withAnvil ? findAnvil() : { reason: '--no-anvil' }
const anvilBinary = anvilFound.binary
if (anvilBinary === undefined) log(`anvil: not measured (${anvilFound.reason})`)
const anvilVersion = anvilBinary === undefined ? undefined : /Version: (\S+)/.exec(spawnSync(anvilBinary, ['--version'], { encoding: 'utf8' }).stdout)?.[1]
results.machine.anvil = anvilVersion

async function startupSection() {
  log('startup…')
  const out = {}
  out.ringchain = await series('ringchain', ringchainCommand.command, ringchainCommand.args, ringchainReady, CONFIG.startupRuns)
  if (anvilBinary !== undefined) out.anvil = await series('anvil', anvilBinary, ['--port', '0', ...anvilArgs()], anvilReady, CONFIG.startupRuns)
  out.ceiling = await series('ceiling', process.execPath, [join(here, 'ceiling.mjs')], ringchainReady, CONFIG.startupRuns)
  return out
}

/**
 * Sequential automined transactions, each followed by its receipt (checked for status 1). The
 * nodes take turns, a chunk each, so a noisy neighbour on a shared machine slows them alike.
 */
async function mineSection(nodes, txs) {
  const out = { transfers: {}, calls: {} }
  for (const node of nodes) {
    const hash = await rpc(node.httpUrl, 'eth_sendRawTransaction', [txs.deploy])
    for (let receipt = null; receipt === null; await sleep(5)) receipt = await rpc(node.httpUrl, 'eth_getTransactionReceipt', [hash])
  }
  for (const kind of ['transfers', 'calls']) {
    const raws = txs[kind]
    for (let from = 0; from < raws.length; from += CONFIG.chunk) {
      for (const node of nodes) {
        log(`${kind} ${from}..${Math.min(from + CONFIG.chunk, raws.length)} on ${node.name}…`)
        const r = await job(node, { kind: 'send', url: node.httpUrl, raws: raws.slice(from, from + CONFIG.chunk) })
        if (r.failed.length > 0) throw new Error(`${node.name}: ${r.failed.length} ${kind} without a status-1 receipt, e.g. ${r.failed[0]}`)
        const total = (out[kind][node.name] ??= { transactions: 0, seconds: 0, serverCpuSeconds: 0, polls: 0 })
        total.transactions += r.transactions
        total.seconds += r.seconds
        total.serverCpuSeconds += r.jobServerCpuSeconds
        total.polls += r.polls
        total.lastHash = r.lastHash
      }
    }
    for (const total of Object.values(out[kind])) {
      total.tps = total.transactions / total.seconds
      total.serverCpuMsPerTx = (1000 * total.serverCpuSeconds) / total.transactions
    }
  }
  return out
}

/** The three spec methods as read on a node after the mine section (the ceiling answers anything). */
function readRequests(lastHash, contract) {
  return {
    eth_getStorageAt: [contract, '0x0', 'latest'],
    eth_getTransactionByHash: [lastHash],
    eth_getTransactionReceipt: [lastHash],
  }
}

async function readsSection(nodes, ceiling, floor, txs) {
  const out = {}
  for (const transport of ['http', 'ws']) {
    const targets = transport === 'http' ? [floor, ceiling, ...nodes] : [ceiling, ...nodes]
    for (const inFlight of [1, 32]) {
      for (const method of ['eth_getStorageAt', 'eth_getTransactionByHash', 'eth_getTransactionReceipt']) {
        const key = `${method} ${transport} ×${inFlight}`
        log(`reads: ${key}…`)
        const row = (out[key] = { method, transport, inFlight })
        for (let round = 0; round < CONFIG.rounds; round++) {
          for (const node of targets) {
            const params = readRequests((node === ceiling || node === floor ? nodes[0] : node).lastHash, txs.contract)[method]
            const r = await job(node, { kind: 'reads', transport, url: transport === 'ws' ? node.wsUrl : node.httpUrl, method, params, inFlight, warmupMs: CONFIG.warmupMs, durationMs: CONFIG.durationMs })
            if (r.errors > 0) throw new Error(`${node.name} ${key}: ${r.errors} errors, e.g. ${r.firstError}`)
            // Best of the rounds: the machine is shared, and noise only ever slows a run down.
            if (row[node.name] === undefined || r.rps > row[node.name].rps) row[node.name] = r
          }
        }
      }
    }
  }
  return out
}

async function windowSection(nodes, txs) {
  const out = {}
  for (let round = 0; round < CONFIG.rounds; round++) {
    for (const node of nodes) {
      const head = BigInt(await rpc(node.httpUrl, 'eth_blockNumber'))
      const entry = (out[node.name] ??= { headNumber: Number(head) })
      for (const [label, block] of [['head', head], ['head-127', head - 127n]]) {
        log(`window: ${node.name} eth_getStorageAt at ${label}…`)
        const r = await job(node, { kind: 'reads', transport: 'ws', url: node.wsUrl, method: 'eth_getStorageAt', params: [txs.contract, '0x0', '0x' + block.toString(16)], inFlight: 32, warmupMs: CONFIG.warmupMs, durationMs: CONFIG.durationMs })
        if (r.errors > 0) throw new Error(`${node.name} window ${label}: ${r.errors} errors, e.g. ${r.firstError}`)
        if (entry[label] === undefined || r.rps > entry[label].rps) entry[label] = r
      }
      // A lookup of a hash whose block has left the window (null on ringchain) against one inside it.
      for (const method of ['eth_getTransactionReceipt', 'eth_getTransactionByHash']) {
        for (const [label, hash] of [['inside', node.lastHash], ['left', txs.firstTransferHash]]) {
          log(`window: ${node.name} ${method} of a hash ${label}…`)
          const r = await job(node, { kind: 'reads', transport: 'ws', url: node.wsUrl, method, params: [hash], inFlight: 32, warmupMs: CONFIG.warmupMs, durationMs: CONFIG.durationMs })
          if (r.errors > 0) throw new Error(`${node.name} window ${method} ${label}: ${r.errors} errors, e.g. ${r.firstError}`)
          const at = (entry[method] ??= {})
          if (at[label] === undefined || r.rps > at[label].rps) at[label] = r
        }
      }
    }
  }
  for (const entry of Object.values(out)) entry.ratio = entry['head-127'].rps / entry.head.rps
  return out
}

/** Resident memory of a fresh node as `anvil_mine` adds empty blocks (anvil: its near-head mode, see the README). */
async function memorySection() {
  const out = {}
  const plan = [['ringchain', CONFIG.memoryBlocks], ...(anvilBinary === undefined ? [] : [['anvil-pruned', CONFIG.anvilMemoryBlocks]])]
  for (const [name, checkpoints] of plan) {
    const node = await startNode(name, { probe: name === 'ringchain' })
    const MiB = 1024 * 1024
    /** Resident memory (after a full collection where the probe can run one) and the live heap. */
    const sample = async () => {
      const heap = node.collect === undefined ? undefined : await node.collect()
      return { rssMiB: rssMiB(node.child.pid), ...(heap === undefined ? {} : { heapMiB: heap.heapUsed / MiB }) }
    }
    try {
      const rows = [{ blocks: 0, ...(await sample()), seconds: 0 }]
      const t0 = performance.now()
      let mined = 0
      for (const target of checkpoints) {
        while (mined < target) {
          const n = Math.min(1_000, target - mined)
          await rpc(node.httpUrl, 'anvil_mine', ['0x' + n.toString(16)])
          mined += n
        }
        const seconds = (performance.now() - t0) / 1000
        rows.push({ blocks: mined, ...(await sample()), seconds })
        log(`memory: ${name} ${JSON.stringify(rows.at(-1))}`)
      }
      const growth = (field, from, to) => {
        const a = rows.find((r) => r.blocks === from)?.[field]
        const b = rows.find((r) => r.blocks === to)?.[field]
        return a === undefined || b === undefined ? undefined : (b - a) / ((to - from) / 1_000)
      }
      const last = rows.at(-1)
      out[name] = {
        rows,
        growthPer1kMiB: growth('rssMiB', 1_000, last.blocks),
        growthPer1kAfter10kMiB: growth('rssMiB', 10_000, 20_000),
        heapGrowthPer1kMiB: growth('heapMiB', 1_000, last.blocks),
        heapGrowthPer1kAfter10kMiB: growth('heapMiB', 10_000, 20_000),
        msPerBlock: (1000 * last.seconds) / last.blocks,
      }
    } finally {
      await stopProcess(node?.child)
    }
  }
  return out
}

// --- the table ------------------------------------------------------------------------------------

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–')
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? (a / b).toFixed(2) : '–')
const mark = (ok) => (ok === undefined ? '' : ok ? ' ✓' : ' ✗')
// The flat-memory target holds once the EIP-2935/4788 ring buffers are full (block 8,191): a run
// that stops before (--quick) cannot tell, so it says so rather than fail it.
const RING_BUFFERS_FULL = 8_191
const memoryMark = (ok) => (Math.max(...CONFIG.memoryBlocks) > RING_BUFFERS_FULL ? mark(ok) : ` – (${quick ? 'quick run' : 'run'}: not measured; needs blocks past ${fmt(RING_BUFFERS_FULL)})`)

function table(r) {
  const lines = [
    '| measure | ringchain | anvil | ceiling | ringchain/anvil | ringchain/ceiling | target | node:net floor (ringchain/floor) |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
  ]
  const row = (measure, rc, anvil, ceiling, rcAnvil, rcCeiling, target, floor = '') =>
    lines.push(`| ${measure} | ${rc} | ${anvil} | ${ceiling} | ${rcAnvil} | ${rcCeiling} | ${target} | ${floor} |`)
  if (r.startup !== undefined) {
    const s = r.startup
    row(`startup, ms (spawn → first eth_chainId answer, median of ${CONFIG.startupRuns})`, fmt(s.ringchain.median), fmt(s.anvil?.median), fmt(s.ceiling.median), ratio(s.ringchain.median, s.anvil?.median), ratio(s.ringchain.median, s.ceiling.median), '< 250 ms' + mark(s.ringchain.median < 250))
    // The same starts' CPU (all threads, until the answer; Linux): steadier than wall time on a shared machine.
    if (s.ringchain.cpuMedian !== undefined) {
      row('startup, CPU ms (same starts, median)', fmt(s.ringchain.cpuMedian), fmt(s.anvil?.cpuMedian), fmt(s.ceiling.cpuMedian), ratio(s.ringchain.cpuMedian, s.anvil?.cpuMedian), ratio(s.ringchain.cpuMedian, s.ceiling.cpuMedian), '')
    }
  }
  if (r.mine !== undefined) {
    for (const [kind, label] of [['transfers', 'transfers'], ['calls', 'storage writes']]) {
      const m = r.mine[kind]
      const cell = (x) => (x === undefined ? '–' : `${fmt(x.tps)} (${fmt(x.serverCpuMsPerTx, 2)})`)
      row(`automined ${label}, tx/s (server CPU ms/tx); ${fmt(CONFIG[kind])} sequential, each receipt status 1`, cell(m.ringchain), cell(m.anvil), '', ratio(m.ringchain.tps, m.anvil?.tps), '', '≥ anvil' + mark(m.anvil === undefined ? undefined : m.ringchain.tps >= m.anvil.tps))
      if (m['anvil-pruned'] !== undefined) {
        row(`… the same against anvil --prune-history 128 (no disk)`, cell(m.ringchain), cell(m['anvil-pruned']), '', ratio(m.ringchain.tps, m['anvil-pruned'].tps), '', '(for reference)')
      }
    }
  }
  if (r.reads !== undefined) {
    for (const entry of Object.values(r.reads)) {
      const cell = (x) => (x === undefined ? '–' : `${fmt(x.rps)} (${fmt(x.p50, 2)} / ${fmt(x.p99, 2)})`)
      const rc = entry.ringchain
      const floor = entry.transport === 'ws' ? 0.8 : 0.9
      const needsAnvil = entry.transport === 'ws' || entry.method !== 'eth_getStorageAt'
      const okCeiling = rc.rps >= floor * entry.ceiling.rps
      const okAnvil = entry.anvil === undefined || !needsAnvil ? true : rc.rps >= entry.anvil.rps
      const target = `${needsAnvil ? '≥ anvil, ' : ''}≥ ${floor} ceiling` + mark(okCeiling && okAnvil)
      const floorCell = entry.floor === undefined ? '' : `${cell(entry.floor)} (${ratio(rc.rps, entry.floor.rps)})`
      row(`${entry.method} ${entry.transport === 'ws' ? 'WebSocket' : 'HTTP'} ×${entry.inFlight}, req/s (p50 / p99 ms)`, cell(rc), cell(entry.anvil), cell(entry.ceiling), ratio(rc.rps, entry.anvil?.rps), ratio(rc.rps, entry.ceiling.rps), target, floorCell)
    }
  }
  if (r.window !== undefined) {
    const w = r.window
    const cell = (x) => (x === undefined ? '–' : `${fmt(x['head-127'].rps)} vs ${fmt(x.head.rps)} (${x.ratio.toFixed(2)})`)
    row('eth_getStorageAt at head−127 vs at the head, req/s (WebSocket ×32)', cell(w.ringchain), cell(w.anvil), '', '', '', 'within 10%' + mark(Math.abs(1 - w.ringchain.ratio) <= 0.1))
    for (const method of ['eth_getTransactionReceipt', 'eth_getTransactionByHash']) {
      const lookup = (x) => (x?.[method] === undefined ? '–' : `${fmt(x[method].left.rps)} vs ${fmt(x[method].inside.rps)} (${(x[method].left.rps / x[method].inside.rps).toFixed(2)})`)
      const ratioOf = w.ringchain[method].left.rps / w.ringchain[method].inside.rps
      row(`${method} of a hash that left the window vs one inside it, req/s (WebSocket ×32)`, lookup(w.ringchain), lookup(w.anvil), '', '', '', 'left ≥ 0.9 × inside' + mark(ratioOf >= 0.9))
    }
  }
  if (r.fire !== undefined) {
    for (const entry of Object.values(r.fire)) {
      const cell = (x) => (x === undefined ? '–' : x.error !== undefined ? `failed: ${x.error}` : `${fmt(x.tps)} (${fmt(x.blocks)} blocks${x.nudges > 0 ? `, ${x.nudges} evm_mine after a 1 s stall` : ''})`)
      const rc = entry.ringchain
      const both = rc?.tps !== undefined && entry.anvil?.tps !== undefined
      row(`fired transfers ×${entry.inFlight} in flight, tx/s until all included (blocks used); ${fmt(CONFIG.fire)} over HTTP, automine`, cell(rc), cell(entry.anvil), '', both ? ratio(rc.tps, entry.anvil.tps) : '–', '', '≥ anvil' + mark(both ? rc.tps >= entry.anvil.tps : undefined))
    }
  }
  if (r.memory !== undefined) {
    const m = r.memory
    const anvil = m['anvil-pruned']
    for (const blocks of CONFIG.memoryBlocks) {
      const at = (x) => x?.rows.find((row) => row.blocks === blocks)
      const rc = at(m.ringchain)
      row(`resident memory after ${fmt(blocks)} empty blocks, MiB (ringchain: live heap after a full GC)`, `${fmt(rc?.rssMiB, 1)} (${fmt(rc?.heapMiB, 1)})`, fmt(at(anvil)?.rssMiB, 1), '', ratio(rc?.rssMiB, at(anvil)?.rssMiB), '', '')
    }
    const growth = (rss, heap) => `${fmt(rss, 2)} (${fmt(heap, 2)})`
    row('resident (live heap) growth per 1k blocks after the first 1k, MiB', growth(m.ringchain.growthPer1kMiB, m.ringchain.heapGrowthPer1kMiB), fmt(anvil?.growthPer1kMiB, 2), '', '', '', '< 0.5 MiB' + memoryMark(m.ringchain.heapGrowthPer1kMiB < 0.5))
    if (m.ringchain.growthPer1kAfter10kMiB !== undefined) {
      row('… from 10k to 20k (the EIP-2935/4788 ring buffers are full from 8,191)', growth(m.ringchain.growthPer1kAfter10kMiB, m.ringchain.heapGrowthPer1kAfter10kMiB), fmt(anvil?.growthPer1kAfter10kMiB, 2), '', '', '', '< 0.5 MiB' + mark(m.ringchain.heapGrowthPer1kAfter10kMiB < 0.5))
    }
    row('empty blocks mined (anvil_mine), ms/block', fmt(m.ringchain.msPerBlock, 2), fmt(anvil?.msPerBlock, 2), '', ratio(m.ringchain.msPerBlock, anvil?.msPerBlock), '', '')
  }
  return lines.join('\n')
}

// --- main -----------------------------------------------------------------------------------------

const dir = join(here, 'results')
mkdirSync(dir, { recursive: true })
const stamp = results.startedAt.replace(/[:.]/g, '-')
/** Written after every section, so an interrupted run keeps what it measured. */
const save = () => {
  const text = JSON.stringify(results, null, 2) + '\n'
  writeFileSync(join(dir, `${stamp}.json`), text)
  writeFileSync(join(dir, 'latest.json'), text)
}

const t0 = performance.now()
let nodes = []
let ceiling
let floor
try {
  if (only.has('suite')) {
    results.suite = await suiteSection({ quick, anvilBinary, anvilReason: anvilFound.reason, log })
    save()
  }
  if (only.has('wake')) {
    results.wake = await wakeSection({ quick, anvilBinary, log })
    save()
    results.sendWait = await sendWaitSection({ quick, anvilBinary, log })
    save()
  }
  if (only.has('startup')) {
    results.startup = await startupSection()
    save()
  }
  if (['mine', 'reads', 'window', 'fire'].some((s) => only.has(s))) {
    log('signing transactions…')
    const txs = signedTransactions()
    const names = ['ringchain', ...(anvilBinary === undefined ? [] : ['anvil'])]
    for (const name of names) nodes.push(await startNode(name))
    // Reads and the window read need mined blocks, so the mine section always runs with them.
    const mined = only.has('fire') && only.size === 1 ? undefined : await mineSection(nodes, txs)
    for (const node of nodes) node.lastHash = mined?.calls[node.name].lastHash
    if (only.has('mine')) {
      results.mine = mined
      if (anvilBinary !== undefined) {
        // For reference: anvil without its disk-backed state history.
        const pruned = await startNode('anvil-pruned')
        try {
          const again = await mineSection([pruned], txs)
          for (const kind of ['transfers', 'calls']) results.mine[kind]['anvil-pruned'] = again[kind]['anvil-pruned']
        } finally {
          await stopProcess(pruned?.child)
        }
      }
      save()
    }
    if (only.has('reads')) {
      ceiling = await startNode('ceiling')
      floor = await startNode('floor')
      // The lowest priority there is: it only takes CPU time nobody else wants.
      const neighbour = busy ? spawn('nice', ['-n', '19', process.execPath, '-e', 'for (;;);'], { stdio: 'ignore' }) : undefined
      try {
        results.reads = await readsSection(nodes, ceiling, floor, txs)
      } finally {
        neighbour?.kill('SIGKILL')
      }
      save()
    }
    if (only.has('window')) {
      results.window = await windowSection(nodes, txs)
      save()
    }
    if (only.has('fire')) {
      results.fire = await fireSection(nodes, { count: CONFIG.fire, rpc, log })
      save()
    }
    for (const node of [...nodes, ceiling, floor]) await stopProcess(node?.child)
  }
  if (only.has('memory')) {
    results.memory = await memorySection()
    save()
  }
  if (only.has('fork')) {
    results.fork = await forkSection({ quick, anvilBinary, log })
    save()
  }
} finally {
  for (const node of [...nodes, ceiling, floor]) await stopProcess(node?.child)
  loader.disconnect()
  rmSync(anvilCache, { recursive: true, force: true })
}
results.seconds = (performance.now() - t0) / 1000
save()

// The suite's tables first: they are the headline.
const tabled = [...only].some((s) => !['suite', 'wake', 'fork'].includes(s))
const markdown = [results.suite === undefined ? undefined : suiteTables(results.suite), results.wake === undefined ? undefined : wakeTable(results.wake), results.sendWait === undefined ? undefined : sendWaitTable(results.sendWait), tabled ? table(results) : undefined, results.fork === undefined ? undefined : forkTable(results.fork)]
  .filter((t) => t !== undefined)
  .join('\n\n')
const header = `ringchain vs anvil ${anvilVersion ?? '(not measured)'} vs a bare Node server; node ${process.version}, ${cpus().length} cores, ${quick ? 'quick mode' : 'full run'}${busy ? ', with a busy neighbour (--busy)' : ''}, ${results.seconds.toFixed(0)} s`
writeFileSync(join(dir, 'latest.md'), `${header}\n\n${markdown}\n`)
console.log(`\n${header}\n\n${markdown}\n`)
log(`results: ${join(dir, `${stamp}.json`)}`)
