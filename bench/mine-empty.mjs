// How long mining N empty blocks in one call takes (manual mode). Run: npm run build && node bench/mine-empty.mjs [N]
import { createRingchain } from '../dist/index.js'

const n = BigInt(process.argv[2] ?? 10_000)
const rc = await createRingchain({ mining: { mode: 'manual' } })
const started = performance.now()
await rc.request({ method: 'anvil_mine', params: ['0x' + n.toString(16)] })
const ms = performance.now() - started
console.log(`${n} empty blocks in ${(ms / 1000).toFixed(1)} s (${(ms / Number(n)).toFixed(2)} ms/block); head ${rc.chain.head.number}`)
await rc.close()
