/**
 * Formatters: chain records to their JSON-RPC shapes, as geth writes them.
 *
 * Owns: the wire shape of blocks, transactions (pending and included), receipts and logs: field
 * names, which fields a type has, null for pending. Records of mined blocks never change, so their
 * JSON is built once and cached (`RawJson`), and leaves with the record when its block leaves.
 */
import type { Block } from '@ethereumjs/block';
import { type TypedTransaction } from '@ethereumjs/tx';
import type { IncludedTx, LogRecord, PendingTx } from '../chain/types.js';
import { RawJson } from './dispatcher.js';
type Json = Record<string, unknown>;
/** The transaction object of an included transaction (cached). */
export declare function includedTxJson(included: IncludedTx): RawJson;
/** The transaction object of a pending transaction: block fields null, gasPrice = fee cap. */
export declare function pendingTxJson(pending: PendingTx): RawJson;
/** The receipt of an included transaction (cached). */
export declare function receiptJson(included: IncludedTx): RawJson;
export declare function logObject(log: LogRecord, removed?: boolean): Json;
/** A block, with transaction hashes or full transaction objects (cached). */
export declare function blockJson(block: Block, size: number, transactions: readonly IncludedTx[], full: boolean): RawJson;
/**
 * The pending block (built on the head from the pool, never mined as such): geth's shape, with
 * `hash`, `nonce` and `miner` null as geth sends them for `pending`.
 */
export declare function pendingBlockJson(block: Block, size: number, transactions: readonly IncludedTx[], full: boolean): Json;
/**
 * A pool transaction as geth's `txpool_inspect` sums it up:
 * `0xTo: <value> wei + <gas> gas × <gas price> wei`, the recipient checksummed, the fee cap as the
 * price of fee-market transactions.
 */
export declare function txSummary(tx: TypedTransaction): string;
export {};
