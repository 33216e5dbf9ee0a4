/**
 * Keccak preimages of storage slots, as geth's preimage store keeps them, so that a written slot can
 * be named (`0[0x7099…]`: the entry of key 0x7099… of the mapping at slot 0) without anyone naming
 * the key.
 *
 * Owns: recording the inputs of the KECCAK256 opcode while blocks are mined (a wrapper around the
 * EVM's own handler, given to the mining VM as a custom opcode), keeping those that produced a slot
 * the block wrote, deriving a slot's path (root slot, mapping keys, keccak and offsets) from them, and
 * keeping memory flat.
 * Leaves to others: which blocks are in the window and the state itself (`chain.ts`, `state.ts`),
 * what the path means for a given contract (the solc storage layout: `src/inspect/`).
 *
 * Bounded: a block's hashes are only candidates until it is committed; a preimage is kept only while
 * a slot derived from it is named, and a slot stays named while it is non-zero at the head, or at the
 * oldest block of the window, or was last written by a block of the window. Dead names are swept when
 * they outnumber the live ones (amortized, like the trie garbage in `state.ts`).
 */
import type { Common } from '@ethereumjs/common';
import { getOpcodesForHF, type EVMOpts } from '@ethereumjs/evm';
/** One step from a slot to the slot it derives: a mapping entry, the data area of a dynamic value, or an offset. */
export type SlotStep = 
/** `keccak256(key ++ slot)`: `key` is the 32-byte word of a value-type key, or the raw bytes of a string/bytes key. */
{
    readonly kind: 'mapping';
    readonly key: Uint8Array;
}
/** `keccak256(slot)`: where the elements of a dynamic array or the data of a long string/bytes start. */
 | {
    readonly kind: 'keccak';
}
/** `+ by`: a struct member, an array element, a chunk of a string. */
 | {
    readonly kind: 'offset';
    readonly by: bigint;
};
/** How a slot was computed: from a root slot (a state variable's, or an unknown constant), step by step. */
export interface SlotDerivation {
    readonly root: bigint;
    readonly steps: readonly SlotStep[];
}
type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number];
/** An opcode's logic, as the EVM runs it. */
export type OpHandler = ReturnType<typeof getOpcodesForHF>['handlers'] extends Map<number, infer H> ? H : never;
/**
 * The EVM's own opcode `code` under `common`'s fork (its gas rules untouched), its logic wrapped by
 * `wrap`: a custom opcode for `evmOpts.customOpcodes`.
 */
export declare function wrapOpcode(common: Common, code: number, wrap: (original: OpHandler) => OpHandler): CustomOpcode;
interface Entry {
    readonly preimage: Uint8Array;
    /** The kept hash the preimage's slot part derives from, if any. */
    readonly parent: string | undefined;
    /** Named slots and entries that point at this one. */
    refs: number;
}
interface Named {
    /** The hash (unprefixed hex) the slot is an offset of. */
    readonly base: string;
    /** The last mined block that wrote the slot. */
    written: bigint;
}
export interface PreimageSnapshot {
    readonly entries: Map<string, Entry>;
    readonly named: Map<string, Named>;
}
/** Reads the head state and the state at the oldest block of the window, for the sweep. */
export interface LivenessProbe {
    readonly oldest: bigint;
    head(address: string, slot: string): Uint8Array;
    atOldest(address: string, slot: string): Uint8Array;
}
export declare class PreimageStore {
    #private;
    /** `sweepSlack`: dead names tolerated before a sweep, at least (default 10,000; tests lower it). */
    constructor(options?: {
        sweepSlack?: number;
    });
    /** Number of preimages and named slots held (for memory tests). */
    get size(): {
        readonly preimages: number;
        readonly slots: number;
    };
    /**
     * The KECCAK256 opcode of `common`'s fork, recording what it hashes. Give it to the VM that mines
     * (`evmOpts.customOpcodes`); calls and the pending block run without it.
     */
    opcode(common: Common): CustomOpcode;
    /** Notes that the block being mined hashed `input` to `hash` (unprefixed hex); the opcode calls it. */
    record(hash: string, input: Uint8Array): void;
    /**
     * Ends a mined block: names each slot it wrote that derives from a hash it computed, then forgets
     * the other hashes.
     */
    commit(block: bigint, written: Iterable<readonly [address: string, slot: string]>): void;
    /** Forgets the hashes of a block that was not committed. */
    discard(): void;
    /** Drops the names of slots that no block of the window can show any more, when enough have died. */
    sweep(probe: LivenessProbe): void;
    /** How `slot` of `address` was computed, as far as the recorded preimages tell; undefined for an unknown large slot. */
    derivation(address: string, slot: string): SlotDerivation | undefined;
    /** The recorded input of a kept hash (32 bytes, unprefixed hex), if any. */
    preimage(hash: string): Uint8Array | undefined;
    snapshot(): PreimageSnapshot;
    /** Puts back a snapshot (copied: it stays usable). */
    restore(snapshot: PreimageSnapshot): void;
}
export {};
