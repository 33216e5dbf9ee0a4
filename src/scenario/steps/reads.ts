/**
 * Reads several step kinds make of the node: where a transaction is (pending, included, unknown)
 * and a block reference as JSON-RPC takes it. Plain functions over the client.
 */
import type { Client } from '../client.js'
import { ScenarioValueError, isHash, show, toQuantityHex } from '../values.js'

/** Where the node says the transaction is. */
export async function transactionStatus(client: Client, hash: string): Promise<'pending' | 'included' | 'unknown'> {
  return statusOf((await client.request('eth_getTransactionByHash', [hash])) as { blockNumber?: unknown } | null)
}

/** Where an `eth_getTransactionByHash` answer says the transaction is. */
export function statusOf(tx: { readonly blockNumber?: unknown } | null): 'pending' | 'included' | 'unknown' {
  return tx === null ? 'unknown' : tx.blockNumber === null || tx.blockNumber === undefined ? 'pending' : 'included'
}

/** A block as JSON-RPC takes it for a state read: a tag, a hex number, or `{ blockHash }`. */
export function blockParam(value: unknown): unknown {
  if (value === undefined) return 'latest'
  if (typeof value === 'number' || typeof value === 'bigint') return toQuantityHex(value)
  if (typeof value === 'string') {
    if (isHash(value)) return { blockHash: value }
    if (/^[0-9]+$/.test(value)) return toQuantityHex(BigInt(value))
    return value
  }
  throw new ScenarioValueError(`block: expected a number, a tag or a hash, got ${show(value)}`)
}
