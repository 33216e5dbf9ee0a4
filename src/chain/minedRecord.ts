/**
 * The record a block mined here is kept as in the window.
 *
 * Owns: what a mined block's record holds from the start (the block, its hash and number) and
 * what it builds once, when first read: its included-transaction records, receipts and logs
 * (`receipts.ts` builds them, from what each transaction's result said when it was mined) and
 * its size (`blockSize.ts`). Built once, then kept: every read gets the same records.
 * Leaves to others: mining the block (`miner.ts`), indexing it (`window.ts`).
 *
 * Why on first read: a send whose receipt nobody asks for never pays for it, and the records a
 * block does not build are garbage the collector never moves. A class, not an object literal with
 * getters: one shape for every record, with no closures made per block.
 */
import type { Block } from '@ethereumjs/block'
import type { RunTxResult } from '@ethereumjs/vm'
import { blockSize } from './blockSize.js'
import { buildIncluded, outcomeOf, type TxOutcome } from './receipts.js'
import type { BlockRecord, IncludedTx, LogRecord } from './types.js'

class MinedBlockRecord implements BlockRecord {
  readonly block: Block
  readonly hash: Uint8Array
  readonly number: bigint
  readonly #senders: readonly Uint8Array[]
  readonly #outcomes: readonly TxOutcome[]
  #included: { transactions: IncludedTx[]; logs: LogRecord[] } | undefined
  #size: number | undefined

  constructor(block: Block, senders: readonly Uint8Array[], outcomes: readonly TxOutcome[]) {
    this.block = block
    this.hash = block.hash()
    this.number = block.header.number
    this.#senders = senders
    this.#outcomes = outcomes
  }

  get transactions(): readonly IncludedTx[] {
    return (this.#included ??= buildIncluded(this.block, this.#senders, this.#outcomes)).transactions
  }

  get logs(): readonly LogRecord[] {
    return (this.#included ??= buildIncluded(this.block, this.#senders, this.#outcomes)).logs
  }

  get size(): number {
    return (this.#size ??= blockSize(this.block))
  }
}

/** The record of `block`, mined here by `senders` with `results`. */
export function minedBlockRecord(block: Block, senders: readonly Uint8Array[], results: readonly RunTxResult[]): BlockRecord {
  return new MinedBlockRecord(block, senders, results.map(outcomeOf))
}
