// The fast lane (src/server/fast-lane.ts) on raw sockets: what it answers itself (plain POSTs whose
// body has fully arrived) must read byte for byte as node:http's answer, and everything it hands to
// node:http must be answered in request order after what it answered itself. Also the lane's own
// keep-alive and header timeouts, backpressure, half-close and shutdown. Which side answered is
// read from node:http's `http.server.request.start` diagnostics channel: the lane's requests never
// reach it.

import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { ApiKeys } from '../../src/server/api-keys.js'
import { installFastLane } from '../../src/server/fast-lane.js'
import { HttpSession } from '../../src/server/http.js'
import { ConnectionLimit } from '../../src/server/limits.js'
import { startServer } from '../../src/server/server.js'
import type { RunningServer, ServerOptions } from '../../src/server/server.js'
import type { Logger, RpcHandler } from '../../src/server/types.js'

const KEY = 'k3y-0123456789abcdef'

const echo: RpcHandler = async (body) => body

const quiet: Logger = { warn: () => {}, error: () => {} }

async function start(handler: RpcHandler = echo, options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer(handler, { logger: quiet, ...options })
  onTestFinished(() => server.close())
  return server
}

/** A request the lane serves itself: POST to the key path, one Content-Length, the whole body. `headers`: extra lines, each ending in CRLF. */
function fastRequest(body: string, { key = KEY, headers = '' }: { key?: string; headers?: string } = {}): string {
  return `POST /v3/${key} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`
}

/** The same request with a chunked body, which the lane hands to node:http. */
function chunkedRequest(body: string, { key = KEY, headers = '' }: { key?: string; headers?: string } = {}): string {
  const size = Buffer.byteLength(body).toString(16)
  return `POST /v3/${key} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${headers}\r\n${size}\r\n${body}\r\n0\r\n\r\n`
}

const PREFLIGHT = `OPTIONS /v3/${KEY} HTTP/1.1\r\nHost: x\r\nOrigin: http://example.test\r\nAccess-Control-Request-Method: POST\r\n\r\n`
const INVALID_KEY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid API key"}}'

/** The requests node:http parses on `server`'s port, as `METHOD url`, in order (the lane's never reach it). */
function nodeHttpRequests(server: RunningServer): string[] {
  const seen: string[] = []
  const onStart = (message: unknown): void => {
    const { request, server: node } = message as { request: IncomingMessage; server: Server }
    if ((node.address() as AddressInfo | null)?.port === server.port) seen.push(`${request.method} ${request.url}`)
  }
  subscribe('http.server.request.start', onStart)
  onTestFinished(() => {
    unsubscribe('http.server.request.start', onStart)
  })
  return seen
}

// --- a raw HTTP/1.1 client --------------------------------------------------------------------------

/** One response as it came on the wire. */
interface Reply {
  readonly statusLine: string
  readonly status: number
  /** Header fields in the order sent, names as sent. */
  readonly fields: readonly (readonly [string, string])[]
  readonly body: string
}

function header(reply: Reply, name: string): string | undefined {
  return reply.fields.find(([field]) => field.toLowerCase() === name.toLowerCase())?.[1]
}

/** A reply with its Date value blanked, after checking that the Date is a valid HTTP date. */
function withoutDate(reply: Reply): Reply {
  const date = header(reply, 'Date')
  expect(date).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/)
  expect(Math.abs(Date.parse(date ?? '') - Date.now())).toBeLessThan(5_000)
  return { ...reply, fields: reply.fields.map(([name, value]) => [name, name === 'Date' ? '<date>' : value] as const) }
}

/** A TCP connection that writes raw bytes and parses what comes back into replies; destroyed when the test ends. */
class RawClient {
  readonly socket: Socket
  readonly replies: Reply[] = []
  /** Resolves with the time (Date.now()) the connection closed. */
  readonly closed: Promise<number>
  #buffer: Buffer = Buffer.alloc(0)
  #peerEnded = false
  #isClosed = false
  readonly #checks = new Set<() => void>()

