/**
 * How a scenario talks to a node: JSON-RPC and nothing else, so the same file plays on a fresh
 * embedded ringchain (its in-process EIP-1193 `request`) or on any node over HTTP (`--rpc`).
 *
 * Owns: the request function a scenario uses, its error (`RpcCallError`: code, message, data),
 * and the HTTP transport. Leaves what is asked to the steps.
 */

/** A JSON-RPC error answer: the same class an EIP-1193 `request` of ringchain rejects with. */
import { RingchainRpcError as RpcCallError } from '../eip1193.js'

export { RpcCallError }

/** The one thing a scenario needs from a node. */
export interface Client {
  /** Sends `method` with positional `params`; rejects with `RpcCallError` on an error answer. */
  request(method: string, params?: readonly unknown[]): Promise<unknown>
  /** What the scenario plays against, for reports: `embedded` or the URL. */
  readonly target: string
}

/** An EIP-1193 `request` (ringchain's in-process one, or any provider's). */
export type Eip1193Request = (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>

/** A client over an EIP-1193 `request`; errors carrying a numeric `code` become `RpcCallError`. */
export function eip1193Client(request: Eip1193Request, target: string): Client {
  return {
    target,
    async request(method, params = []) {
      try {
        return await request({ method, params })
      } catch (e) {
        const error = e as { code?: unknown; message?: unknown; data?: unknown }
        if (typeof error.code === 'number') throw new RpcCallError(error.code, String(error.message), error.data)
        throw e
      }
    },
  }
}

/** A client that POSTs JSON-RPC to `url`. */
export function httpClient(url: string): Client {
  let id = 0
  return {
    target: url,
    async request(method, params = []) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })
      let response: Response
      try {
        response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      } catch (e) {
        throw new Error(`${method}: cannot reach ${url}: ${(e as Error).message}`, { cause: e })
      }
      const text = await response.text()
      let answer: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
      try {
        answer = JSON.parse(text) as typeof answer
      } catch {
        throw new Error(`${method}: ${url} answered HTTP ${response.status} with no JSON-RPC body: ${text.slice(0, 200)}`)
      }
      if (answer.error !== undefined && answer.error !== null) {
        throw new RpcCallError(Number(answer.error.code), String(answer.error.message), answer.error.data)
      }
      if (!response.ok) throw new Error(`${method}: ${url} answered HTTP ${response.status}`)
      return answer.result
    },
  }
}

/** Calls `method`, and on `-32601` (not served) the next alias: `anvil_mine`, then `hardhat_mine`. */
export async function requestFirstServed(client: Client, methods: readonly string[], params: readonly unknown[]): Promise<unknown> {
  let last: unknown
  for (const method of methods) {
    try {
      return await client.request(method, params)
    } catch (e) {
      if (e instanceof RpcCallError && e.code === -32601) {
        last = e
        continue
      }
      throw e
    }
  }
  throw last
}
