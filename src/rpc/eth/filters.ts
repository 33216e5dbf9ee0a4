/**
 * Polled filters: `eth_newFilter`, `eth_newBlockFilter`, `eth_newPendingTransactionFilter`,
 * `eth_getFilterChanges`, `eth_getFilterLogs`, `eth_uninstallFilter`.
 *
 * Filters live per chain in a side table (the chain knows nothing of them), fed by the chain's
 * `block`, `reorg` (removed logs) and `pending` events, and dropped when nobody polled them for 5 minutes, as geth does.
 * Pushed notifications are `subscriptions.ts`.
 */
import type { Chain } from '../../chain/chain.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry, type RpcContext } from '../dispatcher.js'
import { ServerError } from '../errors.js'
import { logObject } from '../format.js'
import { toData, toQuantity } from '../hex.js'
import { none, optional } from '../params/decode.js'
import { logFilter, type LogFilter } from '../params/logFilter.js'
import { bool, filterId } from '../params/values.js'
import { logsOf, matches } from './logs.js'

interface Filter {
  readonly kind: 'block' | 'logs' | 'pending'
  readonly criteria?: LogFilter
  readonly items: unknown[]
  lastPoll: number
}

interface ChainFilters {
  readonly filters: Map<string, Filter>
  nextFilter: number
}

const filterTables = new WeakMap<Chain, ChainFilters>()
/** How long a filter lives without being polled: 5 minutes, as geth's filter deadline. */
const FILTER_TIMEOUT_MS = 5 * 60_000

/** The chain's filters, listening to its blocks and pending transactions from the first use on. */
function filtersOf(chain: Chain): ChainFilters {
  let table = filterTables.get(chain)
  if (table === undefined) {
    table = { filters: new Map(), nextFilter: 1 }
    filterTables.set(chain, table)
    const { filters } = table
    chain.on('block', (record) => {
      const now = Date.now()
      for (const [id, filter] of filters) {
        // As geth: a filter nobody polled for 5 minutes is dropped. Its client is gone (a test
        // process that died polling), and it would otherwise grow with every block, forever.
        if (now - filter.lastPoll > FILTER_TIMEOUT_MS) filters.delete(id)
        else if (filter.kind === 'block') filter.items.push(toData(record.hash))
        else if (filter.kind === 'logs') for (const log of record.logs) if (matches(log, filter.criteria!)) filter.items.push(logObject(log))
      }
    })
    // As geth: a reorg's dropped logs come again, `removed: true`, before the new chain's.
    chain.on('reorg', (removed) => {
      for (const filter of filters.values()) {
        if (filter.kind !== 'logs') continue
        for (const record of removed) for (const log of record.logs) if (matches(log, filter.criteria!)) filter.items.push(logObject(log, true))
      }
    })
    chain.on('pending', (entry) => {
      for (const filter of filters.values()) if (filter.kind === 'pending') filter.items.push(toData(entry.hash))
    })
  }
  return table
}

/** The criteria of a chain's log filter `id`; undefined when there is no such log filter. */
export function filterCriteria(chain: Chain, id: string): LogFilter | undefined {
  const filter = filterTables.get(chain)?.filters.get(id)
  return filter?.kind === 'logs' ? filter.criteria : undefined
}

/** The filter methods over `chainFor`. */
export function filterMethods(chainFor: ChainFor) {
  const newFilter = (kind: Filter['kind'], criteria?: LogFilter) => async (ctx: RpcContext) => {
    const table = filtersOf(await chainFor(ctx))
    const id = toQuantity(table.nextFilter++)
    table.filters.set(id, { kind, ...(criteria === undefined ? {} : { criteria }), items: [], lastPoll: Date.now() })
    return id
  }
  return {
    eth_newFilter: defineMethod([logFilter], ([criteria], ctx) => newFilter('logs', criteria)(ctx)),
    eth_newBlockFilter: defineMethod(none, (_p, ctx) => newFilter('block')(ctx)),
    eth_newPendingTransactionFilter: defineMethod([optional(bool)], (_p, ctx) => newFilter('pending')(ctx)),
    eth_getFilterChanges: defineMethod([filterId], async ([id], ctx) => {
      const filter = filtersOf(await chainFor(ctx)).filters.get(id)
      if (filter === undefined) throw new ServerError('filter not found')
      filter.lastPoll = Date.now()
      return filter.items.splice(0)
    }),
    eth_getFilterLogs: defineMethod([filterId], async ([id], ctx) => {
      const chain = await chainFor(ctx)
      const filter = filtersOf(chain).filters.get(id)
      if (filter?.kind !== 'logs') throw new ServerError('filter not found')
      return logsOf(chain, filter.criteria!)
    }),
    eth_uninstallFilter: defineMethod([filterId], async ([id], ctx) => filtersOf(await chainFor(ctx)).filters.delete(id)),
  } satisfies Registry
}
