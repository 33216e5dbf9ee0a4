/**
 * The JSON-RPC side of storage inspection: reads words, an account's slots and storage diffs from a
 * node (ringchain's own methods for the last two), over HTTP or through an EIP-1193 `request`.
 *
 * Owns: the client-side wire (hex in and out of these few methods) and clear errors for a node
 * that cannot be reached or refuses. Leaves everything else to `read.ts` and `layout.ts`.
 */
import { hexToBytes } from './paths.js'
import type { Derivation, DerivationStep } from './types.js'
import type { SlotReader } from './read.js'
import { hexWord } from './slots.js'

/** The default URL of `ringchain serve`. */
export const DEFAULT_RPC_URL = 'http://127.0.0.1:8545/v3/ringchain'

/** Sends one JSON-RPC request; rejects with `RpcCallError` for an error answer. */
export type Request = (method: string, params: readonly unknown[]) => Promise<unknown>

/** A JSON-RPC error answer: the same class an EIP-1193 `request` of ringchain rejects with. */
import { RingchainRpcError as RpcCallError } from '../eip1193.js'

export { RpcCallError }

/** A `Request` over HTTP POST. */
export function httpRequest(url: string): Request {
  let id = 1
  return async (method, params) => {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
      })
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause
      throw new RpcCallError(0, `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (e as Error).message} (is \`ringchain serve\` running? --rpc <url> names another node)`)
    }
    const text = await response.text()
    let body: { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    try {
      body = JSON.parse(text) as typeof body
    } catch {
      throw new RpcCallError(0, `${url} answered HTTP ${response.status} with no JSON-RPC body: ${text.slice(0, 200)}`)
    }
    if (body.error !== undefined) throw new RpcCallError(body.error.code, body.error.message, body.error.data)
    return body.result
  }
}

/** A `Request` over an EIP-1193 provider (`createRingchain()`'s, viem's, ethers'). */
export function eip1193Request(provider: { request(args: { method: string; params?: readonly unknown[] }): Promise<unknown> }): Request {
  return async (method, params) => {
    try {
      return await provider.request({ method, params })
    } catch (e) {
      const err = e as { code?: number; message?: string; data?: unknown }
      throw new RpcCallError(typeof err.code === 'number' ? err.code : 0, err.message ?? String(e), err.data)
    }
  }
}

/** A slot of `ringchain_storageLayout`, decoded. */
export interface SlotEntry {
  readonly slot: bigint
  readonly value: Uint8Array
  readonly path: string | null
  readonly derivation: Derivation | undefined
}

/** A change of `ringchain_storageDiff`, decoded. */
export interface ChangeEntry {
  readonly address: string
  readonly slot: bigint
  readonly before: Uint8Array
  readonly after: Uint8Array
  readonly path: string | null
  readonly derivation: Derivation | undefined
}

/** What `ringchain_storageDiff` answers. */
export interface Diff {
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly transactionHash?: string
  readonly changes: readonly ChangeEntry[]
}

/** The storage methods of a node, with bigint and bytes. */
export class StorageClient {
  readonly #request: Request

  constructor(request: Request) {
    this.#request = request
  }

  /** The number of the block a tag or number names (checked against the node: a block after the head fails). */
  async blockNumber(block: bigint | string): Promise<bigint> {
    const tag = typeof block === 'bigint' ? '0x' + block.toString(16) : block
    const found = (await this.#request('eth_getBlockByNumber', [tag, false])) as { number?: string } | null
    if (found === null || found.number === undefined) {
      const head = BigInt((await this.#request('eth_blockNumber', [])) as string)
      throw new RpcCallError(-32000, `block ${block} is not mined yet (the head is ${head})`)
    }
    return BigInt(found.number)
  }

  /** The 32-byte word at `slot` of `address` at block `number`. */
  async storageAt(address: string, slot: bigint, number: bigint): Promise<Uint8Array> {
    const word = (await this.#request('eth_getStorageAt', [address, hexWord(slot), '0x' + number.toString(16)])) as string
    return hexToBytes(word)
  }

  /** A `SlotReader` bound to one account and block. */
  reader(address: string, number: bigint): SlotReader {
    return (slot) => this.storageAt(address, slot, number)
  }

  /** Every non-zero slot of `address` at block `number`, with its derivation when the node knows it. */
  async slots(address: string, number: bigint): Promise<SlotEntry[]> {
    const answer = (await this.#request('ringchain_storageLayout', [address, '0x' + number.toString(16)])) as { slots: WireSlot[] }
    return answer.slots.map((s) => ({ slot: BigInt(s.slot), value: hexToBytes(s.value), path: s.path, derivation: derivationOf(s.derivation) }))
  }

  /** The storage changes of a transaction (by hash) or a block (number, tag or hash), optionally of one account. */
  async diff(target: string | bigint, address?: string): Promise<Diff> {
    const t = typeof target === 'bigint' ? '0x' + target.toString(16) : target
    const answer = (await this.#request('ringchain_storageDiff', address === undefined ? [t] : [t, address])) as {
      blockNumber: string
      blockHash: string
      transactionHash?: string
      changes: (WireSlot & { address: string; before: string; after: string })[]
    }
    return {
      blockNumber: BigInt(answer.blockNumber),
      blockHash: answer.blockHash,
      ...(answer.transactionHash === undefined ? {} : { transactionHash: answer.transactionHash }),
      changes: answer.changes.map((c) => ({
        address: c.address,
        slot: BigInt(c.slot),
        before: hexToBytes(c.before),
        after: hexToBytes(c.after),
        path: c.path,
        derivation: derivationOf(c.derivation),
      })),
    }
  }
}

interface WireSlot {
  slot: string
  value: string
  path: string | null
  derivation: { root: string; steps: { kind: string; key?: string; by?: string }[] } | null
}

function derivationOf(wire: WireSlot['derivation']): Derivation | undefined {
  if (wire === null) return undefined
  const steps: DerivationStep[] = wire.steps.map((s) =>
    s.kind === 'mapping' ? { kind: 'mapping', key: hexToBytes(s.key!) } : s.kind === 'keccak' ? { kind: 'keccak' } : { kind: 'offset', by: BigInt(s.by!) },
  )
  return { root: BigInt(wire.root), steps }
}
