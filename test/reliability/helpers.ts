/**
 * Helpers of the reliability tests: a logger that keeps every line, a keep-alive HTTP client that
 * sends raw bytes, WebSocket clients, the shape every JSON-RPC response must have, a fingerprint
 * of everything a request could change in the chain, and the built `ringchain serve` as a child
 * process (`npm test` builds it first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import type { IncomingHttpHeaders } from 'node:http'
import { bytesToHex } from '@ethereumjs/util'
import { onTestFinished } from 'vitest'
import { WebSocket } from 'ws'
import type { RingchainLogger, RunningRingchain } from '../../src/index.js'

// --- logging ------------------------------------------------------------------------------------

export interface CapturedLog {
  readonly logger: Required<RingchainLogger>
  readonly lines: string[]
  /**
   * Error lines of unhandled failures: every error line but the chain's report of a pending
   * transaction it dropped while mining (a sender that became a contract, say), which is a
   * decision about a transaction, not a failure of the server.
   */
  errors(): string[]
  /** Warnings that are not one of the transport's expected refusals. */
  unexpectedWarnings(): string[]
}

/** Warnings the transport gives when it refuses hostile input: expected under a fuzz. */
const REFUSAL_WARNINGS = [
  /^request nested deeper than \d+ levels refused$/,
  /^request body over the \d+-byte limit refused \(413\)$/,
  /^websocket message over the \d+-byte limit: connection closed \(1009\)$/,
  /^websocket protocol error \(WS_ERR_[A-Z_0-9]+\): connection closed$/,
]

/** A logger keeping every line it is given, `debug` and `info` included. */
export function captureLogger(): CapturedLog {
  const lines: string[] = []
  const keep = (level: string) => (message: string) => {
    lines.push(`${level}: ${message}`)
  }
  return {
    logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') },
    lines,
    errors: () => lines.filter((l) => l.startsWith('error: ') && !/^error: dropped transaction 0x[0-9a-f]{64}: /.test(l)),
    unexpectedWarnings: () =>
      lines.filter((l) => l.startsWith('warn: ') && !REFUSAL_WARNINGS.some((re) => re.test(l.slice('warn: '.length)))),
  }
}

// --- HTTP ---------------------------------------------------------------------------------------

export interface RawAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
}

/**
 * POSTs raw bytes (node:http, so nothing re-encodes them); `agent` false opens a new connection.
 * With an `expect: 100-continue` header the body is sent only once the server says to go on, as
 * curl does for large bodies: a refusal (413) then arrives before a byte of it is written.
 */
