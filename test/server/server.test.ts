// The transport on real sockets (127.0.0.1, port 0) with fake handlers: routing, keys, CORS,
// limits, WebSocket sessions and shutdown. No chain and no JSON-RPC semantics are involved.

import { Agent, request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { startServer } from '../../src/server/server.js'
import type { RunningServer, ServerOptions } from '../../src/server/server.js'
import type { Logger, RpcHandler, Session } from '../../src/server/types.js'

const KEY = 'k3y-0123456789abcdef'
const RESULT = '{"jsonrpc":"2.0","id":1,"result":"0x1"}'

const echo: RpcHandler = async (body) => body
const INVALID_KEY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid API key"}}'

function memoryLogger(): { lines: string[]; logger: Logger } {
  const lines: string[] = []
  return {
    lines,
    logger: {
      warn: (message) => lines.push(`warn: ${message}`),
      error: (message) => lines.push(`error: ${message}`),
    },
  }
}

async function start(handler: RpcHandler = echo, options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer(handler, { logger: memoryLogger().logger, ...options })
  onTestFinished(() => server.close())
  return server
}

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** node:http client, for what fetch will not do (raw chunks, no content-type, own agent). */
function request(
  url: string,
  init: { method?: string; headers?: OutgoingHttpHeaders; chunks?: readonly (string | Buffer)[]; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'POST', headers: init.headers ?? {}, agent: init.agent ?? false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      res.on('error', reject)
    })
    req.on('error', reject)
    for (const chunk of init.chunks ?? []) req.write(chunk)
    req.end()
  })
}

function post(url: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(4_000) })
}

function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
    onTestFinished(() => ws.terminate())
  })
}

function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(String(data))))
}

function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })))
}

