#!/usr/bin/env node
// ringchain beside anvil and a bare Node ceiling server, in one run, on loopback: startup, automined
// transfers and storage writes, reads of the three spec methods over HTTP keep-alive and one
// WebSocket at 1 and 32 requests in flight, a read at head−127 against one at the head, and
// resident memory as blocks pile up. Prints one markdown table with the ratios ringchain/anvil and
// ringchain/ceiling and writes it, with every raw figure as JSON, to bench/results/. See bench/README.md.
//
//   npm run bench                          (builds first; under 5 minutes)
//   node bench/run.mjs --quick             (or RINGCHAIN_BENCH_QUICK=1: shorter runs, fewer blocks, ~1 minute)
//   node bench/run.mjs --only reads,mine   (sections: startup, mine, reads, window, memory)
//   node bench/run.mjs --no-anvil          (ringchain and the ceiling only)

import { fork, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, generateAddress, hexToBytes, intToBytes, setLengthLeft } from '@ethereumjs/util'
import { findAnvil, ringchainCommand, ringchainReady, series } from './startup.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const option = (name) => {
  const at = argv.findIndex((a) => a === name || a.startsWith(name + '='))
  if (at === -1) return undefined
  return argv[at].includes('=') ? argv[at].slice(name.length + 1) : argv[at + 1]
}
const quick = flag('--quick') || process.env.RINGCHAIN_BENCH_QUICK === '1'
const SECTIONS = ['startup', 'mine', 'reads', 'window', 'memory']
const only = new Set((option('--only') ?? SECTIONS.join(',')).split(','))
for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section ${s} (one of ${SECTIONS.join(', ')})`)
const withAnvil = !flag('--no-anvil')
const ANVIL_ARGS = (option('--anvil-args') ?? '').split(' ').filter((a) => a !== '')

const CONFIG = quick
  ? { startupRuns: 3, transfers: 300, calls: 300, warmupMs: 150, durationMs: 500, rounds: 1, memoryBlocks: [1_000, 2_000, 5_000] }
  : { startupRuns: 5, transfers: 2_000, calls: 2_000, warmupMs: 250, durationMs: 1_000, rounds: 2, memoryBlocks: [1_000, 5_000, 20_000] }

// The well-known dev keys of the `test … junk` mnemonic: both nodes fund them at genesis.
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
].map((k) => hexToBytes(k))
const ADDRESSES = ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']

// `sstore(calldata[0:32], calldata[32:64])`, behind the usual copy-and-return init code.
const RUNTIME = '6020356000355500'
const INIT = '0x600860' + '0c' + '60003960086000f3' + RUNTIME
const SLOTS = 8n

const log = (message) => process.stderr.write(message + '\n')
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// --- transactions ---------------------------------------------------------------------------------

function signedTransactions() {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
  const sign = (key, data) => bytesToHex(createFeeMarket1559Tx({ chainId: 31337n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, ...data }, { common }).sign(key).serialize())
  const transfers = Array.from({ length: CONFIG.transfers }, (_, i) => sign(KEYS[0], { nonce: BigInt(i), to: ADDRESSES[1], value: 1n, gasLimit: 21_000n }))
  const deploy = sign(KEYS[2], { nonce: 0n, data: INIT, gasLimit: 200_000n })
  const contract = bytesToHex(generateAddress(hexToBytes(ADDRESSES[2]), new Uint8Array()))
  const word = (n) => bytesToHex(setLengthLeft(intToBytes(Number(n)), 32)).slice(2)
  const calls = Array.from({ length: CONFIG.calls }, (_, i) =>
    sign(KEYS[2], { nonce: BigInt(i + 1), to: contract, gasLimit: 100_000n, data: '0x' + word(BigInt(i) % SLOTS) + word(BigInt(i) + 1n) }),
  )
  return { transfers, deploy, contract, calls }
}

// --- processes ------------------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

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

/** A server under test: its process, its URLs. */
async function startNode(name) {
  if (name === 'anvil') {
    const port = await freePort()
    // --silent: anvil otherwise prints every request, where ringchain runs at log level warn.
    const child = spawn(anvilBinary, ['--port', String(port), '--silent', ...ANVIL_ARGS], { stdio: ['ignore', 'ignore', 'pipe'] })
    const httpUrl = `http://127.0.0.1:${port}`
    for (let i = 0; ; i++) {
      try {
        await rpc(httpUrl, 'eth_chainId')
        break
      } catch (e) {
        if (i > 3_000 || child.exitCode !== null) throw new Error(`anvil did not start: ${e.message}`)
        await sleep(10)
      }
    }
    return { name, child, httpUrl, wsUrl: `ws://127.0.0.1:${port}` }
  }
  const [command, args, ready] =
    name === 'ringchain'
      ? [ringchainCommand.command, ringchainCommand.args, ringchainReady]
      : [process.execPath, [join(here, 'ceiling.mjs')], (line) => (line.startsWith('{') ? JSON.parse(line).httpUrl : undefined)]
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (d) => {
      buffer += d
      const end = buffer.indexOf('\n')
      if (end !== -1) resolve(buffer.slice(0, end))
    })
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)))
  })
  if (ready(line) === undefined) throw new Error(`${name}: unexpected ready line ${line}`)
  const info = JSON.parse(line)
  child.stdout.resume()
  return { name, child, httpUrl: info.httpUrl, wsUrl: info.wsUrl }
}

