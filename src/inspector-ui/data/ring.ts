/**
 * The ring as the page knows it: the newest blocks of the window (at most `MAX_ROWS`), the head,
 * the safe and finalized blocks and the window's edge (its oldest block). Fed by the head feed;
 * loads the window once, then keeps up incrementally. Transaction counts are not in a head, so they
 * are fetched in batches, at most every `DETAILS_MS`, newest rows first: a busy chain costs the
 * page a few requests a second, not one per block.
 */
import type { WireHead } from './heads.js'
import { quantity, toQuantity } from './hex.js'
import type { Call, Rpc } from './rpc.js'
import { Watched } from './store.js'

/** One block of the ring. */
export interface BlockRow {
  readonly number: bigint
  readonly hash: string
  readonly timestamp: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  readonly baseFee: bigint
  /** undefined until fetched. */
  readonly txCount: number | undefined
}

/** The ring's marks: block numbers. */
export interface Marks {
  readonly head: bigint
  readonly safe: bigint
  readonly finalized: bigint
  /** The oldest block still in the window. */
  readonly edge: bigint
}

/** A block as `eth_getBlockByNumber(n, false)` answers it. */
interface WireBlock extends WireHead {
  readonly transactions: readonly string[]
}

/** The window's size by default; the DOM never holds more rows than this. */
export const MAX_ROWS = 128
const DETAILS_MS = 300
const DETAILS_PER_FETCH = 32

export class Ring extends Watched {
  readonly #rpc: Rpc
  /** Newest first. */
  rows: readonly BlockRow[] = []
  marks: Marks | undefined
  error: string | undefined
  #detailsTimer: ReturnType<typeof setTimeout> | undefined
  #loading: Promise<void> | undefined

  constructor(rpc: Rpc) {
    super()
    this.#rpc = rpc
  }

  /** Loads the window's newest blocks and the marks (again after a revert or a reconnect). */
  reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => (this.#loading = undefined))
    return this.#loading
  }

  async #load(): Promise<void> {
    try {
      const head = quantity(await this.#rpc.call<string>('eth_blockNumber'))
      const from = head + 1n > BigInt(MAX_ROWS) ? head + 1n - BigInt(MAX_ROWS) : 0n
      const calls: Call[] = []
      for (let n = head; n >= from; n--) calls.push(['eth_getBlockByNumber', [toQuantity(n), false]])
      const blocks = await this.#rpc.batch(calls)
      this.rows = blocks.filter((b): b is WireBlock => b !== null && !(b instanceof Error)).map((b) => rowOf(b, b.transactions.length))
      this.error = undefined
      await this.#refreshMarks()
    } catch (e) {
      this.error = (e as Error).message
    }
    this.changed()
  }

  /** A new block from the feed. A head at or below the newest row means the chain went back (a revert, a reset). */
  onHead(head: WireHead): void {
    const row = rowOf(head, undefined)
    const newest = this.rows[0]
    if (newest !== undefined && row.number <= newest.number) {
      this.rows = this.rows.filter((r) => r.number < row.number)
    }
    this.rows = [row, ...this.rows]
    if (this.rows.length > MAX_ROWS) this.rows = this.rows.slice(0, MAX_ROWS)
    this.#scheduleDetails()
    this.changed()
  }

  #scheduleDetails(): void {
    if (this.#detailsTimer !== undefined) return
    this.#detailsTimer = setTimeout(() => {
      this.#detailsTimer = undefined
      void this.#fetchDetails()
    }, DETAILS_MS)
  }

  async #fetchDetails(): Promise<void> {
    const missing = this.rows.filter((r) => r.txCount === undefined).slice(0, DETAILS_PER_FETCH)
    const calls: Call[] = missing.map((r) => ['eth_getBlockByHash', [r.hash, false]])
    const answers = await this.#rpc.batch(calls).catch(() => [])
    const counts = new Map<string, number>()
    answers.forEach((b, i) => {
      const block = b as WireBlock | null
      // A block gone since (reverted) stays without a count; the next head replaces it anyway.
      counts.set(missing[i]!.hash, block === null || block instanceof Error ? -1 : block.transactions.length)
    })
    this.rows = this.rows.map((r) => {
      const count = counts.get(r.hash)
      return count === undefined || count < 0 ? r : { ...r, txCount: count }
    })
    await this.#refreshMarks().catch(() => undefined)
    this.changed()
    if (this.rows.some((r) => r.txCount === undefined && !counts.has(r.hash))) this.#scheduleDetails()
  }

  async #refreshMarks(): Promise<void> {
    const [head, safe, finalized, edge] = (await this.#rpc.batch([
      ['eth_blockNumber', []],
      ['eth_getBlockByNumber', ['safe', false]],
      ['eth_getBlockByNumber', ['finalized', false]],
      ['eth_getBlockByNumber', ['earliest', false]],
    ])) as [string, WireBlock | null, WireBlock | null, WireBlock | null]
    this.marks = { head: quantity(head), safe: quantity(safe?.number), finalized: quantity(finalized?.number), edge: quantity(edge?.number) }
    // Blocks that have left the window leave the table too.
    const oldest = this.marks.edge
    if (this.rows.at(-1)?.number !== undefined && this.rows.at(-1)!.number < oldest) this.rows = this.rows.filter((r) => r.number >= oldest)
  }
}

function rowOf(b: WireHead, txCount: number | undefined): BlockRow {
  return {
    number: quantity(b.number),
    hash: b.hash,
    timestamp: quantity(b.timestamp),
    gasUsed: quantity(b.gasUsed),
    gasLimit: quantity(b.gasLimit),
    baseFee: quantity(b.baseFeePerGas),
    txCount,
  }
}
