/**
 * Receipts and logs, built once when a block is mined, from the VM's results.
 *
 * Owns: turning the block builder's results into receipt and log records (status or root,
 * cumulative and own gas, effective gas price, contract address, block-wide log indexes, blob gas).
 * A read never re-executes anything: these records are what every later read serves. Also a
 * receipt's consensus encoding (`encodeReceipt`).
 */
import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, concatBytes } from '@ethereumjs/util'
import type { RunTxResult } from '@ethereumjs/vm'
import { keccakOf } from './crypto.js'
import { createdAddress } from './execution/createdAddress.js'
import type { IncludedTx, LogRecord, ReceiptRecord } from './types.js'

/** What the records of an included transaction need of the VM's result of running it. */
export type TxOutcome = Pick<RunTxResult, 'receipt' | 'blobGasUsed'>

/** The part of `result` the records need: kept until they are built, without the EVM's run it holds. */
export function outcomeOf(result: RunTxResult): TxOutcome {
  return result.blobGasUsed === undefined ? { receipt: result.receipt } : { receipt: result.receipt, blobGasUsed: result.blobGasUsed }
}

/** Builds the included-transaction records of a freshly mined block. */
export function buildIncluded(block: Block, senders: readonly Uint8Array[], results: readonly TxOutcome[]): { transactions: IncludedTx[]; logs: LogRecord[] } {
  const blockHash = block.hash()
  const number = block.header.number
  const timestamp = block.header.timestamp
  const baseFee = block.header.baseFeePerGas
  // Only blob transactions' receipts carry it: worked out at the first.
  let blobGasPrice: bigint | undefined
  const hasBlobGasPrice = block.header.excessBlobGas !== undefined
  const transactions: IncludedTx[] = []
  const logs: LogRecord[] = []
  let previousCumulative = 0n
  block.transactions.forEach((tx, index) => {
    const result = results[index]!
    const from = senders[index]!
    const hash = tx.hash()
    const cumulativeGasUsed = result.receipt.cumulativeBlockGasUsed
    const txLogs: LogRecord[] = []
    for (const [address, topics, data] of result.receipt.logs) {
      const log: LogRecord = { address, topics, data, logIndex: logs.length, transactionIndex: index, transactionHash: hash, blockHash, blockNumber: number, blockTimestamp: timestamp }
      txLogs.push(log)
      logs.push(log)
    }
    // Built with `Object.assign`, in this field order: a literal with conditional spreads takes V8's slow path (see `leanEvm.ts`).
    const receipt: ReceiptRecord = Object.assign('status' in result.receipt ? { status: result.receipt.status } : { root: result.receipt.stateRoot }, {
      cumulativeGasUsed,
      gasUsed: cumulativeGasUsed - previousCumulative,
      effectiveGasPrice: effectiveGasPrice(tx, baseFee),
      contractAddress: tx.to === undefined ? createdAddress(from, tx.nonce, keccakOf(block.common)) : undefined,
      logs: txLogs,
      logsBloom: result.receipt.bitvector,
    })
    if (result.blobGasUsed !== undefined && hasBlobGasPrice) Object.assign(receipt, { blobGasUsed: result.blobGasUsed, blobGasPrice: (blobGasPrice ??= block.header.getBlobGasPrice()) })
    previousCumulative = cumulativeGasUsed
    transactions.push({ tx, hash, from, blockHash, blockNumber: number, blockTimestamp: timestamp, index, receipt })
  })
  return { transactions, logs }
}

/** What the sender actually paid per gas: the gas price, or base fee plus the tip it could pay. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxPriorityFeePerGas' in tx) {
    const base = baseFee ?? 0n
    const tip = tx.maxFeePerGas - base < tx.maxPriorityFeePerGas ? tx.maxFeePerGas - base : tx.maxPriorityFeePerGas
    return base + tip
  }
  return tx.gasPrice
}

/**
 * A receipt's consensus encoding (what the receipts trie holds and geth's `debug_getRawReceipts`
 * answers): `rlp([status or root, cumulativeGasUsed, bloom, logs])`, after the type byte for a
 * typed transaction.
 */
export function encodeReceipt(included: IncludedTx): Uint8Array {
  const { receipt } = included
  const outcome = receipt.root ?? (receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array())
  const logs = receipt.logs.map((log) => [log.address, [...log.topics], log.data])
  const body = RLP.encode([outcome, bigIntToUnpaddedBytes(receipt.cumulativeGasUsed), receipt.logsBloom, logs])
  const type = included.tx.type
  return type === 0 ? body : concatBytes(Uint8Array.of(type), body)
}
