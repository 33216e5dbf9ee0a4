/**
 * Every transport limit, with the answer a client gets when it crosses it, set through
 * `startRingchain`'s `server` options: body size (413), batch length (-32600), WebSocket message
 * size (close 1009), nesting depth (-32600, before parsing), header, request and keep-alive
 * timeouts (a client sending half a request is cut off), the connection cap (503, then drop), the
 * WebSocket heartbeat, and a client that does not read what it is sent.
 */
import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { JsonRpcProvider } from 'ethers'
import { createPublicClient, http } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { startRingchain, type RunningRingchain, type StartOptions } from '../../src/index.js'
import { nestingExceeds } from '../../src/server/limits.js'
import { startServer } from '../../src/server/server.js'
import { WsClient, captureLogger, postRaw, sleep } from './helpers.js'

const MIB = 1024 * 1024
const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

async function start(server: StartOptions['server'] = {}): Promise<RunningRingchain & { log: ReturnType<typeof captureLogger> }> {
  const log = captureLogger()
  const rc = await startRingchain({ port: 0, deterministic: true, logger: log.logger, server })
  onTestFinished(() => rc.close())
  return Object.assign(rc, { log })
}

async function openWs(url: string): Promise<WsClient> {
  const ws = await WsClient.open(url)
  onTestFinished(() => ws.close())
  return ws
}

/** A raw TCP connection to the server, destroyed when the test ends; `received` collects what comes back. */
function rawSocket(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const socket = connect(port, '127.0.0.1')
  onTestFinished(() => {
    socket.destroy()
  })
  let text = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (text += chunk))
  socket.on('error', () => {})
  const startedAt = Date.now()
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - startedAt)))
  return { socket, received: () => text, closed }
}

