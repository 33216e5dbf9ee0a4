#!/usr/bin/env node
// The in-process viem test from cold to warm: ms per test over its first 200 runs, ringchain
// (createRingchain, this build's dist/) and Hardhat 2 (its in-process EIP-1193 provider), each in a
// process of its own, one after the other. `npm run bench` measures 15 tests after 3 of warm-up;
// this shows where that sits on the curve and what a long suite sees once the JIT is warm.
//
//   npm run build && node bench/steady.mjs [--flow viem|erc20] [--tests 200]

import { fork } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { custom } from 'viem'
import { FLOWS, HARDFORK, MNEMONIC, viemClients } from './suite-flows.mjs'
import { installedFile } from './startup.mjs'

const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const flow = option('--flow', 'viem')
const tests = Number(option('--tests', '200'))
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]

if (process.env.STEADY_TARGET !== undefined) {
  // A child: run the flow `tests` times against one target and send back each test's ms.
  let request
  if (process.env.STEADY_TARGET === 'hardhat') {
    process.chdir(process.env.STEADY_HARDHAT_DIR)
    process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true'
    const provider = createRequire(process.env.STEADY_HARDHAT_MODULE)('hardhat').network.provider
    request = (a) => provider.request(a)
  } else {
    const { createRingchain } = await import(new URL('../dist/index.js', import.meta.url).href)
    request = (await createRingchain({ hardfork: HARDFORK })).request
  }
  const viem = viemClients(custom({ request }))
  const ms = []
  for (let i = 0; i < tests; i++) {
    const started = performance.now()
    await FLOWS[flow].run({ viem })
    ms.push(performance.now() - started)
  }
  process.send(ms, () => process.exit(0))
} else {
  const run = (target, env = {}) =>
    new Promise((resolve, reject) => {
      const child = fork(new URL(import.meta.url).pathname, args, { env: { ...process.env, STEADY_TARGET: target, ...env } })
      child.once('message', resolve)
      child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${target} exited with ${code}`))))
    })
  const rows = { ringchain: await run('ringchain') }
  const hardhat = installedFile('hardhat@^2', 'hardhat', 'package.json')
  if (hardhat.path === undefined) console.log(`Hardhat not measured: ${hardhat.reason}`)
  else {
    const dir = mkdtempSync(join(tmpdir(), 'ringchain-steady-'))
    writeFileSync(join(dir, 'hardhat.config.js'), `module.exports = { networks: { hardhat: { chainId: 31337, hardfork: '${HARDFORK}', accounts: { mnemonic: '${MNEMONIC}', count: 10 }, mining: { auto: true } } } }\n`)
    try {
      rows.hardhat = await run('hardhat', { STEADY_HARDHAT_DIR: dir, STEADY_HARDHAT_MODULE: hardhat.path })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const spans = [[0, 1], [1, 3], [3, 18], [18, 50], [50, tests]].filter(([from, to]) => to <= tests && from < to)
  console.log(`| ${FLOWS[flow].label}: ms per test, median of the tests in each span | ${spans.map(([f, t]) => (t - f === 1 ? `test ${t}` : `tests ${f + 1}–${t}`)).join(' | ')} |`)
  console.log(`|---|${spans.map(() => '---:').join('|')}|`)
  for (const [name, ms] of Object.entries(rows)) console.log(`| ${name} | ${spans.map(([f, t]) => median(ms.slice(f, t)).toFixed(1)).join(' | ')} |`)
}
