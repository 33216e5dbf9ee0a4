import type { Common } from '@ethereumjs/common';
import { type AccountProof } from './proofs.js';
import type { AccountRecord } from './types.js';
/** A zero storage value: slots hold their value without leading zeros, so zero is empty. */
export declare const EMPTY: Uint8Array<ArrayBuffer>;
/** Reads the state as of one block (or the live head). Keys are unprefixed lowercase hex. */
export interface StateReader {
    account(address: string): AccountRecord | undefined;
    storage(address: string, slot: string): Uint8Array;
    code(codeHash: string): Uint8Array | undefined;
}
/** The net effect of a block (or of a test-control write) on the state. */
export interface StateChanges {
    /** `null` deletes the account (and its storage). */
    readonly accounts: Map<string, AccountRecord | null>;
    /** Slot writes per account, applied after `cleared`. Values without leading zeros; empty = zero. */
    readonly storage: Map<string, Map<string, Uint8Array>>;
    /** Accounts whose whole storage is wiped before `storage` applies. */
    readonly cleared: Set<string>;
    /** New code by code hash. */
    readonly code: Map<string, Uint8Array>;
}
export declare function emptyChanges(): StateChanges;
/** The roots computed for a set of changes, ready to be committed. */
export interface ComputedRoot {
    readonly root: Uint8Array;
    /** Final records of the changed accounts, with their new storage roots. */
    readonly accounts: Map<string, AccountRecord | null>;
}
interface Change<T> {
    readonly block: bigint;
    /** The value before `block` changed it. */
    readonly before: T;
}
/** What one block changed, so that its history can leave with it. */
interface BlockKeys {
    readonly accounts: string[];
    readonly storage: string[];
}
/** Everything needed to put the world state back as it was. */
export interface WorldStateSnapshot {
    readonly accounts: Map<string, AccountRecord>;
    readonly storage: Map<string, Map<string, Uint8Array>>;
    readonly code: Map<string, Uint8Array>;
    readonly accountHistory: Map<string, Change<AccountRecord | undefined>[]>;
    readonly storageHistory: Map<string, Change<Uint8Array>[]>;
    readonly byBlock: Map<bigint, BlockKeys>;
    readonly root: Uint8Array;
}
export declare class WorldState {
    #private;
    /** The live head state. */
    readonly head: StateReader;
    constructor(common: Common);
    /** State root of the head state. */
    get root(): Uint8Array;
    /** The state as of the end of block `number` (which the caller has checked is in the window). */
    at(number: bigint): StateReader;
    accountAt(address: string, number: bigint): AccountRecord | undefined;
    storageAt(address: string, slot: string, number: bigint): Uint8Array;
    /** Every non-zero slot of an account at the head. */
    slots(address: string): ReadonlyMap<string, Uint8Array>;
    /** The `[address, slot]` pairs whose value block `number` changed, once each (empty once it left the window). */
    changedSlots(number: bigint): Array<readonly [address: string, slot: string]>;
    /**
     * EIP-1186 proof of `address` and `slots` (unprefixed hex) as of the end of block `number`,
     * which the caller has checked is in the window.
     *
     * Only the head's trie nodes are kept, so the blocks after `number` are undone on a scratch
     * layer over the head's tries: every account they changed, and this account's slots they
     * changed, are put back as they were. Cost: (accounts changed after `number` + this account's
     * slots changed after `number`) × trie depth node hashes, plus one history lookup each; nothing
     * in proportion to the whole state, and nothing shared is written. At the head it is just the
     * proof walk.
     */
    prove(address: string, slots: readonly string[], number: bigint): Promise<AccountProof>;
    /**
     * EIP-1186 proof against `root`, a state computed on top of the head (the pending block's), as
     * long as the tries still hold its nodes; undefined once a rebuild has dropped them.
     */
    proveAtRoot(root: Uint8Array, address: string, slots: readonly string[]): Promise<AccountProof> | undefined;
    /** Number of accounts at the head. */
    get accountCount(): number;
    /**
     * Computes the state root the head would have with `changes` applied, without applying them.
     * The tries are persistent, so the head's root stays valid whatever is computed here.
     */
    computeRoot(changes: StateChanges): Promise<ComputedRoot>;
    /**
     * Makes `changes` the head state, remembering for each changed key its value before `block`, so
     * that reads at earlier blocks of the window still see it.
     */
    commit(changes: StateChanges, computed: ComputedRoot, block: bigint): Promise<void>;
    /** Forgets what `block` changed: reads at blocks before it are no longer possible. */
    evict(block: bigint): void;
    snapshot(): WorldStateSnapshot;
    /** Puts back a snapshot (which stays usable: it is copied, not adopted). */
    restore(snapshot: WorldStateSnapshot): Promise<void>;
    /** Rebuilds the tries from the flat head state into a fresh node map (drops garbage nodes). */
    rebuildTries(): Promise<void>;
    /** Number of trie nodes held (live and garbage): for memory tests. */
    get trieNodeCount(): number;
}
export declare function encodeAccount(record: AccountRecord): Uint8Array;
export declare function equal(a: Uint8Array, b: Uint8Array): boolean;
/** A new account record with no code and no storage. */
export declare function newAccount(fields?: {
    nonce?: bigint;
    balance?: bigint;
}): AccountRecord;
export {};
