// The wake section of bench/run.mjs (also runnable alone): what one trivial request costs, round
// trip, as a function of how long the server was idle before it. A test suite's client does its
// own work between requests (viem encodes, signs, decodes), so a served test is mostly requests
// that find the server idle for a fraction of a millisecond to a few milliseconds.
//
// Targets: `ringchain serve`, the bare Node server of bench/ceiling.mjs (it answers every request
// with a canned result: the least any Node JSON-RPC server does) and anvil, over WebSocket and
// keep-alive HTTP, each with a lean client (one `ws` socket; a hand-written HTTP/1.1 request on one
// connection). They take turns, a batch each, so a noisy neighbour hits them alike. Reported: the
// median round trip per idle gap. Where ringchain's figure follows the bare Node server's and not
// anvil's, the difference to anvil is the runtime's, not ringchain's.
//
//   node bench/wake.mjs [--quick]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { readyLine, sleep, stopProcess, warmupEnded } from './processes.mjs'
import { runAsScript } from './startup.mjs'
import { startAnvil, startRingchain } from './suite.mjs'

/** Idle gaps before a request, ms (0: back to back). */
const GAPS = [0, 1, 5, 50]
const TRANSPORTS = ['ws', 'http']
const BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** One request at a time over a WebSocket: resolves with the answer's text. */
async function wsCaller(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let waiting
  ws.on('message', (data) => {
    const w = waiting
    waiting = undefined
    w?.(String(data))
  })
  return { call: () => new Promise((resolve) => ((waiting = resolve), ws.send(BODY))), close: () => ws.terminate() }
}

/** One request at a time over one keep-alive HTTP/1.1 connection: resolves with the raw answer. */
async function httpCaller(url) {
  const { hostname, port, pathname } = new URL(url)
  const request = `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`
  const socket = await new Promise((resolve, reject) => {
    const s = connect({ host: hostname, port: Number(port) }, () => resolve(s)).once('error', reject)
  })
  socket.setNoDelay(true)
  let waiting
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk
    const end = received.indexOf('\r\n\r\n')
    if (end < 0) return
    const length = Number(/content-length: *(\d+)/i.exec(received.slice(0, end))?.[1])
    if (received.length < end + 4 + length) return
    const answer = received
    received = ''
    const w = waiting
    waiting = undefined
    w?.(answer)
  })
  return { call: () => new Promise((resolve) => ((waiting = resolve), socket.write(request))), close: () => socket.destroy() }
}

async function startCeiling() {
  const child = spawn(process.execPath, [new URL('./ceiling.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] })
  return { child, ...(await readyLine(child, 'ceiling')) }
}

/**
 * Runs the section: `anvilBinary` undefined leaves anvil out. Resolves with `{ gaps, targets:
 * { name: { ws: { gap: median ms }, http: … } } }`.
 */
export async function wakeSection({ quick = false, anvilBinary, log = () => {} } = {}) {
  const rounds = quick ? 3 : 6
  /** Requests per batch, by gap: fewer where each costs a long sleep. */
  const batch = (gap) => (gap >= 50 ? 10 : 30)
  const anvilCache = mkdtempSync(join(tmpdir(), 'ringchain-bench-wake-anvil-'))
  const servers = []
  try {
    servers.push({ name: 'ringchain', ...(await startRingchain()) })
    await warmupEnded(servers[0].httpUrl)
    servers.push({ name: 'bare Node server', ...(await startCeiling()) })
    if (anvilBinary !== undefined) servers.push({ name: 'anvil', ...(await startAnvil(anvilBinary, anvilCache)) })
    const samples = {}
    for (const transport of TRANSPORTS) {
      const callers = []
      for (const server of servers) callers.push({ name: server.name, caller: transport === 'ws' ? await wsCaller(server.wsUrl) : await httpCaller(server.httpUrl) })
      try {
        for (const gap of GAPS) {
          log(`wake: ${transport}, ${gap} ms idle before each request…`)
          for (let round = 0; round < rounds; round++) {
            for (const { name, caller } of round % 2 === 0 ? callers : [...callers].reverse()) {
              const times = (((samples[name] ??= {})[transport] ??= {})[gap] ??= [])
              for (let i = 0; i < batch(gap); i++) {
                if (gap > 0) await sleep(gap)
                const started = performance.now()
                await caller.call()
                // The first of a batch follows the other targets' turns, whatever the gap.
                if (i > 0) times.push(performance.now() - started)
              }
            }
          }
        }
      } finally {
        for (const { caller } of callers) caller.close()
      }
    }
    const targets = {}
    for (const [name, byTransport] of Object.entries(samples)) {
      targets[name] = {}
      for (const [transport, byGap] of Object.entries(byTransport)) targets[name][transport] = Object.fromEntries(Object.entries(byGap).map(([gap, times]) => [gap, median(times)]))
    }
    return { gaps: GAPS, rounds, targets }
  } finally {
    for (const server of servers) await stopProcess(server.child)
    rmSync(anvilCache, { recursive: true, force: true })
  }
}

/** The section's table: µs per round trip by gap, per transport and target. */
export function wakeTable(section) {
  const names = ['ringchain', 'bare Node server', 'anvil'].filter((n) => section.targets[n] !== undefined)
  const columns = TRANSPORTS.flatMap((t) => names.map((n) => ({ t, n })))
  const label = (t) => (t === 'ws' ? 'WS' : 'HTTP')
  const gapLabel = (gap) => (gap === 0 ? 'none (back to back)' : `${gap} ms`)
  return [
    `**A trivial request's round trip by the server's idle time before it** (µs, median; \`eth_chainId\`, one lean client, ${section.rounds} turns each; the bare Node server answers a canned result: the least a Node server does)`,
    '',
    `| idle before the request | ${columns.map(({ t, n }) => `${n} ${label(t)}`).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...section.gaps.map((gap) => `| ${gapLabel(gap)} | ${columns.map(({ t, n }) => Math.round(1000 * section.targets[n][t][gap])).join(' | ')} |`),
  ].join('\n')
}

// Run as a script: the section alone.
await runAsScript(import.meta.url, wakeSection, wakeTable)
