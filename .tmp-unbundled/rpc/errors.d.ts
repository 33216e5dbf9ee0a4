/** Options every RPC error accepts. */
export interface RpcErrorOptions {
    /** Goes on the wire as `error.data`; must be JSON-serializable. */
    readonly data?: unknown;
    /** What caused it; logged for internal errors, never sent. */
    readonly cause?: unknown;
}
/**
 * Base class of every error that reaches the wire: `code` and `message` become `error.code` and
 * `error.message`, `data` (when set) becomes `error.data`.
 */
export declare class RpcError extends Error {
    name: string;
    readonly code: number;
    readonly data?: unknown;
    constructor(code: number, message: string, options?: RpcErrorOptions);
}
/** -32700: the body is not JSON. */
export declare class ParseError extends RpcError {
    static readonly code: -32700;
    name: string;
    constructor(message?: string, options?: RpcErrorOptions);
}
/** -32600: JSON, but not a JSON-RPC 2.0 request (or an empty or too large batch). */
export declare class InvalidRequestError extends RpcError {
    static readonly code: -32600;
    name: string;
    constructor(message?: string, options?: RpcErrorOptions);
}
/** -32601: no method of that name (geth's wording). */
export declare class MethodNotFoundError extends RpcError {
    readonly method: string;
    static readonly code: -32601;
    name: string;
    constructor(method: string);
}
/** -32602: a parameter could not be decoded or is out of range. */
export declare class InvalidParamsError extends RpcError {
    static readonly code: -32602;
    name: string;
    constructor(message: string, options?: RpcErrorOptions);
}
/**
 * -32603: something failed that should not have. The wire only ever sees `internal error`; the
 * cause is for the log.
 */
export declare class InternalError extends RpcError {
    static readonly code: -32603;
    name: string;
    constructor(options?: {
        readonly cause?: unknown;
    });
}
/**
 * -32000: geth's catch-all server error (`header not found`, transaction rejections such as
 * `nonce too low: next nonce 3, tx nonce 1`). The message is geth's text.
 */
export declare class ServerError extends RpcError {
    static readonly code: -32000;
    name: string;
    constructor(message: string, options?: RpcErrorOptions);
}
/** -32001: a block hash that names no known block. */
export declare class BlockNotFoundError extends RpcError {
    static readonly code: -32001;
    name: string;
    constructor(options?: RpcErrorOptions);
}
/**
 * 3: `eth_call` / `eth_estimateGas` reverted. The message carries the decoded reason when the
 * revert data is an `Error(string)` or `Panic(uint256)` (as geth's `abi.UnpackRevert` decodes
 * it); `data` is the revert data as hex.
 *
 * @example new ExecutionRevertedError(revertBytes).message // 'execution reverted: user error'
 */
export declare class ExecutionRevertedError extends RpcError {
    static readonly code: 3;
    name: string;
    /** The decoded reason, when there is one. */
    readonly reason: string | undefined;
    constructor(revertData: Uint8Array, options?: {
        readonly cause?: unknown;
    });
}
/**
 * 4444: a state request for a block that has left the served window. Never answered from
 * another block instead.
 */
export declare class PrunedHistoryError extends RpcError {
    static readonly code: 4444;
    name: string;
    constructor(requested: bigint, oldest: bigint, head: bigint, options?: {
        readonly cause?: unknown;
    });
}
/**
 * -32005 (EIP-1474 "limit exceeded"): a limit of this server was reached, such as the number of
 * isolated chains. The message says which limit and how to raise it.
 */
export declare class LimitExceededError extends RpcError {
    static readonly code: -32005;
    name: string;
    constructor(message: string, options?: RpcErrorOptions);
}
/**
 * -38026: a request asks for more than geth serves in one call (`eth_getStorageValues` past
 * 1024 slots: `too many slots (max 1024)`); geth's client-limit code.
 */
export declare class ClientLimitExceededError extends RpcError {
    static readonly code: -38026;
    name: string;
    constructor(message: string, options?: RpcErrorOptions);
}
/**
 * Gives a domain error (anything that is not an `RpcError`) its RPC error, or `undefined` when it
 * does not know the error. Written once, next to the method table, by whoever owns that mapping.
 */
export type DomainErrorMapper = (error: unknown) => RpcError | undefined;
/**
 * Any thrown value as the RpcError to send: RpcErrors pass through, the mapper gets a say on
 * everything else, and what nobody knows becomes `InternalError` with the original as `cause`.
 *
 * @example toRpcError(new TypeError('x')).message // 'internal error'
 */
export declare function toRpcError(error: unknown, mapDomainError?: DomainErrorMapper): RpcError;
/**
 * The human reason inside revert data, as geth's `abi.UnpackRevert` finds it: the string of an
 * `Error(string)`, the named panic of a `Panic(uint256)`, else `undefined`.
 */
export declare function decodeRevertReason(data: Uint8Array): string | undefined;
