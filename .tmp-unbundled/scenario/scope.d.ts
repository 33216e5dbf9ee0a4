/**
 * The names a scenario defines as it plays: accounts (dev accounts by index, extra keys, plain
 * addresses) and captures (`as: token`), and the `${token.address}` references that read them.
 *
 * Owns: name lookup, reference syntax and substitution, and turning a name into the address or
 * transaction hash a step needs. A transaction's `receipt` is fetched when a reference first reads
 * it (and again while it is null), so `${tx1.receipt.blockNumber}` works after a later `mine`.
 * Leaves value syntax to `values.ts` and RPC to `client.ts`.
 */
import type { AbiItem } from './abi.js';
import type { Client } from './client.js';
import { ScenarioValueError } from './values.js';
/** A dev account or an extra key: the runner signs for it when it holds the key. */
export interface AccountEntry {
    readonly kind: 'account';
    readonly address: string;
    readonly privateKey?: string;
    /** Dev account index, when it is one. */
    readonly index?: number;
}
/** What `as:` keeps of a sent transaction (and, for a deployment, of the contract). */
export declare class TxCapture {
    #private;
    readonly hash: string;
    readonly from: string;
    readonly to: string | null;
    readonly nonce: bigint;
    /** The created contract's address (deployments) and its ABI, when known. */
    readonly address?: string | undefined;
    readonly abi?: readonly AbiItem[] | undefined;
    readonly kind = "tx";
    constructor(client: Client, hash: string, from: string, to: string | null, nonce: bigint, 
    /** The created contract's address (deployments) and its ABI, when known. */
    address?: string | undefined, abi?: readonly AbiItem[] | undefined);
    /** The receipt as the node last answered it (null while pending or once its block left the window). */
    receipt(): Promise<unknown>;
    /** Keeps a receipt already fetched, so references made after its block left the window still read it. */
    remember(receipt: unknown): void;
    field(key: string): Promise<unknown>;
    keys(): string[];
}
/** A capture that is just data (a call's result, a block number). */
export type Capture = TxCapture | AccountEntry | Readonly<Record<string, unknown>>;
/** A reference, a name or an address that names nothing the scenario knows. */
export declare class ReferenceError extends ScenarioValueError {
    name: string;
}
export declare class Scope {
    #private;
    constructor(devAccounts: readonly AccountEntry[]);
    get devAccounts(): readonly AccountEntry[];
    define(name: string, value: Capture): void;
    /** A name's entry, without following a path. */
    get(name: string): Capture | undefined;
    /** Dev account `index`. */
    dev(index: number): AccountEntry;
    /** The value of `${path}`: `token.address`, `tx1.receipt.blockNumber`, `call1.returns[0]`. */
    lookup(path: string): Promise<unknown>;
    /**
     * Substitutes every `${…}` in `value` (deeply). A string that is one reference becomes the value
     * itself (a number stays a number); references inside text are written as text. `$${` is a
     * literal `${`.
     */
    resolve(value: unknown): Promise<unknown>;
    /**
     * The address a value names: a dev account index, an account or contract name, a capture with
     * an address, or a literal address (lowercased).
     */
    address(value: unknown, what?: string): string;
    /** Whether `value` names an address (without throwing). */
    isAddressLike(value: unknown): boolean;
    /** The transaction hash a value names: a capture of a sent transaction, or a literal hash. */
    hash(value: unknown, what?: string): string;
    /** The capture of a transaction by hash (to remember receipts). */
    transaction(hash: string): TxCapture | undefined;
    /** The key the runner holds for an address, if any. */
    keyOf(address: string): string | undefined;
    /** ABIs known for an address (from deployments with an artifact or an ABI). */
    abiOf(address: string): readonly AbiItem[] | undefined;
    /** Every ABI the scenario knows, for events named without a signature. */
    allAbis(): (readonly AbiItem[])[];
    /** A short name for an address in step descriptions: the scenario's own name for it, else the address. */
    nameOf(address: string): string;
}
/** Levenshtein distance, for "did you mean". */
export declare function distance(a: string, b: string): number;
