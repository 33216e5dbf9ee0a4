/**
 * Reading a contract's variables out of storage: value types, strings and bytes (short and long
 * form), arrays with their elements, structs member by member, and mapping entries for the keys
 * the chain has seen.
 *
 * Owns: turning words into values for a layout's types, and walking a variable through as many
 * reads as it takes (through any `SlotReader`: JSON-RPC, or a chain in-process). Leaves slot
 * arithmetic to `slots.ts`, paths and types to `layout.ts`, transport to `client.ts`.
 */
import { type KnownKeys, type Layout, type Resolved, type TypeInfo, type WordField } from './layout.js';
/** Reads the 32-byte word at a slot (of one account, at one block: the reader is bound to both). */
export type SlotReader = (slot: bigint) => Promise<Uint8Array>;
/** A decoded value. */
export type Value = {
    readonly kind: 'value';
    readonly type: string;
    readonly text: string;
} | {
    readonly kind: 'bytes';
    readonly type: string;
    readonly length: bigint;
    readonly text: string;
    readonly truncated: boolean;
} | {
    readonly kind: 'array';
    readonly type: string;
    readonly length: bigint;
    readonly elements: readonly Value[];
    readonly truncated: boolean;
} | {
    readonly kind: 'struct';
    readonly type: string;
    readonly members: readonly {
        readonly name: string;
        readonly value: Value;
    }[];
} | {
    readonly kind: 'mapping';
    readonly type: string;
    readonly entries: readonly {
        readonly key: string;
        readonly slot: bigint;
        readonly value: Value;
    }[];
};
/** Limits of one read, so a huge array or string does not turn into millions of requests. */
export interface ReadOptions {
    /** Elements read per array (default 32). */
    readonly maxElements?: number;
    /** Bytes read per string or `bytes` (default 1024). */
    readonly maxBytes?: number;
    /** Mapping entries to list, by mapping slot (from `Layout.knownKeys`). */
    readonly knownKeys?: KnownKeys;
}
/** One state variable, read. */
export interface VariableValue {
    readonly name: string;
    readonly type: string;
    readonly slot: bigint;
    readonly offset: number;
    readonly value: Value;
}
/** A reader that asks for each slot once. */
export declare function cachedReader(read: SlotReader): SlotReader;
/** Decodes a value-type field of a word. */
export declare function decodeField(type: TypeInfo, word: Uint8Array, offset: number): string;
/** Decodes what a word holds for each of its named fields (see `Layout.name`): `path = value`. */
export declare function decodeWordFields(fields: readonly WordField[], word: Uint8Array): {
    path: string;
    text: string;
}[];
/** Reads and decodes what a resolved path points at. */
export declare function readResolved(layout: Layout, read: SlotReader, at: Resolved, options?: ReadOptions): Promise<Value>;
/** Reads every state variable of the layout. */
export declare function readAll(layout: Layout, read: SlotReader, options?: ReadOptions): Promise<VariableValue[]>;
/**
 * Variables as text, one per line, nested values indented:
 * `_totalSupply  uint256  slot 2  = 1000`, mapping entries below their mapping.
 */
export declare function renderVariables(vars: readonly VariableValue[]): string;
/** A value as text lines: scalars on the head line, containers below it. */
export declare function renderValue(value: Value, head: string, indent: string, lines: string[]): void;
