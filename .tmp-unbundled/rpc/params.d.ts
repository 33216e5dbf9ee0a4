import { InvalidParamsError } from './errors.js';
/**
 * One positional parameter: how to decode a present value, and what an absent (or `null`) one
 * means. Without `absent` the parameter is required.
 */
export interface Param<T> {
    /** Decodes a present, non-null JSON value. Throws `ArgumentError` (or a complete `InvalidParamsError`). */
    readonly decode: (value: unknown) => T;
    /** The value of an absent or `null` argument; left out for a required argument. */
    readonly absent?: () => T;
}
/** The tuple of values a list of params decodes to. */
export type DecodedParams<P extends readonly Param<unknown>[]> = {
    readonly [K in keyof P]: P[K] extends Param<infer T> ? T : never;
};
/**
 * A decoder's complaint about its value; `decodeParams` turns it into
 * `invalid argument N: <message>`. A decoder whose message geth sends without that prefix throws
 * `InvalidParamsError` itself.
 */
export declare class ArgumentError extends InvalidParamsError {
    name: string;
}
/**
 * The param, made optional: absent or `null` gives `fallback` (or `undefined` without one).
 *
 * @example optional(blockParam, LATEST)
 */
export declare function optional<T>(param: Param<T>): Param<T | undefined>;
export declare function optional<T>(param: Param<T>, fallback: T): Param<T>;
/**
 * Decodes a request's positional params (absent `params` is `[]`), in order, as geth does: the
 * first bad argument wins, then `too many arguments`, then missing required ones.
 *
 * @example decodeParams([address, storageSlot, optional(blockParam, LATEST)], ['0xaa…', '0x0'])
 */
export declare function decodeParams<const P extends readonly Param<unknown>[]>(params: P, raw: readonly unknown[]): DecodedParams<P>;
/** A 20-byte address (`0x` + 40 hex digits, any case; checksums are not enforced, as in geth). */
export declare const address: Param<Uint8Array>;
/** A 32-byte hash (`0x` + 64 hex digits). */
export declare const hash: Param<Uint8Array>;
/** Bytes of any length (`0x` + an even number of hex digits). */
export declare const data: Param<Uint8Array>;
/** A quantity of up to 256 bits (hexutil.Big). */
export declare const quantity: Param<bigint>;
/** A quantity of up to 64 bits (hexutil.Uint64). */
export declare const uint64: Param<bigint>;
/** A position (transaction index in a block; hexutil.Uint), as a number. */
export declare const index: Param<number>;
/** A JSON boolean (`true`/`false`, never a string). */
export declare const bool: Param<boolean>;
/**
 * The storage slot of `eth_getStorageAt`, as geth reads it: `0x` (optional, as in geth) plus up
 * to 64 hex digits, leading zeros allowed, an odd count padded; always 32 bytes, left-padded.
 * geth words its errors without the argument prefix:
 * `storage key too long (want at most 32 bytes): "0x…"`, `invalid hex in storage key: "0x…"`.
 */
export declare const storageSlot: Param<Uint8Array>;
/**
 * A storage key as geth's `decodeStorageKey` reads it (`eth_getStorageAt`, `eth_getProof`): the
 * 32-byte slot, and how many bytes the text gave (`eth_getProof` echoes a 32-byte key as it is and
 * any shorter one as a quantity). Errors are -32602 in geth's words, without an argument prefix.
 */
export declare function storageKey(text: string): {
    readonly slot: Uint8Array;
    readonly length: number;
};
/** The storage keys of `eth_getProof` as strings (geth's `[]string`); each is read by `storageKey` once all arguments are decoded. */
export declare const storageKeyList: Param<readonly string[]>;
/** One account's slots in an `eth_getStorageValues` request. */
export interface StorageRequest {
    readonly address: Uint8Array;
    readonly slots: readonly Uint8Array[];
}
/**
 * The request map of `eth_getStorageValues` (geth's `map[common.Address][]common.Hash`): addresses
 * as map keys (so two spellings of one address keep the later list, as Go's decoder does), slots
 * as full 32-byte hashes.
 */