  private constructor(socket: Socket) {
    this.socket = socket
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk])
      this.#parse()
    })
    socket.on('end', () => {
      this.#peerEnded = true
      this.#parse()
    })
    // A reset (a test that cuts, or a server that destroys with bytes unread): 'close' follows.
    socket.on('error', () => {})
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.#peerEnded = true
        this.#parse()
        this.#isClosed = true
        resolve(Date.now())
        this.#check()
      }),
    )
  }

  static async open(port: number, { allowHalfOpen = false }: { allowHalfOpen?: boolean } = {}): Promise<RawClient> {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen })
    onTestFinished(() => {
      socket.destroy()
    })
    const client = new RawClient(socket)
    await new Promise((resolve) => socket.once('connect', resolve))
    return client
  }

  write(data: string | Buffer): void {
    this.socket.write(data)
  }

  /** Bytes received and not yet parsed into a reply. */
  get unparsed(): number {
    return this.#buffer.length
  }

  /** The first `count` replies once they have arrived; rejects if the connection closes first, or after `ms`. */
  next(count: number, ms = 3_000): Promise<Reply[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(`no ${count} replies within ${ms} ms`), ms)
      const done = (): void => {
        clearTimeout(timer)
        this.#checks.delete(check)
      }
      const fail = (why: string): void => {
        done()
        const got = this.replies.map((reply) => reply.status).join(', ')
        reject(new Error(`${why}: got ${this.replies.length} [${got}], then ${this.#buffer.length} bytes: ${this.#buffer.toString('latin1', 0, 200)}`))
      }
      const check = (): void => {
        if (this.replies.length >= count) {
          done()
          resolve(this.replies.slice(0, count))
        } else if (this.#isClosed) fail('closed first')
      }
      this.#checks.add(check)
      check()
    })
  }

  #check(): void {
    for (const check of [...this.#checks]) check()
  }

  #parse(): void {
    for (;;) {
      const reply = this.#take()
      if (reply === undefined) break
      this.replies.push(reply)
    }
    this.#check()
  }

  /** The reply at the start of the buffer, taken off it; undefined while it is incomplete. */
  #take(): Reply | undefined {
    const buffer = this.#buffer
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd === -1) return undefined
    const [statusLine = '', ...lines] = buffer.toString('latin1', 0, headEnd).split('\r\n')
    const fields = lines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon), line.slice(colon + 1).trim()] as const
    })
    const status = Number(statusLine.split(' ')[1])
    const reply = (body: Buffer, end: number): Reply => {
      this.#buffer = buffer.subarray(end)
      return { statusLine, status, fields, body: body.toString('utf8') }
    }
    const bodyStart = headEnd + 4
    const find = (name: string): string | undefined => fields.find(([field]) => field.toLowerCase() === name)?.[1]
    const length = find('content-length')
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) return reply(Buffer.alloc(0), bodyStart)
    if (length !== undefined) {
      const end = bodyStart + Number(length)
      return buffer.length < end ? undefined : reply(buffer.subarray(bodyStart, end), end)
    }
    if (find('transfer-encoding') === 'chunked') {
      const chunked = readChunked(buffer, bodyStart)
      return chunked === undefined ? undefined : reply(chunked.body, chunked.end)
    }
    // No length: the body runs to the end of the connection.
    return this.#peerEnded ? reply(buffer.subarray(bodyStart), buffer.length) : undefined
  }
}

/** The body of a chunked message starting at `at`, and where the message ends; undefined while incomplete. */
function readChunked(buffer: Buffer, at: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = []
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at)
    if (lineEnd === -1) return undefined
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16)
    if (!Number.isInteger(size)) throw new Error(`malformed chunk size at byte ${at}`)
    const dataStart = lineEnd + 2
    // node:http sends no trailers: the last chunk is followed by one CRLF.
    if (size === 0) return buffer.length < dataStart + 2 ? undefined : { body: Buffer.concat(parts), end: dataStart + 2 }
    if (buffer.length < dataStart + size + 2) return undefined
    parts.push(buffer.subarray(dataStart, dataStart + size))
    at = dataStart + size + 2
  }
}

// --- small helpers -----------------------------------------------------------------------------------

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)

