/**
 * Pushed notifications over WebSocket: `eth_subscribe` (`newHeads`, `logs`,
 * `newPendingTransactions`) and `eth_unsubscribe`. After a reorg, `logs` sends the dropped logs
 * again with `removed: true`, then the new chain's; `newHeads` sends the new chain's heads.
 *
 * Owns: which connection owns a subscription (only it may cancel it, and its close cancels it).
 * Leaves the notification envelope to the dispatcher and the events to the chain.
 */
import { randomUUID } from 'node:crypto'
import type { Chain } from '../../chain/chain.js'
import type { BlockRecord } from '../../chain/types.js'
import type { ChainFor } from '../context.js'
import { RawJson, defineMethod, subscriptionNotification, type Registry, type RpcContext } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { blockJson, logObject, pendingTxJson } from '../format.js'
import { toData } from '../hex.js'
import { anyValue, optional } from '../params/decode.js'
import { logFilter } from '../params/logFilter.js'
import { filterId } from '../params/values.js'
import { matches } from './logs.js'

/** A live subscription, with the connection that made it. */
interface Subscription {
  readonly session: RpcContext['session']
  readonly off: () => void
}

/** Subscriptions by id, per chain. */
const subscriptionTables = new WeakMap<Chain, Map<string, Subscription>>()

function subscriptionsOf(chain: Chain): Map<string, Subscription> {
  let table = subscriptionTables.get(chain)
  if (table === undefined) subscriptionTables.set(chain, (table = new Map()))
  return table
}

/** The newHeads notification: the block header fields, no transactions. */
function headJson(record: BlockRecord): string {
  const full = JSON.parse(blockJson(record.block, record.size, record.transactions, false).json) as Record<string, unknown>
  delete full.transactions
  delete full.uncles
  delete full.size
  return JSON.stringify(full)
}

/** The subscription methods over `chainFor`. */
export function subscriptionMethods(chainFor: ChainFor) {
  return {
    eth_subscribe: defineMethod([anyValue, optional(anyValue)], async ([kind, criteria], ctx) => {
      if (ctx.session.transport !== 'ws') throw new ServerError('notifications not supported')
      const chain = await chainFor(ctx)
      const subscriptions = subscriptionsOf(chain)
      const id = '0x' + randomUUID().replaceAll('-', '')
      const push = (result: unknown) => {
        if (!ctx.session.closed) ctx.session.send(subscriptionNotification(id, result))
      }
      let off: () => void
      if (kind === 'newHeads') {
        off = chain.on('block', (record) => push(new RawJson(headJson(record))))
      } else if (kind === 'logs') {
        const filter = criteria === undefined ? { addresses: [], topics: [] } : logFilter.decode(criteria)
        const offBlock = chain.on('block', (record) => {
          for (const log of record.logs) if (matches(log, filter)) push(logObject(log))
        })
        // As geth: a reorg's dropped logs come again, `removed: true`, before the new chain's.
        const offReorg = chain.on('reorg', (removed) => {
          for (const record of removed) for (const log of record.logs) if (matches(log, filter)) push(logObject(log, true))
        })
        off = () => {
          offBlock()
          offReorg()
        }
      } else if (kind === 'newPendingTransactions') {
        const full = criteria === true
        off = chain.on('pending', (entry) => push(full ? pendingTxJson(entry) : toData(entry.hash)))
      } else {
        throw new InvalidParamsError(`invalid argument 0: no "${String(kind)}" subscription in eth namespace`)
      }
      subscriptions.set(id, { session: ctx.session, off })
      ctx.session.onClose(() => {
        off()
        subscriptions.delete(id)
      })
      return id
    }),

    eth_unsubscribe: defineMethod([filterId], async ([id], ctx) => {
      const subscriptions = subscriptionsOf(await chainFor(ctx))
      const subscription = subscriptions.get(id)
      // Another connection's subscription is as unknown to this one as a made-up id.
      if (subscription === undefined || subscription.session !== ctx.session) return false
      subscription.off()
      subscriptions.delete(id)
      return true
    }),
  } satisfies Registry
}