const nested = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`

describe('body and batch', () => {
  test('error: a body over the default 5 MiB gets 413 with a JSON-RPC error, and the connection closes', async () => {
    const rc = await start()
    const body = `[${'1,'.repeat((5 * MIB) / 2)}1]`
    // As curl sends a large body: the refusal comes before the upload (without it, the client may
    // still be writing when the server closes, and see a reset instead of the answer).
    const res = await postRaw(rc.httpUrl, body, false, { expect: '100-continue' })
    expect(res.status).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(res.text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit 5242880 bytes"}}')
    expect((await postRaw(rc.httpUrl, CHAIN_ID)).text).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  })

  test('args: maxBodyBytes', async () => {
    const rc = await start({ maxBodyBytes: 100 })
    expect((await postRaw(rc.httpUrl, CHAIN_ID.padEnd(100))).status).toBe(200)
    const res = await postRaw(rc.httpUrl, CHAIN_ID.padEnd(101))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large: limit 100 bytes' } })
  })

  test('behavior: a client still writing an oversize body gets the 413 once it is done, not a reset', async () => {
    const rc = await start({ maxBodyBytes: 1_000 })
    const chunk = 'x'.repeat(16 * 1024)
    let written = 0
    // Declared over the limit, written slowly: the server must not answer and close mid-upload.
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(rc.httpUrl, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': 8 * chunk.length } })
      req.on('response', (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (part: string) => (text += part))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on('error', reject)
      const next = () => {
        if (written === 8) return void req.end()
        req.write(chunk)
        written++
        setTimeout(next, 20)
      }
      next()
    })
    expect(written).toBe(8)
    expect(answer).toEqual({ status: 413, text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit 1000 bytes"}}' })
  })

  test('behavior: fetch, viem and ethers read the 413 and its JSON-RPC error', async () => {
    const rc = await start({ maxBodyBytes: 64 * 1024 })
    const data = `0x${'ab'.repeat(256 * 1024)}` as const
    const message = 'request body too large: limit 65536 bytes'
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data }, 'latest'] })
    const res = await fetch(rc.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })
    const viemError = await createPublicClient({ transport: http(rc.httpUrl, { retryCount: 0 }) }).call({ data }).catch((e: unknown) => e as Error)
    expect(viemError).toBeInstanceOf(Error)
    expect((viemError as Error & { details?: string }).details).toBe(message)
    const provider = new JsonRpcProvider(rc.httpUrl, 31337, { staticNetwork: true })
    onTestFinished(() => provider.destroy())
    const ethersError: unknown = await provider.call({ data }).catch((e: unknown) => e)
    expect(ethersError).toMatchObject({ code: 'SERVER_ERROR', info: { responseStatus: '413 Payload Too Large' } })
    expect(JSON.parse((ethersError as { info: { responseBody: string } }).info.responseBody)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })
  })

  test('error: a batch over the default 1,000 calls is refused whole with -32600 "batch too large"', async () => {
    const rc = await start()
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] })
    const full = await postRaw(rc.httpUrl, JSON.stringify(Array.from({ length: 1_000 }, (_, i) => call(i))))
    expect(JSON.parse(full.text)).toHaveLength(1_000)
    const over = await postRaw(rc.httpUrl, JSON.stringify(Array.from({ length: 1_001 }, (_, i) => call(i + 7))))
    expect(over.status).toBe(200)
    expect(over.text).toBe('[{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"batch too large"}}]')
  })

  test('args: maxBatchLength, over HTTP and WebSocket', async () => {
    const rc = await start({ maxBatchLength: 3 })
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })))
    expect(JSON.parse((await postRaw(rc.httpUrl, batch(3))).text)).toHaveLength(3)
    expect((await postRaw(rc.httpUrl, batch(4))).text).toBe('[{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"batch too large"}}]')
    const ws = await openWs(rc.wsUrl)
    ws.socket.send(batch(4))
    expect(await ws.next()).toBe('[{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"batch too large"}}]')
    await expect(startRingchain({ port: 0, server: { maxBatchLength: 0 } })).rejects.toThrow('maxBatchLength: expected a positive integer, got 0')
  })
})

describe('websocket message size', () => {
  test('error: a message over maxWsMessageBytes closes the connection with 1009; the server keeps serving', async () => {
    const rc = await start({ maxWsMessageBytes: 1_024 })
    const ws = await openWs(rc.wsUrl)
    ws.socket.send(CHAIN_ID.padEnd(1_024))
    expect(await ws.next()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
    ws.socket.send(CHAIN_ID.padEnd(1_025))
    expect(await ws.closedWith()).toBe(1009)
    expect(rc.log.lines).toContain('warn: websocket message over the 1024-byte limit: connection closed (1009)')
    const again = await openWs(rc.wsUrl)
    again.socket.send(CHAIN_ID)
    expect(await again.next()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  })

  test('behavior: the default limit is 5 MiB', async () => {
    const rc = await start()
    const ws = await openWs(rc.wsUrl)
    ws.socket.send('x'.repeat(5 * MIB + 1))
    expect(await ws.closedWith()).toBe(1009)
  })
})

describe('nesting depth', () => {
  test('error: deeper than 64 levels is answered -32600 without being parsed, over HTTP and WebSocket', async () => {
    const rc = await start()
    const ok = await postRaw(rc.httpUrl, nested(64))
    // 64 levels are let through: eth_chainId then refuses the (non-empty) params itself.
    expect(JSON.parse(ok.text).error.code).toBe(-32602)
    const deep = await postRaw(rc.httpUrl, nested(65))
    expect(deep.status).toBe(200)
    expect(deep.text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request nested too deeply: limit 64 levels of arrays and objects"}}')
    const ws = await openWs(rc.wsUrl)
    ws.socket.send(nested(65))
    expect(await ws.next()).toBe(deep.text)
    ws.socket.send(CHAIN_ID)
    expect(await ws.next()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
    expect(rc.log.lines.filter((l) => l.includes('nested deeper'))).toHaveLength(2)
  })

  test('args: maxJsonDepth', async () => {
    const rc = await start({ maxJsonDepth: 3 })
    expect((await postRaw(rc.httpUrl, '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}]')).text).toBe('[{"jsonrpc":"2.0","id":1,"result":"0x7a69"}]')
    expect(JSON.parse((await postRaw(rc.httpUrl, '[[[[]]]]')).text).error.message).toBe('request nested too deeply: limit 3 levels of arrays and objects')
  })

  test('behavior: brackets inside strings do not count, escaped quotes do not end a string', () => {
    expect(nestingExceeds('{"a":"[[[[[[[[[["}', 2)).toBe(false)
    expect(nestingExceeds('{"a":"\\"[[[[[[[[[["}', 2)).toBe(false)
    expect(nestingExceeds('{"a":"\\\\"}[[[[[[[[[[', 2)).toBe(true)
    expect(nestingExceeds('[[["]]]"', 2)).toBe(true)
    expect(nestingExceeds('[[', 2)).toBe(false)
    expect(nestingExceeds('{"a":[[', 2)).toBe(true)
    expect(nestingExceeds('"unterminated [[[[[[', 2)).toBe(false)
  })

  test('behavior: 5 MiB of brackets is refused in milliseconds, and the server answers at once afterwards', async () => {
    const rc = await start()
    const body = '['.repeat(5 * MIB - 1)
    const startedAt = performance.now()
    const res = await postRaw(rc.httpUrl, body)
    const took = performance.now() - startedAt
    expect(JSON.parse(res.text).error.code).toBe(-32600)
    // JSON.parse would build millions of nested arrays (seconds of a blocked event loop) and a
    // recursive walk of the result would overflow the stack; the scan stops at level 65.
    expect(took).toBeLessThan(1_000)
    expect((await postRaw(rc.httpUrl, CHAIN_ID)).status).toBe(200)
  })
})

describe('timeouts', () => {
  test('behavior: a client that connects and sends nothing is cut off (408) after headersTimeoutMs', async () => {
    const rc = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 })
    const { received, closed } = rawSocket(rc.port)
    const took = await closed
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(took).toBeGreaterThanOrEqual(250)
    expect(took).toBeLessThan(2_000)
  })

  test('behavior: a client that sends half the headers is cut off after headersTimeoutMs', async () => {
    const rc = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 })
    const { socket, received, closed } = rawSocket(rc.port)
    socket.write(`POST /v3/k HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`)
    const took = await closed
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(took).toBeLessThan(2_000)
  })

  test('behavior: a client that sends half the body is cut off after requestTimeoutMs; the handler never sees it', async () => {
    const rc = await start({ headersTimeoutMs: 200, requestTimeoutMs: 500 })
    const { socket, received, closed } = rawSocket(rc.port)
    socket.write(`POST /v3/k HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID.length}\r\n\r\n${CHAIN_ID.slice(0, 20)}`)
    const took = await closed
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(took).toBeGreaterThanOrEqual(400)
    expect(took).toBeLessThan(2_000)
    expect(rc.log.errors()).toEqual([])
  })

  test('behavior: a slow request is not cut: the timeouts count receiving, not answering', async () => {
    const server = await startServer(
      async (body) => {
        await sleep(800)
        return body
      },
      { headersTimeoutMs: 200, requestTimeoutMs: 300, logger: captureLogger().logger },
    )
    onTestFinished(() => server.close())
    const res = await postRaw(server.urls('k').httpUrl, '{}')
    expect(res).toMatchObject({ status: 200, text: '{}' })
  })

  test('behavior: an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
    const rc = await start({ keepAliveTimeoutMs: 300 })
    const { socket, received, closed } = rawSocket(rc.port)
    socket.write(`POST /v3/k HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: ${CHAIN_ID.length}\r\n\r\n${CHAIN_ID}`)
    const took = await closed
    expect(received()).toMatch(/^HTTP\/1\.1 200 [^]*"result":"0x7a69"/)
    expect(took).toBeGreaterThanOrEqual(250)
    expect(took).toBeLessThan(1_500)
  })

  test('behavior: a request that came while the process was busy past keepAliveTimeoutMs is answered, not cut off', async () => {
    const rc = await start({ keepAliveTimeoutMs: 300 })
    const { socket, received } = rawSocket(rc.port)
    const post = `POST /v3/k HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: ${CHAIN_ID.length}\r\n\r\n${CHAIN_ID}`
    const answers = () => received().match(/"result":"0x7a69"/g)?.length ?? 0
    socket.write(post)
    await expect.poll(answers).toBe(1)
    // The next request reaches the server's socket, then this process (the server's too) is busy
    // for longer than the keep-alive timeout: the idle sweep comes due in the turn that reads it.
    await new Promise((resolve) => socket.write(post, resolve))
    const busyUntil = Date.now() + 700
    while (Date.now() < busyUntil);
    await expect.poll(answers, { timeout: 2_000 }).toBe(2)
    expect(socket.destroyed).toBe(false)
  })

  test('args: the header timeout defaults below the request timeout when only the latter is given', async () => {
    // node:http refuses a headers timeout longer than the request timeout: the default adapts.
    const rc = await start({ requestTimeoutMs: 400 })
    const { received, closed } = rawSocket(rc.port)
    expect(await closed).toBeLessThan(2_000)
    expect(received()).toMatch(/^HTTP\/1\.1 408 /)
  })
})

describe('connections', () => {
  test('error: connections over maxConnections get 503 with -32005 over HTTP and on upgrade; the others are served', async () => {
    const rc = await start({ maxConnections: 2 })
    const a = await openWs(rc.wsUrl)
    const b = await openWs(rc.wsUrl)
    const busy = await postRaw(rc.httpUrl, CHAIN_ID)
    expect(busy.status).toBe(503)
    expect(busy.headers['retry-after']).toBe('1')
    expect(busy.headers.connection).toBe('close')
    expect(JSON.parse(busy.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: 'too many connections: limit 2; close idle clients or raise maxConnections' },
    })
    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(rc.wsUrl)
      ws.once('open', () => reject(new Error('the handshake succeeded')))
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('error', () => {})
    })
    expect(refused).toBe(503)
    a.socket.send(CHAIN_ID)
    expect(await a.next()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
    // One goes, a place frees up.
    b.close()
    await sleep(50)
    expect((await postRaw(rc.httpUrl, CHAIN_ID)).status).toBe(200)
    expect(rc.log.lines.some((l) => /connection\(s\) over the limit of 2 refused/.test(l))).toBe(true)
  })

  test('behavior: past the hard limit connections are dropped unanswered, and the server recovers', async () => {
    const rc = await start({ maxConnections: 1, headersTimeoutMs: 5_000 })
    // 1 served + 16 answered with 503 = the hard limit of 17; they stay open, sending nothing.
    const held = Array.from({ length: 17 }, () => rawSocket(rc.port))
    await sleep(100)
    const dropped = rawSocket(rc.port)
    expect(await dropped.closed).toBeLessThan(1_000)
    expect(dropped.received()).toBe('')
    for (const h of held) h.socket.destroy()
    await Promise.all(held.map((h) => h.closed))
    await sleep(50)
    expect((await postRaw(rc.httpUrl, CHAIN_ID)).status).toBe(200)
  })

  test('args: the default cap is 1,000 connections', async () => {
    const rc = await start({ headersTimeoutMs: 5_000 })
    const held = Array.from({ length: 1_000 }, () => rawSocket(rc.port))
    // Accepting a thousand connections from the listen backlog takes a moment.
    await expect.poll(async () => (await postRaw(rc.httpUrl, CHAIN_ID)).status, { timeout: 5_000, interval: 100 }).toBe(503)
    for (const h of held) h.socket.destroy()
    await Promise.all(held.map((h) => h.closed))
    await sleep(50)
    expect((await postRaw(rc.httpUrl, CHAIN_ID)).status).toBe(200)
  })
})

describe('calls', () => {
  test('behavior: a call asking for more gas than the cap runs with the cap: a looping contract cannot hold the server', async () => {
    // Before Osaka there is no per-transaction cap: without one, `gas: 2^64` would loop for hours.
    const rc = await startRingchain({ port: 0, deterministic: true, hardfork: 'prague', blockGasLimit: 1_000_000n })
    onTestFinished(() => rc.close())
    const loop = '0x00000000000000000000000000000000000000bb'
    await rc.request({ method: 'anvil_setCode', params: [loop, '0x5b600056'] }) // JUMPDEST PUSH1 0 JUMP
    const startedAt = Date.now()
    const res = await postRaw(rc.httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: loop, gas: '0xffffffffffffffff' }] }))
    expect(JSON.parse(res.text).error).toEqual({ code: -32000, message: 'out of gas' })
    expect(Date.now() - startedAt).toBeLessThan(5_000)
  })

  test('behavior: on Osaka a call asking for more than the EIP-7825 cap runs with the cap instead of failing inside', async () => {
    const rc = await startRingchain({ port: 0, deterministic: true })
    onTestFinished(() => rc.close())
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const res = await postRaw(rc.httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [{ to: rc.accounts[1]!.address, gas: '0xe2b018e47e62' }] }))
      expect(JSON.parse(res.text), method).toHaveProperty('result')
    }
  })
})

describe('websocket clients that stop answering or reading', () => {
  test('behavior: a client that does not answer pings is dropped after a ping period; a live one stays', async () => {
    const rc = await start({ wsPingIntervalMs: 100 })
    const live = await openWs(rc.wsUrl)
    // A raw handshake, then silence: pings go unanswered.
    const { socket, received, closed } = rawSocket(rc.port)
    socket.write(
      'GET /ws/v3/k HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    const took = await closed
    expect(received()).toMatch(/^HTTP\/1\.1 101 /)
    expect(took).toBeGreaterThanOrEqual(150)
    expect(took).toBeLessThan(2_000)
    expect(rc.log.lines).toContain('warn: websocket client did not answer a ping: connection dropped')
    await sleep(300)
    live.socket.send(CHAIN_ID)
    expect(await live.next()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  })

  test('behavior: a busy event loop is not taken for silent clients: an answer read late still counts', async () => {
    const log = captureLogger()
    const server = await startServer(
      async (body) => {
        // Blocks the event loop for several ping periods, as mining thousands of blocks does.
        const until = Date.now() + 500
        while (Date.now() < until) {
          // busy
        }
        return body
      },
      { wsPingIntervalMs: 100, logger: log.logger },
    )
    onTestFinished(() => server.close())
    // A client that answers its first ping 50 ms late; meanwhile another asks for the long
    // request. The pong arrives while the server is busy, and is read only after the beat that
    // follows the stall: that beat must not take the client for gone.
    const other = await openWs(server.urls('k').wsUrl)
    const client = new WebSocket(server.urls('k').wsUrl, { autoPong: false })
    onTestFinished(() => client.terminate())
    let pings = 0
    client.on('ping', () => {
      if (++pings === 1) {
        setTimeout(() => other.socket.send('busy'), 10)
        setTimeout(() => client.pong(), 50)
      } else client.pong()
    })
    const answers: string[] = []
    client.on('message', (data) => answers.push(String(data)))
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)))
    await new Promise((resolve) => client.once('open', resolve))
    expect(await other.next()).toBe('busy')
    await sleep(300)
    client.send('still here')
    await expect.poll(() => answers, { timeout: 3_000 }).toEqual(['still here'])
    expect(pings).toBeGreaterThan(1)
    expect(log.lines).toEqual([])
    client.close()
    expect(await closed).toBe(1005)
  })

  test('behavior: a subscriber that stops reading is dropped once maxWsBufferedBytes are queued', async () => {
    const log = captureLogger()
    let pushed = 0
    const server = await startServer(
      async (body, session) => {
        // Pushes until the session is dropped: 256 KiB notifications, as fast as the socket takes them.
        const chunk = 'x'.repeat(256 * 1024)
        while (!session.closed && pushed < 400) {
          session.send(chunk)
          pushed++
          await new Promise((resolve) => setImmediate(resolve))
        }
        return body
      },
      { maxWsBufferedBytes: MIB, logger: log.logger },
    )
    onTestFinished(() => server.close())
    const client = new WebSocket(server.urls('k').wsUrl)
    onTestFinished(() => client.terminate())
    await new Promise((resolve) => client.once('open', resolve))
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)))
    // The client stops reading: TCP buffers fill, then the server's queue.
    ;(client as unknown as { _socket: Socket })._socket.pause()
    client.send('subscribe')
    await expect.poll(() => log.lines, { timeout: 5_000 }).toContain('warn: websocket client not reading: over 1048576 bytes queued, connection dropped')
    ;(client as unknown as { _socket: Socket })._socket.resume()
    expect(await closed).toBe(1006)
    // Far less than the 100 MiB it would have queued.
    expect(pushed).toBeLessThan(400)
  })
})
