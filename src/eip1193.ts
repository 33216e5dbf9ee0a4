/**
 * The EIP-1193 shapes of the public API: a request and the error it rejects with. Kept apart from
 * the simulator so that light entry points (`ringchain/vitest` in a test worker) can use them
 * without loading the chain.
 */

/** An EIP-1193 request. */
export interface RequestArguments {
  readonly method: string
  readonly params?: readonly unknown[] | object
}

/** The error an EIP-1193 `request` rejects with: the JSON-RPC error's code, message and data. */
export class RingchainRpcError extends Error {
  override name = 'RingchainRpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}