/** A handler whose answers the test releases: each call waits on its own deferred. */
function heldHandler(): { handler: RpcHandler; calls: { body: string; release: (answer: string | undefined) => void }[] } {
  const calls: { body: string; release: (answer: string | undefined) => void }[] = []
  const handler: RpcHandler = (body) => {
    const answer = deferred<string | undefined>()
    calls.push({ body, release: answer.resolve })
    return answer.promise
  }
  return { handler, calls }
}

// --- tests -------------------------------------------------------------------------------------------

describe('answers', { timeout: 5_000 }, () => {
  test("behavior: a fast-lane 200 has node:http's status line and headers, in the same order", async () => {
    const server = await start()
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
    client.write(fastRequest(body))
    await client.next(1)
    client.write(chunkedRequest(body))
    const [fast, slow] = await client.next(2)
    // The first was the lane's, the second node:http's.
    expect(viaNode).toEqual([`POST /v3/${KEY}`])
    expect(withoutDate(fast!)).toEqual(withoutDate(slow!))
    expect(withoutDate(fast!)).toMatchInlineSnapshot(`
      {
        "body": "{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}",
        "fields": [
          [
            "Content-Type",
            "application/json",
          ],
          [
            "Content-Length",
            "59",
          ],
          [
            "Access-Control-Allow-Origin",
            "*",
          ],
          [
            "Date",
            "<date>",
          ],
          [
            "Connection",
            "keep-alive",
          ],
          [
            "Keep-Alive",
            "timeout=5",
          ],
        ],
        "status": 200,
        "statusLine": "HTTP/1.1 200 OK",
      }
    `)
  })

  test("behavior: a fast-lane 204 for a notification-only body has node:http's status line and headers", async () => {
    const server = await start(async () => undefined)
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    const body = '{"jsonrpc":"2.0","method":"eth_chainId"}'
    client.write(fastRequest(body))
    await client.next(1)
    client.write(chunkedRequest(body))
    const [fast, slow] = await client.next(2)
    expect(viaNode).toEqual([`POST /v3/${KEY}`])
    expect(fast!.statusLine).toBe('HTTP/1.1 204 No Content')
    expect(fast!.body).toBe('')
    expect(header(fast!, 'Content-Length')).toBeUndefined()
    expect(withoutDate(fast!)).toEqual(withoutDate(slow!))
  })

  test("args: keepAliveTimeoutMs: the fast lane's Connection and Keep-Alive headers are node:http's", async () => {
    for (const keepAliveTimeoutMs of [0, 300, 1_500, 7_000]) {
      const server = await start(echo, { keepAliveTimeoutMs })
      const client = await RawClient.open(server.port)
      client.write(fastRequest('{}'))
      await client.next(1)
      client.write(chunkedRequest('{}'))
      const [fast, slow] = await client.next(2)
      expect(withoutDate(fast!).fields, `keepAliveTimeoutMs ${keepAliveTimeoutMs}`).toEqual(withoutDate(slow!).fields)
    }
  })

  test('behavior: a multi-byte UTF-8 body is decoded on the fast lane, its Content-Length counted in bytes', async () => {
    const bodies: string[] = []
    const server = await start(async (body) => {
      bodies.push(body)
      return body
    })
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    const text = '{"note":"é€😀 ✓ ñ"}'
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length)
    // A second request right behind it: a length counted in characters would cut into it.
    client.write(fastRequest(text) + fastRequest('{"after":1}'))
    const replies = await client.next(2)
    expect(bodies).toEqual([text, '{"after":1}'])
    expect(replies.map((reply) => reply.body)).toEqual([text, '{"after":1}'])
    expect(header(replies[0]!, 'Content-Length')).toBe(String(Buffer.byteLength(text)))
    expect(viaNode).toEqual([])
  })
})

