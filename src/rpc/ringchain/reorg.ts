/**
 * ringchain's reorg: `ringchain_reorg [{ depth, transactions?, requeue? }]`, geth's way: the newest
 * `depth` blocks are replaced by `depth` new ones (other hashes), holding the `transactions` placed
 * in them (`[[tx, blockOffset], …]` as anvil_reorg takes them, where `tx` may also be the hash of a
 * transaction the reorg drops); the dropped blocks' other transactions go back to the pool
 * (`requeue: false` drops them). Answers what changed: block hashes removed and added, transaction
 * hashes requeued and discarded.
 * `ringchain_setReorgSchedule [{ every, depth?, seed? } | null]`: a reorg of `depth` (default 1)
 * after every `every` blocks, seeded (`seed`, default 0), or none with `null`; answers the
 * schedule now in force.
 */
import type { ReorgOutcome, ReorgSchedule } from '../../chain/chain.js'
import { placedTransactions } from '../anvil/reorg.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData } from '../hex.js'
import { ArgumentError, optional, type Param } from '../params/decode.js'
import { decodeBool, isObject } from '../params/go.js'
import { placedItems, type PlacedItem } from '../params/reorg.js'
import { wholeNumber } from '../params/values.js'

/** What ringchain_reorg is asked to do. */
export interface ReorgRequest {
  readonly depth: bigint
  readonly transactions: readonly PlacedItem[]
  readonly requeue: boolean
}

const placed = placedItems({ hashes: true })

const reorgRequest: Param<ReorgRequest> = {
  decode(value) {
    if (!isObject(value)) throw new ArgumentError('expected an object { depth, transactions?, requeue? }')
    if (value.depth === undefined || value.depth === null) throw new ArgumentError('missing "depth"')
    for (const key of Object.keys(value)) if (!['depth', 'transactions', 'requeue'].includes(key)) throw new ArgumentError(`unknown member "${key}"`)
    return {
      depth: wholeNumber.decode(value.depth),
      transactions: value.transactions === undefined || value.transactions === null ? [] : placed.decode(value.transactions),
      requeue: value.requeue === undefined || value.requeue === null ? true : decodeBool(value.requeue),
    }
  },
}

const reorgSchedule: Param<ReorgSchedule> = {
  decode(value) {
    if (!isObject(value)) throw new ArgumentError('expected an object { every, depth?, seed? } or null')
    for (const key of Object.keys(value)) if (!['every', 'depth', 'seed'].includes(key)) throw new ArgumentError(`unknown member "${key}"`)
    const number = (key: string, fallback?: bigint) => {
      const member = value[key]
      if (member === undefined || member === null) {
        if (fallback === undefined) throw new ArgumentError(`missing "${key}"`)
        return Number(fallback)
      }
      return Number(wholeNumber.decode(member))
    }
    return { every: number('every'), depth: number('depth', 1n), seed: number('seed', 0n) }
  },
}

/** The wire answer of a reorg: hashes only. */
export function outcomeJson(outcome: ReorgOutcome) {
  return {
    removed: outcome.removed.map((r) => toData(r.hash)),
    added: outcome.added.map((r) => toData(r.hash)),
    requeued: outcome.requeued.map((t) => toData(t.hash)),
    discarded: outcome.discarded.map((t) => toData(t.hash)),
  }
}

/** ringchain's reorg methods over `chainFor`. */
export function ringchainReorgMethods(chainFor: ChainFor) {
  return {
    ringchain_reorg: defineMethod([reorgRequest], async ([req], ctx) => {
      const chain = await chainFor(ctx)
      const transactions = await placedTransactions(chain, req.depth, 'reorg', req.transactions)
      const outcome = await chain.reorg({ depth: req.depth, kind: 'reorg', transactions, dropped: req.requeue ? 'requeue' : 'discard', resetClock: false })
      return outcomeJson(outcome)
    }),
    ringchain_setReorgSchedule: defineMethod([optional(reorgSchedule)], async ([schedule], ctx) => {
      const chain = await chainFor(ctx)
      chain.setReorgSchedule(schedule)
      return chain.reorgSchedule ?? null
    }),
  } satisfies Registry
}
