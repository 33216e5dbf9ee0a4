// One target of the suite section, in a process of its own (forked by suite.mjs): builds the
// clients for it (an in-process ringchain or Hardhat, or a URL over HTTP or WebSocket), then runs,
// on request, one flow of suite-flows.mjs or one batch of single method calls, timing each test
// and each JSON-RPC request the client sends. A process per target keeps one target's garbage and
// JIT state away from another's; the orchestrator makes them take turns.
//
// argv[2]: JSON { kind: 'ringchain' | 'hardhat' | 'http' | 'ws', url?, hardhatDir?, hardhatModule? }

import { createRequire } from 'node:module'
import { BrowserProvider, JsonRpcProvider, WebSocketProvider } from 'ethers'
import { custom, encodeFunctionData, http, webSocket } from 'viem'
import { FLOWS, HARDFORK, Store, accounts, devChain, viemClients } from './suite-flows.mjs'

const target = JSON.parse(process.argv[2])

/** Per JSON-RPC method: how many requests the clients sent and the milliseconds they took. */
let calls = new Map()
function record(method, ms) {
  const entry = calls.get(method) ?? { count: 0, ms: 0 }
  entry.count++
  entry.ms += ms
  calls.set(method, entry)
}
/** Wraps an EIP-1193 `request` so every call is counted and timed. */
const timed = (request) => async (args) => {
  const started = performance.now()
  try {
    return await request(args)
  } finally {
    record(args.method, performance.now() - started)
  }
}

/** The target's EIP-1193 `request`, untimed: for setup and for the method rows. */
async function rawProvider() {
  if (target.kind === 'ringchain') {
    const { createRingchain } = await import(new URL('../dist/index.js', import.meta.url).href)
    const rc = await createRingchain({ hardfork: HARDFORK })
    return { request: rc.request, close: () => rc.close() }
  }
  if (target.kind === 'hardhat') {
    // Hardhat 2 finds its config from the working directory: a throwaway project with only that.
    process.chdir(target.hardhatDir)
    process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true'
    const hre = createRequire(target.hardhatModule)('hardhat')
    const provider = hre.network.provider
    return { request: (args) => provider.request(args), close: async () => {} }
  }
  const transport = (target.kind === 'http' ? http(target.url, { retryCount: 0 }) : webSocket(target.url, { retryCount: 0 }))({ chain: devChain })
  return { request: transport.request, close: async () => {} }
}

/**
 * ethers' provider for the target, its requests timed. Over HTTP and WebSocket the provider a user
 * picks for a URL; in process a BrowserProvider over the EIP-1193 request. `batchMaxCount: 1`: a
 * dev node is asked one request at a time (ethers' default waits 10 ms to batch). `cacheTimeout:
 * -1`: ethers otherwise answers a repeated request within 250 ms from its cache, so the second
 * transaction of a test gets the first one's nonce.
 */
function ethersProvider(raw) {
  const options = { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 }
  if (target.kind === 'http' || target.kind === 'ws') {
    const provider = target.kind === 'http' ? new JsonRpcProvider(target.url, 31337, { ...options, batchMaxCount: 1 }) : new WebSocketProvider(target.url, 31337, options)
    const send = provider._send.bind(provider)
    provider._send = async (payload) => {
      const started = performance.now()
      try {
        return await send(payload)
      } finally {
        for (const p of [payload].flat()) record(p.method, performance.now() - started)
      }
    }
    return provider
  }
  return new BrowserProvider({ request: timed(raw.request) }, 31337, options)
}

function viemTransport(raw) {
  if (target.kind === 'http' || target.kind === 'ws') {
    const inner = target.kind === 'http' ? http(target.url) : webSocket(target.url)
    return (options) => {
      const t = inner(options)
      return { ...t, request: timed(t.request) }
    }
  }
  return custom({ request: timed(raw.request) })
}

const raw = await rawProvider()
/** ethers' `tx.wait()` stalls (see suite-flows.mjs), counted as a pseudo-method with no time of its own. */
const onStall = () => record('(ethers tx.wait stalled, receipt asked directly)', 0)
const clients = { viem: viemClients(viemTransport(raw)), ethers: { provider: ethersProvider(raw), onStall } }

// --- single methods -----------------------------------------------------------------------------

const me = accounts[0].address
const hex = (n) => `0x${BigInt(n).toString(16)}`
const fixture = {}