async function stopNode(node) {
  if (node === undefined || node.child.exitCode !== null) return
  const exited = new Promise((resolve) => node.child.once('exit', resolve))
  node.child.kill('SIGTERM')
  await Promise.race([exited, sleep(3_000)])
  if (node.child.exitCode === null) node.child.kill('SIGKILL')
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
/** Runs a job in the load process; adds the server's CPU use over the job (percent of one core). */
function job(node, spec) {
  const seq = nextSeq++
  const cpu0 = cpuSeconds(node.child.pid)
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    waiting.set(seq, { resolve, reject })
    loader.send({ seq, job: spec })
  }).then((result) => ({ ...result, serverCpu: (100 * (cpuSeconds(node.child.pid) - cpu0)) / ((performance.now() - t0) / 1000) }))
}

// --- sections -------------------------------------------------------------------------------------

const results = { config: { quick, ...CONFIG }, machine: { node: process.version, cpus: cpus().length, model: cpus()[0]?.model }, startedAt: new Date().toISOString() }
const anvilFound = withAnvil ? findAnvil() : { reason: '--no-anvil' }
const anvilBinary = anvilFound.binary
if (anvilBinary === undefined) log(`anvil: not measured (${anvilFound.reason})`)
const anvilVersion = anvilBinary === undefined ? undefined : /Version: (\S+)/.exec(spawnSync(anvilBinary, ['--version'], { encoding: 'utf8' }).stdout)?.[1]
results.machine.anvil = anvilVersion
const nodeNames = ['ringchain', ...(anvilBinary === undefined ? [] : ['anvil'])]

async function startupSection() {
  log('startup…')
  const out = {}
  out.ringchain = await series('ringchain', ringchainCommand.command, ringchainCommand.args, ringchainReady, CONFIG.startupRuns)
  if (anvilBinary !== undefined) out.anvil = await series('anvil', anvilBinary, ['--port', '0'], (line) => /Listening on (\S+)/.exec(line)?.[1]?.replace(/^/, 'http://'), CONFIG.startupRuns)
  out.ceiling = await series('ceiling', process.execPath, [join(here, 'ceiling.mjs')], (line) => (line.startsWith('{') ? JSON.parse(line).httpUrl : undefined), CONFIG.startupRuns)
  return out
}

async function mineSection(nodes, txs) {
  const out = { transfers: {}, calls: {} }
  for (const kind of ['transfers', 'calls']) {
    for (const node of nodes) {
      log(`${kind} on ${node.name}…`)
      if (kind === 'calls') {
        const hash = await rpc(node.httpUrl, 'eth_sendRawTransaction', [txs.deploy])
        for (let receipt = null; receipt === null; await sleep(5)) receipt = await rpc(node.httpUrl, 'eth_getTransactionReceipt', [hash])
      }
      const r = await job(node, { kind: 'send', url: node.httpUrl, raws: txs[kind] })
      if (r.failed.length > 0) throw new Error(`${node.name}: ${r.failed.length} ${kind} without a status-1 receipt, e.g. ${r.failed[0]}`)
      out[kind][node.name] = r
    }
  }
  return out
}

