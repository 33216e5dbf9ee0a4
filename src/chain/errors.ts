/**
 * Domain errors of the chain. They carry facts, never JSON-RPC codes: `src/rpc/` maps each class
 * to its code in one place. Messages are the short texts a real node (geth) gives, because they
 * travel to the client as they are.
 */

/** Base class: every error the chain throws on purpose. */
export class ChainError extends Error {
  override name = 'ChainError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** A state or block request for a block that has left the window. */
export class BlockOutOfWindowError extends ChainError {
  override name = 'BlockOutOfWindowError'
  constructor(
    readonly requested: bigint,
    readonly oldest: bigint,
    readonly head: bigint,
  ) {
    super(`pruned history unavailable: block ${requested} is outside the served window ${oldest}..${head}`)
  }
}

/** A block number after the head. */
export class FutureBlockError extends ChainError {
  override name = 'FutureBlockError'
  constructor(readonly requested: bigint) {
    super('header not found')
  }
}

/** A block hash that names no block of the window. */
export class UnknownBlockError extends ChainError {
  override name = 'UnknownBlockError'
  constructor() {
    super('block not found')
  }
}

/** A hash that names a block a reorg took off the chain (geth's words for a block that is not canonical). */
export class OrphanedBlockError extends UnknownBlockError {
  override name = 'OrphanedBlockError'
  override message = 'hash is not currently canonical'
}

/** A transaction the pool refuses. The message is geth's. */
export class TxRejectedError extends ChainError {
  override name = 'TxRejectedError'
}

export class NonceTooLowError extends TxRejectedError {
  override name = 'NonceTooLowError'
  constructor(next: bigint, got: bigint) {
    super(`nonce too low: next nonce ${next}, tx nonce ${got}`)
  }
}

export class InsufficientFundsError extends TxRejectedError {
  override name = 'InsufficientFundsError'
  constructor(address: string, have: bigint, want: bigint) {
    super(`insufficient funds for gas * price + value: address ${address} have ${have} want ${want}`)
  }
}

export class IntrinsicGasError extends TxRejectedError {
  override name = 'IntrinsicGasError'
  constructor(gas: bigint, minimum: bigint) {
    super(`intrinsic gas too low: gas ${gas}, minimum needed ${minimum}`)
  }
}

/** A call or gas estimate whose execution reverted. */
export class ExecutionRevertedError extends ChainError {
  override name = 'ExecutionRevertedError'
  constructor(
    readonly data: Uint8Array,
    readonly reason: string | undefined,
  ) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`)
  }
}

/** A call that failed for another reason than a revert (out of gas, invalid opcode, ...). */
export class ExecutionFailedError extends ChainError {
  override name = 'ExecutionFailedError'
}

/** A gas estimate whose call fails even with the most gas it may have (geth's words). */
export class GasAllowanceError extends ExecutionFailedError {
  override name = 'GasAllowanceError'
  constructor(readonly allowance: bigint) {
    super(`gas required exceeds allowance (${allowance})`)
  }
}

/** Input the chain cannot act on (bad option, unknown snapshot, unsupported fork...). */
export class InvalidInputError extends ChainError {
  override name = 'InvalidInputError'
}