async function waitForReceipt(hash) {
  for (let i = 0; i < 1_000; i++) {
    const receipt = await raw.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (receipt !== null) return receipt
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  throw new Error(`no receipt for ${hash}`)
}

const nextNonce = async () => Number(await raw.request({ method: 'eth_getTransactionCount', params: [me, 'pending'] }))
/** A transaction of the first dev account, signed here (untimed), fees fixed high enough. */
const sign = (fields) => accounts[0].signTransaction({ chainId: 31337, type: 'eip1559', maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, ...fields })

/** `count` storage writes `store(n)`, signed with the node's next nonces. */
async function signedWrites(count) {
  const nonce = await nextNonce()
  const txs = []
  for (let i = 0; i < count; i++) {
    const data = encodeFunctionData({ abi: Store.abi, functionName: 'store', args: [BigInt(nonce + i)] })
    txs.push(await sign({ nonce: nonce + i, to: fixture.store, data, gas: 100_000n }))
  }
  return txs
}

/** Deploys Store and fills the window with `writes` storage writes (each a block with a `Stored` log). */
async function setupMethods(writes) {
  const deploy = await sign({ nonce: await nextNonce(), data: Store.bytecode, gas: 1_000_000n })
  const receipt = await waitForReceipt(await raw.request({ method: 'eth_sendRawTransaction', params: [deploy] }))
  fixture.store = receipt.contractAddress
  for (const tx of await signedWrites(writes)) await waitForReceipt(await raw.request({ method: 'eth_sendRawTransaction', params: [tx] }))
}

/** The single-method rows: each a request built once, sent `count` times in a row. */
const ROWS = {
  'eth_call': () => ({ method: 'eth_call', params: [{ to: fixture.store, data: encodeFunctionData({ abi: Store.abi, functionName: 'balances', args: [me] }) }, 'latest'] }),
  'eth_estimateGas transfer': () => ({ method: 'eth_estimateGas', params: [{ from: me, to: accounts[1].address, value: '0x1' }] }),
  'eth_estimateGas call': () => ({ method: 'eth_estimateGas', params: [{ from: me, to: fixture.store, data: encodeFunctionData({ abi: Store.abi, functionName: 'store', args: [42n] }) }] }),
  'eth_estimateGas deployment': () => ({ method: 'eth_estimateGas', params: [{ from: me, data: Store.bytecode }] }),
  'eth_fillTransaction': () => ({ method: 'eth_fillTransaction', params: [{ from: me, to: fixture.store, data: encodeFunctionData({ abi: Store.abi, functionName: 'store', args: [7n] }) }] }),
  'eth_getLogs window': async () => {
    const head = Number(await raw.request({ method: 'eth_blockNumber', params: [] }))
    return { method: 'eth_getLogs', params: [{ fromBlock: hex(Math.max(0, head - 127)), toBlock: 'latest' }] }
  },
}

/** Times `count` calls of one row; `{ unsupported }` when the target answers it with an error. */
async function methodRow(row, count) {
  if (row === 'send and wait') {
    const send = []
    const total = []
    for (const tx of await signedWrites(count)) {
      const started = performance.now()
      const hash = await raw.request({ method: 'eth_sendRawTransaction', params: [tx] })
      const sent = performance.now()
      const receipt = await waitForReceipt(hash)
      total.push(performance.now() - started)
      send.push(sent - started)
      if (receipt.status !== '0x1') throw new Error(`storage write ${hash} failed`)
    }
    return { ms: total, sendMs: send }
  }
  const args = await ROWS[row]()
  try {
    const first = await raw.request(args)
    if (row === 'eth_call' && BigInt(first) === 0n) throw new Error('eth_call: balances(me) is 0 after the writes')
  } catch (e) {
    if (row === 'eth_fillTransaction') return { unsupported: (e.shortMessage ?? e.message).split('\n')[0] }
    throw e
  }
  const ms = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await raw.request(args)
    ms.push(performance.now() - started)
  }
  return { ms }
}

// --- the protocol with suite.mjs ----------------------------------------------------------------

async function handle(message) {
  if (message.op === 'flow') {
    calls = new Map()
    const cpu = process.cpuUsage()
    const started = performance.now()
    await FLOWS[message.flow].run(clients)
    const ms = performance.now() - started
    const used = process.cpuUsage(cpu)
    return { ms, cpuMs: (used.user + used.system) / 1000, calls: Object.fromEntries(calls) }
  }
  if (message.op === 'setup-methods') return setupMethods(message.writes)
  if (message.op === 'method') return methodRow(message.row, message.count)
  throw new Error(`unknown op ${message.op}`)
}

process.on('message', (message) => {
  handle(message).then(
    (result) => process.send({ seq: message.seq, result }),
    (e) => process.send({ seq: message.seq, error: e?.stack ?? String(e) }),
  )
})
process.send({ ready: true })
