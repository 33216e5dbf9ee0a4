// Soak: minutes of load on a real `ringchain serve` process over loopback, in every mining mode.
// 50 HTTP and 50 WebSocket clients submit signed transfers from 20 senders in rounds (each round's
// nonces sent in shuffled order, so transient nonce gaps fill as they go, plus one replacement
// per sender and round), while 10 readers read and a subscriber follows newHeads. Every round
// is checked before the next: each accepted transaction included exactly once, nonces contiguous.
// Reports throughput, errors (must be zero) and the server's resident memory over time (must
// stay flat once the EIP-4788/2935 ring buffers are full; see README "Flat memory").
//
// The mining mode changes every --phase seconds (auto, interval, manual, auto, ...), so that every
// stretch of the run carries the same mix and memory can be compared across it.
// Run: npm run soak [-- --minutes 6 --sample 10 --phase 30]
// Exit code 1 on any error, any lost or duplicated transaction, or resident memory that grows.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { WebSocket } from 'ws'
import { Chain } from '../dist/index.js'

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '6' },
    sample: { type: 'string', default: '10' },
    phase: { type: 'string', default: '30' },
  },
})
const minutes = Number(values.minutes)
const sampleSeconds = Number(values.sample)
const phaseSeconds = Number(values.phase)
const SENDERS = 20
const PER_ROUND = 5
const HTTP_CLIENTS = 50
const WS_CLIENTS = 50
const READERS = 10
const MODES = [
  { name: 'auto', set: ['evm_setAutomine', [true]] },
  { name: 'interval 250 ms', set: ['evm_setIntervalMining', [250]] },
  { name: 'manual', set: ['evm_setAutomine', [false]] },
]

// --- the server ---------------------------------------------------------------------------------

const main = new URL('../dist/cli/main.js', import.meta.url).pathname
const server = spawn(process.execPath, [main, 'serve', '--port', '0', '--json', '--accounts', String(SENDERS), '--log-level', 'warn'], {
  stdio: ['pipe', 'pipe', 'pipe'],
})
let serverErrors = ''
server.stderr.setEncoding('utf8')
server.stderr.on('data', (chunk) => (serverErrors += chunk))
const ready = await new Promise((resolve, reject) => {
  let out = ''
  server.stdout.setEncoding('utf8')
  server.stdout.on('data', (chunk) => {
    out += chunk
    const line = out.split('\n')[0]
    if (out.includes('\n')) resolve(JSON.parse(line))
  })
  server.once('exit', (code) => reject(new Error(`ringchain serve exited with ${code}: ${serverErrors}`)))
})

/** Resident memory of the server process, in MiB (Linux /proc; else ps). */
function serverRssMiB() {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024
  } catch {
    return NaN
  }
}

// --- clients ------------------------------------------------------------------------------------

let errors = 0
const errorSamples = []
function error(message) {
  errors++
  if (errorSamples.length < 20) errorSamples.push(message)
}

function httpClient() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let id = 0
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })
        const req = request(ready.httpUrl, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c) => (text += c))
          res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(text) : { error: { message: `HTTP ${res.statusCode} ${text}` } }))
        })
        req.on('error', (e) => resolve({ error: { message: e.message } }))
        req.end(body)
      }),
    close: () => agent.destroy(),
  }
}

async function wsClient(onNotification) {
  const socket = new WebSocket(ready.wsUrl)
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  const pending = new Map()
  let id = 0
  socket.on('message', (data) => {
    const message = JSON.parse(String(data))
    if (message.method === 'eth_subscription') return onNotification?.(message.params.result)
    pending.get(message.id)?.(message)
    pending.delete(message.id)
  })
  socket.on('close', () => {
    for (const resolve of pending.values()) resolve({ error: { message: 'connection closed' } })
  })
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        pending.set(++id, resolve)
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      }),
    close: () => socket.close(),
  }
}

const control = httpClient()
async function call(method, params = []) {
  const answer = await control.call(method, params)
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}

