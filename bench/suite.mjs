// The suite section of bench/run.mjs: where a dapp's test suite spends its time. The flows of
// suite-flows.mjs (viem, ethers, ERC-20) and single method calls, run through real clients against
// ringchain in process, over HTTP and over WebSocket, Hardhat 2 in process and anvil over HTTP and
// WebSocket, all in one run. Each target is a worker process (suite-worker.mjs); they take turns,
// one test each, so noise on a shared machine hits them alike. Missing peers are reported, not fatal.

import { fork, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FLOWS, HARDFORK, MNEMONIC } from './suite-flows.mjs'
import { threadsCpuMs } from './proc-cpu.mjs'
import { readyLine, stopProcess, waitForRpc, warmupEnded } from './processes.mjs'
import { SERVE_ARGS, binCommand, freePort, installedFile, ringchainCommand } from './startup.mjs'

const here = dirname(fileURLToPath(import.meta.url))

const CONFIG = {
  quick: { warmup: 1, rounds: 4, rowRounds: 1, rowLength: 4, methodCalls: 30, methodRounds: 1, sendCalls: 10, windowWrites: 32 },
  full: { warmup: 3, rounds: 15, rowRounds: 3, rowLength: 6, methodCalls: 100, methodRounds: 2, sendCalls: 40, windowWrites: 128 },
}
/** A worker that has not answered within this long is stopped and its target reported as failed. */
const REPLY_TIMEOUT_MS = 60_000

/** The targets, in the order of the table's columns. */
const TARGETS = [
  { name: 'ringchain in-process', kind: 'ringchain' },
  { name: 'Hardhat in-process', kind: 'hardhat' },
  { name: 'ringchain HTTP', kind: 'http', server: 'ringchain' },
  { name: 'anvil HTTP', kind: 'http', server: 'anvil' },
  { name: 'ringchain WS', kind: 'ws', server: 'ringchain' },
  { name: 'anvil WS', kind: 'ws', server: 'anvil' },
]
/**
 * RINGCHAIN_BENCH_CLI_B=<another build's cli/main.js>: that build served too, over HTTP and
 * WebSocket, taking its turns in the same rounds (an A/B beside anvil; its rows follow the table).
 */
const CLI_B = process.env.RINGCHAIN_BENCH_CLI_B
if (CLI_B !== undefined) TARGETS.push({ name: 'B HTTP', kind: 'http', server: 'ringchain', cli: CLI_B }, { name: 'B WS', kind: 'ws', server: 'ringchain', cli: CLI_B })
/** RINGCHAIN_BENCH_SUITE_TARGETS=<name>,…: only those targets (by column name) run. */
const ONLY_TARGETS = process.env.RINGCHAIN_BENCH_SUITE_TARGETS?.split(',')
if (ONLY_TARGETS !== undefined) TARGETS.splice(0, TARGETS.length, ...TARGETS.filter((t) => ONLY_TARGETS.includes(t.name)))
/** The single-method rows, in order; `send and wait` also reports the send alone. */
const ROWS = ['eth_call', 'eth_estimateGas transfer', 'eth_estimateGas call', 'eth_estimateGas deployment', 'eth_fillTransaction', 'send and wait', 'eth_getLogs window']

/** ringchain's target and its peer, in the columns of the headline tables. */
const PAIRS = [
  ['ringchain in-process', 'Hardhat in-process'],
  ['ringchain HTTP', 'anvil HTTP'],
  ['ringchain WS', 'anvil WS'],
]
/** The pairs the single-method rows are measured on. */
const METHOD_PAIRS = PAIRS.slice(0, 2)

// --- servers ---------------------------------------------------------------------------------------

/** `ringchain serve` with the suite's chain settings; resolves once its ready line is printed. */
export async function startRingchain(cli) {
  const command = cli === undefined ? ringchainCommand : binCommand(cli, SERVE_ARGS)
  const child = spawn(command.command, [...command.args, '--hardfork', HARDFORK], { stdio: ['ignore', 'pipe', 'inherit'] })
  const { httpUrl, wsUrl } = await readyLine(child, 'ringchain serve')
  return { child, httpUrl, wsUrl }
}

