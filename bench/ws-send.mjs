// CPU of sending WebSocket answers, per answer: `ws`'s own send (what websocket.ts did before
// ws-frames.ts: a header buffer and two writes per message, under a cork released once per batch)
// against ws-frames.ts's textFrames (the batch's frames in one buffer, one write). A receipt-sized
// answer, batches of B (env, default 1: one request in flight; 8: websocket.ts's WRITE_BATCH). The
// reading client is a child process, so only the sender's CPU is counted.
//
//   npm run build && node bench/ws-send.mjs && B=8 node bench/ws-send.mjs

import { fork } from 'node:child_process'
import { WebSocket, WebSocketServer } from 'ws'
import { textFrames } from '../dist/server/ws-frames.js'

const ANSWERS = 40_000

if (process.argv[2] === 'reader') {
  const ws = new WebSocket(process.argv[3])
  let read = 0
  ws.on('message', () => {
    if (++read % 1_000 === 0) process.send(read)
  })
} else {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
  await new Promise((resolve) => server.once('listening', resolve))
  const reader = fork(new URL(import.meta.url).pathname, ['reader', `ws://127.0.0.1:${server.address().port}`])
  const client = await new Promise((resolve) => server.once('connection', resolve))
  const socket = client._socket
  let read = 0
  reader.on('message', (n) => (read = n))
  const answer = '{"jsonrpc":"2.0","id":12345,"result":"0x0000000000000000000000000000000000000000000000000000000000000000"}'
  const B = Number(process.env.B ?? 1)

  /** µs of this process's CPU per answer, sending ANSWERS in batches of B. */
  async function run(mode) {
    const expected = read + ANSWERS
    const before = process.cpuUsage()
    for (let i = 0; i < ANSWERS / B; i++) {
      if (mode === 'ws') {
        socket.cork()
        for (let j = 0; j < B; j++) client.send(answer)
        socket.uncork()
      } else {
        socket.write(textFrames(Array.from({ length: B }, () => answer)))
      }
      if (socket.writableNeedDrain) await new Promise((resolve) => socket.once('drain', resolve))
      // Let the socket's callbacks run now and then, as a server's event loop would.
      if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    const used = process.cpuUsage(before)
    while (read < expected - 1_000) await new Promise((resolve) => setTimeout(resolve, 5))
    return ((used.user + used.system) / ANSWERS).toFixed(2)
  }

  for (let round = 0; round < 4; round++) console.log(`batches of ${B}: ws send ${await run('ws')} µs per answer, textFrames ${await run('frames')} µs`)
  reader.kill()
  server.close()
}
