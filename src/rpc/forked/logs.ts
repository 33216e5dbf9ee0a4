/**
 * Logs of a forked chain over a range that reaches back before the fork: the upstream's logs up to
 * the fork block, then the local blocks' own, in block order, as one answer.
 */
import type { Chain } from '../../chain/chain.js'
import { numberOf } from '../context.js'
import { ServerError } from '../errors.js'
import { logObject } from '../format.js'
import { toData, toQuantity } from '../hex.js'
import type { LogFilter } from '../params/logFilter.js'
import { matchingLogs } from '../eth/logs.js'
import { inUpstreamWindow, isUpstreamBlock, type UpstreamHistory } from './history.js'

/** Says "the local chain answers this one" (its range, or its block, is after the fork). */
export const LOCAL = Symbol('local')
export type Local = typeof LOCAL

/** `eth_getLogs` across the fork point; `LOCAL` when the filter names local blocks only (or a range the local rules refuse). */
export async function logsAcrossFork(chain: Chain, history: UpstreamHistory, criteria: LogFilter): Promise<unknown[] | Local> {
  const { fork } = history
  if (criteria.blockHash !== undefined) {
    const local = chain.blockByHash(criteria.blockHash)
    if (local !== undefined && local.number > fork.blockNumber) return LOCAL
    const blockHash = toData(criteria.blockHash)
    if (!inUpstreamWindow(chain, fork, await history.blockByHash(blockHash, false))) throw new ServerError('unknown block')
    return (await history.cached('eth_getLogs', [{ blockHash, ...wireCriteria(criteria) }])) as unknown[]
  }
  const head = chain.head.number
  const from = criteria.fromBlock === undefined ? head : numberOf(chain, criteria.fromBlock)
  const to = criteria.toBlock === undefined ? head : numberOf(chain, criteria.toBlock)
  // Bad ranges get the local answer's errors; a range after the fork is the local chain's.
  if (from > to || to > head || !isUpstreamBlock(chain, fork, from)) return LOCAL
  const lastUpstream = to < fork.blockNumber ? to : fork.blockNumber
  const upstream = (await history.cached('eth_getLogs', [{ fromBlock: toQuantity(from), toBlock: toQuantity(lastUpstream), ...wireCriteria(criteria) }])) as unknown[]
  if (to <= fork.blockNumber) return upstream
  const local = matchingLogs(chain, { ...criteria, fromBlock: { kind: 'number', number: fork.blockNumber + 1n }, toBlock: { kind: 'number', number: to } })
  return [...upstream, ...local.map((log) => logObject(log))]
}

/** The address and topics of a filter, as the wire writes them. */
function wireCriteria(criteria: LogFilter): { address?: string[]; topics?: (string[] | null)[] } {
  return {
    ...(criteria.addresses.length === 0 ? {} : { address: criteria.addresses.map(toData) }),
    ...(criteria.topics.length === 0 ? {} : { topics: criteria.topics.map((t) => (t === null || t.length === 0 ? null : t.map(toData))) }),
  }
}