/** anvil with the suite's chain settings (its defaults are the same accounts, id and automine). */
export async function startAnvil(binary, cachePath) {
  const port = await freePort()
  const child = spawn(binary, ['--port', String(port), '--silent', '--hardfork', HARDFORK, '--chain-id', '31337', '--cache-path', cachePath], { stdio: 'ignore' })
  const httpUrl = `http://127.0.0.1:${port}`
  await waitForRpc(httpUrl, child, 'anvil', 1_000)
  return { child, httpUrl, wsUrl: `ws://127.0.0.1:${port}` }
}

// --- workers ---------------------------------------------------------------------------------------

/** Forks the worker of one target; resolves once its clients are built. */
async function startWorker(spec) {
  const child = fork(join(here, 'suite-worker.mjs'), [JSON.stringify(spec)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const waiting = new Map()
  let nextSeq = 1
  let failed
  const fail = (error) => {
    failed ??= error
    for (const w of waiting.values()) w.reject(error)
    waiting.clear()
  }
  child.on('exit', (code, signal) => fail(new Error(`worker exited (${signal ?? code})`)))
  await new Promise((resolve, reject) => {
    child.once('message', (m) => (m.ready ? resolve() : reject(new Error('worker: unexpected first message'))))
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)))
  })
  child.on('message', ({ seq, result, error }) => {
    const w = waiting.get(seq)
    if (w === undefined) return
    waiting.delete(seq)
    clearTimeout(w.timer)
    if (error !== undefined) w.reject(new Error(error))
    else w.resolve(result)
  })
  /** Sends one request to the worker and resolves with its answer. */
  const ask = (message) => {
    if (failed !== undefined) return Promise.reject(failed)
    const seq = nextSeq++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(new Error(`no answer to ${message.op} within ${REPLY_TIMEOUT_MS / 1000} s`))
        child.kill('SIGKILL')
      }, REPLY_TIMEOUT_MS)
      waiting.set(seq, { resolve, reject, timer })
      child.send({ ...message, seq })
    })
  }
  return { child, ask }
}

// --- the section -------------------------------------------------------------------------------------

/** CPU seconds a process has used (Linux /proc: utime + stime, in ticks of 10 ms). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const packageVersion = (name) => JSON.parse(readFileSync(join(here, '..', 'node_modules', name, 'package.json'), 'utf8')).version
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length

/**
 * Runs the section; resolves with `{ config, targets: { name: { reason? } }, flows, methods }`.
 * `anvilBinary` undefined: anvil's targets are reported as not measured with `anvilReason`.
 */
