#!/usr/bin/env node
// Calls, estimates and sends, in-process: mean ms per call of `request` on `createRingchain()` for
// eth_call (a view returning a stored value), eth_estimateGas (transfer, contract call, deployment),
// eth_sendRawTransaction of a storage write with automine (signed beforehand, so signing is not
// counted) and eth_fillTransaction. No peers: this is the quick loop for the call path.
//
//   npm run build && node bench/calls.mjs [iterations] [--dist path/to/dist] [--only call|estimate|fill|send]
//
// `--only` times one group of rows (the others are skipped), for a CPU profile of that path alone.
//
// To compare two builds, run each in turn in one session, alternating, and compare the ratios. On a
// loaded machine the CPU time per call (process.cpuUsage, garbage collection included) is the
// steadier figure.
//
// A dist copied out of the repo needs a node_modules beside it (a symlink to the repo's will do):
// without one it cannot load the native secp256k1 binding, recovers senders in JavaScript instead
// (src/chain/crypto.ts), and its sends measure 2–4× slower than the same build in place.

import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { INITCODE, signedStoreWrites, storeChain, word } from './store-chain.mjs'

const args = process.argv.slice(2)
const distAt = args.indexOf('--dist')
const dist = distAt >= 0 ? resolve(args[distAt + 1]) : new URL('../dist', import.meta.url).pathname
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined
const positional = args.filter((a, i) => !a.startsWith('--') && (distAt < 0 || i !== distAt + 1) && (onlyAt < 0 || i !== onlyAt + 1))
const runs = (group) => only === undefined || only === group
const N = Number(positional[0] ?? 500)

const { createRingchain } = await import(pathToFileURL(`${dist}/index.js`).href)

const chain = await storeChain(createRingchain)
const { rc, a, b, store, request } = chain

async function time(label, fn, n = N) {
  for (let i = 0; i < Math.min(50, n); i++) await fn(i)
  const started = performance.now()
  const cpu = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn(i)
  const ms = (performance.now() - started) / n
  const used = process.cpuUsage(cpu)
  const cpuMs = (used.user + used.system) / 1000 / n
  console.log(`${label.padEnd(46)} ${ms.toFixed(3)} ms  (cpu ${cpuMs.toFixed(3)} ms)`)
}

const read = { from: a.address, to: store, data: `0x${word(1)}` }
if (runs('call')) await time('eth_call (view of a stored value)', () => request('eth_call', [read, 'latest']))
if (runs('estimate')) await time('eth_estimateGas transfer', () => request('eth_estimateGas', [{ from: a.address, to: b.address, value: '0x1' }]))
if (runs('estimate')) await time('eth_estimateGas contract call (storage write)', (i) => request('eth_estimateGas', [{ from: a.address, to: store, data: `0x${word(2)}${word(i + 1)}` }]))
if (runs('estimate')) await time('eth_estimateGas deployment', () => request('eth_estimateGas', [{ from: a.address, data: INITCODE }]))
let fill = true
try {
  await request('eth_fillTransaction', [{ from: a.address, to: store, data: `0x${word(2)}${word(7)}` }])
} catch {
  fill = false
}
if (!runs('fill')) {
  // not asked for
} else if (fill) await time('eth_fillTransaction (storage write)', (i) => request('eth_fillTransaction', [{ from: a.address, to: store, data: `0x${word(2)}${word(i + 1)}` }]))
else console.log(`${'eth_fillTransaction (storage write)'.padEnd(44)} not served`)

// Storage writes, signed up front from account b.
if (runs('send')) {
  const raws = await signedStoreWrites(chain, N + Math.min(50, N))
  let next = 0
  await time('eth_sendRawTransaction storage write, automine', () => request('eth_sendRawTransaction', [raws[next++]]))
}
await rc.close()
