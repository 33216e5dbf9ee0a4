// Part of the wake section of bench/run.mjs (also runnable alone): what a transaction's two round
// trips cost when the client pauses before them as a test's client does. viem or ethers prepare
// and sign a transaction (a millisecond or more of the client's own CPU), send it, and ask for its
// receipt at once. A server that answers the send as soon as the transaction is pooled (anvil, and
// ringchain over a socket) mines while the client reads that answer, so the receipt's wait is the
// part of the mining the client did not cover.
//
// Targets: `ringchain serve` and anvil over WebSocket, each driven by a lean client (one `ws`
// socket, raw JSON-RPC), taking turns per round. One round: snapshot; an ERC-20 deployment and three
// transfers, each after an `eth_chainId` (where viem asks `eth_fillTransaction`) and the client's
// busy pause; revert. Signed once beforehand, so every round sends the same transactions. Reported:
// median ms of the send and of the receipt, by pause, for the deployment and for the transfers.
//
//   node bench/send-wait.mjs [--quick]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeDeployData, encodeFunctionData, getContractAddress } from 'viem'
import WebSocket from 'ws'
import { stopProcess, warmupEnded } from './processes.mjs'
import { runAsScript } from './startup.mjs'
import { HARDFORK, Token, accounts } from './suite-flows.mjs'
import { startAnvil, startRingchain } from './suite.mjs'

/** The client's busy pause before each send, ms. */
const PAUSES = [0.2, 1.5, 5]
/** The client's busy time between the send's answer and its receipt request (reading the hash), ms. */
const READ_HASH_MS = 0.15
const KINDS = ['deployment', 'transfer']

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The client's own work: the CPU busy for `ms` (a sleep would let the machine idle instead). */
function busy(ms) {
  const end = performance.now() + ms
  let spins = 0
  while (performance.now() < end) spins++
  return spins
}

/** JSON-RPC over one WebSocket, one request at a time: resolves with the answer's `result`. */
async function wsRpc(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let waiting
  let id = 0
  ws.on('message', (data) => {
    const answer = JSON.parse(String(data))
    const w = waiting
    waiting = undefined
    if (answer.error !== undefined) w?.reject(new Error(`${answer.error.code}: ${answer.error.message}`))
    else w?.resolve(answer.result)
  })
  const rpc = (method, params = []) => new Promise((resolve, reject) => ((waiting = { resolve, reject }), ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))))
  return { rpc, close: () => ws.terminate() }
}

