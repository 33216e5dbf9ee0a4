/**
 * The warm-up's client: JSON-RPC over one keep-alive HTTP connection and one WebSocket, to a
 * server on this machine. HTTP is written and read by hand (a request head as fetch sends it, a
 * Content-Length body back), so the client costs the process that runs it next to nothing; the
 * WebSocket is `ws`'s client, which masks frames as a browser does.
 */
import { connect, type Socket } from 'node:net'
import WebSocket from 'ws'

/**
 * Sends one JSON-RPC request and resolves with its result; a JSON-RPC error rejects. `as`: the
 * client whose envelope it imitates (its keys' order, which gives the server's parsed object its
 * shape): viem's `jsonrpc, id, method, params` (default) or ethers' `method, params, id, jsonrpc`.
 */
export type Rpc = (method: string, params?: readonly unknown[], as?: ClientStyle) => Promise<unknown>

/** Whose requests a warm-up request looks like. */
export type ClientStyle = 'viem' | 'ethers'

/** The JSON-RPC error an answer carried. */
export class LoopbackRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (${code})`)
  }
}

/** A client over HTTP or WebSocket to one URL; one request at a time. */
export interface LoopbackClient {
  readonly rpc: Rpc
  close(): void
}

let nextId = 1

/** `send` (a raw body in, a raw body out) as a JSON-RPC caller. */
function rpcOver(send: (body: string) => Promise<string>): Rpc {
  return async (method, params = [], as = 'viem') => {
    const id = nextId++
    const request = as === 'viem' ? { jsonrpc: '2.0', id, method, params } : { method, params, id, jsonrpc: '2.0' }
    const answer = JSON.parse(await send(JSON.stringify(request))) as { result?: unknown; error?: { code: number; message: string } }
    if (answer.error !== undefined) throw new LoopbackRpcError(method, answer.error.code, answer.error.message)
    return answer.result
  }
}

/**
 * A keep-alive HTTP/1.1 connection to `url` (`http://127.0.0.1:PORT/path`), opened again when the
 * server has closed it (its keep-alive timeout runs out while the warm-up waits for idleness).
 */
export async function httpClient(url: string): Promise<LoopbackClient> {
  const { hostname, port, pathname } = new URL(url)
  const head = `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: */*\r\naccept-language: *\r\nsec-fetch-mode: cors\r\nuser-agent: node\r\naccept-encoding: gzip, deflate\r\ncontent-length: `
  let waiting: { resolve: (body: string) => void; reject: (error: Error) => void } | undefined
  let received: Buffer = Buffer.alloc(0)
  let closed = false
  const fail = (error: Error) => {
    waiting?.reject(error)
    waiting = undefined
  }
  const onData = (chunk: Buffer) => {
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
    const s = await new Promise<Socket>((resolve, reject) => {
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
  const send = async (body: string) => {
    if (closed) throw new Error('connection closed')
    if (socket.destroyed || socket.readyState !== 'open') socket = await open()
    return new Promise<string>((resolve, reject) => {
      waiting = { resolve, reject }
      socket.write(head + Buffer.byteLength(body) + '\r\n\r\n' + body)
    })
  }
  return {
    rpc: rpcOver(send),
    close: () => {
      closed = true
      socket.destroy()
    },
  }
}

/** A WebSocket to `url` (`ws://127.0.0.1:PORT/path`). */
export async function wsClient(url: string): Promise<LoopbackClient> {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let waiting: { resolve: (body: string) => void; reject: (error: Error) => void } | undefined
  const fail = (error: Error) => {
    waiting?.reject(error)
    waiting = undefined
  }
  ws.on('message', (data: Buffer) => {
    const w = waiting
    waiting = undefined
    w?.resolve(data.toString('utf8'))
  })
  ws.on('error', fail)
  ws.on('close', () => fail(new Error('connection closed')))
  const send = (body: string) =>
    new Promise<string>((resolve, reject) => {
      waiting = { resolve, reject }
      ws.send(body)
    })
  return { rpc: rpcOver(send), close: () => ws.terminate() }
}
