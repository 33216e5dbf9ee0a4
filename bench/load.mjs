// The load generator, run in a process of its own (forked by run.mjs, jobs over IPC) so that the
// orchestrator's heap and timers never share its core. Written lean on purpose: node:http with a
// keep-alive Agent and one `ws` client, request bodies built once (ids spliced in as text), answers
// checked by scanning for `"result"` rather than parsed, latencies in a preallocated array. Each job
// also reports this process's CPU use, so a reader can tell when the client rather than the server
// is the limit (a client near 100% of a core is suspect).
//
// Jobs:
//   { kind: 'reads', transport: 'http' | 'ws', url, method, params, inFlight, warmupMs, durationMs }
//     → { requests, seconds, rps, p50, p99, errors, clientCpu }
//   { kind: 'send', url, raws: [hex…] }   sequential eth_sendRawTransaction, each followed by its
//     receipt (checked for status 1) → { transactions, seconds, tps, failed: [hash…], polls, lastHash }

import { Agent, request } from 'node:http'
import WebSocket from 'ws'

const RESULT = Buffer.from('"result"')

/** Latencies of the measured window, in ms; grown by doubling, never per request. */
class Samples {
  #values = new Float64Array(1 << 16)
  #size = 0
  add(v) {
    if (this.#size === this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2)
      bigger.set(this.#values)
      this.#values = bigger
    }
    this.#values[this.#size++] = v
  }
  get size() {
    return this.#size
  }
  percentile(p) {
    if (this.#size === 0) return NaN
    const sorted = this.#values.subarray(0, this.#size).sort()
    return sorted[Math.min(this.#size - 1, Math.floor((p / 100) * this.#size))]
  }
}

function cpuPercent(startCpu, startMs) {
  const used = process.cpuUsage(startCpu)
  return (100 * (used.user + used.system)) / 1000 / (performance.now() - startMs)
}

// --- HTTP -----------------------------------------------------------------------------------------

/** One POST on a keep-alive agent; resolves with the body as a Buffer. */
function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function httpReads(job) {
  const url = new URL(job.url)
  const agent = new Agent({ keepAlive: true, maxSockets: job.inFlight, maxFreeSockets: job.inFlight, scheduling: 'fifo' })
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: job.method, params: job.params }))
  const samples = new Samples()
  let errors = 0
  let firstError
  let measuring = false
  let stop = false
  let count = 0
  const loop = async () => {
    while (!stop) {
      const started = performance.now()
      let answer
      try {
        answer = await post(agent, url, body)
      } catch (e) {
        errors++
        firstError ??= e.message
        continue
      }
      if (answer.indexOf(RESULT) === -1) {
        errors++
        firstError ??= answer.toString().slice(0, 200)
      }
      if (measuring) {
        samples.add(performance.now() - started)
        count++
      }
    }
  }
  const loops = Array.from({ length: job.inFlight }, loop)
  await sleep(job.warmupMs)
  measuring = true
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await sleep(job.durationMs)
  measuring = false
  const seconds = (performance.now() - t0) / 1000
  const clientCpu = cpuPercent(cpu0, t0)
  stop = true
  await Promise.all(loops)
  agent.destroy()
  return summary(count, seconds, samples, errors, firstError, clientCpu)
}

// --- WebSocket --------------------------------------------------------------------------------------

async function wsReads(job) {
  const ws = new WebSocket(job.url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  // `{"jsonrpc":"2.0","id":N,"method":…}`: the id is the only part that changes.
  const head = '{"jsonrpc":"2.0","id":'
  const tail = ',' + JSON.stringify({ method: job.method, params: job.params }).slice(1)
  const mask = 1023
  const sentAt = new Float64Array(mask + 1)
  const samples = new Samples()
  let nextId = 1
  let errors = 0
  let firstError
  let measuring = false
  let stop = false
  let count = 0
  let outstanding = 0
  let drained
  const send = () => {
    const id = nextId++
    sentAt[id & mask] = performance.now()
    outstanding++
    ws.send(head + id + tail)
  }
  ws.on('message', (data) => {
    const now = performance.now()
    outstanding--
    const at = data.indexOf('"id":')
    let id = 0
    for (let i = at + 5; i < data.length; i++) {
      const c = data[i]
      if (c < 48 || c > 57) break
      id = id * 10 + (c - 48)
    }
    if (at === -1 || data.indexOf(RESULT) === -1) {
      errors++
      firstError ??= data.toString().slice(0, 200)
    } else if (measuring) {
      samples.add(now - sentAt[id & mask])
      count++
    }
    if (!stop) send()
    else if (outstanding === 0) drained?.()
  })
  ws.on('error', (e) => {
    errors++
    firstError ??= e.message
  })
  for (let i = 0; i < job.inFlight; i++) send()
  await sleep(job.warmupMs)
  measuring = true
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await sleep(job.durationMs)
  measuring = false
  const seconds = (performance.now() - t0) / 1000
  const clientCpu = cpuPercent(cpu0, t0)
  stop = true
  if (outstanding > 0) await Promise.race([new Promise((resolve) => (drained = resolve)), sleep(5_000)])
  ws.terminate()
  return summary(count, seconds, samples, errors, firstError, clientCpu)
}

function summary(count, seconds, samples, errors, firstError, clientCpu) {
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    clientCpu,
  }
}

// --- transactions -----------------------------------------------------------------------------------

async function rpc(agent, url, method, params) {
  const answer = JSON.parse((await post(agent, url, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))).toString())
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}

/**
 * Sends each raw transaction and waits for its receipt before the next, as a test suite does
 * (`sendTransaction` then `waitForTransactionReceipt`): a node may answer before it has mined (anvil
 * mines in the background), so a null receipt is asked again. Every receipt is checked for status 1
 * as it arrives: a 128-block window cannot be asked for all 2,000 afterwards.
 */
async function send(job) {
  const url = new URL(job.url)
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const failed = []
  let polls = 0
  let lastHash
  const t0 = performance.now()
  for (const raw of job.raws) {
    const hash = await rpc(agent, url, 'eth_sendRawTransaction', [raw])
    let receipt = await rpc(agent, url, 'eth_getTransactionReceipt', [hash])
    while (receipt === null) {
      polls++
      await new Promise((resolve) => setImmediate(resolve))
      receipt = await rpc(agent, url, 'eth_getTransactionReceipt', [hash])
    }
    if (receipt.status !== '0x1') failed.push(hash)
    lastHash = hash
  }
  const seconds = (performance.now() - t0) / 1000
  agent.destroy()
  return { transactions: job.raws.length, seconds, tps: job.raws.length / seconds, failed, polls, lastHash }
}

// --- IPC ----------------------------------------------------------------------------------------

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

const kinds = {
  reads: (job) => (job.transport === 'ws' ? wsReads(job) : httpReads(job)),
  send,
}

process.on('message', async ({ seq, job }) => {
  try {
    process.send({ seq, result: await kinds[job.kind](job) })
  } catch (e) {
    process.send({ seq, error: e.stack ?? String(e) })
  }
})
process.on('disconnect', () => process.exit(0))