describe('pipelining and handoff', { timeout: 5_000 }, () => {
  test('behavior: pipelined requests are answered in request order, whatever order the handler resolves them in', async () => {
    const { handler, calls } = heldHandler()
    const server = await start(handler)
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    client.write(['a', 'b', 'c', 'd'].map((id) => fastRequest(`{"id":"${id}"}`)).join(''))
    await expect.poll(() => calls.length).toBe(4)
    expect(calls.map((call) => call.body)).toEqual(['{"id":"a"}', '{"id":"b"}', '{"id":"c"}', '{"id":"d"}'])
    for (const call of calls.slice(1).reverse()) {
      call.release(`answer to ${call.body}`)
      await sleep(10)
    }
    await sleep(50)
    // Nothing may go out while the first answer is owed.
    expect(client.replies).toEqual([])
    expect(client.unparsed).toBe(0)
    calls[0]!.release(`answer to ${calls[0]!.body}`)
    const replies = await client.next(4)
    expect(replies.map((reply) => [reply.status, reply.body])).toEqual([
      [200, 'answer to {"id":"a"}'],
      [200, 'answer to {"id":"b"}'],
      [200, 'answer to {"id":"c"}'],
      [200, 'answer to {"id":"d"}'],
    ])
    expect(viaNode).toEqual([])
  })

  test('behavior: a request whose body comes in a later write is answered (by node:http), and so is the next one', async () => {
    const bodies: string[] = []
    const server = await start(async (body) => {
      bodies.push(body)
      return `answer to ${body}`
    })
    const viaNode = nodeHttpRequests(server)
    const first = '{"id":1,"split":"yes"}'
    const whole = fastRequest(first)
    const headEnd = whole.indexOf('\r\n\r\n') + 4
    // Cut right after the head, then inside the head.
    for (const cut of [headEnd, 20]) {
      bodies.length = 0
      viaNode.length = 0
      const client = await RawClient.open(server.port)
      client.write(whole.slice(0, cut))
      await sleep(50)
      client.write(whole.slice(cut))
      const [answer] = await client.next(1)
      expect(answer, `cut at ${cut}`).toMatchObject({ status: 200, body: `answer to ${first}` })
      client.write(fastRequest('{"id":2}'))
      const [, next] = await client.next(2)
      expect(next, `cut at ${cut}`).toMatchObject({ status: 200, body: 'answer to {"id":2}' })
      expect(bodies, `cut at ${cut}`).toEqual([first, '{"id":2}'])
      // Handed off at the partial request, the connection stays with node:http.
      expect(viaNode, `cut at ${cut}`).toEqual([`POST /v3/${KEY}`, `POST /v3/${KEY}`])
    }
  })

  test('behavior: fast requests, then one node:http must serve, then more, on one connection: all answered in order', async () => {
    const server = await start(async (body) => `answer to ${body}`, { apiKeys: [KEY] })
    const viaNode = nodeHttpRequests(server)
    const handedOff = [
      { name: 'preflight', request: PREFLIGHT, status: 204, seen: `OPTIONS /v3/${KEY}` },
      { name: 'bad key', request: fastRequest('{"id":"x"}', { key: 'wrong' }), status: 401, seen: 'POST /v3/wrong' },
      { name: 'chunked', request: chunkedRequest('{"id":"x"}'), status: 200, seen: `POST /v3/${KEY}` },
    ]
    for (const { name, request, status, seen } of handedOff) {
      viaNode.length = 0
      const client = await RawClient.open(server.port)
      client.write(fastRequest('{"id":1}') + fastRequest('{"id":2}') + request + fastRequest('{"id":3}'))
      const replies = await client.next(4)
      expect(
        replies.map((reply) => reply.status),
        name,
      ).toEqual([200, 200, status, 200])
      expect(replies[0]!.body).toBe('answer to {"id":1}')
      expect(replies[1]!.body).toBe('answer to {"id":2}')
      expect(replies[3]!.body).toBe('answer to {"id":3}')
      // The two first were the lane's; from the handoff on, node:http serves the connection.
      expect(viaNode, name).toEqual([seen, `POST /v3/${KEY}`])
    }
  })

  test('behavior: a handed-off request is not answered before an earlier fast answer still owed', async () => {
    const held = deferred<string>()
    const entered = deferred()
    const server = await start(async (body) => {
      if (body !== 'held') return `answer to ${body}`
      entered.resolve()
      return held.promise
    })
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    client.write(fastRequest('held') + PREFLIGHT)
    await entered.promise
    await sleep(100)
    // The preflight waits behind the held answer, and so does a request sent meanwhile.
    client.write(fastRequest('meanwhile'))
    await sleep(100)
    expect(client.replies).toEqual([])
    expect(client.unparsed).toBe(0)
    held.resolve('held answer')
    const replies = await client.next(3)
    expect(replies.map((reply) => [reply.status, reply.body])).toEqual([
      [200, 'held answer'],
      [204, ''],
      [200, 'answer to meanwhile'],
    ])
    expect(viaNode).toEqual([`OPTIONS /v3/${KEY}`, `POST /v3/${KEY}`])
  })

  test('behavior: HTTP/1.0 and Expect: 100-continue requests go to node:http', async () => {
    const server = await start()
    const viaNode = nodeHttpRequests(server)
    const old = await RawClient.open(server.port)
    old.write(fastRequest('{"v":"1.0"}').replace('HTTP/1.1', 'HTTP/1.0'))
    const [answer] = await old.next(1)
    expect(answer).toMatchObject({ status: 200, body: '{"v":"1.0"}' })
    expect(header(answer!, 'Connection')).toBe('close')
    const expecting = await RawClient.open(server.port)
    expecting.write(fastRequest('{"v":"continue"}', { headers: 'Expect: 100-continue\r\n' }))
    const [go, done] = await expecting.next(2)
    expect(go!.statusLine).toBe('HTTP/1.1 100 Continue')
    expect(done).toMatchObject({ status: 200, body: '{"v":"continue"}' })
    expect(viaNode).toEqual([`POST /v3/${KEY}`, `POST /v3/${KEY}`])
  })
})

