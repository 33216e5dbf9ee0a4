// Memory once the ring is full: resident memory and heap after 1k, 5k and 20k blocks of transfers.
// Each block carries one signed transfer (automine). Run: npm run build && node --expose-gc bench/memory.mjs [blocks]
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { createRingchain } from '../dist/index.js'

const total = Number(process.argv[2] ?? 20_000)
const checkpoints = new Set([1_000, 5_000, 10_000, 15_000, 20_000, 25_000, 30_000, total])
const rc = await createRingchain({ deterministic: true })
const chain = rc.chain
const [a, b] = chain.accounts
const MiB = 1024 * 1024
const rows = []
const started = performance.now()
for (let i = 0; i < total; i++) {
  const tx = createFeeMarket1559Tx(
    { chainId: chain.common.chainId(), nonce: BigInt(i), to: b.address, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n },
    { common: chain.common },
  ).sign(a.privateKey)
  await chain.sendRawTransaction(tx.serialize())
  const blocks = i + 1
  if (checkpoints.has(blocks)) {
    globalThis.gc?.()
    const m = process.memoryUsage()
    rows.push({ blocks, rssMiB: +(m.rss / MiB).toFixed(1), heapMiB: +(m.heapUsed / MiB).toFixed(1), heapTotalMiB: +(m.heapTotal / MiB).toFixed(1), externalMiB: +(m.external / MiB).toFixed(1), seconds: +((performance.now() - started) / 1000).toFixed(1) })
    console.error(JSON.stringify(rows.at(-1)))
  }
}
await rc.close()
const first = rows.find((r) => r.blocks === 1_000)
const last = rows.at(-1)
if (first && last && last.blocks > first.blocks) {
  const per1k = (last.heapMiB - first.heapMiB) / ((last.blocks - first.blocks) / 1000)
  console.log(`heap growth per 1k blocks after the first 1k: ${per1k.toFixed(3)} MiB`)
}
console.table(rows)
