// What mining costs in-process, per block, in CPU time (robust on a busy machine, unlike wall
// time): N automined transfers, N storage-writing calls, then N empty blocks (anvil_mine).
// Run: npm run build && node bench/mine-cost.mjs [N] [--console]   (default 1000; --console: with a
// console.log listener, so that every message of the mining VM passes the console hook)
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, generateAddress, hexToBytes, intToBytes, setLengthLeft } from '@ethereumjs/util'
import { createRingchain } from '../dist/index.js'

const n = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 1000)
const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
// Dev accounts 0 and 2 of the `test … junk` mnemonic.
const key0 = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const key2 = hexToBytes('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
const sign = (key, data) => createFeeMarket1559Tx({ chainId: 31337n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, ...data }, { common }).sign(key).serialize()
const word = (v) => bytesToHex(setLengthLeft(intToBytes(v), 32)).slice(2)
// `sstore(calldata[0:32], calldata[32:64])` behind copy-and-return init code (as in bench/run.mjs).
const deploy = sign(key2, { nonce: 0n, data: '0x6008600c60003960086000f36020356000355500', gasLimit: 200_000n })
const contract = bytesToHex(generateAddress(hexToBytes('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'), new Uint8Array()))
const transfers = Array.from({ length: n }, (_, i) => sign(key0, { nonce: BigInt(i), to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: 1n, gasLimit: 21_000n }))
const calls = Array.from({ length: n }, (_, i) => sign(key2, { nonce: BigInt(i + 1), to: contract, gasLimit: 100_000n, data: '0x' + word(i % 8) + word(i + 1) }))

const rc = await createRingchain(process.argv.includes('--console') ? { onConsole: () => {} } : {})
const chain = rc.chain
async function measure(label, run) {
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await run()
  const cpu = process.cpuUsage(cpu0)
  const wall = performance.now() - t0
  console.log(`${label.padEnd(10)} ${n} blocks: ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms CPU per block (${(wall / n).toFixed(3)} ms wall)`)
}
await measure('transfers', async () => {
  for (const raw of transfers) await chain.sendRawTransaction(raw)
})
await chain.sendRawTransaction(deploy)
await measure('calls', async () => {
  for (const raw of calls) await chain.sendRawTransaction(raw)
})
await measure('empty', () => rc.request({ method: 'anvil_mine', params: ['0x' + n.toString(16)] }))
await rc.close()