/** An ERC-20 deployment (nonce 0) and three transfers of the deployed token, signed by the first dev key. */
async function signedTransactions() {
  const account = accounts[0]
  const fees = { chainId: 31337, type: 'eip1559', maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  const token = getContractAddress({ from: account.address, nonce: 0n })
  const deployment = await account.signTransaction({ ...fees, nonce: 0, gas: 3_000_000n, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Bench', 'BNC', 10n ** 30n] }) })
  const transfers = []
  for (let nonce = 1; nonce <= 3; nonce++) {
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [`0x${nonce.toString(16).padStart(40, '0')}`, 10n ** 20n] })
    transfers.push(await account.signTransaction({ ...fees, nonce, gas: 100_000n, to: token, data }))
  }
  return [{ kind: 'deployment', raw: deployment }, ...transfers.map((raw) => ({ kind: 'transfer', raw }))]
}

/** One round on one target: the times of each transaction's send and receipt. */
async function round(rpc, transactions, pause) {
  const times = []
  const snapshot = await rpc('evm_snapshot')
  for (const { kind, raw } of transactions) {
    await rpc('eth_chainId')
    busy(pause)
    let started = performance.now()
    const hash = await rpc('eth_sendRawTransaction', [raw])
    const send = performance.now() - started
    busy(READ_HASH_MS)
    started = performance.now()
    // A server may answer a send before its block is mined (anvil): ask again at once, so the figure
    // is when the receipt is there, not a polling interval (bounded: a block that never comes fails).
    let receipt = await rpc('eth_getTransactionReceipt', [hash])
    for (let tries = 0; receipt === null && tries < 10_000 && performance.now() - started < 2_000; tries++) receipt = await rpc('eth_getTransactionReceipt', [hash])
    if (receipt?.status !== '0x1') throw new Error(`${kind} ${hash}: ${receipt === null ? 'not mined' : 'failed'}`)
    times.push({ kind, send, receipt: performance.now() - started })
  }
  await rpc('evm_revert', [snapshot])
  return times
}

/**
 * Runs the part: `anvilBinary` undefined leaves anvil out. Resolves with `{ pauses, rounds,
 * targets: { name: { pause: { kind: { send, receipt } } } } }` (median ms).
 */
export async function sendWaitSection({ quick = false, anvilBinary, log = () => {} } = {}) {
  const rounds = quick ? 6 : 30
  const anvilCache = mkdtempSync(join(tmpdir(), 'ringchain-bench-send-wait-anvil-'))
  const servers = []
  const clients = []
  try {
    servers.push({ name: 'ringchain', ...(await startRingchain()) })
    await warmupEnded(servers[0].httpUrl)
    if (anvilBinary !== undefined) servers.push({ name: 'anvil', ...(await startAnvil(anvilBinary, anvilCache)) })
    for (const server of servers) clients.push({ name: server.name, ...(await wsRpc(server.wsUrl)) })
    const transactions = await signedTransactions()
    const samples = {}
    for (const pause of PAUSES) {
      log(`wake: send and receipt, ${pause} ms of client work before each send…`)
      // One round each first, not counted: the previous pause's rounds left the code paths of another rhythm.
      for (let r = 0; r <= rounds; r++) {
        for (const { name, rpc } of r % 2 === 0 ? clients : [...clients].reverse()) {
          const times = await round(rpc, transactions, pause)
          if (r === 0) continue
          for (const { kind, send, receipt } of times) {
            const entry = (((samples[name] ??= {})[pause] ??= {})[kind] ??= { send: [], receipt: [] })
            entry.send.push(send)
            entry.receipt.push(receipt)
          }
        }
      }
    }
    const targets = {}
    for (const [name, byPause] of Object.entries(samples)) {
      targets[name] = {}
      for (const [pause, byKind] of Object.entries(byPause)) targets[name][pause] = Object.fromEntries(Object.entries(byKind).map(([kind, t]) => [kind, { send: median(t.send), receipt: median(t.receipt) }]))
    }
    return { pauses: PAUSES, rounds, hardfork: HARDFORK, targets }
  } finally {
    for (const client of clients) client.close()
    for (const server of servers) await stopProcess(server.child)
    rmSync(anvilCache, { recursive: true, force: true })
  }
}

/** The part's table: ms of the send and of the receipt, by pause and kind, per target. */
export function sendWaitTable(section) {
  const names = ['ringchain', 'anvil'].filter((n) => section.targets[n] !== undefined)
  const columns = KINDS.flatMap((kind) => names.flatMap((n) => [`${n} ${kind}: send`, 'receipt']))
  const cell = (n, pause, kind) => {
    const t = section.targets[n][pause][kind]
    return `${t.send.toFixed(2)} | ${t.receipt.toFixed(2)}`
  }
  return [
    `**A transaction's send and its receipt by the client's work before it** (ms, median of ${section.rounds} rounds; over WebSocket, one lean client; an ERC-20 deployment and three transfers per round, each after \`eth_chainId\` and the client's busy pause, the receipt asked ${READ_HASH_MS} ms after the send's answer, and again at once while it is not there)`,
    '',
    `| client's work before the send | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...section.pauses.map((pause) => `| ${pause} ms | ${KINDS.flatMap((kind) => names.map((n) => cell(n, pause, kind))).join(' | ')} |`),
  ].join('\n')
}

// Run as a script: the part alone.
await runAsScript(import.meta.url, sendWaitSection, sendWaitTable)
