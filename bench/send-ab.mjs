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
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { pathToFileURL } from 'node:url'
const [A, B] = [process.env.A, process.env.B]
const N = Number(process.argv[2] ?? 1000), BATCH = Number(process.argv[3] ?? 50)
const runtime = '36602014600f5760203560003555005b6000355460005260206000f3'
const length = (runtime.length / 2).toString(16).padStart(2, '0')
const INITCODE = `0x60${length}600c60003960${length}6000f3${runtime}`
const word = (n) => BigInt(n).toString(16).padStart(64, '0')
async function setup(dist) {
  const { createRingchain } = await import(pathToFileURL(`${dist}/index.js`).href)
  const rc = await createRingchain({ deterministic: true })
  const [a, b] = rc.accounts
  const request = (method, params) => rc.request({ method, params })
  const deploy = await request('eth_sendTransaction', [{ from: a.address, data: INITCODE }])
  const { contractAddress: store } = await request('eth_getTransactionReceipt', [deploy])
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: `0x${word(1)}${word(42)}` }])
  return { rc, b, store, request }
}
const sa = await setup(A), sb = await setup(B)
const common = sa.rc.chain.common
let nonce = BigInt(await sa.request('eth_getTransactionCount', [sa.b.address, 'pending']))
const raws = []
for (let i = 0; i < N + 100; i++) {
  const tx = createFeeMarket1559Tx({ chainId: common.chainId(), nonce: nonce++, to: hexToBytes(sa.store), data: hexToBytes(`0x${word(3 + (i % 5))}${word(i + 1)}`), gasLimit: 60_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n }, { common }).sign(hexToBytes(sa.b.privateKey))
  raws.push(`0x${Buffer.from(tx.serialize()).toString('hex')}`)
}
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
