#!/usr/bin/env node
// The state root of two builds in one process: a world state of each (chain/state.js), the same
// blocks applied to both (computeRoot, commit, evict), in batches alternating between them, the
// order flipped every batch; CPU µs per block per phase and the B/A ratio (of the sums, and the
// median of the batch pairs). The roots must agree, block after block.
//
//   A=/tmp/me/dist-main B=dist node bench/root-ab.mjs [blocks=4000] [batch=20] [marks=300,1000,4000]
//
// Each block is what a storage-write send mines on a Prague dev chain: the sender's nonce and
// balance, the fee recipient's balance, the contract's slot, and the system contracts' rings
// (EIP-4788: two slots, EIP-2935: one). On a loaded machine it is the steadiest figure of the root:
// no transaction, EVM or header around it.
const [distA, distB] = [process.env.A, process.env.B]
const args = process.argv.slice(2)
const N = Number(args[0] ?? 4000)
const BATCH = Number(args[1] ?? 20)
const marks = (args[2] ?? '300,1000,4000').split(',').map(Number)

const BEACON_ROOTS = '000f3df6d732807ef1319fb7b8bb8522d0beac02'
const HISTORY = '0000f90827f1c53a10cb7a02335b175320002935'
const STORE = '5fbdb2315678afecb367f032d93f642f64180aa3'
const COINBASE = '0000000000000000000000000000000000000000'
const RING = 8191
const slot = (n) => n.toString(16).padStart(64, '0')

/** A world state of `dist` with 20 funded accounts and three contracts; answers the step that mines block n. */
async function worldOf(dist) {
  const { WorldState, emptyChanges } = await import(`${dist}/chain/state.js`)
  const { createCustomCrypto, keccakReady } = await import(`${dist}/chain/crypto.js`)
  const { createDevCommon } = await import(`${dist}/chain/genesis.js`)
  const customCrypto = createCustomCrypto()
  await keccakReady()
  const keccak = customCrypto.keccak256
  const world = new WorldState(createDevCommon({ chainId: 1337n, hardfork: 'prague', customCrypto }))
  const noCode = keccak(new Uint8Array(0))
  const noStorage = keccak(Uint8Array.of(0x80))
  const record = (nonce, balance, codeHash = noCode) => ({ nonce, balance, storageRoot: noStorage, codeHash, codeSize: 0 })
  const accounts = Array.from({ length: 20 }, (_, i) => Buffer.from(keccak(Uint8Array.of(i, 1)).subarray(0, 20)).toString('hex'))
  const genesis = emptyChanges()
  for (const address of accounts) genesis.accounts.set(address, record(0n, 10n ** 22n))
  for (const address of [BEACON_ROOTS, HISTORY, STORE]) genesis.accounts.set(address, record(1n, 0n, keccak(Uint8Array.of(1, 2, 3))))
  await world.commitGenesis(genesis)
  const sender = accounts[1]
  return async (n) => {
    const changes = emptyChanges()
    const timestamp = 1_700_000_000 + n * 12
    changes.accounts.set(sender, record(BigInt(n), 10n ** 22n - BigInt(n) * 123_456_789n))
    changes.accounts.set(STORE, world.head.account(STORE))
    changes.accounts.set(COINBASE, record(0n, BigInt(n) * 1000n))
    const beaconRoot = keccak(Uint8Array.of(n & 255, n >> 8, 1))
    changes.storage.set(BEACON_ROOTS, new Map([[slot(timestamp % RING), keccak(Uint8Array.of(n & 255, n >> 8)).subarray(0, 4)], [slot((timestamp % RING) + RING), beaconRoot]]))
    changes.storage.set(HISTORY, new Map([[slot((n - 1) % RING), keccak(Uint8Array.of(n & 255, n >> 8, 2))]]))
    changes.storage.set(STORE, new Map([[slot(3 + (n % 5)), Uint8Array.of(n & 255 || 1)]]))
    await world.commit(changes, await world.computeRoot(changes), BigInt(n))
    if (n > 128) world.evict(BigInt(n - 128))
    return Buffer.from(world.root).toString('hex')
  }
}

const steps = [await worldOf(distA), await worldOf(distB)]
const sums = [0, 0]
let pairs = []
let from = 0
for (let n = 1; n <= N; n += BATCH) {
  const order = Math.floor(n / BATCH) % 2 === 0 ? [0, 1] : [1, 0]
  const roots = []
  const used = []
  for (const k of order) {
    const started = process.cpuUsage()
    for (let m = n; m < n + BATCH && m <= N; m++) roots[k] = await steps[k](m)
    const cpu = process.cpuUsage(started)
    used[k] = cpu.user + cpu.system
    sums[k] += used[k]
  }
  if (roots[0] !== roots[1]) throw new Error(`the builds' roots differ at block ${n + BATCH - 1}`)
  pairs.push(used[1] / used[0])
  const end = Math.min(n + BATCH - 1, N)
  if (marks.includes(end) || end === N) {
    const blocks = end - from
    const median = pairs.sort((x, y) => x - y)[pairs.length >> 1]
    console.log(`blocks ${from + 1}-${end}: A ${(sums[0] / blocks).toFixed(1)} B ${(sums[1] / blocks).toFixed(1)} µs CPU per block, B/A ${(sums[1] / sums[0]).toFixed(3)} (median of batch pairs ${median.toFixed(3)})`)
    sums[0] = sums[1] = 0
    pairs = []
    from = end
  }
}
