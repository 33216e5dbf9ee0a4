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
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
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

/** CPU seconds a process has used (Linux /proc: utime + stime); NaN elsewhere. */
function cpuSecondsOf(pid) {
  if (pid === undefined) return NaN
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

function cpuPercent(startCpu, startMs) {
  const used = process.cpuUsage(startCpu)
  return (100 * (used.user + used.system)) / 1000 / (performance.now() - startMs)
}

/**
 * Lets the running loops warm up for `job.warmupMs`, then measures for `job.durationMs`, with
 * `setMeasuring(true)` and `setMeasuring(false)` around the window: its seconds, this process's
 * CPU use and the server's CPU seconds over it.
 */
async function measureWindow(job, setMeasuring) {
  await sleep(job.warmupMs)
  setMeasuring(true)
  const cpu0 = process.cpuUsage()
  const server0 = cpuSecondsOf(job.serverPid)
  const t0 = performance.now()
  await sleep(job.durationMs)
  setMeasuring(false)
  const seconds = (performance.now() - t0) / 1000
  const clientCpu = cpuPercent(cpu0, t0)
  const serverCpuSeconds = cpuSecondsOf(job.serverPid) - server0
  return { seconds, clientCpu, serverCpuSeconds }
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
  const measured = await measureWindow(job, (on) => (measuring = on))
  stop = true
  await Promise.all(loops)
  agent.destroy()
  return summary(count, samples, errors, firstError, measured)
}

/**
 * The same measure over plain keep-alive TCP connections speaking HTTP/1.1 by hand: one request in
 * flight per connection, the request bytes built once, the answer framed by its Content-Length.
 * node:http's client (ClientRequest, IncomingMessage, a parser per response) costs more CPU per
 * request than the servers measured here, so on a small machine it, not the server, would set
 * the rate.
 */
async function rawHttpReads(job) {
  const url = new URL(job.url)
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: job.method, params: job.params })
  const request = Buffer.from(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
  const samples = new Samples()
  let errors = 0
  let firstError
  let measuring = false
  let stop = false
  let count = 0
  const fail = (message) => {
    errors++
    firstError ??= message
  }
  const connection = () =>
    new Promise((resolve) => {
      const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true })
      let buffer = null
      let started = 0
      const send = () => {
        if (stop) {
          socket.end()
          return resolve()
        }
        started = performance.now()
        socket.write(request)
      }
      socket.on('connect', send)
      socket.on('error', (e) => {
        fail(e.message)
        resolve()
      })
      socket.on('close', resolve)
      socket.on('data', (chunk) => {
        buffer = buffer === null ? chunk : Buffer.concat([buffer, chunk])
        const headerEnd = buffer.indexOf('\r\n\r\n')
        if (headerEnd === -1) return
        let lengthAt = buffer.indexOf('ontent-Length:')
        if (lengthAt === -1) lengthAt = buffer.indexOf('ontent-length:')
        if (lengthAt === -1 || lengthAt > headerEnd) {
          fail(`no Content-Length in ${buffer.subarray(0, headerEnd).toString()}`)
          stop = true
          socket.destroy()
          return
        }
        let length = 0
        for (let i = lengthAt + 14; i < headerEnd; i++) {
          const c = buffer[i]
          if (c === 13) break
          if (c >= 48 && c <= 57) length = length * 10 + (c - 48)
        }
        const total = headerEnd + 4 + length
        if (buffer.length < total) return
        // Status line: "HTTP/1.1 200 ".
        if (buffer[9] !== 50 || buffer[10] !== 48 || buffer[11] !== 48 || buffer.indexOf(RESULT, headerEnd) === -1) {
          fail(buffer.subarray(0, Math.min(total, 300)).toString())
        } else if (measuring) {
          samples.add(performance.now() - started)
          count++
        }
        buffer = buffer.length === total ? null : buffer.subarray(total)
        send()
      })
    })
  const connections = Array.from({ length: job.inFlight }, connection)
  const measured = await measureWindow(job, (on) => (measuring = on))
  stop = true
  await Promise.all(connections)
  return summary(count, samples, errors, firstError, measured)
}

// --- WebSocket --------------------------------------------------------------------------------------

async function wsReads(job) {
  // A zero mask: `ws` then skips masking the payload (clients must mask; any key is allowed).
  const ws = new WebSocket(job.url, { perMessageDeflate: false, generateMask: (mask) => mask.fill(0) })
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
  // Requests made while handling one TCP chunk of answers leave in one write, as the server's do.
  let corked = false
  const uncork = () => {
    corked = false
    ws._socket.uncork()
  }
  const send = () => {
    const id = nextId++
    sentAt[id & mask] = performance.now()
    outstanding++
    if (!corked) {
      corked = true
      ws._socket.cork()
      process.nextTick(uncork)
    }
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
  const measured = await measureWindow(job, (on) => (measuring = on))
  stop = true
  if (outstanding > 0) await Promise.race([new Promise((resolve) => (drained = resolve)), sleep(5_000)])
  ws.terminate()
  return summary(count, samples, errors, firstError, measured)
}

function summary(count, samples, errors, firstError, { seconds, clientCpu, serverCpuSeconds }) {
  return {
    // Server CPU per answered request (/proc, 10 ms ticks): what the server spends, whoever sets the rate.
    serverUsPerRequest: (serverCpuSeconds * 1e6) / count,
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
  reads: (job) => (job.transport === 'ws' ? wsReads(job) : job.client === 'node:http' ? httpReads(job) : rawHttpReads(job)),
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
