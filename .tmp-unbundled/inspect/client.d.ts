/**
 * The JSON-RPC side of storage inspection: reads words, an account's slots and storage diffs from a
 * node (ringchain's own methods for the last two), over HTTP or through an EIP-1193 `request`.
 *
 * Owns: the client-side wire (hex in and out of these few methods) and clear errors for a node
 * that cannot be reached or refuses. Leaves everything else to `read.ts` and `layout.ts`.
 */
import type { Derivation } from './layout.js';
import type { SlotReader } from './read.js';
/** The default URL of `ringchain serve`. */
export declare const DEFAULT_RPC_URL = "http://127.0.0.1:8545/v3/ringchain";
/** Sends one JSON-RPC request; rejects with `RpcCallError` for an error answer. */
export type Request = (method: string, params: readonly unknown[]) => Promise<unknown>;
/** A JSON-RPC error answer (or a node that cannot be reached: code 0). */
export declare class RpcCallError extends Error {
    readonly code: number;
    readonly data?: unknown | undefined;
    name: string;
    constructor(code: number, message: string, data?: unknown | undefined);
}
/** A `Request` over HTTP POST. */
export declare function httpRequest(url: string): Request;
/** A `Request` over an EIP-1193 provider (`createRingchain()`'s, viem's, ethers'). */
export declare function eip1193Request(provider: {
    request(args: {
        method: string;
        params?: readonly unknown[];
    }): Promise<unknown>;
}): Request;
/** A slot of `ringchain_storageLayout`, decoded. */
export interface SlotEntry {
    readonly slot: bigint;
    readonly value: Uint8Array;
    readonly path: string | null;
    readonly derivation: Derivation | undefined;
}
/** A change of `ringchain_storageDiff`, decoded. */
export interface ChangeEntry {
    readonly address: string;
    readonly slot: bigint;
    readonly before: Uint8Array;
    readonly after: Uint8Array;
    readonly path: string | null;
    readonly derivation: Derivation | undefined;
}
/** What `ringchain_storageDiff` answers. */
export interface Diff {
    readonly blockNumber: bigint;
    readonly blockHash: string;
    readonly transactionHash?: string;
    readonly changes: readonly ChangeEntry[];
}
/** The storage methods of a node, with bigint and bytes. */
export declare class StorageClient {
    #private;
    constructor(request: Request);
    /** The number of the block a tag or number names (checked against the node: a block after the head fails). */
    blockNumber(block: bigint | string): Promise<bigint>;
    /** The 32-byte word at `slot` of `address` at block `number`. */
    storageAt(address: string, slot: bigint, number: bigint): Promise<Uint8Array>;
    /** A `SlotReader` bound to one account and block. */
    reader(address: string, number: bigint): SlotReader;
    /** Every non-zero slot of `address` at block `number`, with its derivation when the node knows it. */
    slots(address: string, number: bigint): Promise<SlotEntry[]>;
    /** The storage changes of a transaction (by hash) or a block (number, tag or hash), optionally of one account. */
    diff(target: string | bigint, address?: string): Promise<Diff>;
}
