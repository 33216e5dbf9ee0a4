/**
 * Block reads: `eth_blockNumber`, `eth_getBlockByNumber`, `eth_getBlockByHash`,
 * `eth_getBlockReceipts`, the transaction and uncle counts by hash or number.
 *
 * Owns: null for a block after the head or of an unknown hash, -32000 (pruned history) for one
 * that left the window, and the pending block. Leaves the ring and the block JSON to `src/chain/`
 * and `format.ts`.
 */
import { BlockOutOfWindowError, FutureBlockError, UnknownBlockError } from '../../chain/errors.js'
import type { Chain } from '../../chain/chain.js'
import type { BlockRecord } from '../../chain/types.js'
import { numberOf, type ChainFor } from '../context.js'
import { defineMethod, rawJsonArray, type Registry } from '../dispatcher.js'
import { blockJson, pendingBlockJson, receiptJson } from '../format.js'
import { toQuantity } from '../hex.js'
import { blockNumber, blockParam, type BlockNumberParam } from '../params/block.js'
import { none, optional } from '../params/decode.js'
import { bool, hash } from '../params/values.js'

const blockResult = (record: BlockRecord, full: boolean) => blockJson(record.block, record.size, record.transactions, full)

/** The block of the window at `block`; undefined after the head; pruned history before the window. */
function blockAt(chain: Chain, block: BlockNumberParam): BlockRecord | undefined {
  const number = numberOf(chain, block)
  if (number > chain.head.number) return undefined
  const record = chain.blockByNumber(number)
  if (record === undefined) throw new BlockOutOfWindowError(number, chain.oldest.number, chain.head.number)
  return record
}

/** The block-read methods over `chainFor`. */
export function blockMethods(chainFor: ChainFor) {
  return {
    eth_blockNumber: defineMethod(none, async (_p, ctx) => toQuantity((await chainFor(ctx)).head.number)),

    eth_getBlockByNumber: defineMethod([blockNumber, bool], async ([block, full], ctx) => {
      const chain = await chainFor(ctx)
      if (block.kind === 'tag' && block.tag === 'pending') {
        const { record } = await chain.pendingBlock()
        return pendingBlockJson(record.block, record.size, record.transactions, full)
      }
      const record = blockAt(chain, block)
      return record === undefined ? null : blockResult(record, full)
    }),

    eth_getBlockByHash: defineMethod([hash, bool], async ([h, full], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : blockResult(record, full)
    }),

    eth_getBlockReceipts: defineMethod([blockParam], async ([block], ctx) => {
      const chain = await chainFor(ctx)
      let record: BlockRecord
      try {
        record = chain.resolveBlock(block)
      } catch (e) {
        if (e instanceof FutureBlockError || e instanceof UnknownBlockError) return null
        throw e
      }
      return rawJsonArray(record.transactions.map(receiptJson))
    }),

    eth_getBlockTransactionCountByNumber: defineMethod([blockNumber], async ([block], ctx) => {
      const record = blockAt(await chainFor(ctx), block)
      return record === undefined ? null : toQuantity(record.transactions.length)
    }),
    eth_getBlockTransactionCountByHash: defineMethod([hash], async ([h], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : toQuantity(record.transactions.length)
    }),
    eth_getUncleCountByBlockHash: defineMethod([hash], async ([h], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : toQuantity(record.block.uncleHeaders.length)
    }),
    eth_getUncleCountByBlockNumber: defineMethod([blockNumber], async ([block], ctx) => {
      const chain = await chainFor(ctx)
      const record = chain.blockByNumber(numberOf(chain, block))
      return record === undefined ? null : toQuantity(record.block.uncleHeaders.length)
    }),
  } satisfies Registry
}
