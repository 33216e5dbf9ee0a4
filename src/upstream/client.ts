/**
 * The upstream client: a `ForkSource` over a `Transport`. Calls made in the same turn of the event
 * loop go out as one JSON-RPC batch (at most `batchSize` each), an identical call already in
 * flight is shared rather than sent again, at most `concurrency` batches are in flight, and a batch
 * that failed for a passing reason is sent again (`retry.ts`). Every failure is a `ForkSourceError`
 * naming the masked URL and the call.
 */
import { ForkSourceError, type ForkSource } from '../chain/fork/source.js'
import { LIMIT_EXCEEDED, backoffDelay, isRetryableAnswer, type RetryPolicy } from './retry.js'
import { TransportError, type RpcRequest, type RpcResponse, type Transport } from './transport.js'

export interface ClientSettings extends RetryPolicy {
  readonly timeoutMs: number
  readonly batchSize: number
  readonly concurrency: number
}

/** A node that answers a batch with one error for the whole of it: it takes no batches. */
class BatchRefused extends Error {}

/** One call waiting for its answer. */
interface Call {
  readonly method: string
  readonly params: readonly unknown[]
  resolve(result: unknown): void
  reject(error: ForkSourceError): void
}

export class UpstreamClient implements ForkSource {
  readonly label: string
  readonly #transport: Transport
  readonly #settings: ClientSettings
  /** Calls of this turn, sent together once it ends. */
  #queued: Call[] = []
  #flushScheduled = false
  /** Identical calls in flight share one answer: key → its promise. */
  readonly #inFlight = new Map<string, Promise<unknown>>()
  #batchesInFlight = 0
  readonly #waitingForSlot: (() => void)[] = []
  #nextId = 0
  #closed = false
  /** Batches waiting out a backoff: `close` ends their wait, so no timer outlives the client. */
  readonly #backingOff = new Set<() => void>()
  /** `batchSize` until the node refuses a batch, then 1. */
  #batchSize: number

  constructor(label: string, transport: Transport, settings: ClientSettings) {
    this.label = label
    this.#transport = transport
    this.#settings = settings
    this.#batchSize = settings.batchSize
  }

  request(method: string, params: readonly unknown[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new ForkSourceError(this.label, method, 'client closed'))
    const key = method + JSON.stringify(params)
    const shared = this.#inFlight.get(key)
    if (shared !== undefined) return shared
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#queued.push({ method, params, resolve, reject })
      if (!this.#flushScheduled) {
        this.#flushScheduled = true
        setImmediate(() => this.#flush())
      }
    })
    this.#inFlight.set(key, answer)
    const forget = () => this.#inFlight.delete(key)
    answer.then(forget, forget)
    return answer
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    for (const wake of this.#backingOff) wake()
    await this.#transport.close()
  }

  #flush(): void {
    this.#flushScheduled = false
    const calls = this.#queued
    this.#queued = []
    for (let i = 0; i < calls.length; i += this.#batchSize) void this.#send(calls.slice(i, i + this.#batchSize))
  }

  /** Sends one batch in a concurrency slot, trying again what failed for a passing reason. */
  async #send(calls: Call[]): Promise<void> {
    await this.#slot()
    try {
      let pending = calls
      for (let attempt = 1; pending.length > 0; attempt++) {
        const last = attempt > this.#settings.retries
        let retryAfterMs: number | undefined
        try {
          pending = this.#settle(pending, await this.#exchange(pending), last)
        } catch (error) {
          if (error instanceof BatchRefused) {
            // Sent again one by one (each in a slot of its own), and from now on.
            this.#batchSize = 1
            for (const call of pending) void this.#send([call])
            return
          }
          const trouble = error instanceof TransportError ? error : new TransportError('unreachable', `unreachable (${String(error)})`)
          if (last || !trouble.retryable || this.#closed) {
            const reason = attempt > 1 && trouble.trouble !== 'closed' ? `${trouble.reason} after ${attempt} attempts` : trouble.reason
            for (const call of pending) call.reject(new ForkSourceError(this.label, call.method, reason))
            return
          }
          retryAfterMs = trouble.extra.retryAfterMs
        }
        if (pending.length > 0) await this.#backOff(backoffDelay(this.#settings, attempt, retryAfterMs))
      }
    } finally {
      this.#release()
    }
  }

  #exchange(calls: readonly Call[]): Promise<readonly RpcResponse[]> {
    const requests: RpcRequest[] = calls.map((c) => ({ jsonrpc: '2.0', id: ++this.#nextId, method: c.method, params: c.params }))
    const firstId = requests[0]!.id
    return this.#transport.exchange(requests, this.#settings.timeoutMs).then((answers) => {
      const only = answers.length === 1 ? answers[0]! : undefined
      if (calls.length > 1 && only?.error !== undefined && typeof only.id !== 'number' && only.error.code !== LIMIT_EXCEEDED) throw new BatchRefused()
      // Answers come back by id; hand them over in the calls' order.
      const ordered: (RpcResponse | undefined)[] = new Array(calls.length)
      for (const answer of answers) {
        if (typeof answer.id === 'number' && answer.id >= firstId && answer.id < firstId + calls.length) ordered[answer.id - firstId] = answer
        else if (answer.id === null && answer.error !== undefined && answers.length === 1) ordered.fill(answer)
      }
      return ordered.map((a) => a ?? { error: { code: -32603, message: 'no answer for this call in the batch' } })
    })
  }

  /** Resolves or rejects each call by its answer; returns those worth another try (throttled ones). */
  #settle(calls: readonly Call[], answers: readonly RpcResponse[], last: boolean): Call[] {
    const again: Call[] = []
    calls.forEach((call, i) => {
      const answer = answers[i]!
      if (answer.error === undefined) return call.resolve(answer.result ?? null)
      if (!last && isRetryableAnswer(answer)) return again.push(call)
      const { code, message } = answer.error
      call.reject(new ForkSourceError(this.label, call.method, `the upstream answered error ${code}: ${message}`, code))
    })
    return again
  }

  #backOff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.#backingOff.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.#backingOff.add(wake)
    })
  }

  async #slot(): Promise<void> {
    if (this.#batchesInFlight < this.#settings.concurrency) {
      this.#batchesInFlight++
      return
    }
    await new Promise<void>((resolve) => this.#waitingForSlot.push(resolve))
  }

  #release(): void {
    const next = this.#waitingForSlot.shift()
    if (next !== undefined) next() // the slot passes on
    else this.#batchesInFlight--
  }
}
