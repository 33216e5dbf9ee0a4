#!/usr/bin/env node
// One transaction run on the mining VM, ethereumjs's runTx against the lean copy
// (src/chain/execution/leanRunTx.ts): the same VM, the same kind of transaction (a storage write
// of the calls bench's contract), batches alternating. Prints µs per transaction, min and median of
// the batches after two of warm-up: wall, CPU (process.cpuUsage, all threads), and the wall time
// before the EVM's runCall, in it, and after it.
//
//   npm run build && node bench/runtx.mjs [transactions per batch] [batches]
//
// On a busy machine the minimum is the steadier figure (preemption only ever adds).

import { createBlock } from '@ethereumjs/block'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Address, generateAddress, hexToBytes } from '@ethereumjs/util'
import { runTx } from '@ethereumjs/vm'

const dist = new URL('../dist', import.meta.url).pathname
const { createDevCommon, devAlloc } = await import(`${dist}/chain/genesis.js`)
const { createCustomCrypto } = await import(`${dist}/chain/crypto.js`)
const { DEFAULT_MNEMONIC, deriveAccounts } = await import(`${dist}/chain/accounts.js`)
const { WorldState } = await import(`${dist}/chain/state.js`)
const { createMiningVM } = await import(`${dist}/chain/miner.js`)
const { runTransaction } = await import(`${dist}/chain/execution/leanRunTx.js`)

const N = Number(process.argv[2] ?? 1000)
const BATCHES = Number(process.argv[3] ?? 10)

const common = createDevCommon({ chainId: 31337n, hardfork: 'prague', customCrypto: createCustomCrypto() })
const [sender] = deriveAccounts(DEFAULT_MNEMONIC, 1)
const world = new WorldState(common)
const alloc = devAlloc([sender], 10n ** 22n)
await world.commit(alloc, await world.computeRoot(alloc), 0n)
const { vm } = await createMiningVM(common, world, { recentHash: () => undefined }, common.customCrypto.keccak256)
const block = createBlock({ header: { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 10n ** 9n, timestamp: 1_735_689_600n, coinbase: new Address(new Uint8Array(20)) } }, { common })
// The block builder runs every transaction inside its block's checkpoint.
await vm.evm.journal.checkpoint()

// Runtime: 64 bytes of calldata store word 2 at slot word 1 (as bench/calls.mjs).
const runtime = '36602014600f5760203560003555005b6000355460005260206000f3'
const length = (runtime.length / 2).toString(16).padStart(2, '0')
const word = (n) => BigInt(n).toString(16).padStart(64, '0')
let nonce = 0n
const sign = (fields) => {
  const tx = createFeeMarket1559Tx({ chainId: 31337n, nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, gasLimit: 100_000n, ...fields }, { common }).sign(sender.privateKey)
  tx.getSenderAddress() // recovered once, as the pool's transactions are
  return tx
}
const store = new Address(generateAddress(sender.address, new Uint8Array()))
await runTx(vm, { tx: sign({ data: hexToBytes(`0x60${length}600c60003960${length}6000f3${runtime}`), gasLimit: 200_000n }), block })

// Where the wall time goes: before the EVM's runCall, in it, after it.
const span = { pre: 0, call: 0, post: 0, start: 0, end: 0 }
const runCall = vm.evm.runCall.bind(vm.evm)
vm.evm.runCall = async (opts) => {
  const started = performance.now()
  span.pre += started - span.start
  try {
    return await runCall(opts)
  } finally {
    span.end = performance.now()
    span.call += span.end - started
  }
}

const paths = [['ethereumjs runTx', runTx], ['lean runTx', runTransaction]]
// Signed up front, so that no batch pays for signing.
const signed = Array.from({ length: BATCHES * paths.length }, () => Array.from({ length: N }, (_, i) => sign({ to: store.bytes, data: hexToBytes(`0x${word(3 + (i % 5))}${word(i + 1)}`) })))
const figures = new Map(paths.map(([name]) => [name, []]))
for (let b = 0; b < BATCHES; b++) {
  for (const [name, run] of paths) {
    const txs = signed.shift()
    span.pre = span.call = span.post = 0
    const cpu = process.cpuUsage()
    const wall = performance.now()
    let gasUsed = 0n
    for (const tx of txs) {
      span.start = performance.now()
      gasUsed += (await run(vm, { tx, block, blockGasUsed: gasUsed })).totalGasSpent
      span.post += performance.now() - span.end
    }
    const used = process.cpuUsage(cpu)
    const us = (ms) => (ms / N) * 1000
    figures.get(name).push({ wall: us(performance.now() - wall), cpu: (used.user + used.system) / N, pre: us(span.pre), call: us(span.call), post: us(span.post) })
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log(`µs per transaction, ${N} a batch, min / median of ${BATCHES - 2} batches`)
for (const [name, rows] of figures) {
  const kept = rows.slice(2)
  const cell = (key) => `${key} ${Math.min(...kept.map((r) => r[key])).toFixed(0)} / ${median(kept.map((r) => r[key])).toFixed(0)}`
  console.log(`${name.padEnd(17)} ${['wall', 'cpu', 'pre', 'call', 'post'].map(cell).join('  ')}`)
}
