/**
 * The plain values a scenario writes: quantities with units (`1.5 ether`, `30 gwei`, `0x5208`),
 * durations (`90s`, `2h`), addresses, hashes and hex data, each parsed or rejected with a message
 * that says what was expected.
 *
 * Owns: the syntax of a value. Leaves names and `${…}` references to `scope.ts`, and comparing
 * values to `match.ts`.
 */
/** A value the scenario file got wrong: the runner reports it at the step's line. */
export declare class ScenarioValueError extends Error {
    name: string;
}
/** Whether `value` can be read as a quantity (an integer, a decimal or hex string, or a number with a unit). */
export declare function isQuantityLike(value: unknown): boolean;
/**
 * Reads a quantity: `21000`, `"0x5208"`, `"1_000_000"`, `"1.5 ether"`, `"30 gwei"`.
 * @example parseQuantity('1.5 ether') // 1500000000000000000n
 */
export declare function parseQuantity(value: unknown, what?: string, allowNegative?: boolean): bigint;
/** Reads a duration in seconds: `3600`, `"90s"`, `"15m"`, `"2h"`, `"1d"`. */
export declare function parseDuration(value: unknown, what?: string): bigint;
/** Lowercase hex of a quantity, as JSON-RPC writes it. */
export declare function toQuantityHex(value: bigint | number): string;
export declare const ADDRESS: RegExp;
export declare const HASH: RegExp;
export declare const HEX_DATA: RegExp;
export declare function isAddress(value: unknown): value is string;
export declare function isHash(value: unknown): value is string;
/** Reads hex data (`0x` and whole bytes), lowercased. */
export declare function parseData(value: unknown, what?: string): string;
export declare function hexToBytes(hex: string): Uint8Array;
export declare function bytesToHex(bytes: Uint8Array): string;
/** A value as a message shows it: strings quoted, bigints as numbers, objects as compact JSON. */
export declare function show(value: unknown): string;
