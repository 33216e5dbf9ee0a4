// @ts-check
/**
 * The warm-up's client connections, on a worker thread (started by loopback.ts): one keep-alive
 * HTTP connection or one WebSocket per `open`, request bodies in, answer bodies out.
 *
 * Why a thread: V8 keeps its type feedback per isolate. Client sockets made in the server's own
 * isolate have other shapes than the sockets the server accepts, so node:net's and node:stream's
 * code, compiled while the warm-up runs, would be compiled for both and stay slower for the
 * server's own sockets afterwards (lookups with 32 in flight over HTTP: 5-8% fewer per second).
 *
 * Plain JavaScript (checked by tsc through JSDoc): Node 20 runs no TypeScript in a worker, and
 * this file is found at the same place from src/ (the tests) and from dist/ (copied by the build).
 *
 * Messages in: `{ op: 'open', id, kind: 'http' | 'ws', url }`, `{ op: 'send', id, conn, body }`.
 * Out: `{ id, conn }` (opened), `{ id, body }` (answered), `{ id, error }`. The connections end
 * with the thread.
 */
import { connect } from 'node:net'
import { parentPort } from 'node:worker_threads'
import WebSocket from 'ws'

/** @typedef {{ send(body: string): Promise<string> }} Connection */

/** @type {Map<number, Connection>} */
const connections = new Map()
let nextConnection = 1

if (parentPort === null) throw new Error('loopback-worker.mjs runs as a worker thread')
const port = parentPort

port.on('message', async (/** @type {{ op: string, id?: number, kind?: string, url?: string, conn?: number, body?: string }} */ message) => {
  const { op, id } = message
  try {
    if (op === 'open') {
      const connection = message.kind === 'ws' ? await wsConnection(String(message.url)) : await httpConnection(String(message.url))
      const conn = nextConnection++
      connections.set(conn, connection)
      port.postMessage({ id, conn })
    } else if (op === 'send') {
      const connection = connections.get(Number(message.conn))
      if (connection === undefined) throw new Error('no such connection')
      port.postMessage({ id, body: await connection.send(String(message.body)) })
    }
  } catch (e) {
    port.postMessage({ id, error: e instanceof Error ? e.message : String(e) })
  }
})

/**
 * A keep-alive HTTP/1.1 connection to `url` (`http://127.0.0.1:PORT/path`), opened again when the
 * server has closed it (its keep-alive timeout runs out while the warm-up waits for idleness). Written
 * and read by hand: a request head as fetch sends it, a Content-Length body back.
 * @param {string} url
 * @returns {Promise<Connection>}
 */
async function httpConnection(url) {
  const { hostname, port, pathname } = new URL(url)
  const head = `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: */*\r\naccept-language: *\r\nsec-fetch-mode: cors\r\nuser-agent: node\r\naccept-encoding: gzip, deflate\r\ncontent-length: `
  /** @type {{ resolve: (body: string) => void, reject: (error: Error) => void } | undefined} */
  let waiting
  /** @type {Buffer} */
  let received = Buffer.alloc(0)
  const fail = (/** @type {Error} */ error) => {
    waiting?.reject(error)
    waiting = undefined
  }
  const onData = (/** @type {Buffer} */ chunk) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk])
    const end = received.indexOf('\r\n\r\n')
    if (end < 0 || waiting === undefined) return
    const headText = received.toString('latin1', 0, end)
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? NaN)
    if (!headText.startsWith('HTTP/1.1 200') || !Number.isSafeInteger(length)) return fail(new Error(`unexpected answer: ${headText.split('\r\n')[0]}`))
    if (received.length < end + 4 + length) return
    const body = received.toString('utf8', end + 4, end + 4 + length)
    received = received.subarray(end + 4 + length)
    const w = waiting
    waiting = undefined
    w.resolve(body)
  }
  const open = async () => {
    const s = await new Promise((resolve, reject) => {
      const opened = connect({ host: hostname, port: Number(port) }, () => resolve(opened)).once('error', reject)
    })
    s.setNoDelay(true)
    s.on('data', onData)
    s.on('error', fail)
    s.on('close', () => fail(new Error('connection closed')))
    received = Buffer.alloc(0)
    return s
  }
  let socket = await open()
  return {
    send: async (body) => {
      if (socket.destroyed || socket.readyState !== 'open') socket = await open()
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject }
        socket.write(head + Buffer.byteLength(body) + '\r\n\r\n' + body)
      })
    },
  }
}

/**
 * A WebSocket to `url` (`ws://127.0.0.1:PORT/path`): `ws`'s client, which masks frames as a browser does.
 * @param {string} url
 * @returns {Promise<Connection>}
 */
async function wsConnection(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  /** @type {{ resolve: (body: string) => void, reject: (error: Error) => void } | undefined} */
  let waiting
  const fail = (/** @type {Error} */ error) => {
    waiting?.reject(error)
    waiting = undefined
  }
  ws.on('message', (/** @type {Buffer} */ data) => {
    const w = waiting
    waiting = undefined
    w?.resolve(data.toString('utf8'))
  })
  ws.on('error', fail)
  ws.on('close', () => fail(new Error('connection closed')))
  return {
    send: (body) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject }
        ws.send(body)
      }),
  }
}
