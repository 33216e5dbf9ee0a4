#!/usr/bin/env node
// The ceiling: a bare Node server that answers every JSON-RPC request with a canned result, over
// HTTP (keep-alive) and WebSocket on one port, doing the least any Node JSON-RPC server must do:
// read the body, find the request id, write an answer. No Node server can answer faster here, so
// ringchain's rate divided by this one says how much of the machine ringchain leaves on the table.
//
//   node bench/ceiling.mjs [port]   → prints {"httpUrl","wsUrl","port"} on stdout once it listens
//
// With --net, it is the floor below that: HTTP only, on node:net, one canned HTTP answer (with the
// request's id) written per request found in what the socket delivers, no HTTP parser, no
// IncomingMessage, no ServerResponse. What node:http itself costs is the difference between the
// two; what no Node server can go below, at one request in flight, is this one's latency.

import { createServer } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { WebSocketServer } from 'ws'

// As long as a transaction receipt (the largest of the three answers measured), and a string, so
// that it also passes for an eth_chainId answer (the startup measure asks for one).
const RESULT = JSON.stringify('0x' + 'ab'.repeat(340))

/** The id of a request, as its source text; found by scanning rather than parsing the whole body. */
function idOf(body) {
  const at = body.indexOf('"id":')
  if (at === -1) return 'null'
  let end = at + 5
  while (end < body.length && body[end] !== ',' && body[end] !== '}') end++
  return body.slice(at + 5, end)
}

const answer = (body) => '{"jsonrpc":"2.0","id":' + idOf(body) + ',"result":' + RESULT + '}'

const net = process.argv.includes('--net')
const port = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 0)

/**
 * One HTTP answer per request in `text`, a chunk as the socket delivered it. The load generator
 * writes small whole requests, so a chunk never ends inside one here; a real server must not assume so.
 */
function netAnswers(text) {
  let out = ''
  for (let at = text.indexOf('POST '); at !== -1; ) {
    const next = text.indexOf('POST ', at + 5)
    const body = answer(text.slice(at, next === -1 ? text.length : next))
    out += 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ' + body.length + '\r\n\r\n' + body
    at = next
  }
  return out
}

if (net) {
  const server = createNetServer({ noDelay: true }, (socket) => {
    socket.on('data', (chunk) => socket.write(netAnswers(chunk.toString('latin1'))))
    socket.on('error', () => {})
  })
  server.listen(port, '127.0.0.1', () => {
    const { port } = server.address()
    process.stdout.write(JSON.stringify({ httpUrl: `http://127.0.0.1:${port}/`, port }) + '\n')
  })
}

const server = net ? undefined : createServer({ noDelay: true }, (req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = answer(Buffer.concat(chunks).toString('utf8'))
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  })
})
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false })
server?.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (data) => ws.send(answer(data.toString('utf8')))))
})
server?.listen(port, '127.0.0.1', () => {
  const { port } = server.address()
  process.stdout.write(JSON.stringify({ httpUrl: `http://127.0.0.1:${port}/`, wsUrl: `ws://127.0.0.1:${port}/`, port }) + '\n')
})
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0))
