/**
 * Serving the upstream's part of a forked chain's window: every read about a block at or before
 * the fork block (and in the window) is answered from the upstream, through `history.ts`'s cache;
 * everything else by the local method it overrides, unchanged. A chain that is not forked goes
 * straight to the local method.
 *
 * The hook: `methods.ts` spreads `forkedMethods(chainFor, fragments)` over the registry, so the
 * method fragments themselves know nothing of forks.
 */
import type { Chain } from '../../chain/chain.js'
import { andThen, numberOf, type ChainFor } from '../context.js'
import { defineMethod, type MethodSpec, type Registry, type RpcContext } from '../dispatcher.js'
import type { blockMethods } from '../eth/blocks.js'
import type { filterMethods } from '../eth/filters.js'
import type { headerMethods } from '../eth/headers.js'
import { filterCriteria } from '../eth/filters.js'
import type { logMethods } from '../eth/logs.js'
import type { transactionMethods } from '../eth/transactions.js'
import { toData, toQuantity } from '../hex.js'
import type { BlockNumberParam, BlockParam } from '../params/block.js'
import type { DecodedParams, Param } from '../params/decode.js'
import { historyOf, inUpstreamWindow, isUpstreamBlock, type UpstreamHistory, type UpstreamItem } from './history.js'
import { LOCAL, logsAcrossFork, type Local } from './logs.js'

/** The local methods this module overrides. */
export type ForkedFragments = ReturnType<typeof blockMethods> &
  ReturnType<typeof headerMethods> &
  ReturnType<typeof transactionMethods> &
  ReturnType<typeof logMethods> &
  Pick<ReturnType<typeof filterMethods>, 'eth_getFilterLogs'> &
  Registry

/**
 * The state reads and executions forwarded to the upstream at a block before the fork, by the
 * position of their block argument. Their other arguments go as the client sent them.
 */
const STATE_READS = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getAccountInfo: 1,
  eth_getAccount: 1,
} as const

/** What a route answers: the upstream's answer, or `LOCAL` for the local method's. */
type Routed = unknown
type Route<P extends readonly Param<unknown>[]> = (params: DecodedParams<P>, chain: Chain, history: UpstreamHistory) => Routed | Promise<Routed>

/** The overrides of the reads that may reach before the fork. */
export function forkedMethods(chainFor: ChainFor, local: ForkedFragments): Registry {
  /** `spec`, unless the chain is forked and `route` answers from the upstream. */
  const over = <P extends readonly Param<unknown>[]>(spec: MethodSpec<P>, route: Route<P>): MethodSpec<P> =>
    defineMethod(spec.params, (params, ctx) =>
      andThen(chainFor(ctx), (chain) => {
        const fork = chain.fork
        if (fork === undefined) return spec.handler(params, ctx)
        return andThen(route(params, chain, historyOf(fork)), (answer) => (answer === LOCAL ? spec.handler(params, ctx) : answer))
      }),
    )

  /** The upstream's block `number`, or `LOCAL` when the block is not the upstream's. */
  const blockByNumber = (chain: Chain, history: UpstreamHistory, block: BlockNumberParam, full: boolean): Local | Promise<UpstreamItem | null> => {
    if (block.kind === 'tag' && block.tag === 'pending') return LOCAL
    const number = numberOf(chain, block)
    return isUpstreamBlock(chain, history.fork, number) ? history.block(number, full) : LOCAL
  }
  const ofBlock = <T>(block: UpstreamItem | null | Local | Promise<UpstreamItem | null | Local>, pick: (b: UpstreamItem) => T) =>
    andThen(block, (b) => (b === LOCAL ? LOCAL : b === null ? null : pick(b)))
  const count = (items: readonly unknown[] | undefined) => toQuantity(items?.length ?? 0)

  return {
    eth_getBlockByNumber: over(local.eth_getBlockByNumber, ([block, full], chain, history) => blockByNumber(chain, history, block, full)),
    eth_getBlockByHash: over(local.eth_getBlockByHash, ([hash, full], chain, history) => blockByHash(chain, history, hash, full)),
    eth_getBlockTransactionCountByNumber: over(local.eth_getBlockTransactionCountByNumber, ([block], chain, history) =>
      ofBlock(blockByNumber(chain, history, block, false), (b) => count(b.transactions)),
    ),
    eth_getBlockTransactionCountByHash: over(local.eth_getBlockTransactionCountByHash, ([hash], chain, history) =>
      ofBlock(blockByHash(chain, history, hash, false), (b) => count(b.transactions)),
    ),
    eth_getUncleCountByBlockNumber: over(local.eth_getUncleCountByBlockNumber, ([block], chain, history) =>
      ofBlock(blockByNumber(chain, history, block, false), (b) => count(b.uncles)),
    ),
    eth_getUncleCountByBlockHash: over(local.eth_getUncleCountByBlockHash, ([hash], chain, history) =>
      ofBlock(blockByHash(chain, history, hash, false), (b) => count(b.uncles)),
    ),
    eth_getTransactionByBlockNumberAndIndex: over(local.eth_getTransactionByBlockNumberAndIndex, ([block, i], chain, history) =>
      ofBlock(blockByNumber(chain, history, block, true), (b) => b.transactions?.[i] ?? null),
    ),
    eth_getTransactionByBlockHashAndIndex: over(local.eth_getTransactionByBlockHashAndIndex, ([hash, i], chain, history) =>
      ofBlock(blockByHash(chain, history, hash, true), (b) => b.transactions?.[i] ?? null),
    ),
    // The header's `size` is its own RLP length, which the block's JSON does not give: asked as such.
    eth_getHeaderByNumber: over(local.eth_getHeaderByNumber, ([block], chain, history) =>
      ofBlock(blockByNumber(chain, history, block, false), (b) => history.cached('eth_getHeaderByNumber', [b.number])),
    ),
    eth_getHeaderByHash: over(local.eth_getHeaderByHash, ([hash], chain, history) =>
      ofBlock(blockByHash(chain, history, hash, false), (b) => history.cached('eth_getHeaderByHash', [b.hash])),
    ),
    eth_getBlockReceipts: over(local.eth_getBlockReceipts, ([block], chain, history) =>
      andThen<UpstreamItem | null | Local, unknown>(
        block.kind === 'hash' ? blockByHash(chain, history, block.hash, false) : blockByNumber(chain, history, block, false),
        (b) => (b === LOCAL || b === null ? b : history.cached('eth_getBlockReceipts', [b.number])),
      ),
    ),

    // Local first: only a hash the local chain does not know is asked upstream, and its answer is
    // the upstream's only when its block is in the upstream's part of the window.
    eth_getTransactionByHash: over(local.eth_getTransactionByHash, ([hash], chain, history) => includedUpstream(chain, history, 'eth_getTransactionByHash', hash)),
    eth_getTransactionReceipt: over(local.eth_getTransactionReceipt, ([hash], chain, history) => includedUpstream(chain, history, 'eth_getTransactionReceipt', hash)),

    eth_getLogs: over(local.eth_getLogs, ([criteria], chain, history) => logsAcrossFork(chain, history, criteria)),
    eth_getFilterLogs: over(local.eth_getFilterLogs, ([id], chain, history) => {
      const criteria = filterCriteria(chain, id)
      return criteria === undefined ? LOCAL : logsAcrossFork(chain, history, criteria)
    }),

    ...Object.fromEntries(Object.entries(STATE_READS).flatMap(([name, at]) => (local[name] === undefined ? [] : [[name, stateRead(chainFor, name, local[name], at)]]))),
  }
}

