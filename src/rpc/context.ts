/**
 * What every namespace's handlers share: how a request finds its chain (`ChainFor`), the options
 * the registry is built with, and two small helpers over the chain's blocks and promises.
 *
 * A leaf of `src/rpc/`: the namespace modules import it, it imports none of them.
 */
import type { Chain } from '../chain/chain.js'
import type { RpcContext } from './dispatcher.js'
import type { BlockNumberParam } from './params/block.js'
import type { ProviderSimulation } from './provider/engine.js'

/** Picks the chain a request is about (one per API key in isolate mode). */
export type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>

export interface MethodsOptions {
  /** web3_clientVersion. */
  clientVersion: string
  /** Changes at every start (anvil_metadata's instanceId). */
  instanceId?: string
  /**
   * Replaces the caller's chain with a fresh one from the same options (`ringchain_reset`,
   * `anvil_reset`, `hardhat_reset`). Without it those methods answer -32000.
   */
  reset?: (ctx: RpcContext, target?: ResetTarget) => Promise<void>
  /** The provider simulation `ringchain_setProviderProfile` sets. Without it that method answers -32000. */
  provider?: ProviderSimulation
  /** What the server's warm-up has done (`ringchain_warmup`). Without it that method answers `{ state: 'off' }`. */
  warmup?: () => WarmupStatus
}

/** `ringchain_warmup`'s answer: see `src/warmup/warmup.ts`. */
export interface WarmupStatus {
  readonly state: 'off' | 'waiting' | 'running' | 'done' | 'stopped' | 'failed'
  readonly tests?: number
  readonly requests?: number
  readonly busyMs?: number
  readonly reason?: string
}

/**
 * What a reset asks for beyond "as new" (`anvil_reset`'s and `hardhat_reset`'s `forking`): a fork
 * of `url` (or, without one, of the upstream the options name) at `blockNumber` (default: its
 * latest), or `fork: null`, a plain dev chain.
 */
export interface ResetTarget {
  readonly fork: { readonly url?: string; readonly blockNumber?: bigint } | null
}

/**
 * `next(value)`, at once unless `value` is still a promise. The hot reads use it to answer without
 * a promise hop (which costs about as much as the read) whenever they need not wait.
 */
export function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | PromiseLike<U>): U | PromiseLike<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** The number a block tag or number stands for (a tag as the chain reads it now). */
export function numberOf(chain: Chain, block: BlockNumberParam): bigint {
  return block.kind === 'tag' ? chain.tagNumber(block.tag) : block.number
}
