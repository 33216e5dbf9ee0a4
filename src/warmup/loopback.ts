/**
 * The warm-up's client: JSON-RPC over keep-alive HTTP connections and WebSockets to servers on
 * this machine, whose sockets live on a worker thread of their own (loopback-worker.mjs says why).
 * Requests are built and answers parsed here; the thread only carries their text.
 */
import { Worker } from 'node:worker_threads'

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

/** The worker's file: beside this one in src/ and in dist/, and found from the CLI bundle in dist/cli/ too. */
const WORKER_URL = new URL('../warmup/loopback-worker.mjs', import.meta.url)

/** What the worker answers: a connection opened, an answer's body, or why not. */
interface WorkerAnswer {
  readonly id: number
  readonly conn?: number
  readonly body?: string
  readonly error?: string
}

/** The worker thread and its connections. It never keeps the process alive. */
export class LoopbackThread {
  readonly #worker = new Worker(WORKER_URL)
  readonly #waiting = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>()
  #nextAsk = 1
  /** Set once the thread has ended: every question since is refused with it. */
  #ended: Error | undefined

  constructor() {
    this.#worker.unref()
    this.#worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.#waiting.get(answer.id)
      this.#waiting.delete(answer.id)
      if (answer.error !== undefined) waiting?.reject(new Error(answer.error))
      else waiting?.resolve(answer)
    })
    this.#worker.on('error', (error) => this.#end(error))
    this.#worker.on('exit', () => this.#end(new Error('connection closed')))
  }

  /** A caller of `url` over `kind`, one request at a time, connected once this resolves; its connection ends with the thread. */
  async open(kind: 'http' | 'ws', url: string): Promise<Rpc> {
    const { conn } = await this.#ask({ op: 'open', kind, url })
    return rpcOver(async (body) => (await this.#ask({ op: 'send', conn, body })).body ?? '')
  }

  /** Ends the thread, its connections and every request under way. */
  async close(): Promise<void> {
    this.#end(new Error('connection closed'))
    await this.#worker.terminate()
  }

  #ask(message: Record<string, unknown>): Promise<WorkerAnswer> {
    if (this.#ended !== undefined) return Promise.reject(this.#ended)
    const id = this.#nextAsk++
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      this.#worker.postMessage({ ...message, id })
    })
  }

  #end(error: Error): void {
    this.#ended ??= error
    for (const waiting of this.#waiting.values()) waiting.reject(this.#ended)
    this.#waiting.clear()
  }
}
