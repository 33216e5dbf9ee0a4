/**
 * Headers alone: geth's `eth_getHeaderByNumber` and `eth_getHeaderByHash` (RPCMarshalHeader: the
 * block's fields without transactions, uncles and withdrawals, `size` being the header's own).
 *
 * Owns: that shape. Null for a block after the head or of an unknown hash, pruned history before
 * the window, as the block reads answer (`blocks.ts`).
 */
import type { Block } from '@ethereumjs/block'
import { BlockOutOfWindowError } from '../../chain/errors.js'
import type { BlockRecord } from '../../chain/types.js'
import { numberOf, type ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { blockJson, pendingBlockJson } from '../format.js'
import { toQuantity } from '../hex.js'
import { blockNumber } from '../params/block.js'
import { hash } from '../params/values.js'

type Json = Record<string, unknown>

/** `json` (a block object) as geth marshals the header of `block`. */
function headerOnly(json: Json, block: Block): Json {
  const { transactions: _t, uncles: _u, withdrawals: _w, ...header } = json
  return { ...header, size: toQuantity(block.header.serialize().length) }
}

const headerOf = (record: BlockRecord) => headerOnly(JSON.parse(blockJson(record.block, record.size, record.transactions, false).json) as Json, record.block)

/** The header methods over `chainFor`. */
export function headerMethods(chainFor: ChainFor) {
  return {
    eth_getHeaderByNumber: defineMethod([blockNumber], async ([block], ctx) => {
      const chain = await chainFor(ctx)
      if (block.kind === 'tag' && block.tag === 'pending') {
        const { record } = await chain.pendingBlock()
        return headerOnly(pendingBlockJson(record.block, record.size, record.transactions, false) as Json, record.block)
      }
      const number = numberOf(chain, block)
      if (number > chain.head.number) return null
      const record = chain.blockByNumber(number)
      if (record === undefined) throw new BlockOutOfWindowError(number, chain.oldest.number, chain.head.number)
      return headerOf(record)
    }),
    eth_getHeaderByHash: defineMethod([hash], async ([h], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : headerOf(record)
    }),
  } satisfies Registry
}
