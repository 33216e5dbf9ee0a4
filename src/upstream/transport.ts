/**
 * What the upstream client asks of a connection: send one JSON-RPC batch, get its answers back by
 * id. `http.ts` and `ws.ts` implement it; batching, deduplication and retries are `client.ts`'s.
 *
 * Failures below JSON-RPC (the node cannot be reached, does not answer in time, answers an HTTP
 * error) are `TransportError`s whose `retryable` tells the client whether trying again can help.
 */

export interface RpcRequest {
  readonly jsonrpc: '2.0'
  readonly id: number
  readonly method: string
  readonly params: readonly unknown[]
}

export interface RpcResponse {
  readonly id?: number | string | null
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

export interface Transport {
  /**
   * Sends `requests` as one batch and resolves with the answers the node gave (any order, matched
   * by id; a node that answers a whole batch with one error object gives that one).
   */
  exchange(requests: readonly RpcRequest[], timeoutMs: number): Promise<readonly RpcResponse[]>
  close(): Promise<void>
}

export type TransportTrouble = 'unreachable' | 'timeout' | 'rate-limited' | 'http' | 'dropped' | 'closed' | 'invalid-response'

/** A batch that got no JSON-RPC answer; `reason` is already free of the URL's secrets. */
export class TransportError extends Error {
  constructor(
    readonly trouble: TransportTrouble,
    readonly reason: string,
    readonly extra: { readonly status?: number; readonly retryAfterMs?: number } = {},
  ) {
    super(reason)
    this.name = 'TransportError'
  }

  /** Whether sending the same batch again may succeed: not after a 4xx other than 429, nor after close. */
  get retryable(): boolean {
    if (this.trouble === 'http') return this.extra.status !== undefined && this.extra.status >= 500
    return this.trouble !== 'closed' && this.trouble !== 'invalid-response'
  }
}

/** The answers in a response body: an array, or one object (a single answer, or an error for the whole batch). */
export function responsesOf(body: unknown): readonly RpcResponse[] {
  if (Array.isArray(body)) return body as RpcResponse[]
  if (body !== null && typeof body === 'object') return [body as RpcResponse]
  throw new TransportError('invalid-response', 'answered something that is not JSON-RPC')
}

/** The request body of a batch: one call goes as a plain request, not a batch of one. */
export function bodyOf(requests: readonly RpcRequest[]): string {
  return JSON.stringify(requests.length === 1 ? requests[0] : requests)
}
