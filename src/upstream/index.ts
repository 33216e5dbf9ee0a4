import { ForkSourceError, type ForkSource } from '../chain/fork/source.js'

/**
 * A first, plain upstream over HTTP(S): one fetch per call, no batching or retries yet.
 * (Placeholder: the full client, with WebSocket, batching, deduplication, retries and backoff,
 * replaces it.)
 */
export function connectUpstream(url: string): ForkSource {
  const label = maskedLabel(url)
  let id = 0
  return {
    label,
    async request(method, params) {
      let response: Response
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        })
      } catch (error) {
        throw new ForkSourceError(label, method, `unreachable (${(error as Error).message})`)
      }
      if (!response.ok) throw new ForkSourceError(label, method, `HTTP ${response.status}`)
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error !== undefined) throw new ForkSourceError(label, method, body.error.message, body.error.code)
      return body.result
    },
    async close() {},
  }
}

/** The URL's scheme and host, with any path (where providers put keys) and credentials masked. */
export function maskedLabel(url: string): string {
  try {
    const parsed = new URL(url)
    const path = parsed.pathname === '/' || parsed.pathname === '' ? '' : '/…'
    return `${parsed.protocol}//${parsed.host}${path}`
  } catch {
    return '<invalid upstream URL>'
  }
}