/** Connects a WebSocket client that the server refuses; gives back the HTTP answer it got instead. */
function refusedUpgrade(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => reject(new Error('the handshake succeeded')))
    ws.once('error', reject)
    ws.once('unexpected-response', (req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
      })
    })
  })
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let refused = false
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => socket.destroy())
    socket.once('error', (error: NodeJS.ErrnoException) => (refused = error.code === 'ECONNREFUSED'))
    // Resolved on close, so that the probe itself leaves no handle behind.
    socket.once('close', () => resolve(refused))
  })
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('http', { timeout: 5_000 }, () => {
  test('behavior: listening on port 0 resolves with the real port', async () => {
    const server = await start()
    expect(server.port).toBeGreaterThan(0)
    expect(server.host).toBe('127.0.0.1')
    expect(server.httpBase).toBe(`http://127.0.0.1:${server.port}`)
    expect(server.wsBase).toBe(`ws://127.0.0.1:${server.port}`)
    expect(server.urls('a b')).toEqual({
      httpUrl: `http://127.0.0.1:${server.port}/v3/a%20b`,
      wsUrl: `ws://127.0.0.1:${server.port}/ws/v3/a%20b`,
    })
    expect(await connectionRefused(server.port)).toBe(false)
  })

  test('behavior: POST routes the body to the handler and answers 200 json', async () => {
    const seen: { body: string; transport: string; apiKey: string }[] = []
    const server = await start(async (body, session) => {
      seen.push({ body, transport: session.transport, apiKey: session.apiKey })
      return RESULT
    })
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
    const res = await post(server.urls(KEY).httpUrl, body)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.text()).toBe(RESULT)
    expect(seen).toEqual([{ body, transport: 'http', apiKey: KEY }])
  })

  test('behavior: the body is decoded as UTF-8 even when a character spans two chunks', async () => {
    const server = await start()
    const text = '{"note":"é€😀"}'
    const bytes = Buffer.from(text)
    const res = await request(server.urls(KEY).httpUrl, {
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      // Byte 11 is inside the two-byte é.
      chunks: [bytes.subarray(0, 11), bytes.subarray(11)],
    })
    expect(res.body).toBe(text)
  })

  test('behavior: a notification-only answer is 204 with no body', async () => {
    const server = await start(async () => undefined)
    const res = await post(server.urls(KEY).httpUrl, '{"jsonrpc":"2.0","method":"eth_chainId"}')
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.text()).toBe('')
  })

  test('behavior: the key path forgives a trailing slash and a query string', async () => {
    const keys: string[] = []
    const server = await start(async (_body, session) => {
      keys.push(session.apiKey)
      return RESULT
    })
    for (const path of [`/v3/${KEY}/`, `/v3/${KEY}?x=1`, `/v3/${KEY}/?x`]) {
      const res = await post(server.httpBase + path, '{}')
      expect(res.status, path).toBe(200)
    }
    expect(keys).toEqual([KEY, KEY, KEY])
  })

  test('error: a path without a key gets 403 with the JSON-RPC error', async () => {
    const server = await start(echo, { apiKeys: [KEY] })
    for (const path of ['/v3', '/v3/', '/v3?x=1']) {
      const res = await post(server.httpBase + path, '{}')
      expect(res.status, path).toBe(403)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(await res.text()).toMatchInlineSnapshot(`"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"API key required: the path is /v3/<API key> (WebSocket: /ws/v3/<API key>)"}}"`)
    }
  })

  test('error: a key not configured gets 401 with the JSON-RPC error, whatever its length', async () => {
    const { lines, logger } = memoryLogger()
    const server = await start(async () => RESULT, { apiKeys: ['other-key', KEY], logger })
    for (const wrong of [KEY.slice(0, -1) + 'X', 'short', KEY + KEY]) {
      const res = await post(server.urls(wrong).httpUrl, '{}')
      expect(res.status, wrong).toBe(401)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(await res.text()).toBe(INVALID_KEY)
    }
    expect((await post(server.urls(KEY).httpUrl, '{}')).status).toBe(200)
    expect((await post(server.urls('other-key').httpUrl, '{}')).status).toBe(200)
    expect(lines.join('\n')).not.toContain(KEY)
  })

  test('behavior: any non-empty key is accepted when none are configured', async () => {
    const server = await start(async (_body, session) => JSON.stringify(session.apiKey))
    for (const key of ['a', 'anything-at-all', 'with space']) {
      const res = await post(server.urls(key).httpUrl, '{}')
      expect(res.status).toBe(200)
      expect(await res.json()).toBe(key)
    }
  })

  test('error: other paths get 404', async () => {
    const server = await start()
    for (const path of ['/', '/v2/key', `/v3/${KEY}/extra`, '/v30', '/v3x/key', '/favicon.ico']) {
      const res = await post(server.httpBase + path, '{}')
      expect(res.status, path).toBe(404)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  test('args: rootKey: POST / and /?query are served as the root key', async () => {
    const server = await start(async (_body, session) => JSON.stringify(session.apiKey), { rootKey: 'root-key' })
    for (const path of ['/', '/?x=1']) {
      const res = await post(server.httpBase + path, '{}')
      expect(res.status, path).toBe(200)
      expect(await res.json()).toBe('root-key')
    }
    // The key paths keep their meaning.
    expect(await (await post(server.urls(KEY).httpUrl, '{}')).json()).toBe(KEY)
    // Only the root itself: other paths are still not ours.
    expect((await post(`${server.httpBase}/x`, '{}')).status).toBe(404)
  })

  test('args: rootKey: a WebSocket upgrade on / is a session of the root key', async () => {
    const server = await start(async (_body, session) => JSON.stringify(session.apiKey), { rootKey: 'root-key' })
    const ws = await openWs(`${server.wsBase}/`)
    const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))))
    ws.send('{}')
    expect(await answer).toBe('"root-key"')
    ws.close()
  })

  test('error: rootKey: a root key that the configured keys do not accept is refused with 401', async () => {
    const server = await start(echo, { apiKeys: [KEY], rootKey: 'other' })
    expect((await post(`${server.httpBase}/`, '{}')).status).toBe(401)
    expect((await refusedUpgrade(`${server.wsBase}/`)).status).toBe(401)
  })

  test('error: the WebSocket path over plain HTTP gets 426', async () => {
    const server = await start()
    const res = await fetch(server.urls(KEY).wsUrl.replace('ws:', 'http:'))
    expect(res.status).toBe(426)
    expect(res.headers.get('upgrade')).toBe('websocket')
  })

  test('error: GET on the key path gets 405 with Allow', async () => {
    const server = await start()
    const res = await fetch(server.urls(KEY).httpUrl)
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect((await res.json()) as unknown).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })

  test('behavior: CORS preflight from another origin allows Content-Type', async () => {
    const server = await start(echo, { apiKeys: [KEY] })
    const res = await request(server.urls(KEY).httpUrl, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS')
    expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('content-type')
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0)
    // Without requested headers, Content-Type is allowed all the same.
    const plain = await request(server.urls(KEY).httpUrl, { method: 'OPTIONS', headers: { Origin: 'http://example.test' } })
    expect(plain.headers['access-control-allow-headers']).toBe('Content-Type')
  })

  test('behavior: JSON, text/plain, form-urlencoded and a missing content type are accepted', async () => {
    const server = await start()
    const url = server.urls(KEY).httpUrl
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await request(url, { headers: { 'Content-Type': type }, chunks: ['{"a":1}'] })
      expect(res.status, type).toBe(200)
      expect(res.body).toBe('{"a":1}')
    }
    const bare = await request(url, { chunks: ['{"a":1}'] })
    expect(bare.status).toBe(200)
  })

  test('error: a content type that cannot be JSON gets 415', async () => {
    const server = await start()
    const res = await request(server.urls(KEY).httpUrl, { headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, chunks: ['{}'] })
    expect(res.status).toBe(415)
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })

  test('error: an oversize body gets 413 with the JSON-RPC error', async () => {
    const calls: string[] = []
    const server = await start(
      async (body) => {
        calls.push(body)
        return RESULT
      },
      { maxBodyBytes: 1_000 },
    )
    const url = server.urls(KEY).httpUrl
    const expected = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit 1000 bytes"}}'
    // Declared length over the limit: refused before reading.
    const declared = await post(url, 'x'.repeat(1_001))
    expect(declared.status).toBe(413)
    expect(declared.headers.get('content-type')).toBe('application/json')
    expect(await declared.text()).toBe(expected)
    // Chunked, no declared length: refused once the bytes read pass the limit.
    const streamed = await request(url, { headers: { 'Transfer-Encoding': 'chunked' }, chunks: ['x'.repeat(600), 'y'.repeat(600)] })
    expect(streamed.status).toBe(413)
    expect(streamed.headers.connection).toBe('close')
    expect(streamed.body).toBe(expected)
    // Exactly at the limit is fine.
    expect((await post(url, 'z'.repeat(1_000))).status).toBe(200)
    expect(calls).toEqual(['z'.repeat(1_000)])
  })

  test('error: a client expecting 100-continue is refused before it uploads the body', async () => {
    const server = await start(echo, { maxBodyBytes: 1_000 })
    let continued = false
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(server.urls(KEY).httpUrl, {
        method: 'POST',
        agent: false,
        headers: { Expect: '100-continue', 'Content-Type': 'application/json', 'Content-Length': '5000' },
      })
      req.on('continue', () => (continued = true))
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
        req.destroy()
      })
      req.on('error', reject)
      req.flushHeaders()
    })
    expect(status).toBe(413)
    expect(continued).toBe(false)
  })

  test('error: a handler that throws or rejects gets 200 with -32603 and no stack on the wire', async () => {
    const { lines, logger } = memoryLogger()
    let call = 0
    const server = await start(
      (() => {
        call++
        if (call === 1) throw new Error('sync boom at secret place')
        if (call === 2) return Promise.reject(new Error('async boom at secret place'))
        return Promise.resolve(RESULT)
      }) as RpcHandler,
      { logger },
    )
    const url = server.urls(KEY).httpUrl
    for (let i = 0; i < 2; i++) {
      const res = await post(url, '{}')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json')
      const text = await res.text()
      expect(text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}')
      expect(text).not.toContain('boom')
    }
    // The server survives and the details went to the log.
    expect(await (await post(url, '{}')).text()).toBe(RESULT)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('sync boom at secret place')
    expect(lines[1]).toContain('async boom')
    expect(lines.join('\n')).not.toContain(KEY)
  })

  test('behavior: an http session cannot push and never calls onClose', async () => {
    let session: Session | undefined
    const server = await start(async (_body, s) => {
      session = s
      s.send('ignored')
      s.onClose(() => {
        throw new Error('never called')
      })
      return RESULT
    })
    expect(await (await post(server.urls(KEY).httpUrl, '{}')).text()).toBe(RESULT)
    expect(session?.transport).toBe('http')
    // Inspecting or logging the session must not print the key.
    expect(JSON.stringify(session)).not.toContain(KEY)
  })
})

