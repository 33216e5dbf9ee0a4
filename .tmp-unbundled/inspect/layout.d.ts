import { type KeyKind } from './slots.js';
/** A bad layout file, path or key: the message says what and where. */
export declare class LayoutError extends Error {
    name: string;
}
/** One entry of solc's `storageLayout.storage` (or of a struct's `members`). */
export interface SolcStorageEntry {
    readonly label: string;
    readonly slot: string;
    readonly offset: number;
    readonly type: string;
}
/** One entry of solc's `storageLayout.types`. */
export interface SolcType {
    readonly encoding: 'inplace' | 'mapping' | 'dynamic_array' | 'bytes';
    readonly label: string;
    readonly numberOfBytes: string;
    readonly base?: string;
    readonly key?: string;
    readonly value?: string;
    readonly members?: readonly SolcStorageEntry[];
}
/** solc's `storageLayout` output. */
export interface SolcStorageLayout {
    readonly storage: readonly SolcStorageEntry[];
    readonly types: Readonly<Record<string, SolcType>> | null;
}
/** How a value type is decoded. */
export type ValueKind = KeyKind | {
    readonly kind: 'enum';
} | {
    readonly kind: 'other';
};
/** A type of the layout, resolved. Children are named by type id and looked up with `Layout.type`. */
export type TypeInfo = {
    readonly kind: 'value';
    readonly id: string;
    readonly label: string;
    readonly bytes: number;
    readonly value: ValueKind;
} | {
    readonly kind: 'bytes';
    readonly id: string;
    readonly label: string;
    readonly string: boolean;
} | {
    readonly kind: 'mapping';
    readonly id: string;
    readonly label: string;
    readonly key: string;
    readonly value: string;
} | {
    readonly kind: 'dynamicArray';
    readonly id: string;
    readonly label: string;
    readonly base: string;
} | {
    readonly kind: 'staticArray';
    readonly id: string;
    readonly label: string;
    readonly base: string;
    readonly length: bigint;
    readonly bytes: number;
} | {
    readonly kind: 'struct';
    readonly id: string;
    readonly label: string;
    readonly members: readonly Member[];
    readonly bytes: number;
};
/** A state variable or struct member. */
export interface Member {
    readonly name: string;
    readonly slot: bigint;
    readonly offset: number;
    readonly type: string;
}
/** Where a resolved path lives. */
export interface Resolved {
    /** The path, normalized (`balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]`). */
    readonly path: string;
    readonly slot: bigint;
    /** Bytes from the low-order end of the word (value types only; 0 otherwise). */
    readonly offset: number;
    readonly type: TypeInfo;
}
/** One thing a storage word holds, named: a value-type field, an array's length, the head or a data chunk of a string. */
export interface WordField {
    readonly path: string;
    readonly role: 'value' | 'length' | 'bytesHead' | 'bytesData';
    readonly type: TypeInfo;
    readonly offset: number;
    readonly size: number;
}
/** How a slot was derived, as `ringchain_storageLayout` and `ringchain_storageDiff` tell it. */
export interface Derivation {
    readonly root: bigint;
    readonly steps: readonly DerivationStep[];
}
export type DerivationStep = {
    readonly kind: 'mapping';
    readonly key: Uint8Array;
} | {
    readonly kind: 'keccak';
} | {
    readonly kind: 'offset';
    readonly by: bigint;
};
/** A contract's storage layout. */
export declare class Layout {
    #private;
    readonly variables: readonly Member[];
    constructor(layout: SolcStorageLayout);
    /** The resolved type of a type id. */
    type(id: string): TypeInfo;
    /** The variable named `name`. */
    variable(name: string): Member;
    /**
     * Resolves a variable path to its slot, offset and type.
     *
     * @example layout.resolve('balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]').slot
     */
    resolve(path: string): Resolved;
    /** Slots a value of this type takes where it is declared (1 for mappings, dynamic arrays, strings). */
    slots(type: TypeInfo): bigint;
    /**
     * Names what the word at a derived slot holds (several fields when values are packed), or
     * undefined when the derivation does not fit this layout. `onKey` sees each mapping entry on the
     * way, with the (absolute) slot of the mapping it indexes.
     */
    name(derivation: Derivation, onKey?: (mappingSlot: bigint, key: Uint8Array) => void): WordField[] | undefined;
    /**
     * The mapping keys a set of derivations went through, by the (absolute) slot of the mapping they
     * index, so that a mapping can be listed with the entries the chain has seen.
     */
    knownKeys(derivations: Iterable<Derivation>): KnownKeys;
}
/** Mapping slot → the keys seen for it (hex → encoded key). */
export type KnownKeys = Map<bigint, Map<string, Uint8Array>>;
/**
 * Reads a solc storage layout from JSON: the `storageLayout` object itself, or an artifact that
 * holds one at `storageLayout` (solc standard JSON output per contract, Foundry with
 * `extra_output = ["storageLayout"]`, ringchain's own fixtures).
 */
export declare function parseLayout(json: unknown): Layout;
/** Bytes a value of this type takes in place (32 for mappings, dynamic arrays and strings). */
export declare function byteSize(t: TypeInfo): number;
type PathStep = {
    readonly kind: 'member';
    readonly name: string;
} | {
    readonly kind: 'index';
    readonly text: string;
};
/** Splits `a.b[0x1]["x]y"][2]` into steps; quoted keys may hold `]` and `.`. */
export declare function parsePath(path: string): PathStep[];
/**
 * A mapping key written in a path, encoded as solc hashes it: `0x…` addresses (any case), decimal
 * or `0x` numbers (a `-` for signed), `true`/`false`, `0x…` of exactly N bytes for `bytesN`,
 * `"text"` (or bare text) for string keys, `0x…` for `bytes` keys.
 */
export declare function parseKey(type: TypeInfo, text: string, where?: string): Uint8Array;
/** A mapping key as a path writes it (checksummed addresses, decimal numbers, quoted strings). */
export declare function formatKey(type: TypeInfo, key: Uint8Array): string;
export declare function hexOf(bytes: Uint8Array): string;
export declare function hexToBytes(text: string): Uint8Array;
/** An address (as a number) with its EIP-55 checksum. */
export declare function checksumAddress(value: bigint): string;
export {};
