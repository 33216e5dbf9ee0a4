/**
 * EIP-1186 proofs (`eth_getProof`): the account trie and one account's storage trie as of a block,
 * and the trie nodes that prove an account and some of its slots, as geth's `trie.Prove` lists them.
 *
 * Owns: turning a captured picture of the state (`ProofSource`, taken by `WorldState`) into tries
 * over a scratch node layer, and reading the proofs and proven values out of them.
 * Leaves to others: which state a block had and how history is kept (`state.ts` captures it),
 * block references (`chain.ts`), hex and wire shapes (`src/rpc/`).
 *
 * Why a scratch layer over the shared nodes: `WorldState` only guarantees the head's trie nodes
 * (older ones are garbage-collected). An older block's tries are the head's with that block's
 * later changes put back, so the puts go to a private overlay map and the shared node map is only
 * read: nothing the chain holds changes, and the overlay is dropped with the answer.
 */
import type { Common } from '@ethereumjs/common';
import type { AccountRecord } from './types.js';
/** An account's fields as its trie leaf holds them. */
export interface ProvenAccount {
    readonly nonce: bigint;
    readonly balance: bigint;
    readonly storageRoot: Uint8Array;
    readonly codeHash: Uint8Array;
}
/** One slot's value and the storage-trie nodes that prove it (empty when the account has no storage). */
export interface SlotProof {
    /** The 32-byte slot. */
    readonly slot: Uint8Array;
    readonly value: bigint;
    readonly proof: readonly Uint8Array[];
}
/** An account (undefined: none at that block) with its account-trie proof and the proofs of the slots asked for. */
export interface AccountProof {
    readonly address: Uint8Array;
    readonly account: ProvenAccount | undefined;
    readonly accountProof: readonly Uint8Array[];
    readonly storageProof: readonly SlotProof[];
}
/**
 * What a proof is built from, captured synchronously by `WorldState` so that blocks mined while
 * the tries are walked cannot change it. Keys are unprefixed lowercase hex.
 */
export interface ProofSource {
    readonly common: Common;
    /** The shared trie nodes (only read). */
    readonly nodes: ReadonlyMap<string, Uint8Array>;
    /** An account-trie root whose nodes `nodes` holds (the head's, or the pending block's). */
    readonly root: Uint8Array;
    /** Accounts to put back as they were at the block asked for (undefined: did not exist). */
    readonly accounts: ReadonlyArray<readonly [address: string, record: AccountRecord | undefined]>;
    /** The account proven. */
    readonly address: string;
    /** Its storage root under `root` (undefined: read it from its leaf there). */
    readonly storageRoot: Uint8Array | undefined;
    /** Its slots to put back as they were at the block asked for (empty value: zero). */
    readonly slots: ReadonlyArray<readonly [slot: string, value: Uint8Array]>;
}
/**
 * Builds the account trie and the account's storage trie of `source` over a scratch layer and
 * proves `address` and each of `slots` (32-byte keys, unprefixed hex). Throws if the storage
 * trie it rebuilt does not hash to the storage root its account leaf names (a broken history).
 */
export declare function buildProof(source: ProofSource, slots: readonly string[]): Promise<AccountProof>;
/** Whether `nodes` holds the root node of a trie (the empty trie needs none). */
export declare function holdsRoot(nodes: ReadonlyMap<string, Uint8Array>, root: Uint8Array): boolean;
