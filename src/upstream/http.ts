/**
 * The upstream over HTTP(S): one POST per batch through the global fetch, with the per-request
 * timeout as an abort signal. Turns HTTP trouble (refused, timed out, 429 with its Retry-After,
 * 5xx) into `TransportError`s; leaves retrying to the client.
 */
import { scrubbed } from './mask.js'
import { TransportError, bodyOf, responsesOf, type RpcRequest, type RpcResponse, type Transport } from './transport.js'

export function httpTransport(url: string, extraHeaders: Readonly<Record<string, string>> = {}): Transport {
  // fetch refuses a URL with credentials: they go as Basic authorization instead.
  const { target, authorization } = withoutCredentials(url)
  const headers = { 'content-type': 'application/json', ...authorization, ...extraHeaders }
  const inFlight = new Set<AbortController>()
  let closed = false
  return {
    async exchange(requests: readonly RpcRequest[], timeoutMs: number): Promise<readonly RpcResponse[]> {
      if (closed) throw new TransportError('closed', 'client closed')
      const abort = new AbortController()
      const timer = setTimeout(() => abort.abort(new TransportError('timeout', `timeout after ${timeoutMs} ms`)), timeoutMs)
      inFlight.add(abort)
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers,
          body: bodyOf(requests),
          signal: abort.signal,
        })
        if (response.status === 429) {
          throw new TransportError('rate-limited', 'rate limited (429)', { status: 429, ...retryAfter(response.headers.get('retry-after')) })
        }
        if (!response.ok) throw new TransportError('http', `HTTP ${response.status}`, { status: response.status, ...retryAfter(response.headers.get('retry-after')) })
        let body: unknown
        try {
          body = await response.json()
        } catch {
          throw new TransportError('invalid-response', 'answered with a body that is not JSON')
        }
        return responsesOf(body)
      } catch (error) {
        throw asTransportError(error, abort, url)
      } finally {
        clearTimeout(timer)
        inFlight.delete(abort)
      }
    },
    async close() {
      closed = true
      for (const abort of inFlight) abort.abort(new TransportError('closed', 'client closed'))
    },
  }
}

function withoutCredentials(url: string): { target: string; authorization: { authorization?: string } } {
  const parsed = new URL(url)
  if (parsed.username === '' && parsed.password === '') return { target: url, authorization: {} }
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')
  parsed.username = ''
  parsed.password = ''
  return { target: parsed.href, authorization: { authorization: `Basic ${basic}` } }
}

function asTransportError(error: unknown, abort: AbortController, url: string): TransportError {
  if (error instanceof TransportError) return error
  if (abort.signal.aborted && abort.signal.reason instanceof TransportError) return abort.signal.reason
  // fetch wraps the socket's error (ECONNREFUSED, ENOTFOUND, a reset) in `cause`.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const detail = cause?.code ?? cause?.message ?? (error as Error).message
  return new TransportError('unreachable', `unreachable (${scrubbed(String(detail), url)})`)
}

/** Retry-After in ms, from seconds or an HTTP date; absent when the header is missing or unreadable. */
export function retryAfter(header: string | null): { retryAfterMs?: number } {
  if (header === null) return {}
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterMs: seconds * 1000 }
  const date = Date.parse(header)
  return Number.isNaN(date) ? {} : { retryAfterMs: Math.max(0, date - Date.now()) }
}