/** The three spec methods as read on a node after the mine section. */
function readRequests(node, txs) {
  return {
    eth_getStorageAt: [txs.contract, '0x0', 'latest'],
    eth_getTransactionByHash: [node.lastHash],
    eth_getTransactionReceipt: [node.lastHash],
  }
}

async function readsSection(nodes, ceiling, txs) {
  const out = {}
  const targets = [ceiling, ...nodes]
  for (const transport of ['http', 'ws']) {
    for (const inFlight of [1, 32]) {
      for (const method of ['eth_getStorageAt', 'eth_getTransactionByHash', 'eth_getTransactionReceipt']) {
        const key = `${method} ${transport} ×${inFlight}`
        log(`reads: ${key}…`)
        const row = (out[key] = { method, transport, inFlight })
        for (let round = 0; round < CONFIG.rounds; round++) {
          for (const node of targets) {
            const params = node === ceiling ? readRequests(nodes[0], txs)[method] : readRequests(node, txs)[method]
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
      const entry = (out[node.name] ??= { head: Number(head) })
      for (const [label, block] of [['head', head], ['head-127', head - 127n]]) {
        log(`window: ${node.name} eth_getStorageAt at ${label}…`)
        const r = await job(node, { kind: 'reads', transport: 'ws', url: node.wsUrl, method: 'eth_getStorageAt', params: [txs.contract, '0x0', '0x' + block.toString(16)], inFlight: 32, warmupMs: CONFIG.warmupMs, durationMs: CONFIG.durationMs })
        if (r.errors > 0) throw new Error(`${node.name} window ${label}: ${r.errors} errors, e.g. ${r.firstError}`)
        if (entry[label] === undefined || r.rps > entry[label].rps) entry[label] = r
      }
    }
  }
  for (const entry of Object.values(out)) entry.ratio = entry['head-127'].rps / entry.head.rps
  return out
}

async function memorySection() {
  const out = {}
  for (const name of nodeNames) {
    const node = await startNode(name)
    try {
      const rows = [{ blocks: 0, rssMiB: rssMiB(node.child.pid), seconds: 0 }]
      const t0 = performance.now()
      let mined = 0
      for (const target of CONFIG.memoryBlocks) {
        while (mined < target) {
          const n = Math.min(1_000, target - mined)
          await rpc(node.httpUrl, 'anvil_mine', ['0x' + n.toString(16)])
          mined += n
        }
        await sleep(200)
        rows.push({ blocks: mined, rssMiB: rssMiB(node.child.pid), seconds: (performance.now() - t0) / 1000 })
        log(`memory: ${name} ${JSON.stringify(rows.at(-1))}`)
      }
      const first = rows.find((r) => r.blocks === 1_000)
      const last = rows.at(-1)
      out[name] = { rows, growthPer1kMiB: (last.rssMiB - first.rssMiB) / ((last.blocks - first.blocks) / 1_000), msPerBlock: (1000 * last.seconds) / last.blocks }
    } finally {
      await stopNode(node)
    }
  }
  return out
}

// --- the table ------------------------------------------------------------------------------------

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–')
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? (a / b).toFixed(2) : '–')
const mark = (ok) => (ok === undefined ? '' : ok ? ' ✓' : ' ✗')

function table(r) {
  const lines = [
    '| measure | ringchain | anvil | ceiling | ringchain/anvil | ringchain/ceiling | target |',
    '|---|---:|---:|---:|---:|---:|---|',
  ]
  const row = (measure, rc, anvil, ceiling, rcAnvil, rcCeiling, target) => lines.push(`| ${measure} | ${rc} | ${anvil} | ${ceiling} | ${rcAnvil} | ${rcCeiling} | ${target} |`)
  if (r.startup !== undefined) {
    const s = r.startup
    row('startup, ms (median of ' + CONFIG.startupRuns + ')', fmt(s.ringchain.median), fmt(s.anvil?.median), fmt(s.ceiling.median), ratio(s.ringchain.median, s.anvil?.median), ratio(s.ringchain.median, s.ceiling.median), '< 250 ms' + mark(s.ringchain.median < 250))
  }
  if (r.mine !== undefined) {
    for (const [kind, label] of [['transfers', 'transfers'], ['calls', 'storage writes']]) {
      const m = r.mine[kind]
      row(`automined ${label}, tx/s (${fmt(CONFIG[kind])} sequential, receipts status 1)`, fmt(m.ringchain.tps), fmt(m.anvil?.tps), '', ratio(m.ringchain.tps, m.anvil?.tps), '', '≥ anvil' + mark(m.anvil === undefined ? undefined : m.ringchain.tps >= m.anvil.tps))
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
      row(`${entry.method} ${entry.transport === 'ws' ? 'WebSocket' : 'HTTP'} ×${entry.inFlight}, req/s (p50 / p99 ms)`, cell(rc), cell(entry.anvil), cell(entry.ceiling), ratio(rc.rps, entry.anvil?.rps), ratio(rc.rps, entry.ceiling.rps), target)
    }
  }
  if (r.window !== undefined) {
    const w = r.window
    const cell = (x) => (x === undefined ? '–' : `${fmt(x['head-127'].rps)} vs ${fmt(x.head.rps)} (${x.ratio.toFixed(2)})`)
    row('eth_getStorageAt at head−127 vs head, req/s (WebSocket ×32)', cell(w.ringchain), cell(w.anvil), '', '', '', 'within 10%' + mark(Math.abs(1 - w.ringchain.ratio) <= 0.1))
  }
  if (r.memory !== undefined) {
    const m = r.memory
    for (const blocks of CONFIG.memoryBlocks) {
      const at = (x) => x?.rows.find((row) => row.blocks === blocks)?.rssMiB
      row(`resident memory at ${fmt(blocks)} blocks, MiB`, fmt(at(m.ringchain), 1), fmt(at(m.anvil), 1), '', ratio(at(m.ringchain), at(m.anvil)), '', '')
    }
    row(`resident growth per 1k blocks after the first 1k, MiB`, fmt(m.ringchain.growthPer1kMiB, 2), fmt(m.anvil?.growthPer1kMiB, 2), '', '', '', '< 0.5 MiB' + mark(m.ringchain.growthPer1kMiB < 0.5))
    row(`empty blocks mined (anvil_mine), ms/block`, fmt(m.ringchain.msPerBlock, 2), fmt(m.anvil?.msPerBlock, 2), '', ratio(m.ringchain.msPerBlock, m.anvil?.msPerBlock), '', '')
  }
  return lines.join('\n')
}

// --- main -----------------------------------------------------------------------------------------

const t0 = performance.now()
let nodes = []
let ceiling
try {
  if (only.has('startup')) results.startup = await startupSection()
  const needServers = only.has('mine') || only.has('reads') || only.has('window')
  if (needServers) {
    log('signing transactions…')
    const txs = signedTransactions()
    nodes = []
    for (const name of nodeNames) nodes.push(await startNode(name))
    ceiling = await startNode('ceiling')
    // Reads and the window read need mined blocks, so the mine section always runs with them.
    results.mine = await mineSection(nodes, txs)
    for (const node of nodes) node.lastHash = results.mine.calls[node.name].lastHash
    if (!only.has('mine')) delete results.mine
    if (only.has('reads')) results.reads = await readsSection(nodes, ceiling, txs)
    if (only.has('window')) results.window = await windowSection(nodes, txs)
    for (const node of [...nodes, ceiling]) await stopNode(node)
  }
  if (only.has('memory')) results.memory = await memorySection()
} finally {
  for (const node of [...nodes, ceiling]) await stopNode(node)
  loader.disconnect()
}
results.seconds = (performance.now() - t0) / 1000

const markdown = table(results)
const stamp = results.startedAt.replace(/[:.]/g, '-')
const dir = join(here, 'results')
mkdirSync(dir, { recursive: true })
writeFileSync(join(dir, `${stamp}.json`), JSON.stringify(results, null, 2) + '\n')
writeFileSync(join(dir, 'latest.json'), JSON.stringify(results, null, 2) + '\n')
const header = `ringchain vs anvil ${anvilVersion ?? '(not measured)'} vs a bare Node server; node ${process.version}, ${cpus().length} cores, ${quick ? 'quick mode' : 'full run'}, ${results.seconds.toFixed(0)} s`
writeFileSync(join(dir, 'latest.md'), `${header}\n\n${markdown}\n`)
console.log(`\n${header}\n\n${markdown}\n`)
log(`results: ${join(dir, `${stamp}.json`)}`)
