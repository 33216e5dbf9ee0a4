/**
 * The upstream's part of a forked chain's window: blocks up to the fork block, and the last
 * `window` of them only, are the upstream's. This module knows where that part begins and ends and
 * keeps the upstream's answers about it, which never change (a block, a transaction, a receipt, the
 * state at a past block), so that each is asked once for the life of the fork.
 *
 * Leaves the asking (batching, retries) to the `ForkSource`, and the wire methods to `methods.ts`.
 */
import type { Chain } from '../../chain/chain.js'
import { BlockOutOfWindowError } from '../../chain/errors.js'
import type { ForkPoint } from '../../chain/fork/source.js'
import { toQuantity } from '../hex.js'

/** Answers kept per fork: enough for a test suite's reads, bounded for a long-lived node. */
const CACHE_LIMIT = 20_000

/** The wire fields of an upstream block, transaction or receipt this module reads. */
export interface UpstreamItem {
  readonly number?: string
  readonly hash?: string
  readonly blockNumber?: string | null
  readonly transactions?: readonly unknown[]
  readonly uncles?: readonly unknown[]
}

export class UpstreamHistory {
  readonly fork: ForkPoint
  readonly #answers = new Map<string, Promise<unknown>>()

  constructor(fork: ForkPoint) {
    this.fork = fork
  }

  /** The upstream's answer to a call whose answer never changes, asked once (failures are not kept). */
  cached(method: string, params: readonly unknown[]): Promise<unknown> {
    const key = method + JSON.stringify(params)
    const kept = this.#answers.get(key)
    if (kept !== undefined) return kept
    const asked = this.fork.source.request(method, params)
    this.#keep(key, asked)
    asked.catch(() => this.#answers.delete(key))
    return asked
  }

  #keep(key: string, answer: Promise<unknown>): void {
    this.#answers.set(key, answer)
    // Oldest first out: Map iterates in insertion order.
    if (this.#answers.size > CACHE_LIMIT) this.#answers.delete(this.#answers.keys().next().value!)
  }

  /** The upstream's block `number` (kept by its hash too). */
  async block(number: bigint, full: boolean): Promise<UpstreamItem | null> {
    const block = (await this.cached('eth_getBlockByNumber', [toQuantity(number), full])) as UpstreamItem | null
    if (block?.hash !== undefined) this.#keep('eth_getBlockByHash' + JSON.stringify([block.hash, full]), Promise.resolve(block))
    return block
  }

  /** The upstream's block of hash `hash` (0x hex), whatever its number. */
  async blockByHash(hash: string, full: boolean): Promise<UpstreamItem | null> {
    return (await this.cached('eth_getBlockByHash', [hash, full])) as UpstreamItem | null
  }
}

const histories = new WeakMap<ForkPoint, UpstreamHistory>()

/** The history of a fork point, made on first use (a reset to another fork point gets a new one). */
export function historyOf(fork: ForkPoint): UpstreamHistory {
  let history = histories.get(fork)
  if (history === undefined) histories.set(fork, (history = new UpstreamHistory(fork)))
  return history
}

/** The first block of the chain's window (the head's `window - 1` ancestors are in it). */
export function windowStart(chain: Chain): bigint {
  const start = chain.head.number - BigInt(chain.window) + 1n
  return start < 0n ? 0n : start
}

/**
 * Whether block `number` is the upstream's: at or before the fork block. One before the window
 * is refused as pruned history, as a local one is.
 */
export function isUpstreamBlock(chain: Chain, fork: ForkPoint, number: bigint): boolean {
  if (number > fork.blockNumber) return false
  const start = windowStart(chain)
  if (number < start) throw new BlockOutOfWindowError(number, start, chain.head.number)
  return true
}

/** Whether an upstream item (a block, or a transaction by its `blockNumber`) lies in the upstream's part of the window. */
export function inUpstreamWindow(chain: Chain, fork: ForkPoint, item: UpstreamItem | null): item is UpstreamItem {
  const number = item?.number ?? item?.blockNumber
  if (typeof number !== 'string') return false
  const n = BigInt(number)
  return n <= fork.blockNumber && n >= windowStart(chain)
}