export function postRaw(url: string, body: string | Buffer, agent: Agent | false = false, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const expectsContinue = Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'expect' && v === '100-continue')
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer within 10 s to ${String(body).slice(0, 200)}`)))
    req.on('error', reject)
    if (expectsContinue) {
      req.once('continue', () => req.end(body))
      req.flushHeaders()
    } else req.end(body)
  })
}

/** A keep-alive agent with one socket: requests go one after another on the same connection. */
export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 })
}

// --- WebSocket ----------------------------------------------------------------------------------

/** A WebSocket client that hands out messages in arrival order and remembers how it closed. */
export class WsClient {
  readonly socket: WebSocket
  readonly #queue: string[] = []
  #waiter: ((message: string | undefined) => void) | undefined
  closed: { code: number; reason: string } | undefined

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data)
      if (this.#waiter !== undefined) {
        const waiter = this.#waiter
        this.#waiter = undefined
        waiter(text)
      } else this.#queue.push(text)
    })
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) }
      this.#waiter?.(undefined)
      this.#waiter = undefined
    })
    socket.on('error', () => {})
  }

  static open(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url)
      socket.once('open', () => resolve(new WsClient(socket)))
      socket.once('error', reject)
    })
  }

  /** The next message, or undefined once the connection is closed; fails after `ms`. */
  next(ms = 10_000): Promise<string | undefined> {
    const queued = this.#queue.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    if (this.closed !== undefined) return Promise.resolve(undefined)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined
        reject(new Error(`no WebSocket message within ${ms} ms`))
      }, ms)
      this.#waiter = (message) => {
        clearTimeout(timer)
        resolve(message)
      }
    })
  }

  /** Waits until the server closes the connection (or `ms` passes); gives the close code. */
  async closedWith(ms = 5_000): Promise<number | undefined> {
    const deadline = Date.now() + ms
    while (this.closed === undefined && Date.now() < deadline) {
      await this.next(deadline - Date.now()).catch(() => undefined)
    }
    return this.closed?.code
  }

  close(): void {
    this.socket.terminate()
  }
}

/** A JSON-RPC client over one WebSocket: calls matched to answers by id, notifications kept apart. */
export class RpcWs {
  readonly socket: WebSocket
  readonly #pending = new Map<number, (answer: { result?: unknown; error?: { code: number; message: string } }) => void>()
  readonly #onNotification: ((params: { subscription: string; result: unknown }) => void) | undefined
  #nextId = 1

  private constructor(socket: WebSocket, onNotification?: (params: { subscription: string; result: unknown }) => void) {
    this.socket = socket
    this.#onNotification = onNotification
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number
        method?: string
        params?: { subscription: string; result: unknown }
        result?: unknown
        error?: { code: number; message: string }
      }
      if (message.method === 'eth_subscription') this.#onNotification?.(message.params!)
      else {
        const resolve = this.#pending.get(message.id!)
        this.#pending.delete(message.id!)
        resolve?.(message)
      }
    })
    socket.on('close', () => {
      for (const resolve of this.#pending.values()) resolve({ error: { code: 0, message: 'connection closed' } })
      this.#pending.clear()
    })
    socket.on('error', () => {})
  }

  static open(url: string, onNotification?: (params: { subscription: string; result: unknown }) => void): Promise<RpcWs> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url)
      socket.once('open', () => resolve(new RpcWs(socket, onNotification)))
      socket.once('error', reject)
    })
  }

  /** The envelope's `result` and `error`. */
  call(method: string, params: readonly unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const id = this.#nextId++
    return new Promise((resolve) => {
      this.#pending.set(id, resolve)
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
  }

  close(): void {
    this.socket.terminate()
  }
}

// --- the shape of an answer ---------------------------------------------------------------------

/** Codes that only an envelope problem or a bug may give: never the answer to a well-formed call of a known method. */
export const ENVELOPE_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32603])

/**
 * Checks one JSON-RPC response object: `jsonrpc` 2.0, an `id`, exactly one of `result` and
 * `error`, an integer code and a one-line message without a stack trace, nothing else.
 * Returns what is wrong, or undefined.
 */
export function malformedResponse(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const r = value as Record<string, unknown>
  const keys = Object.keys(r)
  if (r.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"'
  if (!('id' in r)) return 'no id'
  if (!(r.id === null || typeof r.id === 'string' || typeof r.id === 'number')) return 'id of a wrong type'
  if (('result' in r) === ('error' in r)) return 'not exactly one of result and error'
  if (keys.some((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k))) return `extra keys ${keys.join(',')}`
  if ('error' in r) {
    const e = r.error as Record<string, unknown> | null
    if (typeof e !== 'object' || e === null) return 'error is not an object'
    if (!Number.isInteger(e.code)) return 'error.code is not an integer'
    if (typeof e.message !== 'string' || e.message === '') return 'error.message is not a non-empty string'
    if (/\n\s+at /.test(e.message) || /\n\s+at /.test(JSON.stringify(e.data ?? null))) return 'a stack trace on the wire'
    if (Object.keys(e).some((k) => !['code', 'message', 'data'].includes(k))) return 'extra keys in error'
  }
  return undefined
}

// --- what a request may change ------------------------------------------------------------------

const replacer = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? `${value}n` : value instanceof Uint8Array ? bytesToHex(value) : value

/**
 * Everything observable a request could change, as one string: the head, the pool, the mining
 * mode, the block gas limit, the next base fee, the time offset, and the accounts and first
 * storage slots of `addresses`.
 */
export async function fingerprint(rc: RunningRingchain, addresses: readonly string[]): Promise<string> {
  const chain = rc.chain
  const state = chain.stateAtBlock(chain.head)
  const accounts = addresses.map((a) => {
    const key = a.slice(2).toLowerCase()
    const slots = [0n, 1n].map((slot) => state.storage(key, slot.toString(16).padStart(64, '0')))
    return [state.account(key), slots]
  })
  const pool = chain.poolContent()
  const pending = [...pool.executable.values(), ...pool.queued.values()].flat().map((e) => bytesToHex(e.hash)).sort()
  // evm_increaseTime(0) answers the offset and changes nothing.
  const offset = await rc.request({ method: 'evm_increaseTime', params: [0] })
  return JSON.stringify(
    { head: chain.head.hash, number: chain.head.number, pending, mining: chain.miningMode, gasLimit: chain.blockGasLimit, baseFee: chain.nextBaseFee(), offset, accounts },
    replacer,
  )
}

// --- the ringchain command ----------------------------------------------------------------------

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname

export interface Served {
  readonly process: ChildProcessWithoutNullStreams
  /** The --json ready line; without --json, the URLs read from the banner and no accounts. */
  readonly ready: { httpUrl: string; wsUrl: string; port: number; accounts: { address: string; privateKey: string }[] }
  readonly stdout: () => string
  readonly stderr: () => string
  /** Exit code and signal, and when the process ended (Date.now()). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>
}

/**
 * Starts `ringchain serve --port 0 --json ...args` (without `--json` when `json` is false: the
 * banner) and waits until it is ready; killed when the test ends if it is still running.
 */
export async function serve(args: readonly string[] = [], { json = true } = {}): Promise<Served> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...(json ? ['--json'] : []), ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => (out += chunk))
  child.stderr.on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  )
  const ready = await new Promise<Served['ready']>((resolve, reject) => {
    const onData = () => {
      if (json) {
        const newline = out.indexOf('\n')
        if (newline === -1) return
        child.stdout.off('data', onData)
        resolve(JSON.parse(out.slice(0, newline)) as Served['ready'])
      } else if (out.includes('Ctrl-C stops it.')) {
        child.stdout.off('data', onData)
        const httpUrl = /HTTP\s+(http:\/\/\S+)/.exec(out)![1]!
        const wsUrl = /WebSocket\s+(ws:\/\/\S+)/.exec(out)![1]!
        resolve({ httpUrl, wsUrl, port: Number(new URL(httpUrl).port), accounts: [] })
      }
    }
    child.stdout.on('data', onData)
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before it was ready: ${err}`)))
  })
  return { process: child, ready, stdout: () => out, stderr: () => err, exited }
}

/** True when a new TCP connection to `port` is refused. */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let result = false
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => socket.destroy())
    socket.once('error', (error: NodeJS.ErrnoException) => (result = error.code === 'ECONNREFUSED'))
    socket.once('close', () => resolve(result))
  })
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
