/**
 * The chains of a simulator, by API key: one shared chain, or in isolate mode one per key.
 *
 * Owns: creating a key's chain on first use, the cap on how many exist, dropping idle ones,
 * resetting a key's chain while its requests wait, and closing them all.
 * Leaves building a chain to the factory it is given, and everything JSON-RPC to `src/rpc/`.
 */
import type { Chain } from './chain/chain.js'
import type { ResetTarget } from './rpc/context.js'
import type { RpcContext, RpcSession } from './rpc/dispatcher.js'
import { LimitExceededError } from './rpc/errors.js'

/** Where chains being created, reset and dropped are reported. */
export interface ChainsLogger {
  info?(message: string): void
}

/** Isolate mode's limits: how many chains may exist, and when an unused one is dropped. */
export interface IsolateOptions {
  /**
   * Most chains at once, the first key's (made at start) included, so `maxChains - 1` more keys:
   * it bounds memory, and that chain holds as much as the others. A new key past it gets -32005. Default 64.
   */
  maxChains?: number
  /**
   * Drop a chain, with all its state, once it has had no request and no open WebSocket for this
   * long; its key gets a fresh chain on its next request. The first key's chain is never dropped.
   * Default: chains live until `close()`.
   */
  idleTimeoutMs?: number
}

/** Default cap on isolated chains. */
export const DEFAULT_MAX_CHAINS = 64

interface Slot {
  chain: Promise<Chain>
  /** The chain once created; undefined while it is created or reset. */
  current: Chain | undefined
  lastUsed: number
  /** Open WebSocket clients using it: a chain with subscribers is never idle. */
  sockets: number
  /** The first key's chain: never dropped for idleness. */
  readonly pinned: boolean
}

/**
 * The chains of a simulator, by API key: one shared chain, or in isolate mode one per key. Creates
 * them on first use, refuses past the cap, drops idle ones, resets a key's chain, closes them all.
 */
export class Chains {
  readonly #create: (target?: ResetTarget) => Promise<Chain>
  readonly #isolate: boolean
  readonly #maxChains: number
  readonly #idleTimeoutMs: number | undefined
  readonly #logger: ChainsLogger | undefined
  readonly #slots = new Map<string, Slot>()
  readonly #counted = new WeakSet<RpcSession>()
  #primaryKey = ''
  #sweeper: NodeJS.Timeout | undefined
  #closed = false

