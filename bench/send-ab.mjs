#!/usr/bin/env node
// Two builds' sends in one process: a chain of each (deterministic, the same storage-write
// transactions signed once), sends alternating between them in batches, the order flipped every
// round; ms and CPU per send per batch (min, p25, median) and the B/A ratio of each batch pair.
// On a loaded machine the batches of both builds meet the same neighbours, which separate runs do not.
//
//   A=/tmp/me/dist-main B=dist node bench/send-ab.mjs [sends=3000] [batch=25]
//
// Each dist copied out of the repo needs a node_modules beside it (see calls.mjs). Both chains share
// ethereumjs's modules; each installs its own overrides per instance, so neither runs the other's code.
import { pathToFileURL } from 'node:url'
import { signedStoreWrites, storeChain } from './store-chain.mjs'
const [A, B] = [process.env.A, process.env.B]
const N = Number(process.argv[2] ?? 1000), BATCH = Number(process.argv[3] ?? 50)
const setup = async (dist) => storeChain((await import(pathToFileURL(`${dist}/index.js`).href)).createRingchain)
const sa = await setup(A), sb = await setup(B)
// Signed once, on A's chain: both chains are deterministic, so they take the same transactions.
const raws = await signedStoreWrites(sa, N + 100)
const times = { A: [], B: [] }, cpu = { A: [], B: [] }
let ia = 0, ib = 0
for (let k = 0; k < 100; k++) { await sa.request('eth_sendRawTransaction', [raws[ia++]]); await sb.request('eth_sendRawTransaction', [raws[ib++]]) }
for (let round = 0; ia < raws.length; round++) {
  for (const [label, s] of round % 2 ? [['B', sb], ['A', sa]] : [['A', sa], ['B', sb]]) {
    const t = performance.now(), c = process.cpuUsage()
    for (let k = 0; k < BATCH; k++) await s.request('eth_sendRawTransaction', [raws[label === 'A' ? ia++ : ib++]])
    const u = process.cpuUsage(c)
    times[label].push((performance.now() - t) / BATCH); cpu[label].push((u.user + u.system) / 1000 / BATCH)
  }
}
const stat = (xs) => { const s = [...xs].sort((x, y) => x - y); return `min ${s[0].toFixed(3)} p25 ${s[Math.floor(s.length / 4)].toFixed(3)} med ${s[Math.floor(s.length / 2)].toFixed(3)}` }
for (const l of ['A', 'B']) console.log(l, 'wall', stat(times[l]), '| cpu', stat(cpu[l]))
const ratios = times.B.map((t, i) => t / times.A[i]).sort((x, y) => x - y)
console.log('B/A per batch pair: median', ratios[Math.floor(ratios.length / 2)].toFixed(3), 'p25', ratios[Math.floor(ratios.length / 4)].toFixed(3), 'p75', ratios[Math.floor(ratios.length * 3 / 4)].toFixed(3))
await sa.rc.close(); await sb.rc.close()
