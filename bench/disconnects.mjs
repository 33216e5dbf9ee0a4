// Clients that go away in the middle of things, and what they leave behind: N disconnects (default
// 10,000) of six kinds, in turn, against an in-process ringchain on loopback, with a block mined
// every 50 disconnects so that subscriptions of departed clients would be pushed to:
//   http-body      headers and half the body, then gone
//   http-answer    a whole request, gone before the answer
//   ws-subscribed  subscribed to newHeads, logs and pending transactions, then cut (no close frame)
//   ws-in-flight   sends eth_subscribe and is cut before the answer
//   ws-handshake   sends the upgrade request and is cut before the 101
//   http-keepalive one answered request, then cut in the middle of the second
// Reports, after a full GC, the heap and the open handles against the baseline (taken after
// 3,000 warm-up disconnects), and whether the subscriptions of departed clients still exist
// (eth_unsubscribe from another client must answer false). Exit code 1 on a leak.
// Run: npm run build && node bench/disconnects.mjs [N]
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { WebSocket } from 'ws'
import { startRingchain } from '../dist/index.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const total = Number(process.argv[2] ?? 10_000)
const MiB = 1024 * 1024

const log = []
const rc = await startRingchain({
  port: 0,
  deterministic: true,
  mining: { mode: 'manual' },
  // A full ring from the start: the blocks mined during the run replace others instead of adding to the heap.
  window: 4,
  logger: { error: (m) => log.push(`error: ${m}`), warn: (m) => log.push(`warn: ${m}`) },
})
const { port } = rc
const KEY = 'ringchain'
const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

const closed = (socket) => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** What a subscription of a departed client is: an id nobody should be able to find again. */
const departedSubscriptions = []

const kinds = {
  async 'http-body'() {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.write(`POST /v3/${KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`)
    await new Promise((r) => setImmediate(r))
    socket.destroy()
    await closed(socket)
  },
  async 'http-answer'() {
    await new Promise((resolve) => {
      const req = request(`http://127.0.0.1:${port}/v3/${KEY}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } })
      req.on('error', () => resolve())
      req.on('close', () => resolve())
      req.end('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",true]}')
      setImmediate(() => req.destroy())
    })
  },
  async 'ws-subscribed'() {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/v3/${KEY}`)
    ws.on('error', () => {})
    await new Promise((resolve) => ws.once('open', resolve))
    const answers = new Map()
    ws.on('message', (data) => {
      const m = JSON.parse(String(data))
      if (m.id !== undefined) answers.set(m.id, m.result)
    })
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    ws.send('{"jsonrpc":"2.0","id":2,"method":"eth_subscribe","params":["logs",{}]}')
    ws.send('{"jsonrpc":"2.0","id":3,"method":"eth_subscribe","params":["newPendingTransactions"]}')
    while (answers.size < 3) await new Promise((resolve) => ws.once('message', resolve))
    departedSubscriptions.push(...answers.values())
    ws.terminate()
    await new Promise((resolve) => ws.once('close', resolve))
  },
  async 'ws-in-flight'() {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/v3/${KEY}`)
    ws.on('error', () => {})
    await new Promise((resolve) => ws.once('open', resolve))
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    ws.terminate()
    await new Promise((resolve) => ws.once('close', resolve))
  },
  async 'ws-handshake'() {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.write(
      `GET /ws/v3/${KEY} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    socket.destroy()
    await closed(socket)
  },
  async 'http-keepalive'() {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    await new Promise((resolve, reject) => {
      const req = request(`http://127.0.0.1:${port}/v3/${KEY}`, { method: 'POST', agent }, (res) => {
        res.resume()
        res.on('end', resolve)
      })
      req.on('error', reject)
      req.end(CHAIN_ID)
    })
    await new Promise((resolve) => {
      const req = request(`http://127.0.0.1:${port}/v3/${KEY}`, { method: 'POST', agent, headers: { 'content-length': '1000' } })
      req.on('error', () => resolve())
      req.on('close', () => resolve())
      req.write('{"jsonrpc"')
      setImmediate(() => req.destroy())
    })
    agent.destroy()
  },
}
const names = Object.keys(kinds)

const handles = () => {
  const counts = {}
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1
  return counts
}
async function settle() {
  // Sockets close asynchronously on both ends; the server's side may lag a little.
  for (let i = 0; i < 20; i++) {
    await sleep(25)
    gc()
  }
  gc()
}

async function run(n) {
  for (let i = 0; i < n; i++) {
    await kinds[names[i % names.length]]()
    if (i % 50 === 49) await rc.request({ method: 'evm_mine', params: [] })
  }
}

// Warm-up: the first connections of each kind allocate what stays (JIT, pools, caches).
await run(3_000)
await settle()
const before = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss, handles: handles() }
const departedBefore = departedSubscriptions.length
const started = performance.now()
await run(total)
const seconds = (performance.now() - started) / 1000
await settle()
const after = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss, handles: handles() }

// Every subscription of a departed client must be gone: eth_unsubscribe finds none of them.
const probe = new WebSocket(rc.wsUrl)
await new Promise((resolve) => probe.once('open', resolve))
let stillThere = 0
for (const id of departedSubscriptions) {
  probe.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_unsubscribe', params: [id] }))
  const answer = JSON.parse(String(await new Promise((resolve) => probe.once('message', resolve))))
  if (answer.result !== false) stillThere++
}
probe.terminate()
await rc.close()

const result = {
  disconnects: total,
  seconds: +seconds.toFixed(1),
  'per second': Math.round(total / seconds),
  heapMiB: { before: +(before.heap / MiB).toFixed(1), after: +(after.heap / MiB).toFixed(1) },
  heapGrowthBytesPerDisconnect: Math.round((after.heap - before.heap) / total),
  rssMiB: { before: +(before.rss / MiB).toFixed(1), after: +(after.rss / MiB).toFixed(1) },
  handles: { before: before.handles, after: after.handles },
  departedSubscriptionsChecked: departedSubscriptions.length,
  departedSubscriptionsStillThere: stillThere,
  subscriptionsCreatedDuringRun: departedSubscriptions.length - departedBefore,
  errorLines: log.filter((l) => l.startsWith('error')).length,
}
console.log(JSON.stringify(result, null, 2))
const sameHandles = JSON.stringify(before.handles) === JSON.stringify(after.handles)
// A departed client whose server side stayed reachable would keep its WebSocket, session,
// buffers and subscriptions: several KiB each. What remains below 1 KiB is V8's code and caches
// settling, and the trie garbage of the blocks mined meanwhile (README, "Flat memory").
if (!sameHandles || stillThere > 0 || result.errorLines > 0 || result.heapGrowthBytesPerDisconnect > 1024) {
  console.error('disconnects: LEAK')
  process.exit(1)
}
console.log('disconnects: no leak')