/** The upstream's block of hash `hash` when it is in the upstream's part of the window; `LOCAL` for a local block. */
function blockByHash(chain: Chain, history: UpstreamHistory, hash: Uint8Array, full: boolean): Local | Promise<UpstreamItem | null> {
  const local = chain.blockByHash(hash)
  if (local !== undefined && local.number > history.fork.blockNumber) return LOCAL
  return history.blockByHash(toData(hash), full).then((block) => (inUpstreamWindow(chain, history.fork, block) ? block : null))
}

/** A transaction or receipt the local chain does not know, from the upstream when its block is the upstream's and in the window. */
function includedUpstream(chain: Chain, history: UpstreamHistory, method: string, hash: Uint8Array): Local | Promise<unknown> {
  if (chain.lookupTransaction(hash) !== undefined) return LOCAL
  return history.cached(method, [toData(hash)]).then((item) => (inUpstreamWindow(chain, history.fork, item as UpstreamItem | null) ? item : null))
}

/** A param that keeps the value as the client sent it beside the decoded one. */
interface Kept {
  readonly value: unknown
  readonly raw: unknown
}
const keepingRaw = (param: Param<unknown>): Param<Kept> => ({
  decode: (raw) => ({ value: param.decode(raw), raw }),
  ...(param.absent === undefined ? {} : { absent: () => ({ value: param.absent!(), raw: undefined }) }),
})

/** A state read or execution, forwarded to the upstream when its block (argument `at`) is before the fork block. */
function stateRead(chainFor: ChainFor, name: string, spec: MethodSpec, at: number): MethodSpec {
  return defineMethod(spec.params.map(keepingRaw), (kept: readonly Kept[], ctx: RpcContext) => {
    const values = kept.map((k) => k.value) as never
    return andThen(chainFor(ctx), (chain) => {
      const fork = chain.fork
      if (fork === undefined) return spec.handler(values, ctx)
      const history = historyOf(fork)
      return andThen(upstreamStateBlock(chain, history, kept[at]!.value as BlockParam), (number) => {
        if (number === LOCAL) return spec.handler(values, ctx)
        const params = kept.map((k, i) => (i === at ? toQuantity(number) : (k.raw ?? null)))
        while (params.length > 0 && params[params.length - 1] === null) params.pop()
        return history.cached(name, params)
      })
    })
  })
}

/**
 * The block whose state the upstream serves: one before the fork block (and the fork block
 * itself when the local chain does not hold it); `LOCAL` for the rest, pending included.
 */
function upstreamStateBlock(chain: Chain, history: UpstreamHistory, block: BlockParam): bigint | Local | Promise<bigint | Local> {
  const { fork } = history
  if (block.kind === 'tag' && block.tag === 'pending') return LOCAL
  const stateOf = (number: bigint): bigint | Local => {
    if (number > fork.blockNumber || (number === fork.blockNumber && chain.blockByNumber(number) !== undefined)) return LOCAL
    return isUpstreamBlock(chain, fork, number) ? number : LOCAL
  }
  if (block.kind !== 'hash') return stateOf(numberOf(chain, block))
  const local = chain.blockByHash(block.hash)
  if (local !== undefined && local.number >= fork.blockNumber) return LOCAL
  // A hash the upstream does not place in the window gets the local answer (unknown block).
  return history.blockByHash(toData(block.hash), false).then((b) => (inUpstreamWindow(chain, fork, b) ? stateOf(BigInt(b.number!)) : LOCAL))
}
