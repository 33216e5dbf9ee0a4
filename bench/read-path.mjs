#!/usr/bin/env node
// The read hot path of one build, for A/B comparisons: µs of process CPU per eth_getStorageAt
// through the in-process `request` and over HTTP (32 pipelined on one raw connection, client in the
// same process), and HTTP requests per second. No provider profile: this is the path that must not
// slow down when the provider simulation is off.
//
//   npm run build && node bench/read-path.mjs [dist path] [N]
//
// Alternate two builds in one session (A B A B …) and compare means: the machine is shared.
import net from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const dist = pathToFileURL(resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname)).href
const N = Number(process.argv[3] ?? 40000)
const { startRingchain } = await import(dist + '/index.js')
const rc = await startRingchain({ port: 0, logger: { error() {}, warn() {} } })
const holder = '0x' + '12'.repeat(20)
await rc.request({ method: 'anvil_setStorageAt', params: [holder, '0x0', '0x' + '00'.repeat(31) + '2a'] })
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getStorageAt', params: [holder, '0x0', 'latest'] })
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system }
// in-process
for (let i = 0; i < 5000; i++) await rc.request({ method: 'eth_getStorageAt', params: [holder, '0x0', 'latest'] })
let c0 = cpu()
for (let i = 0; i < N; i++) await rc.request({ method: 'eth_getStorageAt', params: [holder, '0x0', 'latest'] })
const inproc = (cpu() - c0) / N
// HTTP, 32 pipelined on one connection
const url = new URL(rc.httpUrl)
const req = `POST ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
async function http(n) {
  const socket = net.connect(Number(url.port), '127.0.0.1')
  await new Promise((r) => socket.once('connect', r))
  let got = 0, sent = 0
  const done = new Promise((resolve) => socket.on('data', (chunk) => {
    let at = 0; while ((at = chunk.indexOf('HTTP/1.1 200', at)) !== -1) { got++; at += 12 }
    while (sent < n && sent - got < 32) { socket.write(req); sent++ }
    if (got >= n) resolve()
  }))
  while (sent < 32) { socket.write(req); sent++ }
  await done
  socket.destroy()
}
await http(5000)
c0 = cpu()
const t0 = performance.now()
await http(N)
const httpCpu = (cpu() - c0) / N
const rate = N / ((performance.now() - t0) / 1000)
console.log(JSON.stringify({ inprocUs: +inproc.toFixed(2), httpCpuUs: +httpCpu.toFixed(2), httpReqPerS: Math.round(rate) }))
await rc.close()