// The same dev accounts as the server's (same mnemonic), and its rules, to sign with.
const signer = await Chain.create({ accounts: SENDERS })
const common = signer.common
const nonces = Array.from({ length: SENDERS }, () => 0n)
const GWEI = 1_000_000_000n
const sign = (sender, nonce, tip, to) => {
  const tx = createFeeMarket1559Tx(
    { chainId: common.chainId(), nonce, to, value: 1n, gasLimit: 21_000n, maxFeePerGas: 100n * tip, maxPriorityFeePerGas: tip },
    { common },
  ).sign(signer.accounts[sender].privateKey)
  return { raw: bytesToHex(tx.serialize()), hash: bytesToHex(tx.hash()), sender, nonce }
}

const submitters = [...Array.from({ length: HTTP_CLIENTS }, httpClient), ...(await Promise.all(Array.from({ length: WS_CLIENTS }, () => wsClient())))]
const readers = [...Array.from({ length: READERS / 2 }, httpClient), ...(await Promise.all(Array.from({ length: READERS / 2 }, () => wsClient())))]
let lastHead = 0n
let headsSeen = 0
let headGaps = 0
const subscriber = await wsClient((head) => {
  const n = BigInt(head.number)
  if (lastHead !== 0n && n !== lastHead + 1n) headGaps++
  lastHead = n
  headsSeen++
})
await subscriber.call('eth_subscribe', ['newHeads'])

// --- the load -----------------------------------------------------------------------------------

let txs = 0
let reads = 0
let stopping = false
const readLoops = readers.map(async (reader, r) => {
  let i = r
  while (!stopping) {
    const sender = signer.accounts[i++ % SENDERS].address
    const [method, params] = [
      ['eth_blockNumber', []],
      ['eth_getBalance', [bytesToHex(sender), 'latest']],
      ['eth_getTransactionCount', [bytesToHex(sender), 'pending']],
      ['eth_getBlockByNumber', ['latest', true]],
    ][i % 4]
    const answer = await reader.call(method, params)
    if (answer.error !== undefined) error(`${method}: ${answer.error.message}`)
    reads++
  }
})

