/**
 * `eth_getLogs`, and the matching of a log against a filter that filters and subscriptions share.
 *
 * Owns: block ranges over the window (refused the other way round, before the window or past the
 * head, in geth's words) and `unknown block` for a block hash the window does not hold. Leaves the logs, computed when their block was mined, to `src/chain/`.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { Chain } from '../../chain/chain.js'
import { BlockOutOfWindowError } from '../../chain/errors.js'
import type { BlockRecord, LogRecord } from '../../chain/types.js'
import { numberOf, type ChainFor } from '../context.js'
import { RawJson, defineMethod, rawJsonArray, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { logJson } from '../format.js'
import { logFilter, type LogFilter } from '../params/logFilter.js'

/** Whether `log` is one the filter asks for (addresses any of, topics by position). */
export function matches(log: LogRecord, criteria: LogFilter): boolean {
  if (criteria.addresses.length > 0 && !criteria.addresses.some((a) => equalsBytes(a, log.address))) return false
  for (let i = 0; i < criteria.topics.length; i++) {
    const wanted = criteria.topics[i]
    if (wanted === null || wanted === undefined || wanted.length === 0) continue
    const topic = log.topics[i]
    if (topic === undefined || !wanted.some((w) => equalsBytes(w, topic))) return false
  }
  return true
}

/** Logs of the window matching a filter, in eth_getLogs's order. */
export function matchingLogs(chain: Chain, criteria: LogFilter): LogRecord[] {
  let blocks: BlockRecord[]
  if (criteria.blockHash !== undefined) {
    const block = chain.blockByHash(criteria.blockHash)
    // geth's filter system: -32000 `unknown block` (not the -32001 of block reads).
    if (block === undefined) throw new ServerError('unknown block')
    blocks = [block]
  } else {
    const from = criteria.fromBlock === undefined ? chain.head.number : numberOf(chain, criteria.fromBlock)
    const to = criteria.toBlock === undefined ? chain.head.number : numberOf(chain, criteria.toBlock)
    if (from > to) throw new InvalidParamsError('invalid block range params')
    if (from < chain.oldest.number) throw new BlockOutOfWindowError(from, chain.oldest.number, chain.head.number)
    if (to > chain.head.number) throw new InvalidParamsError('block range extends beyond current head block')
    blocks = []
    for (let n = from; n <= to; n++) blocks.push(chain.blockByNumber(n)!)
  }
  const out: LogRecord[] = []
  for (const block of blocks) for (const log of block.logs) if (matches(log, criteria)) out.push(log)
  return out
}

/** Logs of the window matching a filter, as eth_getLogs answers: their cached JSON. */
export function logsOf(chain: Chain, criteria: LogFilter): RawJson {
  return rawJsonArray(matchingLogs(chain, criteria).map(logJson))
}

/** `eth_getLogs` over `chainFor`. */
export function logMethods(chainFor: ChainFor) {
  return {
    eth_getLogs: defineMethod([logFilter], async ([criteria], ctx) => logsOf(await chainFor(ctx), criteria)),
  } satisfies Registry
}