describe('websocket', { timeout: 5_000 }, () => {
  test('behavior: a message round-trips through the handler', async () => {
    const seen: { transport: string; apiKey: string }[] = []
    const server = await start(
      async (body, session) => {
        seen.push({ transport: session.transport, apiKey: session.apiKey })
        return `answer:${body}`
      },
      { apiKeys: [KEY] },
    )
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('{"id":1}')
    expect(await nextMessage(ws)).toBe('answer:{"id":1}')
    // Binary frames are read as UTF-8 text.
    ws.send(Buffer.from('{"id":"é"}'), { binary: true })
    expect(await nextMessage(ws)).toBe('answer:{"id":"é"}')
    expect(seen).toEqual([
      { transport: 'ws', apiKey: KEY },
      { transport: 'ws', apiKey: KEY },
    ])
  })

  test('behavior: a handler answering undefined sends nothing', async () => {
    const server = await start(async (body) => (body === 'notify' ? undefined : body))
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('notify')
    ws.send('reply')
    expect(await nextMessage(ws)).toBe('reply')
  })

  test('behavior: messages are handled concurrently, answers in completion order', async () => {
    const slow = deferred<string>()
    const server = await start(async (body) => (body === 'slow' ? slow.promise : 'fast'))
    const ws = await openWs(server.urls(KEY).wsUrl)
    const received: string[] = []
    ws.on('message', (data) => received.push(String(data)))
    ws.send('slow')
    ws.send('fast')
    await expect.poll(() => received).toEqual(['fast'])
    slow.resolve('slow done')
    await expect.poll(() => received).toEqual(['fast', 'slow done'])
  })

  test('behavior: session.send pushes unsolicited messages', async () => {
    const server = await start(async (body, session) => {
      setTimeout(() => {
        session.send('push 1')
        session.send('push 2')
      }, 5)
      return `subscribed:${body}`
    })
    const ws = await openWs(server.urls(KEY).wsUrl)
    const received: string[] = []
    ws.on('message', (data) => received.push(String(data)))
    ws.send('sub')
    await expect.poll(() => received).toEqual(['subscribed:sub', 'push 1', 'push 2'])
  })

  test('behavior: session.onClose runs once when the client disconnects', async () => {
    const ran = deferred<Session>()
    let runs = 0
    let session: Session | undefined
    const server = await start(async (_body, s) => {
      session = s
      s.onClose(() => {
        runs++
        ran.resolve(s)
      })
      s.onClose(() => {
        throw new Error('a failing callback does not stop the others')
      })
      return 'ok'
    })
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('subscribe')
    expect(await nextMessage(ws)).toBe('ok')
    expect(session?.closed).toBe(false)
    ws.close()
    const closedSession = await ran.promise
    expect(closedSession.closed).toBe(true)
    // Registered after the client left: still run, once.
    const late = deferred()
    closedSession.onClose(() => late.resolve())
    await late.promise
    expect(runs).toBe(1)
    closedSession.send('dropped without error')
  })

  test('error: a handler that throws answers -32603 on the socket', async () => {
    const { lines, logger } = memoryLogger()
    const server = await start(
      async () => {
        throw new Error('ws boom')
      },
      { logger },
    )
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('{}')
    expect(await nextMessage(ws)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}')
    expect(lines[0]).toContain('ws boom')
    // The connection stays usable.
    ws.send('{}')
    expect(await nextMessage(ws)).toContain('-32603')
  })

  test('error: an upgrade with a bad key is refused with 401 before the handshake', async () => {
    const server = await start(echo, { apiKeys: [KEY] })
    const res = await refusedUpgrade(server.urls('wrong').wsUrl)
    expect(res.status).toBe(401)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.body).toBe(INVALID_KEY)
  })

  test('error: an upgrade without a key is refused with 403, on another path with 404', async () => {
    const server = await start(echo, { apiKeys: [KEY] })
    for (const path of ['/ws/v3', '/ws/v3/']) {
      const res = await refusedUpgrade(server.wsBase + path)
      expect(res.status, path).toBe(403)
      expect(res.headers['content-type']).toBe('application/json')
      expect(res.body).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"API key required: the path is /v3/<API key> (WebSocket: /ws/v3/<API key>)"}}')
    }
    const other = await refusedUpgrade(`${server.wsBase}/v3/${KEY}`)
    expect(other.status).toBe(404)
  })

  test('error: a message over the limit closes the connection with 1009', async () => {
    const { lines, logger } = memoryLogger()
    const server = await start(echo, { maxWsMessageBytes: 1_024, logger })
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('x'.repeat(1_024))
    expect(await nextMessage(ws)).toHaveLength(1_024)
    const closing = closeOf(ws)
    ws.send('x'.repeat(1_025))
    expect((await closing).code).toBe(1009)
    expect(lines.some((line) => line.includes('1009'))).toBe(true)
  })
})