export async function suiteSection({ quick, anvilBinary, anvilReason, log }) {
  const config = quick ? CONFIG.quick : CONFIG.full
  const out = { config, hardfork: HARDFORK, versions: { viem: packageVersion('viem'), ethers: packageVersion('ethers') }, targets: {}, flows: {}, methods: {} }
  const servers = []
  /** Each HTTP or WebSocket target's server process, whose CPU is added to the client's. */
  const serverPids = new Map()
  const workers = new Map()
  const scratch = mkdtempSync(join(tmpdir(), 'ringchain-bench-suite-'))
  const notMeasured = (target, reason) => {
    out.targets[target.name] = { reason }
    log(`suite: ${target.name}: not measured (${reason})`)
  }
  try {
    // One server per HTTP or WebSocket target, so no two targets share a chain.
    for (const target of TARGETS) {
      const spec = { kind: target.kind }
      try {
        if (target.kind === 'hardhat') {
          const found = installedFile('hardhat@^2', 'hardhat', 'package.json')
          if (found.path === undefined) throw new Error(found.reason)
          spec.hardhatModule = found.path
          out.versions.hardhat = JSON.parse(readFileSync(found.path, 'utf8')).version
          spec.hardhatDir = mkdtempSync(join(scratch, 'hardhat-'))
          // A throwaway project: only a config with the other targets' chain settings.
          writeFileSync(join(spec.hardhatDir, 'hardhat.config.js'), `module.exports = { networks: { hardhat: { chainId: 31337, hardfork: '${HARDFORK}', accounts: { mnemonic: '${MNEMONIC}', count: 10 }, mining: { auto: true } } } }\n`)
        }
        if (target.server === 'anvil' && anvilBinary === undefined) throw new Error(anvilReason)
        if (target.server !== undefined) {
          const server = target.server === 'ringchain' ? await startRingchain(target.cli) : await startAnvil(anvilBinary, mkdtempSync(join(scratch, 'anvil-')))
          servers.push({ ...server, target })
          serverPids.set(target.name, server.child.pid)
          spec.url = target.kind === 'http' ? server.httpUrl : server.wsUrl
        }
        log(`suite: starting ${target.name}…`)
        workers.set(target.name, await startWorker(spec))
        out.targets[target.name] = {}
      } catch (e) {
        notMeasured(target, e.message)
      }
    }
    /**
     * Asks every live worker of `among` in turn (the order rotated by `turn`), `times` times each
     * before the next (`use` gets the index); a failing target is dropped.
     */
    const inTurn = async (turn, message, use, among = TARGETS.map((t) => t.name), times = 1) => {
      const names = [...workers.keys()].filter((name) => among.includes(name))
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + turn) % names.length]
        try {
          const pid = serverPids.get(name)
          for (let k = 0; k < times; k++) {
            const cpu0 = pid === undefined ? 0 : threadsCpuMs(pid)
            const result = await workers.get(name).ask(message)
            use(name, { ...result, serverCpuMs: pid === undefined ? 0 : threadsCpuMs(pid) - cpu0 }, k)
          }
        } catch (e) {
          out.targets[name] = { reason: `${message.op} ${message.flow ?? message.row ?? ''} failed: ${e.message.split('\n')[0].slice(0, 300)}`, stopped: true }
          log(`suite: ${name} stopped (${out.targets[name].reason})`)
          await stopProcess(workers.get(name).child)
          workers.delete(name)
        }
      }
    }

    // ringchain warms itself up while idle after its start (src/warmup/): the rounds begin once
    // it is done, so that its CPU is spent before any target's test is timed.
    out.warmups = {}
    for (const server of servers.filter((s) => s.target.server === 'ringchain')) {
      const report = { ...(await warmupEnded(server.httpUrl)), serverCpuMs: Math.round(1000 * cpuSeconds(server.child.pid)) }
      out.warmups[server.target.name] = report
      log(`suite: ${server.target.name}: warm-up ${JSON.stringify(report)}`)
    }
    for (const flow of Object.keys(FLOWS)) out.flows[flow] = {}
    for (let round = 0; round < config.warmup + config.rounds; round++) {
      log(`suite: round ${round + 1} of ${config.warmup + config.rounds}${round < config.warmup ? ' (warm-up)' : ''}…`)
      for (const flow of Object.keys(FLOWS)) {
        await inTurn(round, { op: 'flow', flow }, (name, { ms, cpuMs, serverCpuMs, calls }) => {
          if (round < config.warmup) return
          const entry = (out.flows[flow][name] ??= { ms: [], cpuMs: [], serverCpuMs: [], calls: {} })
          entry.ms.push(ms)
          entry.cpuMs.push(cpuMs + serverCpuMs)
          entry.serverCpuMs.push(serverCpuMs)
          for (const [method, c] of Object.entries(calls)) {
            const total = (entry.calls[method] ??= { count: 0, ms: 0 })
            total.count += c.count
            total.ms += c.ms
          }
        })
      }
    }
    for (const byTarget of Object.values(out.flows)) {
      for (const entry of Object.values(byTarget)) {
        entry.median = median(entry.ms)
        entry.min = Math.min(...entry.ms)
        entry.cpuMean = mean(entry.cpuMs)
        entry.serverCpuMean = mean(entry.serverCpuMs)
        for (const c of Object.values(entry.calls)) {
          c.perTest = c.count / entry.ms.length
          c.mean = c.ms / c.count
        }
      }
    }

    // In a row: tests back to back on each target, as a suite's file runs them, rather than one
    // each in turn; the first of each run is not counted (it wakes a process that waited through
    // the other targets' turns). Not the headline: an explanation of it.
    out.inRow = {}
    for (let round = 0; round < config.rowRounds; round++) {
      log(`suite: in a row, round ${round + 1} of ${config.rowRounds}…`)
      for (const flow of Object.keys(FLOWS)) {
        await inTurn(round, { op: 'flow', flow }, (name, { ms }, k) => {
          if (k > 0) ((out.inRow[flow] ??= {})[name] ??= []).push(ms)
        }, undefined, config.rowLength)
      }
    }

    log('suite: single methods…')
    // In process against Hardhat, HTTP against anvil (WebSocket adds nothing the flows don't show).
    const methodTargets = METHOD_PAIRS.flat()
    await inTurn(0, { op: 'setup-methods', writes: config.windowWrites }, () => {}, methodTargets)
    for (let round = 0; round < config.methodRounds; round++) {
      for (const row of ROWS) {
        const count = row === 'send and wait' ? config.sendCalls : config.methodCalls
        await inTurn(round, { op: 'method', row, count }, (name, result) => {
          const entry = (out.methods[row] ??= {})
          if (result.unsupported !== undefined) {
            entry[name] = { unsupported: result.unsupported }
            return
          }
          // Best round by mean: noise only ever slows a round down.
          const candidate = { mean: mean(result.ms), median: median(result.ms), ...(result.sendMs === undefined ? {} : { sendMean: mean(result.sendMs) }) }
          if (entry[name] === undefined || !(entry[name].mean <= candidate.mean)) entry[name] = candidate
        }, methodTargets)
      }
    }
  } finally {
    await Promise.all([...workers.values()].map((w) => stopProcess(w.child)))
    await Promise.all(servers.map((s) => stopProcess(s.child)))
    rmSync(scratch, { recursive: true, force: true })
  }
  return out
}

