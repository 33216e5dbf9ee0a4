/**
 * Domain errors of the chain. They carry facts, never JSON-RPC codes: `src/rpc/` maps each class
 * to its code in one place. Messages are the short texts a real node (geth) gives, because they
 * travel to the client as they are.
 */
/** Base class: every error the chain throws on purpose. */
export declare class ChainError extends Error {
    name: string;
    constructor(message: string, options?: {
        cause?: unknown;
    });
}
/** A state or block request for a block that has left the window. */
export declare class BlockOutOfWindowError extends ChainError {
    readonly requested: bigint;
    readonly oldest: bigint;
    readonly head: bigint;
    name: string;
    constructor(requested: bigint, oldest: bigint, head: bigint);
}
/** A block number after the head. */
export declare class FutureBlockError extends ChainError {
    readonly requested: bigint;
    name: string;
    constructor(requested: bigint);
}
/** A block hash that names no block of the window. */
export declare class UnknownBlockError extends ChainError {
    name: string;
    constructor();
}
/** A transaction the pool refuses. The message is geth's. */
export declare class TxRejectedError extends ChainError {
    name: string;
}
export declare class NonceTooLowError extends TxRejectedError {
    name: string;
    constructor(next: bigint, got: bigint);
}
export declare class InsufficientFundsError extends TxRejectedError {
    name: string;
    constructor(address: string, have: bigint, want: bigint);
}
export declare class IntrinsicGasError extends TxRejectedError {
    name: string;
    constructor(gas: bigint, minimum: bigint);
}
/** A call or gas estimate whose execution reverted. */
export declare class ExecutionRevertedError extends ChainError {
    readonly data: Uint8Array;
    readonly reason: string | undefined;
    name: string;
    constructor(data: Uint8Array, reason: string | undefined);
}
/** A call that failed for another reason than a revert (out of gas, invalid opcode, ...). */
export declare class ExecutionFailedError extends ChainError {
    name: string;
}
/** Input the chain cannot act on (bad option, unknown snapshot, unsupported fork...). */
export declare class InvalidInputError extends ChainError {
    name: string;
}
