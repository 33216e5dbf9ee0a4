// How long `ringchain serve` takes to warm up: one test flow of suite-flows.mjs (viem by default)
// run again and again over HTTP against one fresh server, printing per window of tests the
// server's CPU per test, its main thread (JavaScript) apart from V8's background threads (the
// JIT compiler, GC helpers), and the elapsed time. A native peer (anvil) has no such phase; the
// suite section measures ringchain within it. Linux only (reads schedstat). The server warms
// itself up while idle after its start (src/warmup/): this waits for that to end first and prints
// what it cost; `--no-warmup` starts it without one, to show the curve it shortens.
//
//   npm run build && node bench/warmup.mjs [--flow viem] [--tests 300] [--window 20] [--no-warmup]

import { parseArgs } from 'node:util'
import { http } from 'viem'
import { threadsCpuMs } from './proc-cpu.mjs'
import { FLOWS, viemClients } from './suite-flows.mjs'
import { stopProcess, warmupEnded } from './processes.mjs'
import { startRingchain } from './suite.mjs'

const { values } = parseArgs({ options: { flow: { type: 'string', default: 'viem' }, tests: { type: 'string', default: '300' }, window: { type: 'string', default: '20' }, 'no-warmup': { type: 'boolean' } } })
const flow = FLOWS[values.flow]
if (flow === undefined || values.flow === 'ethers') throw new Error(`--flow: one of ${Object.keys(FLOWS).filter((f) => f !== 'ethers').join(', ')}`)
if (process.platform !== 'linux') {
  console.log(`warmup: not measured on ${process.platform} (it reads the server's CPU from /proc/<pid>/task/*/schedstat)`)
  process.exit(0)
}
const tests = Number(values.tests)
const window = Number(values.window)

if (values['no-warmup']) process.env.RINGCHAIN_WARMUP = 'off'
const server = await startRingchain()
try {
  const cpu0 = threadsCpuMs(server.child.pid)
  const warmup = await warmupEnded(server.httpUrl)
  console.log(`warm-up: ${JSON.stringify(warmup)}; the server's CPU meanwhile (all threads): ${(threadsCpuMs(server.child.pid) - cpu0).toFixed(0)} ms`)
  const clients = { viem: viemClients(http(server.httpUrl)) }
  const pid = server.child.pid
  console.log(`${values.flow} over HTTP, one fresh \`ringchain serve\`; per test, mean of each window of ${window} (node ${process.version})`)
  console.log('| tests | main thread CPU ms | background threads CPU ms | elapsed ms |')
  console.log('|---|---:|---:|---:|')
  for (let done = 0; done < tests; done += window) {
    const main0 = threadsCpuMs(pid, true)
    const all0 = threadsCpuMs(pid)
    const started = performance.now()
    for (let i = 0; i < window; i++) await flow.run(clients)
    const main = (threadsCpuMs(pid, true) - main0) / window
    const background = (threadsCpuMs(pid) - all0) / window - main
    console.log(`| ${done + 1}–${done + window} | ${main.toFixed(1)} | ${background.toFixed(1)} | ${((performance.now() - started) / window).toFixed(1)} |`)
  }
} finally {
  await stopProcess(server.child)
}
process.exit(0)
