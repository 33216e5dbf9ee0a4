/**
 * The page's only link to the chain: JSON-RPC over HTTP POST to `/v3/<KEY>` (single calls and
 * batches), the same endpoint any client uses. Owns request ids and turning error answers into
 * `RpcError`; what to ask is each view's business.
 */

/** A JSON-RPC error answer (or a failed request: code 0). */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

interface Answer {
  readonly id: number
  readonly result?: unknown
  readonly error?: { code: number; message: string; data?: unknown }
}

/** One call of a batch. */
export type Call = readonly [method: string, params: readonly unknown[]]

/** JSON-RPC over HTTP to one endpoint. */
export class Rpc {
  readonly #url: string
  #id = 1

  constructor(url: string) {
    this.#url = url
  }

  /** The result of one call; rejects with `RpcError`. */
  async call<T>(method: string, params: readonly unknown[] = []): Promise<T> {
    const [answer] = await this.#post([{ jsonrpc: '2.0', id: this.#id++, method, params }])
    return resultOf(answer) as T
  }

  /** The results of calls sent as one batch, in order; a failed call is its `RpcError`. */
  async batch(calls: readonly Call[]): Promise<unknown[]> {
    if (calls.length === 0) return []
    const first = this.#id
    this.#id += calls.length
    const answers = await this.#post(calls.map(([method, params], i) => ({ jsonrpc: '2.0', id: first + i, method, params })))
    const byId = new Map(answers.map((a) => [a.id, a]))
    return calls.map((_, i) => {
      try {
        return resultOf(byId.get(first + i))
      } catch (e) {
        return e
      }
    })
  }

  /**
   * `call`, but the calls made in the same turn of the event loop go out as one batch: code
   * written one call at a time (src/inspect/'s StorageClient) costs one request per turn.
   */
  readonly batched = (method: string, params: readonly unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (this.#queue.length === 0) queueMicrotask(() => this.#flush())
      this.#queue.push({ call: [method, params], resolve, reject })
    })

  #queue: { call: Call; resolve: (value: unknown) => void; reject: (e: unknown) => void }[] = []

  #flush(): void {
    const queued = this.#queue
    this.#queue = []
    this.batch(queued.map((q) => q.call)).then(
      (results) => results.forEach((r, i) => (r instanceof RpcError ? queued[i]!.reject(r) : queued[i]!.resolve(r))),
      (e: unknown) => queued.forEach((q) => q.reject(e)),
    )
  }

  async #post(requests: readonly object[]): Promise<Answer[]> {
    let response: Response
    try {
      response = await fetch(this.#url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requests.length === 1 ? requests[0] : requests) })
    } catch (e) {
      throw new RpcError(0, `the chain cannot be reached: ${(e as Error).message}`)
    }
    const body = (await response.json()) as Answer | Answer[]
    return Array.isArray(body) ? body : [body]
  }
}

function resultOf(answer: Answer | undefined): unknown {
  if (answer === undefined) throw new RpcError(0, 'no answer')
  if (answer.error !== undefined) throw new RpcError(answer.error.code, answer.error.message, answer.error.data)
  return answer.result
}
