// Two builds of `ringchain serve` and anvil, each driven by the suite's real client flows (viem,
// suite-flows.mjs) from this one process, taking turns one test at a time (the order reversed every
// round), so whatever else the machine does falls on all alike. Prints per flow and transport the
// median ms per test of each, A/B as a ratio of medians and as the median of paired ratios (test i
// of A over test i of B), each build's ratio to anvil, and the servers' CPU per test (Linux /proc:
// the main thread, where JavaScript runs, and all threads, V8's compiler and GC helpers included).
//
//   A=<cli/main.js> B=<cli/main.js> node bench/flows-ab.mjs   (env: FLOW=viem,erc20 TRANSPORT=ws,http N=60 WARM=20 ANVIL=0 to leave anvil out)
//
// Unlike the suite section, one client process serves every target, always busy: what it isolates
// is the servers. Each ringchain's own warm-up ends before the first test. A dist copied out of the
// repo needs a node_modules beside it (see calls.mjs); give each build its own TMPDIR when they
// run with different V8 flags (see README, "Trying Node or V8 flags").

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { http, webSocket } from 'viem'
import { threadsCpuMs } from './proc-cpu.mjs'
import { stopProcess, warmupEnded } from './processes.mjs'
import { findAnvil } from './startup.mjs'
import { FLOWS, viemClients } from './suite-flows.mjs'
import { startAnvil, startRingchain } from './suite.mjs'

const N = Number(process.env.N ?? 60)
const WARM = Number(process.env.WARM ?? 20)
const FLOW_NAMES = (process.env.FLOW ?? 'viem,erc20').split(',')
const TRANSPORTS = (process.env.TRANSPORT ?? 'ws,http').split(',')
if (process.env.A === undefined || process.env.B === undefined) throw new Error('A=<cli/main.js> B=<cli/main.js>: the two builds to compare')
for (const flow of FLOW_NAMES) if (FLOWS[flow] === undefined || flow === 'ethers') throw new Error(`FLOW: one of viem, erc20 (got ${flow})`)

const scratch = mkdtempSync(join(tmpdir(), 'flows-ab-'))
const servers = { A: await startRingchain(process.env.A), B: await startRingchain(process.env.B) }
if (process.env.ANVIL !== '0') {
  const anvil = findAnvil()
  if (anvil.binary === undefined) console.log(`anvil left out: ${anvil.reason}`)
  else servers.anvil = await startAnvil(anvil.binary, join(scratch, 'anvil'))
}
await Promise.all(['A', 'B'].map((name) => warmupEnded(servers[name].httpUrl)))

const targets = Object.entries(servers).flatMap(([server, s]) =>
  TRANSPORTS.map((transport) => ({
    server,
    transport,
    pid: s.child.pid,
    viem: viemClients(transport === 'http' ? http(s.httpUrl, { retryCount: 0 }) : webSocket(s.wsUrl, { retryCount: 0, reconnect: false, keepAlive: false })),
    ms: Object.fromEntries(FLOW_NAMES.map((f) => [f, []])),
    cpuMain: 0,
    cpuAll: 0,
  })),
)
try {
  for (let round = 0; round < WARM + N; round++) {
    for (const flow of FLOW_NAMES) {
      for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
        const main = threadsCpuMs(t.pid, true)
        const all = threadsCpuMs(t.pid)
        const started = performance.now()
        await FLOWS[flow].run({ viem: t.viem })
        if (round < WARM) continue
        t.ms[flow].push(performance.now() - started)
        t.cpuMain += threadsCpuMs(t.pid, true) - main
        t.cpuAll += threadsCpuMs(t.pid) - all
      }
    }
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => stopProcess(s.child)))
  rmSync(scratch, { recursive: true, force: true })
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1]
const find = (server, transport) => targets.find((t) => t.server === server && t.transport === transport)
console.log(`flows-ab: ${N} tests per flow and target after ${WARM} (A=${process.env.A}, B=${process.env.B})`)
for (const flow of FLOW_NAMES) {
  for (const transport of TRANSPORTS) {
    const [a, b, anvil] = ['A', 'B', 'anvil'].map((s) => find(s, transport)?.ms[flow])
    const paired = median(a.map((x, i) => x / b[i]))
    const vsAnvil = (x) => (anvil === undefined ? '–' : (median(x) / median(anvil)).toFixed(3))
    console.log(
      `  ${flow} ${transport}: A ${median(a).toFixed(2)} ms, B ${median(b).toFixed(2)}${anvil === undefined ? '' : `, anvil ${median(anvil).toFixed(2)}`}` +
        ` | A/B ${(median(a) / median(b)).toFixed(3)}, paired ${paired.toFixed(3)} | A/anvil ${vsAnvil(a)}, B/anvil ${vsAnvil(b)}`,
    )
  }
}
const tests = N * FLOW_NAMES.length
for (const t of targets) console.log(`  ${t.server} ${t.transport}: server CPU per test ${t.server === 'anvil' ? '' : `main thread ${(t.cpuMain / tests).toFixed(2)} ms, `}all threads ${(t.cpuAll / tests).toFixed(2)} ms`)
// viem's WebSocket clients hold sockets and timers of their own: nothing is left to wait for.
process.exit(0)