// --- the tables ------------------------------------------------------------------------------------

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–')
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}×` : '–')
const mark = (ok) => (ok === undefined ? '' : ok ? ' ✓' : ' ✗')
/** In-process targets of the issue, ms per call (mean). */
const IN_PROCESS_TARGETS = { 'eth_call': 0.3, 'eth_estimateGas call': 0.6, 'eth_sendRawTransaction': 1.0 }

function notMeasuredLines(suite) {
  return Object.entries(suite.targets)
    .filter(([, t]) => t.reason !== undefined)
    .map(([name, t]) => (t.stopped ? `- ${name}: stopped part-way (${t.reason}); its figures are from before` : `- ${name}: not measured (${t.reason})`))
}

/** The suite's markdown: per test, per single method, and the methods each flow's client sent. */
export function suiteTables(suite) {
  const lines = []
  const { rounds } = suite.config
  const v = suite.versions
  lines.push(`**Per test** (ms: median of ${rounds} rounds, min in brackets; targets took turns, one test each; viem ${v.viem}, ethers ${v.ethers}, Hardhat ${v.hardhat ?? '–'}; hardfork ${suite.hardfork}, automine, chain id 31337, the \`test … junk\` accounts)`, '')
  lines.push('| test | ' + PAIRS.map(([rc, peer]) => `${rc} | ${peer} | ratio`).join(' | ') + ' |')
  lines.push('|---|' + PAIRS.map(() => '---:|---:|---:').join('|') + '|')
  for (const [flow, { label }] of Object.entries(FLOWS)) {
    const by = suite.flows[flow] ?? {}
    const cells = PAIRS.map(([rc, peer]) => {
      const a = by[rc]
      const b = by[peer]
      const cell = (x) => (x === undefined ? '–' : `${fmt(x.median)} (${fmt(x.min)})`)
      return `${cell(a)} | ${cell(b)} | ${ratio(a?.median, b?.median)}${mark(a === undefined || b === undefined ? undefined : a.median <= b.median)}`
    })
    lines.push(`| ${label} | ${cells.join(' | ')} |`)
  }
  lines.push('', 'Ratio: ringchain / peer; target ≤ 1 (in process against Hardhat in process, HTTP and WebSocket against anvil).', '')
  if (Object.values(suite.flows).some((by) => by['B HTTP'] !== undefined || by['B WS'] !== undefined)) {
    lines.push(`**Build B** (\`RINGCHAIN_BENCH_CLI_B\`), same rounds: per test median ms, ÷ anvil and ÷ ringchain (A), and the server's CPU per test`, '')
    for (const [flow, { label }] of Object.entries(FLOWS)) {
      const by = suite.flows[flow] ?? {}
      const cells = [['B HTTP', 'anvil HTTP', 'ringchain HTTP'], ['B WS', 'anvil WS', 'ringchain WS']].map(([b, peer, a]) => `${b} ${fmt(by[b]?.median)}: ${ratio(by[b]?.median, by[peer]?.median)} of anvil, ${ratio(by[b]?.median, by[a]?.median)} of A (server CPU ${fmt(by[b]?.serverCpuMean)} ms, A ${fmt(by[a]?.serverCpuMean)})`)
      lines.push(`- ${label.split(':')[0]}: ${cells.join('; ')}`)
    }
    lines.push('')
  }
  const warmups = Object.entries(suite.warmups ?? {})
  if (warmups.length > 0) {
    const said = warmups.map(([name, w]) => (w.state === 'done' ? `${name}: ${w.tests} tests, ${w.requests} requests, ${w.busyMs} ms answering them, the server's CPU from spawn to then ${w.serverCpuMs} ms` : `${name}: ${w.state}`))
    lines.push(`ringchain's servers warm themselves up while idle after their start (README, "Warm before the first test"); the rounds began once that had ended (${said.join('; ')}). anvil has no such phase.`, '')
  }
  if (Object.keys(suite.inRow ?? {}).length > 0) {
    const { rowRounds, rowLength } = suite.config
    lines.push(`**Per test, in a row** (ms, median of tests 2–${rowLength} of ${rowRounds} runs of ${rowLength} back to back on each target, as a suite's file runs them; the table above takes one test per target in turn. Not the target: what it leaves out is each process waking cold after the others' turns)`, '')
    lines.push('| test | ' + PAIRS.map(([rc, peer]) => `${rc} | ${peer} | ratio`).join(' | ') + ' |')
    lines.push('|---|' + PAIRS.map(() => '---:|---:|---:').join('|') + '|')
    for (const [flow, { label }] of Object.entries(FLOWS)) {
      const by = suite.inRow[flow] ?? {}
      const m = (name) => (by[name] === undefined ? undefined : median(by[name]))
      const cells = PAIRS.map(([rc, peer]) => `${fmt(m(rc))} | ${fmt(m(peer))} | ${ratio(m(rc), m(peer))}`)
      lines.push(`| ${label.split(':')[0]} | ${cells.join(' | ')} |`)
    }
    lines.push('')
  }
  const cpuTable = (pairs, field) => {
    lines.push('| test | ' + pairs.map(([rc, peer]) => `${rc} | ${peer} | ratio`).join(' | ') + ' |')
    lines.push('|---|' + pairs.map(() => '---:|---:|---:').join('|') + '|')
    for (const [flow, { label }] of Object.entries(FLOWS)) {
      const by = suite.flows[flow] ?? {}
      const cells = pairs.map(([rc, peer]) => `${fmt(by[rc]?.[field])} | ${fmt(by[peer]?.[field])} | ${ratio(by[rc]?.[field], by[peer]?.[field])}`)
      lines.push(`| ${label.split(':')[0]} | ${cells.join(' | ')} |`)
    }
    lines.push('')
  }
  lines.push('**CPU per test** (ms, mean: the client process, which in process holds the chain too, plus the server process; less sensitive to a busy machine than elapsed time)', '')
  cpuTable(PAIRS, 'cpuMean')
  // The served targets' client is the same library either way: what the server spends is what ringchain controls.
  lines.push("**The server's CPU per test** (ms, mean, all its threads: V8's compiler and garbage collector helpers included, as anvil's worker threads are)", '')
  cpuTable(PAIRS.filter(([rc]) => rc !== 'ringchain in-process'), 'serverCpuMean')

  lines.push('**Single methods** (ms per call, mean of the best round; raw EIP-1193 requests, no client library; in process against Hardhat, HTTP against anvil)', '')
  const methodPairs = METHOD_PAIRS
  lines.push('| method | ' + methodPairs.map(([rc, peer]) => `${rc} | ${peer} | ratio`).join(' | ') + ' | target (in process) |')
  lines.push('|---|' + methodPairs.map(() => '---:|---:|---:').join('|') + '|---|')
  const methodRows = []
  for (const [row, by] of Object.entries(suite.methods)) {
    if (row === 'send and wait') {
      methodRows.push(['eth_sendRawTransaction (storage write, automine)', by, 'sendMean', 'eth_sendRawTransaction'])
      methodRows.push(['send and wait (eth_sendRawTransaction + receipt)', by, 'mean'])
    } else methodRows.push([row === 'eth_getLogs window' ? 'eth_getLogs over the 128-block window' : row === 'eth_call' ? 'eth_call (view returning a mapping value)' : row, by, 'mean', row])
  }
  for (const [label, by, field, targetKey] of methodRows) {
    const cells = methodPairs.map(([rc, peer]) => {
      const cell = (x) => (x === undefined ? '–' : x.unsupported !== undefined ? 'unsupported' : fmt(x[field], 2))
      return `${cell(by[rc])} | ${cell(by[peer])} | ${ratio(by[rc]?.[field], by[peer]?.[field])}`
    })
    const limit = IN_PROCESS_TARGETS[targetKey]
    const rc = by['ringchain in-process']?.[field]
    lines.push(`| ${label} | ${cells.join(' | ')} | ${limit === undefined ? '' : `≤ ${limit} ms${mark(Number.isFinite(rc) ? rc <= limit : undefined)}`} |`)
  }
  const unsupported = Object.entries(suite.methods).flatMap(([row, by]) => Object.entries(by).filter(([, x]) => x.unsupported !== undefined).map(([name, x]) => `- ${row} on ${name}: ${x.unsupported}`))
  if (unsupported.length > 0) lines.push('', 'Unsupported:', ...unsupported)

  // Every target with figures, those that failed part-way too (their reason is listed below).
  const names = Object.keys(suite.targets).filter((name) => Object.values(suite.flows).some((by) => by[name] !== undefined))
  for (const [flow, { label }] of Object.entries(FLOWS)) {
    const by = suite.flows[flow] ?? {}
    const methods = [...new Set(names.flatMap((name) => Object.keys(by[name]?.calls ?? {})))].sort()
    lines.push('', `**${label}: ms per request (mean) and requests per test**, as the client sent them`, '')
    lines.push(`| method | ${names.join(' | ')} |`)
    lines.push(`|---|${names.map(() => '---:').join('|')}|`)
    for (const method of methods) {
      lines.push(`| ${method} | ${names.map((name) => { const c = by[name]?.calls[method]; return c === undefined ? '–' : `${fmt(c.mean, 2)} (×${fmt(c.perTest, 1)})` }).join(' | ')} |`)
    }
    const rpcShare = names.map((name) => {
      const e = by[name]
      if (e === undefined) return '–'
      const rpcMs = Object.values(e.calls).reduce((a, c) => a + c.ms, 0) / e.ms.length
      return `${fmt(rpcMs)} of ${fmt(mean(e.ms))}`
    })
    lines.push(`| *time in requests, ms per test (of the whole test, mean)* | ${rpcShare.join(' | ')} |`)
  }
  const missing = notMeasuredLines(suite)
  if (missing.length > 0) lines.push('', ...missing)
  return lines.join('\n')
}