describe('close', { timeout: 5_000 }, () => {
  test('behavior: close ends WebSocket clients with 1001 and idle keep-alive sockets, and is idempotent', async () => {
    const watched = ['TCPServerWrap', 'TCPSocketWrap', 'Timeout']
    const count = (): number => process.getActiveResourcesInfo().filter((type) => watched.includes(type)).length
    const before = count()

    const closedOnServer = deferred()
    const server = await startServer(
      async (body, session) => {
        session.onClose(() => closedOnServer.resolve())
        return body
      },
      { shutdownGraceMs: 10_000, logger: memoryLogger().logger },
    )
    const ws = await openWs(server.urls(KEY).wsUrl)
    ws.send('hello')
    expect(await nextMessage(ws)).toBe('hello')
    const agent = new Agent({ keepAlive: true })
    const first = await request(server.urls(KEY).httpUrl, { agent, chunks: ['{}'] })
    expect(first.status).toBe(200)
    const idleSocket = Object.values(agent.freeSockets).flat()[0]
    expect(idleSocket).toBeDefined()
    const idleClosed = new Promise((resolve) => idleSocket?.once('close', resolve))
    const wsClosed = closeOf(ws)

    const startedAt = Date.now()
    const closing = server.close()
    expect(server.close()).toBe(closing)
    await closing
    // Nothing waited for the 10 s grace period: idle and WebSocket connections were ended at once.
    expect(Date.now() - startedAt).toBeLessThan(2_000)
    expect(await wsClosed).toEqual({ code: 1001, reason: 'server shutting down' })
    await closedOnServer.promise
    await idleClosed
    agent.destroy()
    expect(await connectionRefused(server.port)).toBe(true)
    await server.close()
    expect(count()).toBeLessThanOrEqual(before)
  })

  test('behavior: close lets an in-flight request finish', async () => {
    const entered = deferred()
    const release = deferred<string>()
    const server = await start(async () => {
      entered.resolve()
      return release.promise
    })
    const answer = post(server.urls(KEY).httpUrl, '{}')
    await entered.promise
    const closing = server.close()
    let closed = false
    void closing.then(() => (closed = true))
    await sleep(50)
    expect(closed).toBe(false)
    release.resolve(RESULT)
    const res = await answer
    expect(res.status).toBe(200)
    expect(res.headers.get('connection')).toBe('close')
    expect(await res.text()).toBe(RESULT)
    await closing
  })

  test('behavior: after the grace period close cuts requests and clients that do not finish', async () => {
    const entered = deferred()
    const server = await start(
      async () => {
        entered.resolve()
        return new Promise<string>(() => {})
      },
      { shutdownGraceMs: 200 },
    )
    const answer = post(server.urls(KEY).httpUrl, '{}').then(
      () => 'answered',
      () => 'cut',
    )
    await entered.promise
    // A WebSocket client that never answers the close frame: a raw handshake, then silence.
    const raw = connect(server.port, '127.0.0.1')
    onTestFinished(() => {
      raw.destroy()
    })
    raw.write(
      `GET /ws/v3/${KEY} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    await new Promise((resolve) => raw.once('data', resolve))
    const rawClosed = new Promise((resolve) => raw.once('close', resolve))
    raw.on('error', () => {})
    const startedAt = Date.now()
    await server.close()
    const took = Date.now() - startedAt
    expect(took).toBeGreaterThanOrEqual(150)
    expect(took).toBeLessThan(2_000)
    expect(await answer).toBe('cut')
    await rawClosed
  })

  test('error: listening on a taken port rejects', async () => {
    const server = await start()
    await expect(startServer(echo, { port: server.port })).rejects.toThrow(/EADDRINUSE/)
  })
})

describe('limits', { timeout: 5_000 }, () => {
  test('behavior: headersTimeoutMs ends a connection whose headers never finish', async () => {
    const server = await start(echo, { headersTimeoutMs: 200, requestTimeoutMs: 400 })
    const socket = connect(server.port, '127.0.0.1')
    onTestFinished(() => {
      socket.destroy()
    })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.write(`POST /v3/${KEY} HTTP/1.1\r\nHost: x\r\n`)
    const startedAt = Date.now()
    await new Promise((resolve) => socket.once('close', resolve))
    expect(Date.now() - startedAt).toBeLessThan(2_000)
    expect(received).toMatch(/^HTTP\/1\.1 408/)
  })

  test('behavior: maxConnections answers connections over the limit 503, and keeps serving the others', async () => {
    const server = await start(echo, { maxConnections: 1 })
    const ws = await openWs(server.urls(KEY).wsUrl)
    const res = await post(server.urls(KEY).httpUrl, '{}')
    expect(res.status).toBe(503)
    expect(res.headers.get('connection')).toBe('close')
    expect(await res.text()).toMatchInlineSnapshot(
      `"{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"too many connections: limit 1; close idle clients or raise maxConnections"}}"`,
    )
    ws.send('still served')
    expect(await nextMessage(ws)).toBe('still served')
  })
})
