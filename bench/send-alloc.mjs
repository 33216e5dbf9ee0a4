#!/usr/bin/env node
// Bytes allocated per eth_sendRawTransaction (storage write, automine, in process) and where: the
// sampling heap profiler (objects later collected included) over the first 300 sends (cold) and
// over 300 sends after `sends` (warm). Prints KB per send, then bytes per send by the nearest
// frame of ringchain's own code and the function it called there (`> callee`), or by function.
//
//   node bench/send-alloc.mjs [sends=2000] [--dist path/to/dist] [--by function|owner] [--top 30]
//
// A dist copied out of the repo needs a node_modules beside it (see calls.mjs).
import { Session } from 'node:inspector/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { signedStoreWrites, storeChain } from './store-chain.mjs'

const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const dist = resolve(option('--dist', new URL('../dist', import.meta.url).pathname))
const by = option('--by', 'owner')
const top = Number(option('--top', 30))
const N = Number(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 2000)
const WINDOW = 300

const { createRingchain } = await import(pathToFileURL(`${dist}/index.js`).href)
const chain = await storeChain(createRingchain)
const raws = await signedStoreWrites(chain, N + WINDOW)
let next = 0
const send = () => chain.request('eth_sendRawTransaction', [raws[next++]])
const session = new Session()
session.connect()
await session.post('HeapProfiler.enable')

/** Our own frames: dist's modules (ethereumjs, noble and node internals are callees). */
const ours = (frame) => frame.url.includes(dist) && !frame.url.includes('node_modules')
const nameOf = (frame) => `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`

async function profile(label) {
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  for (let k = 0; k < WINDOW; k++) await send()
  const { profile } = await session.post('HeapProfiler.stopSampling')
  const bytes = new Map()
  let total = 0
  const walk = (node, stack) => {
    const path = [...stack, node.callFrame]
    if (node.selfSize > 0) {
      total += node.selfSize
      let key = nameOf(node.callFrame)
      if (by === 'owner') {
        let j = path.length - 1
        while (j >= 0 && !ours(path[j])) j--
        key = (j >= 0 ? nameOf(path[j]) : '(no frame of ours)') + (j < path.length - 1 ? `  > ${nameOf(path[j + 1])}` : '')
      }
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize)
    }
    for (const child of node.children) walk(child, path)
  }
  walk(profile.head, [])
  console.log(`${label}: ${(total / WINDOW / 1024).toFixed(1)} KB per send`)
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(String(Math.round(b / WINDOW)).padStart(8), key)
}

await profile(`cold (sends 1-${WINDOW})`)
while (next < N) await send()
await profile(`warm (sends ${N + 1}-${N + WINDOW})`)
await chain.rc.close()
