/**
 * A fake JSON-RPC node on 127.0.0.1:0 for the upstream client's tests, over HTTP and WebSocket on
 * one port: it counts the HTTP requests (or WebSocket messages) and the calls in them, and answers
 * each exchange as the test's `behave` says (an answer per call, an HTTP status, silence, a drop).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'

export interface FakeCall {
  readonly id: number
  readonly method: string
  readonly params: unknown[]
}

/** What the fake does with one exchange (`n` counts exchanges from 1). */
export type Behaviour =
  | { readonly kind: 'answer' }
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string> }
  | { readonly kind: 'silence' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'error'; readonly code: number; readonly message: string }
  /** Answers single calls, and a batch with one error for all of it (as nodes without batches do). */
  | { readonly kind: 'no-batches' }

export interface FakeUpstream {
  readonly httpUrl: string
  readonly wsUrl: string
  /** Exchanges received (HTTP requests or WebSocket messages). */
  readonly exchanges: FakeCall[][]
  /** WebSocket connections opened. */
  connections: number
  /** The Authorization header of the last HTTP request or WebSocket handshake. */
  authorization: string | undefined
  /** The most HTTP requests that were open at once. */
  mostOpen: number
  close(): Promise<void>
}

/** By default `eth_echo` answers its params, everything else its method name. */
const answerOf = (call: FakeCall) => (call.method === 'eth_echo' ? call.params : call.method)

export async function fakeUpstream(behave: (n: number, calls: FakeCall[]) => Behaviour = () => ({ kind: 'answer' })): Promise<FakeUpstream> {
  const exchanges: FakeCall[][] = []
  let open = 0
  const reply = (calls: FakeCall[], single: boolean, b: Behaviour) => {
    if (b.kind === 'no-batches' && !single) return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } })
    const answers = calls.map((c) => (b.kind === 'error' ? { jsonrpc: '2.0', id: c.id, error: { code: b.code, message: b.message } } : { jsonrpc: '2.0', id: c.id, result: answerOf(c) }))
    return JSON.stringify(single ? answers[0] : answers)
  }
  const receive = (text: string): { calls: FakeCall[]; single: boolean; behaviour: Behaviour } => {
    const body = JSON.parse(text) as FakeCall | FakeCall[]
    const calls = Array.isArray(body) ? body : [body]
    exchanges.push(calls)
    return { calls, single: !Array.isArray(body), behaviour: behave(exchanges.length, calls) }
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open++
    fake.mostOpen = Math.max(fake.mostOpen, open)
    res.on('close', () => open--)
    fake.authorization = req.headers.authorization
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => {
      const { calls, single, behaviour } = receive(text)
      if (behaviour.kind === 'silence') return
      if (behaviour.kind === 'drop') return void req.socket.destroy()
      if (behaviour.kind === 'status') {
        res.writeHead(behaviour.status, behaviour.headers ?? {})
        return void res.end('{"error":"busy"}')
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(reply(calls, single, behaviour))
    })
  })
  const wss = new WebSocketServer({ server })
  const fake: FakeUpstream = {
    httpUrl: '',
    wsUrl: '',
    exchanges,
    connections: 0,
    mostOpen: 0,
    authorization: undefined,
    async close() {
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    fake.connections++
    fake.authorization = req.headers.authorization
    ws.on('message', (data) => {
      const { calls, single, behaviour } = receive(data.toString())
      if (behaviour.kind === 'silence') return
      if (behaviour.kind === 'drop' || behaviour.kind === 'status') return void ws.terminate()
      ws.send(reply(calls, single, behaviour))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  Object.assign(fake, { httpUrl: `http://127.0.0.1:${port}/v3/SECRETKEY123`, wsUrl: `ws://127.0.0.1:${port}/ws/v3/SECRETKEY123` })
  onTestFinished(() => fake.close())
  return fake
}

/** The calls the fake received, flattened. */
export const callsOf = (fake: FakeUpstream) => fake.exchanges.flat()
