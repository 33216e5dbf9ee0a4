import type { Scope } from './scope.js';
/** One parameter of an ABI entry. */
export interface AbiParameter {
    readonly name?: string;
    readonly type: string;
    readonly indexed?: boolean;
    readonly components?: readonly AbiParameter[];
}
/** One ABI entry (function, event, constructor, error). */
export interface AbiItem {
    readonly type: string;
    readonly name?: string;
    readonly inputs?: readonly AbiParameter[];
    readonly outputs?: readonly AbiParameter[];
    readonly stateMutability?: string;
    readonly anonymous?: boolean;
}
/** A compiled contract: its ABI and creation bytecode. */
export interface Artifact {
    readonly abi: readonly AbiItem[];
    readonly bytecode: string;
}
/**
 * Reads an artifact: `abi` plus `bytecode` as a hex string (solc's and Hardhat's layout) or as
 * `{ object }` (Foundry's and solc's `evm.bytecode`).
 */
export declare function loadArtifact(path: string, baseDir: string): Promise<Artifact>;
/** Reads an ABI given inline (a list), as a path to an artifact or ABI file, or as signatures. */
export declare function loadAbi(value: unknown, baseDir: string): Promise<readonly AbiItem[]>;
/**
 * Parses a human-readable signature. The keyword may be left out: `transfer(address,uint256)`
 * is a function, `Transfer(address indexed from, …)` given for an event is an event.
 */
export declare function parseSignature(signature: string, kind: 'function' | 'event' | 'constructor'): AbiItem;
/** The function a step names: a signature, or a name looked up in the contract's ABI. */
export declare function findFunction(name: string, abi: readonly AbiItem[] | undefined, argCount: number | undefined): AbiItem;
/** The event a log expectation names: a signature, or a name looked up in the known ABIs. */
export declare function findEvent(name: string, abis: readonly (readonly AbiItem[])[]): AbiItem;
/** `name(type1,type2)` of an entry, tuples expanded. */
export declare function signatureOf(item: AbiItem): string;
/** Calldata of a call to `item` with `args` (a list, or an object by parameter name). */
export declare function encodeCall(item: AbiItem, args: unknown, scope: Scope): string;
/** Constructor arguments, ABI-encoded, to append to the creation bytecode. */
export declare function encodeConstructorArgs(abi: readonly AbiItem[], args: unknown): (scope: Scope) => string;
/** Outputs of `item` decoded from return data, as a list (one entry per output). */
export declare function decodeOutputs(item: AbiItem, data: string): unknown[];
/** A log decoded by `event`: its arguments by name and in order; undefined when topic0 differs. */
export declare function decodeLog(event: AbiItem, topics: readonly string[], data: string): {
    named: Record<string, unknown>;
    list: unknown[];
} | undefined;
/** The topic0 of an event. */
export declare function eventTopic(event: AbiItem): string;
/** A scenario value as the ABI coder wants it for `param` (names become addresses). */
export declare function toAbiValue(param: AbiParameter, value: unknown, scope: Scope, what: string): unknown;
/**
 * The slot of a mapping entry, as Solidity lays it out: `keccak256(key . slot)` per key, the key
 * padded to 32 bytes (value types) or as its bytes (`string`, `bytes`).
 */
export declare function mappingSlot(slot: bigint, keys: readonly unknown[], keyTypes: readonly (string | undefined)[], scope: Scope): bigint;