describe('connection', { timeout: 5_000 }, () => {
  test('behavior: Connection: close on a fast request: the answer says close, the server closes, nothing after it is read', async () => {
    const bodies: string[] = []
    const server = await start(async (body) => {
      bodies.push(body)
      return body
    })
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    client.write(fastRequest('{"id":1}', { headers: 'Connection: close\r\n' }) + fastRequest('{"id":2}'))
    const [answer] = await client.next(1)
    expect(answer).toMatchObject({ status: 200, body: '{"id":1}' })
    expect(header(answer!, 'Connection')).toBe('close')
    expect(header(answer!, 'Keep-Alive')).toBeUndefined()
    await within(client.closed, 2_000, 'server closes')
    expect(client.replies).toHaveLength(1)
    expect(bodies).toEqual(['{"id":1}'])
    expect(viaNode).toEqual([])
  })

  test('behavior: a head that differs from the ones before it on a connection is read anew (Connection: close after plain requests)', async () => {
    const bodies: string[] = []
    const server = await start(async (body) => {
      bodies.push(body)
      return body
    })
    const client = await RawClient.open(server.port)
    // The same head three times but for its Content-Length, then with Connection: close.
    client.write(fastRequest('{"id":1}') + fastRequest('{"id":22}') + fastRequest('{"id":333}') + fastRequest('{"id":4}', { headers: 'Connection: close\r\n' }) + fastRequest('{"id":5}'))
    const answers = await client.next(4)
    expect(answers.map((answer) => answer.body)).toEqual(['{"id":1}', '{"id":22}', '{"id":333}', '{"id":4}'])
    expect(answers.map((answer) => header(answer, 'Connection'))).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'close'])
    await within(client.closed, 2_000, 'server closes')
    expect(bodies).toEqual(['{"id":1}', '{"id":22}', '{"id":333}', '{"id":4}'])
  })

  test('behavior: a client that half-closes right after its request still gets the answer, then the socket closes', async () => {
    const held = deferred<string>()
    const server = await start(async (body) => (body === 'held' ? held.promise : body))
    const viaNode = nodeHttpRequests(server)
    // Answer ready when the client's FIN arrives, and answer still owed when it does.
    const quick = await RawClient.open(server.port, { allowHalfOpen: true })
    quick.write(fastRequest('{"id":1}'))
    quick.socket.end()
    const slow = await RawClient.open(server.port, { allowHalfOpen: true })
    slow.write(fastRequest('held'))
    slow.socket.end()
    await sleep(50)
    held.resolve('held answer')
    expect(await quick.next(1)).toMatchObject([{ status: 200, body: '{"id":1}' }])
    expect(await slow.next(1)).toMatchObject([{ status: 200, body: 'held answer' }])
    await within(quick.closed, 2_000, 'quick closes')
    await within(slow.closed, 2_000, 'slow closes')
    expect(viaNode).toEqual([])
  })

  test('args: keepAliveTimeoutMs closes a fast-lane connection left idle after its answer', async () => {
    const server = await start(echo, { keepAliveTimeoutMs: 300 })
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    client.write(fastRequest('{}'))
    await client.next(1)
    const answeredAt = Date.now()
    const idle = (await within(client.closed, 2_000, 'idle connection closes')) - answeredAt
    expect(idle).toBeGreaterThanOrEqual(250)
    expect(idle).toBeLessThan(2_000)
    expect(client.replies).toHaveLength(1)
    expect(viaNode).toEqual([])
  })

  test('args: headersTimeoutMs answers 408 to a connection that never sends a request', async () => {
    const server = await start(echo, { headersTimeoutMs: 300 })
    const client = await RawClient.open(server.port)
    const connectedAt = Date.now()
    const silent = (await within(client.closed, 2_000, 'silent connection closes')) - connectedAt
    expect(silent).toBeGreaterThanOrEqual(250)
    expect(client.replies.map((reply) => reply.statusLine)).toEqual(['HTTP/1.1 408 Request Timeout'])
    expect(header(client.replies[0]!, 'Connection')).toBe('close')
  })

  test('error: a request without Host gets 400, as node:http answers it', async () => {
    const server = await start()
    const noHost = (request: string): string => request.replace('Host: x\r\n', '')
    const viaNode = await RawClient.open(server.port)
    viaNode.write(noHost(chunkedRequest('{}')))
    expect((await viaNode.next(1))[0]!.status).toBe(400)
    const fast = await RawClient.open(server.port)
    fast.write(noHost(fastRequest('{}')))
    expect((await fast.next(1))[0]!.status).toBe(400)
  })
})

