// A/B of one EVM frame as a mined storage write runs it: runCall of the bench's Store contract
// (calldata 64 bytes -> sstore, STOP) on an EVM with the recorder's SSTORE and the fast interpreter
// of each dist; rounds alternate A and B in one process; CPU µs per call, median of rounds.
//   node bench/frame-ab.mjs <distA> <distB> [calls per round] [rounds]
// (a dist copied outside the repo needs a node_modules beside it: ln -s <repo>/node_modules <dir>/node_modules)
import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { resolve } from 'node:path'
const dists = { A: resolve(process.argv[2]), B: resolve(process.argv[3]) }
const N = Number(process.argv[4] ?? 2000), ROUNDS = Number(process.argv[5] ?? 15)
const CALLER = createAddressFromString('0x00000000000000000000000000000000000000c0')
const STORE = createAddressFromString('0x00000000000000000000000000000000000000a1')
const code = hexToBytes('0x36602014600f5760203560003555005b6000355460005260206000f3')
const word = (n) => BigInt(n).toString(16).padStart(64, '0')
const evms = {}
for (const [k, dist] of Object.entries(dists)) {
  const { createDevCommon } = await import(`${dist}/chain/genesis.js`)
  const { installFastInterpreter } = await import(`${dist}/chain/execution/fastInterpreter.js`)
  const { StorageWriteRecorder } = await import(`${dist}/chain/storageChanges.js`)
  const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
  const rec = new StorageWriteRecorder(() => new Uint8Array(0))
  const evm = await createEVM({ common, customOpcodes: [rec.opcode(common)] })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n))
  await evm.stateManager.putCode(STORE, code)
  await installFastInterpreter(evm)
  evms[k] = { evm, rec, data: Array.from({ length: 5 }, (_, i) => hexToBytes(`0x${word(3 + i)}${word(i + 1)}`)) }
}
async function round({ evm, data }) {
  const cpu = process.cpuUsage()
  for (let i = 0; i < N; i++) {
    evm.journal.cleanJournal()
    const r = await evm.runCall({ caller: CALLER, origin: CALLER, to: STORE, data: data[i % 5], gasLimit: 60000n })
    if (r.execResult.exceptionError) throw new Error(r.execResult.exceptionError.error)
  }
  const u = process.cpuUsage(cpu)
  return ((u.user + u.system) / N)
}
const res = { A: [], B: [] }
for (const k of ['A', 'B']) await round(evms[k])
for (let r = 0; r < ROUNDS; r++) for (const k of r % 2 ? ['B', 'A'] : ['A', 'B']) res[k].push(await round(evms[k]))
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1]
const ratios = res.A.map((a, i) => res.B[i] / a)
console.log(`runCall storage write, CPU µs/call median of ${ROUNDS}: A ${med(res.A).toFixed(1)}  B ${med(res.B).toFixed(1)}  B/A per pair median ${med(ratios).toFixed(3)}`)