/** One round: PER_ROUND new nonces per sender, shuffled over the submitters, plus one replacement per sender. */
async function round(mode) {
  const recipient = `0x${'00'.repeat(19)}${(txs % 200).toString(16).padStart(2, '0')}`
  const work = []
  const replaced = new Set()
  for (let sender = 0; sender < SENDERS; sender++) {
    for (let k = 0; k < PER_ROUND; k++) work.push(sign(sender, nonces[sender] + BigInt(k), GWEI, recipient))
    nonces[sender] += BigInt(PER_ROUND)
  }
  for (let i = work.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[work[i], work[j]] = [work[j], work[i]]
  }
  const accepted = new Map()
  await Promise.all(
    submitters.map(async (client, c) => {
      for (let i = c; i < work.length; i += submitters.length) {
        const tx = work[i]
        const answer = await client.call('eth_sendRawTransaction', [tx.raw])
        if (answer.result === tx.hash) accepted.set(`${tx.sender}/${tx.nonce}`, tx)
        else error(`eth_sendRawTransaction ${tx.sender}/${tx.nonce}: ${answer.error?.message}`)
      }
    }),
  )
  // Replacements of the last nonce of each sender, where it is still pending (not in automine).
  if (mode !== 'auto') {
    for (let sender = 0; sender < SENDERS; sender++) {
      const nonce = nonces[sender] - 1n
      const tx = sign(sender, nonce, 3n * GWEI, recipient)
      const answer = await submitters[sender].call('eth_sendRawTransaction', [tx.raw])
      if (answer.result === tx.hash) {
        replaced.add(accepted.get(`${sender}/${nonce}`).hash)
        accepted.set(`${sender}/${nonce}`, tx)
      } else if (!/nonce too low/.test(answer.error?.message ?? '')) error(`replacement ${sender}/${nonce}: ${answer.error?.message}`)
    }
  }
  // Wait for inclusion (manual: mine), then check every transaction of the round.
  for (let tries = 0; ; tries++) {
    if (mode === 'manual') await call('evm_mine')
    const status = await call('txpool_status')
    if (BigInt(status.pending) === 0n && BigInt(status.queued) === 0n) break
    if (tries > 500) throw new Error(`the pool did not drain: ${JSON.stringify(status)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  const seenInBlocks = new Map()
  for (const tx of accepted.values()) {
    const receipt = await call('eth_getTransactionReceipt', [tx.hash])
    if (receipt === null || receipt.status !== '0x1') {
      error(`lost ${tx.sender}/${tx.nonce} ${tx.hash}`)
      continue
    }
    const block = seenInBlocks.get(receipt.blockNumber) ?? (await call('eth_getBlockByNumber', [receipt.blockNumber, false]))
    seenInBlocks.set(receipt.blockNumber, block)
    if (block.transactions.filter((h) => h === tx.hash).length !== 1) error(`${tx.hash} not exactly once in block ${receipt.blockNumber}`)
  }
  for (const hash of replaced) if ((await call('eth_getTransactionReceipt', [hash])) !== null) error(`replaced ${hash} was included`)
  for (let sender = 0; sender < SENDERS; sender++) {
    const count = BigInt(await call('eth_getTransactionCount', [bytesToHex(signer.accounts[sender].address), 'latest']))
    if (count !== nonces[sender]) error(`sender ${sender}: nonce ${count}, expected ${nonces[sender]}`)
  }
  txs += accepted.size
}

const samples = []
const started = performance.now()
let lastSample = { at: started, txs: 0, reads: 0 }
function sample(mode) {
  const now = performance.now()
  const row = {
    minute: +((now - started) / 60_000).toFixed(2),
    mode,
    block: Number(lastHead),
    'tx/s': Math.round(((txs - lastSample.txs) * 1000) / (now - lastSample.at)),
    'reads/s': Math.round(((reads - lastSample.reads) * 1000) / (now - lastSample.at)),
    errors,
    rssMiB: +serverRssMiB().toFixed(1),
  }
  lastSample = { at: now, txs, reads }
  samples.push(row)
  console.log(JSON.stringify(row))
}

const end = started + minutes * 60_000
let nextSample = started + sampleSeconds * 1000
for (let phase = 0; performance.now() < end; phase++) {
  const mode = MODES[phase % MODES.length]
  await call(mode.set[0], mode.set[1])
  const until = Math.min(end, started + (phase + 1) * phaseSeconds * 1000)
  while (performance.now() < until) {
    await round(mode.name.split(' ')[0])
    if (performance.now() >= nextSample) {
      sample(mode.name)
      nextSample += sampleSeconds * 1000
    }
  }
}
stopping = true
await Promise.all(readLoops)
for (const c of [...submitters, ...readers, subscriber, control]) c.close()
await signer.close()

// --- the verdict --------------------------------------------------------------------------------

server.kill('SIGTERM')
const exitCode = await new Promise((resolve) => server.once('exit', (code) => resolve(code)))
console.table(samples)
const seconds = (performance.now() - started) / 1000
// Resident memory rises and falls with each garbage collection: compare the peaks of the middle
// and last thirds of the run (the first third holds the warm-up, and the system contracts' ring
// buffers filling up to block 8,191).
const rss = samples.map((s) => s.rssMiB)
const third = Math.max(1, Math.floor(rss.length / 3))
const middle = Math.max(...rss.slice(third, 2 * third))
const last = Math.max(...rss.slice(-third))
const growth = (last - middle) / middle
console.log(
  JSON.stringify({
    minutes: +(seconds / 60).toFixed(2),
    transactions: txs,
    'tx/s': Math.round(txs / seconds),
    reads,
    'reads/s': Math.round(reads / seconds),
    blocks: Number(lastHead),
    headsSeen,
    headGaps,
    errors,
    rssMiB: { first: rss[0], peakOfMiddleThird: middle, peakOfLastThird: last, growth: `${(growth * 100).toFixed(1)}%` },
    serverExit: exitCode,
    serverStderr: serverErrors.trim(),
  }),
)
for (const e of errorSamples) console.error(`error: ${e}`)
const flat = growth < 0.1
if (errors > 0 || headGaps > 0 || exitCode !== 0 || !flat || serverErrors.trim() !== '') {
  console.error(`soak FAILED: errors ${errors}, head gaps ${headGaps}, server exit ${exitCode}, resident memory growth ${(growth * 100).toFixed(1)}%`)
  process.exit(1)
}
console.log('soak passed: no errors, nothing lost, resident memory flat')