export declare const storageRequests: Param<readonly StorageRequest[]>;
/** The named blocks. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';
/** A block by tag or number (what `eth_getBlockByNumber` and filter ranges take). */
export type BlockNumberParam = {
    readonly kind: 'tag';
    readonly tag: BlockTag;
} | {
    readonly kind: 'number';
    readonly number: bigint;
};
/** A block by tag, number or hash (EIP-1898; what state methods take). */
export type BlockParam = BlockNumberParam | {
    readonly kind: 'hash';
    readonly hash: Uint8Array;
    readonly requireCanonical: boolean;
};
/** The `latest` block: the usual default of an optional block parameter. */
export declare const LATEST: BlockNumberParam;
/** The `pending` block. */
export declare const PENDING: BlockNumberParam;
/** A block tag (`latest`, `earliest`, `pending`, `safe`, `finalized`) or number. */
export declare const blockNumber: Param<BlockNumberParam>;
/**
 * A block tag, number, 32-byte block hash, or EIP-1898 object (`{blockNumber}` or
 * `{blockHash, requireCanonical?}`).
 */
export declare const blockParam: Param<BlockParam>;
/** One entry of an EIP-2930 access list. */
export interface AccessListItem {
    readonly address: Uint8Array;
    readonly storageKeys: readonly Uint8Array[];
}
/** One EIP-7702 authorization. */
export interface Authorization {
    readonly chainId: bigint;
    readonly address: Uint8Array;
    readonly nonce: bigint;
    readonly yParity: bigint;
    readonly r: bigint;
    readonly s: bigint;
}
/**
 * The transaction object of `eth_call`, `eth_estimateGas`, `eth_sendTransaction`: every member
 * optional, `data` being `input` or `data` (geth's TransactionArgs; `null` members are absent,
 * unknown members ignored).
 */
export interface TransactionRequest {
    readonly from?: Uint8Array;
    /** Absent for a contract creation. */
    readonly to?: Uint8Array;
    readonly gas?: bigint;
    readonly gasPrice?: bigint;
    readonly maxFeePerGas?: bigint;
    readonly maxPriorityFeePerGas?: bigint;
    readonly maxFeePerBlobGas?: bigint;
    readonly value?: bigint;
    readonly nonce?: bigint;
    /** From `input`, else `data` (both given must be equal). */
    readonly data?: Uint8Array;
    readonly accessList?: readonly AccessListItem[];
    readonly chainId?: bigint;
    readonly type?: bigint;
    readonly authorizationList?: readonly Authorization[];
    readonly blobVersionedHashes?: readonly Uint8Array[];
}
/** A transaction call object (geth's TransactionArgs). */
export declare const transactionRequest: Param<TransactionRequest>;
/**
 * The filter of `eth_getLogs` / `eth_newFilter`. `blockHash` excludes `fromBlock`/`toBlock` (the
 * decoder refuses both). `addresses` empty means any address; a `null` topic position (or an
 * empty or null-containing list there) matches anything.
 */
export interface LogFilter {
    readonly blockHash?: Uint8Array;
    readonly fromBlock?: BlockNumberParam;
    readonly toBlock?: BlockNumberParam;
    readonly addresses: readonly Uint8Array[];
    readonly topics: readonly (readonly Uint8Array[] | null)[];
}
/** A log filter object (geth's FilterCriteria). */
export declare const logFilter: Param<LogFilter>;
/**
 * A whole number of seconds as anvil reads it (a `u64`): a JSON number, which is what viem sends,
 * or a quantity string.
 */
export declare const seconds: Param<bigint>;
/** EIP-712 typed data, as `eth_signTypedData_v4` takes it. */
export interface TypedData {
    readonly types: Readonly<Record<string, readonly {
        readonly name: string;
        readonly type: string;
    }[]>>;
    readonly primaryType: string;
    readonly domain: Readonly<Record<string, unknown>>;
    readonly message: Readonly<Record<string, unknown>>;
}
/**
 * EIP-712 typed data: the JSON object, or a string holding it (viem and ethers send a string).
 * Only the outline is checked here; the types and values are checked when the data is hashed.
 */
export declare const typedData: Param<TypedData>;
