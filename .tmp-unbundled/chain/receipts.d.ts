/**
 * Receipts and logs, built once when a block is mined, from the VM's results.
 *
 * Owns: turning the block builder's results into receipt and log records (status or root,
 * cumulative and own gas, effective gas price, contract address, block-wide log indexes, blob gas).
 * A read never re-executes anything: these records are what every later read serves.
 */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { RunTxResult } from '@ethereumjs/vm';
import type { IncludedTx, LogRecord } from './types.js';
/** Builds the included-transaction records of a freshly mined block. */
export declare function buildIncluded(block: Block, senders: readonly Uint8Array[], results: readonly RunTxResult[]): {
    transactions: IncludedTx[];
    logs: LogRecord[];
};
/** What the sender actually paid per gas: the gas price, or base fee plus the tip it could pay. */
export declare function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint;
