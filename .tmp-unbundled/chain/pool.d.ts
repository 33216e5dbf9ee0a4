import type { TypedTransaction } from '@ethereumjs/tx';
import type { PendingTx } from './types.js';
/** The sender's next nonce in the state the pool is measured against. */
export type NonceOf = (sender: string) => bigint;
export interface PoolSnapshot {
    readonly entries: readonly PendingTx[];
    readonly seq: number;
}
export declare class TxPool {
    #private;
    get size(): number;
    /** Order number for the next arrival. */
    nextSeq(): number;
    get(hash: string): PendingTx | undefined;
    /** The pending transaction of `sender` with `nonce`, if any. */
    at(sender: string, nonce: bigint): PendingTx | undefined;
    /** Adds `entry`, replacing the transaction with the same sender and nonce (checked by the caller). */
    add(entry: PendingTx): PendingTx | undefined;
    /** Removes a transaction by hash; true if it was there. */
    remove(hash: string): boolean;
    /** Drops every transaction whose nonce the state has passed (mined, or made obsolete). */
    prune(nonceOf: NonceOf): PendingTx[];
    /** Executable transactions of one sender, in nonce order. */
    executableOf(sender: string, nonceOf: NonceOf): PendingTx[];
    /** Pending transactions split into executable and queued, per sender (for txpool_* and tags). */
    content(nonceOf: NonceOf): {
        executable: Map<string, PendingTx[]>;
        queued: Map<string, PendingTx[]>;
    };
    /** Number of executable transactions. */
    executableCount(nonceOf: NonceOf): number;
    /**
     * Executable transactions in the order a block takes them: each sender's in nonce order, and
     * between senders the higher tip at `baseFee` first, then the earlier arrival.
     */
    ordered(nonceOf: NonceOf, baseFee: bigint | undefined): PendingTx[];
    all(): PendingTx[];
    snapshot(): PoolSnapshot;
    restore(snapshot: PoolSnapshot): void;
}
/** The tip a transaction pays per gas at `baseFee`. */
export declare function effectiveTip(tx: TypedTransaction, baseFee: bigint | undefined): bigint;
