/**
 * Domain errors of the chain. They carry facts, never JSON-RPC codes: `src/rpc/` maps each class
 * to its code in one place. Messages are the short texts a real node (geth) gives, because they
 * travel to the client as they are.
 */
/** Base class: every error the chain throws on purpose. */
export class ChainError extends Error {
    name = 'ChainError';
    constructor(message, options) {
        super(message, options);
    }
}
/** A state or block request for a block that has left the window. */
export class BlockOutOfWindowError extends ChainError {
    requested;
    oldest;
    head;
    name = 'BlockOutOfWindowError';
    constructor(requested, oldest, head) {
        super(`pruned history unavailable: block ${requested} is outside the served window ${oldest}..${head}`);
        this.requested = requested;
        this.oldest = oldest;
        this.head = head;
    }
}
/** A block number after the head. */
export class FutureBlockError extends ChainError {
    requested;
    name = 'FutureBlockError';
    constructor(requested) {
        super('header not found');
        this.requested = requested;
    }
}
/** A block hash that names no block of the window. */
export class UnknownBlockError extends ChainError {
    name = 'UnknownBlockError';
    constructor() {
        super('block not found');
    }
}
/** A transaction the pool refuses. The message is geth's. */
export class TxRejectedError extends ChainError {
    name = 'TxRejectedError';
}
export class NonceTooLowError extends TxRejectedError {
    name = 'NonceTooLowError';
    constructor(next, got) {
        super(`nonce too low: next nonce ${next}, tx nonce ${got}`);
    }
}
export class InsufficientFundsError extends TxRejectedError {
    name = 'InsufficientFundsError';
    constructor(address, have, want) {
        super(`insufficient funds for gas * price + value: address ${address} have ${have} want ${want}`);
    }
}
export class IntrinsicGasError extends TxRejectedError {
    name = 'IntrinsicGasError';
    constructor(gas, minimum) {
        super(`intrinsic gas too low: gas ${gas}, minimum needed ${minimum}`);
    }
}
/** A call or gas estimate whose execution reverted. */
export class ExecutionRevertedError extends ChainError {
    data;
    reason;
    name = 'ExecutionRevertedError';
    constructor(data, reason) {
        super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`);
        this.data = data;
        this.reason = reason;
    }
}
/** A call that failed for another reason than a revert (out of gas, invalid opcode, ...). */
export class ExecutionFailedError extends ChainError {
    name = 'ExecutionFailedError';
}
/** Input the chain cannot act on (bad option, unknown snapshot, unsupported fork...). */
export class InvalidInputError extends ChainError {
    name = 'InvalidInputError';
}
//# sourceMappingURL=errors.js.map