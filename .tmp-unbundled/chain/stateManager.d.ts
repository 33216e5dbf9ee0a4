/**
 * The state manager the VM executes against: a stack of write layers over a `StateReader`.
 *
 * Owns: the VM's view of state during one block (or one call), checkpoints, commits and reverts of
 * that view, and handing the net changes to `WorldState` when the block is done.
 * Leaves to others: where reads come from (the head, or a block of the window: the reader decides),
 * state roots and history (`state.ts`).
 *
 * Why not ethereumjs's MerkleStateManager: it writes every block into a trie that keeps all nodes
 * forever, and it cannot read an older block without those nodes. Here a block's writes stay in
 * plain maps until the block is committed, so calls at any block of the window are cheap views.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { OriginalStorageCache } from '@ethereumjs/statemanager';
import { Account, type Address } from '@ethereumjs/util';
import { type ComputedRoot, type StateChanges, type StateReader } from './state.js';
import type { AccountRecord } from './types.js';
type Keccak = (data: Uint8Array) => Uint8Array;
/** Computes roots for pending changes; given by the world state for the head, absent for views. */
export type RootComputer = (changes: StateChanges) => Promise<ComputedRoot>;
export declare class RingStateManager implements StateManagerInterface {
    #private;
    readonly originalStorageCache: OriginalStorageCache;
    constructor(reader: StateReader, options?: {
        keccak?: Keccak;
        computeRoot?: RootComputer;
    });
    /** The net changes of everything committed so far (the bottom layer). */
    get changes(): StateChanges;
    /** Drops all pending writes and reads from `reader` from now on. */
    reset(reader?: StateReader): void;
    /** The account record as this view sees it (undefined: no account). */
    accountRecord(address: string): AccountRecord | undefined;
    storageValue(address: string, slot: string): Uint8Array;
    codeOf(codeHash: Uint8Array): Uint8Array;
    getAccount(address: Address): Promise<Account | undefined>;
    getCode(address: Address): Promise<Uint8Array>;
    getCodeSize(address: Address): Promise<number>;
    getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
    putAccount(address: Address, account?: Account): Promise<void>;
    deleteAccount(address: Address): Promise<void>;
    modifyAccountFields(address: Address, fields: AccountFields): Promise<void>;
    putCode(address: Address, value: Uint8Array): Promise<void>;
    putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void>;
    clearStorage(address: Address): Promise<void>;
    checkpoint(): Promise<void>;
    commit(): Promise<void>;
    revert(): Promise<void>;
    /** State root with every pending write applied (all layers, committed or not). */
    getStateRoot(): Promise<Uint8Array>;
    /** Roots for the pending writes; cached until the next write. */
    computeRoot(): Promise<ComputedRoot>;
    setStateRoot(): Promise<void>;
    hasStateRoot(): Promise<boolean>;
    clearCaches(): void;
    shallowCopy(): StateManagerInterface;
}
export {};
