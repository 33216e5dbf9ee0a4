/**
 * Storage changes and listings for inspection: what a block or a transaction of the window changed,
 * and which slots an account holds at a block.
 *
 * Owns: recording, while a block is mined, the slots each transaction writes (a wrapper around the
 * EVM's SSTORE handler, given to the mining VM as a custom opcode) with their values before and
 * after it, so a transaction's diff inside a block of many needs no re-execution; reading block
 * diffs and an account's slots at a block from the state history. A block's transaction lists live
 * in a WeakMap keyed by its record, so they leave with the block (and come back with a snapshot
 * that holds it).
 * Leaves to others: the state and its history (`state.ts`), slot names (`preimages.ts`).
 */
import type { Common } from '@ethereumjs/common';
import type { VM } from '@ethereumjs/vm';
import { wrapOpcode } from './preimages.js';
import type { WorldState } from './state.js';
import type { BlockRecord } from './types.js';
/** One slot a transaction changed; values without leading zeros (empty = zero), as the state keeps them. */
export interface StorageWrite {
    /** Unprefixed lowercase hex, 20 bytes. */
    readonly address: string;
    /** Unprefixed lowercase hex, 32 bytes. */
    readonly slot: string;
    readonly before: Uint8Array;
    readonly after: Uint8Array;
}
export declare class StorageWriteRecorder {
    #private;
    /** `read` gives the value the mining VM sees now (its state manager's view). */
    constructor(read: (address: string, slot: string) => Uint8Array);
    /** The SSTORE opcode of `common`'s fork, noting the slot and its value before the transaction. */
    opcode(common: Common): ReturnType<typeof wrapOpcode>;
    /** Listens to the transactions `vm` runs (system calls between them are not transactions). */
    attach(vm: VM): void;
    /** Gives the writes of the block just mined to its record; forgets anything left from a failed one. */
    finishBlock(record: BlockRecord): void;
    /** Drops what a block being mined recorded so far (it was not committed). */
    discard(): void;
    /** The writes of transaction `index` of a mined block; undefined when the block was not mined here. */
    writesOf(record: BlockRecord, index: number): readonly StorageWrite[] | undefined;
}
/** What block `number` changed, read from the state history (system calls and test-control writes included). */
export declare function blockChanges(world: WorldState, number: bigint): StorageWrite[];
/** The non-zero slots of `address` at block `number` of the window (`head` is the head's number): slot → value. */
export declare function accountSlots(world: WorldState, address: string, number: bigint, head: bigint): Map<string, Uint8Array>;