  constructor(create: (target?: ResetTarget) => Promise<Chain>, options: IsolateOptions & { isolate: boolean; logger?: ChainsLogger }) {
    this.#create = create
    this.#isolate = options.isolate
    this.#maxChains = options.maxChains ?? DEFAULT_MAX_CHAINS
    this.#idleTimeoutMs = options.idleTimeoutMs
    this.#logger = options.logger
    if (!Number.isSafeInteger(this.#maxChains) || this.#maxChains < 1) throw new RangeError(`maxChains: expected a positive integer, got ${this.#maxChains}`)
    const idle = this.#idleTimeoutMs
    if (idle !== undefined && (!Number.isFinite(idle) || idle <= 0)) throw new RangeError(`idleTimeoutMs: expected a positive number, got ${idle}`)
  }

  /** Creates the first key's chain (which also proves the options good); resolves to it. */
  async open(primaryKey: string): Promise<Chain> {
    this.#primaryKey = this.#slotKey(primaryKey)
    const chain = await this.#create()
    this.#slots.set(this.#primaryKey, { chain: Promise.resolve(chain), current: chain, lastUsed: Date.now(), sockets: 0, pinned: true })
    if (this.#isolate && this.#idleTimeoutMs !== undefined) {
      this.#sweeper = setInterval(() => this.#dropIdle(), Math.max(10, Math.min(this.#idleTimeoutMs / 2, 30_000)))
      // Dropping idle chains is housekeeping: it must never keep a closing process alive.
      this.#sweeper.unref()
    }
    return chain
  }

  /** The first key's chain as it is now. */
  get primary(): Chain {
    const current = this.#slots.get(this.#primaryKey)?.current
    if (current === undefined) throw new Error('the chain is being reset; use request() to wait for it')
    return current
  }

  /** The `ChainFor` of the method registry. */
  chainFor = (ctx: RpcContext): Chain | Promise<Chain> => {
    const slot = this.#slotFor(ctx.session.apiKey)
    slot.lastUsed = Date.now()
    if (ctx.session.transport === 'ws' && !this.#counted.has(ctx.session)) {
      this.#counted.add(ctx.session)
      slot.sockets++
      ctx.session.onClose(() => {
        slot.sockets--
        slot.lastUsed = Date.now()
      })
    }
    const chain = slot.current
    if (chain === undefined) return slot.chain
    // A send answered before its block was mined: the block comes first.
    const settling = chain.settled()
    return settling === undefined ? chain : settling.then(() => chain)
  }

  /** Replaces the chain of `apiKey` with a fresh one from the same options (`ringchain_reset`), or as `target` says. */
  async reset(apiKey: string, target?: ResetTarget): Promise<void> {
    const slot = this.#slotFor(apiKey)
    const previous = slot.chain
    slot.current = undefined
    // Requests arriving meanwhile wait for the new chain rather than reach the one being replaced.
    slot.chain = previous.then(async (old) => {
      let fresh: Chain
      try {
        fresh = await this.#create(target)
      } catch (e) {
        slot.current = old
        slot.chain = Promise.resolve(old)
        throw e
      }
      slot.current = fresh
      await old.close()
      return fresh
    })
    await slot.chain
    if (this.#isolate) this.#logger?.info?.(`isolated chain reset (${this.#slots.size} of ${this.#maxChains} in use)`)
  }

  /** Stops every chain; idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper)
    this.#sweeper = undefined
    const all = [...this.#slots.values()].map((slot) => slot.chain.then((chain) => chain.close()).catch(() => {}))
    await Promise.all(all)
  }

  #slotKey(apiKey: string): string {
    return this.#isolate ? apiKey : ''
  }

  #slotFor(apiKey: string): Slot {
    const key = this.#slotKey(apiKey)
    const found = this.#slots.get(key)
    if (found !== undefined) return found
    if (this.#closed) throw new Error('ringchain is closed')
    if (this.#slots.size >= this.#maxChains) this.#dropIdle()
    if (this.#slots.size >= this.#maxChains) {
      throw new LimitExceededError(
        `isolated chain limit reached: ${this.#maxChains} chains exist, one per API key, the first key's included; ` +
          'reuse a key, raise the cap (--max-chains, isolate.maxChains) or let idle chains go (--idle-timeout, isolate.idleTimeoutMs)',
        { data: { maxChains: this.#maxChains } },
      )
    }
    const slot: Slot = { chain: this.#create(), current: undefined, lastUsed: Date.now(), sockets: 0, pinned: false }
    this.#slots.set(key, slot)
    slot.chain.then(
      (chain) => {
        if (this.#slots.get(key) !== slot || this.#closed) {
          // Closed or dropped while it was being created.
          void chain.close()
          return
        }
        slot.current = chain
        this.#logger?.info?.(`isolated chain created (${this.#slots.size} of ${this.#maxChains} in use)`)
      },
      () => {
        // The request that caused it gets the error; the next one tries again.
        if (this.#slots.get(key) === slot) this.#slots.delete(key)
      },
    )
    return slot
  }

  #dropIdle(): void {
    const timeout = this.#idleTimeoutMs
    if (timeout === undefined) return
    const now = Date.now()
    for (const [key, slot] of this.#slots) {
      if (slot.pinned || slot.sockets > 0 || slot.current === undefined || now - slot.lastUsed < timeout) continue
      this.#slots.delete(key)
      void slot.current.close()
      this.#logger?.info?.(`idle isolated chain dropped (${this.#slots.size} of ${this.#maxChains} in use)`)
    }
  }
}