describe('backpressure', { timeout: 15_000 }, () => {
  /** Answers that identify their request (they echo its body) and are large enough to fill the socket buffers. */
  function paddedEcho(): { handler: RpcHandler; calls: () => number } {
    const pad = 'x'.repeat(64 * 1024)
    let calls = 0
    const handler: RpcHandler = async (body) => {
      calls++
      return `[${body},"${pad}"]`
    }
    return { handler, calls: () => calls }
  }

  const idOf = (reply: Reply): unknown => (JSON.parse(reply.body) as [{ id: number }, string])[0].id

  test('behavior: a client that pipelines 500 requests and reads late gets every answer, in order', async () => {
    const { handler, calls } = paddedEcho()
    const server = await start(handler)
    const client = await RawClient.open(server.port)
    client.socket.pause()
    for (let batch = 0; batch < 5; batch++) {
      client.write(range(100).map((i) => fastRequest(`{"id":${batch * 100 + i}}`)).join(''))
      await sleep(20)
    }
    await sleep(300)
    // 500 answers of 64 KiB are 32 MiB, more than the socket buffers hold: the server stopped
    // reading requests once its answers backed up.
    expect(calls()).toBeLessThan(500)
    client.socket.resume()
    const replies = await client.next(500, 10_000)
    expect(replies.every((reply) => reply.status === 200)).toBe(true)
    expect(replies.map(idOf)).toEqual(range(500))
    expect(calls()).toBe(500)
  })

  test('behavior: a client slow to read loses no answers to the keep-alive timeout', async () => {
    const { handler } = paddedEcho()
    const server = await start(handler, { keepAliveTimeoutMs: 300 })
    for (const [lane, request] of [
      ['node:http', chunkedRequest],
      ['fast lane', fastRequest],
    ] as const) {
      const client = await RawClient.open(server.port)
      client.socket.pause()
      client.write(range(200).map((i) => request(`{"id":${i}}`)).join(''))
      // Longer than the keep-alive timeout: 12.5 MiB of answers wait in the socket buffers.
      await sleep(1_000)
      client.socket.resume()
      await within(client.closed, 5_000, `${lane}: connection closes`)
      expect(client.replies.length, lane).toBe(200)
      expect(client.replies.map(idOf), lane).toEqual(range(200))
    }
  })
})

