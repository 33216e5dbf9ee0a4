// Two builds of `ringchain serve` side by side, for an A/B on a busy machine: both servers run at
// once and one test's requests (recorded by flow-replay.mjs) are replayed on each in turn, A then
// B, then B then A, so that whatever else the machine does falls on both alike. Prints, per build,
// ms per test and the server's main-thread CPU per test (Linux /proc), in all and by method.
//
//   A=<distA> B=<distB> node bench/served-ab.mjs [FLOW=viem|erc20|ethers] [TRANSPORT=ws|http] [N=300] [WARM=300]   (env)
//
// WARM tests per server first (not counted): the servers get JIT-warm, as a suite's long run does.
// A dist copied out of the repo needs a node_modules beside it (see calls.mjs).

import { execFileSync, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import WebSocket from 'ws'
import { HARDFORK } from './suite-flows.mjs'
import { threadsCpuMs } from './proc-cpu.mjs'
import { readyLine, stopProcess } from './processes.mjs'

const FLOW = process.env.FLOW ?? 'erc20'
const TRANSPORT = process.env.TRANSPORT ?? 'ws'
const N = Number(process.env.N ?? 300)
const WARM = Number(process.env.WARM ?? 300)
if (process.env.A === undefined || process.env.B === undefined) throw new Error('A=<dist> B=<dist>: the two builds to compare')

/** `ringchain serve` of `dist`, with a bare client over TRANSPORT (as flow-replay.mjs's). */
async function server(name, dist) {
  const child = spawn(process.execPath, [resolve(dist, 'cli/main.js'), 'serve', '--port', '0', '--json', '--log-level', 'warn', '--hardfork', HARDFORK], { stdio: ['ignore', 'pipe', 'inherit'] })
  const { httpUrl, wsUrl } = await readyLine(child, name)
  let id = 1
  let request
  let close = () => {}
  if (TRANSPORT === 'http') {
    request = async (method, params) => (await fetch(httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }) })).json()
  } else {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false })
    await new Promise((done, fail) => (ws.once('open', done), ws.once('error', fail)))
    let waiting
    ws.on('message', (data) => waiting(JSON.parse(String(data))))
    request = (method, params) => new Promise((done) => ((waiting = done), ws.send(JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }))))
    close = () => ws.close()
  }
  const stop = async () => (close(), await stopProcess(child))
  return { name, pid: child.pid, request, stop, ms: 0, cpu: 0, cpuByMethod: new Map() }
}

/** One replayed test on `target`; counted unless warming up. */
async function replay(log, target, counted) {
  let snapshot
  for (const { method, params } of log) {
    const cpu = threadsCpuMs(target.pid, true)
    const started = performance.now()
    const answer = await target.request(method, method === 'evm_revert' ? [snapshot] : params)
    if (answer.error !== undefined) throw new Error(`${target.name} ${method}: ${answer.error.message}`)
    if (method === 'evm_snapshot') snapshot = answer.result
    if (!counted) continue
    const used = threadsCpuMs(target.pid, true) - cpu
    target.ms += performance.now() - started
    target.cpu += used
    target.cpuByMethod.set(method, (target.cpuByMethod.get(method) ?? 0) + used)
  }
}

const log = JSON.parse(execFileSync(process.execPath, [new URL('flow-replay.mjs', import.meta.url).pathname, '--record'], { encoding: 'utf8', env: { ...process.env, FLOW }, stdio: ['ignore', 'pipe', 'inherit'] }))
const targets = [await server('A', process.env.A), await server('B', process.env.B)]
try {
  for (let i = 0; i < WARM; i++) for (const target of targets) await replay(log, target, false)
  for (let i = 0; i < N; i++) for (const target of i % 2 === 0 ? targets : [...targets].reverse()) await replay(log, target, true)
} finally {
  await Promise.all(targets.map((t) => t.stop()))
}
console.log(`${FLOW} over ${TRANSPORT}, ${N} tests each after ${WARM} (A=${process.env.A}, B=${process.env.B})`)
for (const t of targets) {
  const byMethod = [...t.cpuByMethod].map(([method, ms]) => `${method} ${(ms / N).toFixed(2)}`).join(', ')
  console.log(`  ${t.name}: ${(t.ms / N).toFixed(2)} ms per test, server main-thread CPU ${(t.cpu / N).toFixed(2)} ms (${byMethod})`)
}
const [a, b] = targets
console.log(`  B/A: time ${(b.ms / a.ms).toFixed(3)}, CPU ${(b.cpu / a.cpu).toFixed(3)}`)
