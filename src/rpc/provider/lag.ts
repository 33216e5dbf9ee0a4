/**
 * A lagging backend's view of a read: the request as a backend `k` blocks behind the head answers
 * it. `latest` (or an absent block argument) becomes the lagged number, `eth_blockNumber` answers
 * it, and a block past it is one this backend has not seen (null for a block read, geth's `header
 * not found` for a state read). Owns which methods are reads and where their block argument sits;
 * when a read lags is the engine's, answering is `serve.ts`'s.
 */
import { ServerError } from '../errors.js'
import { toQuantity } from '../hex.js'

/** The position of the block argument of each read that a lagging backend answers differently. */
const STATE_READS: Readonly<Record<string, number>> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getProof: 2,
}
const BLOCK_READS: Readonly<Record<string, number>> = {
  eth_getBlockByNumber: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getBlockReceipts: 0,
}

/** Whether a lagging backend answers `method` differently (the calls that draw the lag dice). */
export function isLaggableRead(method: string): boolean {
  return method === 'eth_blockNumber' || method === 'eth_getLogs' || Object.hasOwn(STATE_READS, method) || Object.hasOwn(BLOCK_READS, method)
}

/** A JSON-RPC call as parsed from the body. */
export interface Call {
  readonly method: string
  readonly params?: unknown
  readonly [field: string]: unknown
}

/** The call to run instead, or the answer to give without running it. */
export type Lagged = { readonly call: Call } | { readonly result: unknown } | { readonly error: ServerError }

/** `call` as a backend whose head is `lagged` answers it. */
export function asOfBlock(call: Call, lagged: bigint): Lagged {
  const { method } = call
  if (method === 'eth_blockNumber') return { result: toQuantity(lagged) }
  const params = Array.isArray(call.params) ? [...(call.params as unknown[])] : []
  if (method === 'eth_getLogs') return { call: { ...call, params: logsAsOf(params, lagged) } }
  const state = STATE_READS[method]
  const at = state ?? BLOCK_READS[method]
  if (at === undefined) return { call }
  const block = params[at]
  const asked = blockNumberOf(block)
  if (block === undefined || block === null || block === 'latest') {
    params[at] = toQuantity(lagged)
    return { call: { ...call, params } }
  }
  if (asked !== undefined && asked > lagged) return state === undefined ? { result: null } : { error: new ServerError('header not found') }
  return { call }
}

function logsAsOf(params: unknown[], lagged: bigint): unknown[] {
  const filter = params[0]
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return params
  const fields = filter as Record<string, unknown>
  if (fields.blockHash !== undefined && fields.blockHash !== null) return params
  const out = { ...fields }
  if (out.toBlock === undefined || out.toBlock === null || out.toBlock === 'latest') out.toBlock = toQuantity(lagged)
  if (out.fromBlock === undefined || out.fromBlock === null || out.fromBlock === 'latest') out.fromBlock = toQuantity(lagged)
  params[0] = out
  return params
}

/** The number a block argument names (a quantity or EIP-1898's `{ blockNumber }`), if it names one. */
function blockNumberOf(block: unknown): bigint | undefined {
  const text = typeof block === 'object' && block !== null ? (block as { blockNumber?: unknown }).blockNumber : block
  if (typeof text !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(text)) return undefined
  return BigInt(text)
}