describe('limits and refusals', { timeout: 5_000 }, () => {
  test('error: a duplicate or signed Content-Length is not served by the fast lane: node:http answers 400 and closes', async () => {
    const bodies: string[] = []
    const server = await start(async (body) => {
      bodies.push(body)
      return body
    })
    const viaNode = nodeHttpRequests(server)
    const base = `POST /v3/${KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`
    for (const lengths of ['Content-Length: 2\r\nContent-Length: 2\r\n', 'Content-Length: 2, 2\r\n', 'Content-Length: +2\r\n', 'Content-Length: -2\r\n']) {
      bodies.length = 0
      const client = await RawClient.open(server.port)
      client.write(fastRequest('{"ok":1}') + `${base}${lengths}\r\n{}`)
      await within(client.closed, 2_000, `${lengths}: closes`)
      expect(
        client.replies.map((reply) => reply.statusLine),
        lengths,
      ).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request'])
      expect(header(client.replies[1]!, 'Connection')).toBe('close')
      expect(bodies, lengths).toEqual(['{"ok":1}'])
    }
    // node:http refuses them while parsing, before any request reaches it.
    expect(viaNode).toEqual([])
  })

  test('error: a body declared over maxBodyBytes gets 413 from node:http, after the fast answer before it', async () => {
    const bodies: string[] = []
    const server = await start(
      async (body) => {
        bodies.push(body)
        return body
      },
      { maxBodyBytes: 100 },
    )
    const viaNode = nodeHttpRequests(server)
    const client = await RawClient.open(server.port)
    client.write(fastRequest('x'.repeat(100)) + fastRequest('y'.repeat(101)))
    const [fits, over] = await client.next(2)
    expect(fits).toMatchObject({ status: 200, body: 'x'.repeat(100) })
    expect(over).toMatchObject({ status: 413, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit 100 bytes"}}' })
    expect(header(over!, 'Connection')).toBe('close')
    expect(bodies).toEqual(['x'.repeat(100)])
    expect(viaNode).toEqual([`POST /v3/${KEY}`])
  })

  test('behavior: POST / is served on the fast lane as the root key; without a root key node:http answers 404', async () => {
    const whose: RpcHandler = async (_body, session) => JSON.stringify(session.apiKey)
    const rooted = await start(whose, { rootKey: 'root-key' })
    const viaNode = nodeHttpRequests(rooted)
    const client = await RawClient.open(rooted.port)
    const root = (body: string, target = '/') => `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    client.write(root('{}'))
    client.write(root('{}', '/?a=b'))
    client.write(fastRequest('{}'))
    const replies = await client.next(3)
    expect(replies.map((reply) => [reply.status, reply.body])).toEqual([
      [200, '"root-key"'],
      [200, '"root-key"'],
      [200, `"${KEY}"`],
    ])
    expect(viaNode).toEqual([])

    const bare = await start(whose)
    const bareViaNode = nodeHttpRequests(bare)
    const other = await RawClient.open(bare.port)
    other.write(root('{}'))
    const [notFound] = await other.next(1)
    expect(notFound!.status).toBe(404)
    expect(bareViaNode).toEqual(['POST /'])
  })

  test('error: a key not in apiKeys gets 401; a valid key then an invalid one on a connection gives 200 then 401', async () => {
    const server = await start(echo, { apiKeys: [KEY] })
    const viaNode = nodeHttpRequests(server)
    const wrong = await RawClient.open(server.port)
    wrong.write(fastRequest('{}', { key: 'wrong' }))
    const [refused] = await wrong.next(1)
    expect(refused).toMatchObject({ status: 401, body: INVALID_KEY })
    expect(header(refused!, 'Content-Type')).toBe('application/json')

    const mixed = await RawClient.open(server.port)
    mixed.write(fastRequest('{"id":1}'))
    await mixed.next(1)
    mixed.write(fastRequest('{"id":2}', { key: 'wrong' }))
    await mixed.next(2)
    mixed.write(fastRequest('{"id":3}'))
    const replies = await mixed.next(3)
    expect(replies.map((reply) => [reply.status, reply.body])).toEqual([
      [200, '{"id":1}'],
      [401, INVALID_KEY],
      [200, '{"id":3}'],
    ])
    expect(viaNode).toEqual(['POST /v3/wrong', 'POST /v3/wrong', `POST /v3/${KEY}`])
  })
})

describe('shutdown', { timeout: 10_000 }, () => {
  test('behavior: close delivers an in-flight fast answer with Connection: close and closes idle fast-lane connections at once', async () => {
    const held = deferred<string>()
    const entered = deferred()
    const server = await start(
      async (body) => {
        if (body !== 'held') return body
        entered.resolve()
        return held.promise
      },
      { shutdownGraceMs: 5_000 },
    )
    const viaNode = nodeHttpRequests(server)
    const idle = await RawClient.open(server.port)
    idle.write(fastRequest('{"id":1}'))
    await idle.next(1)
    const silent = await RawClient.open(server.port)
    const busy = await RawClient.open(server.port)
    busy.write(fastRequest('held'))
    await entered.promise

    const startedAt = Date.now()
    let closed = false
    const closing = server.close().then(() => (closed = true))
    await within(idle.closed, 1_000, 'idle connection closes')
    await within(silent.closed, 1_000, 'silent connection closes')
    await sleep(50)
    expect(closed).toBe(false)
    held.resolve('held answer')
    const [answer] = await busy.next(1)
    expect(answer).toMatchObject({ status: 200, body: 'held answer' })
    expect(header(answer!, 'Connection')).toBe('close')
    await within(closing, 2_000, 'close() resolves')
    await within(busy.closed, 1_000, 'busy connection closes')
    // Well within the 5 s grace period.
    expect(Date.now() - startedAt).toBeLessThan(3_000)
    expect(idle.replies).toHaveLength(1)
    expect(silent.replies).toEqual([])
    expect(viaNode).toEqual([])
  })

  test('behavior: close does not wait out the grace period for a client that keeps its side open after the answer', async () => {
    for (const [lane, request] of [
      ['node:http', chunkedRequest],
      ['fast lane', fastRequest],
    ] as const) {
      const held = deferred<string>()
      const entered = deferred()
      const server = await start(
        async () => {
          entered.resolve()
          return held.promise
        },
        { shutdownGraceMs: 3_000 },
      )
      // A client that never ends its side by itself (allowHalfOpen), as some HTTP clients do.
      const client = await RawClient.open(server.port, { allowHalfOpen: true })
      client.write(request('{}'))
      await entered.promise
      const startedAt = Date.now()
      const closing = server.close()
      held.resolve('answer')
      const [answer] = await client.next(1)
      expect(header(answer!, 'Connection'), lane).toBe('close')
      await within(closing, 1_500, `${lane}: close() resolves`)
      expect(Date.now() - startedAt, lane).toBeLessThan(1_500)
    }
  })
})

describe('failures', { timeout: 5_000 }, () => {
  test('error: a failure inside the lane is logged and cuts only its own connection; the others are served on', async () => {
    const errors: string[] = []
    const logger: Logger = { warn: () => {}, error: (message) => errors.push(message) }
    // startServer's answer never rejects: the lane is installed by hand to stand in for a bug.
    const server = createServer()
    const lane = installFastLane(server, {
      keys: new ApiKeys(undefined),
      connections: new ConnectionLimit(10, logger),
      maxBodyBytes: 1_000,
      acceptsContentType: () => true,
      answer: (body) => (body === 'boom' ? Promise.reject(new Error('lane bug')) : Promise.resolve(body)),
      session: (key, socket) => new HttpSession(key, socket),
      logger,
    })
    expect(lane).toBeDefined()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => {
      lane?.terminate()
      server.close()
    })
    const port = (server.address() as AddressInfo).port
    const failing = await RawClient.open(port)
    const healthy = await RawClient.open(port)
    failing.write(fastRequest('boom'))
    await within(failing.closed, 2_000, 'the failing connection is cut')
    expect(failing.replies).toEqual([])
    expect(errors).toEqual([expect.stringMatching(/^http fast lane failed: Error: lane bug/)])
    healthy.write(fastRequest('{}'))
    const [answer] = await healthy.next(1)
    expect(answer).toMatchObject({ status: 200, body: '{}' })
  })
})
