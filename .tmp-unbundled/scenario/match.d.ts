/**
 * Expected against actual. An expectation is a value (compared as what the field is: a quantity
 * numerically, an address by name or hex, data case-insensitively, objects partially) or an
 * operator object: `{ min, max }`, `{ contains }`, `{ matches }` (a regular expression),
 * `{ exists }`, `{ not }`.
 *
 * Owns: comparison rules and the mismatch records the report shows (field, expected, actual, and
 * the path in the file that wrote the expectation, for its line). Leaves fetching the actual
 * values to `steps.ts`.
 */
import type { AbiParameter } from './abi.js';
import type { Scope } from './scope.js';
/** One expectation that did not hold. */
export interface Mismatch {
    /** The field as the report names it: `status`, `logs[0].args.value`. */
    readonly field: string;
    readonly expected: unknown;
    readonly actual: unknown;
    /** Where the expectation is written in the scenario document (for its line). */
    readonly path: readonly (string | number)[];
    /** Why, when "expected X, got Y" is not enough. */
    readonly note?: string;
}
/** How a field is compared. */
export type Kind = 'auto' | 'quantity' | 'status' | 'address' | 'hash' | 'data' | 'string' | 'bool' | {
    readonly abi: AbiParameter;
};
/** Whether `value` is an operator object rather than a value to compare. */
export declare function isOperator(value: unknown): value is Record<string, unknown>;
/** Collects the mismatches of one step. */
export declare class Checker {
    #private;
    readonly scope: Scope;
    readonly mismatches: Mismatch[];
    constructor(scope: Scope);
    get ok(): boolean;
    fail(field: string, expected: unknown, actual: unknown, path: readonly (string | number)[], note?: string): void;
    /** Compares and records a mismatch; returns whether it held. */
    check(field: string, expected: unknown, actual: unknown, kind: Kind, path: readonly (string | number)[]): boolean;
}
/** A number out of an RPC value (hex quantity, number, bigint); undefined if it is none. */
export declare function numeric(value: unknown): bigint | undefined;
