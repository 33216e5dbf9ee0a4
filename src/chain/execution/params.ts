/**
 * The shapes a call, a gas estimate and an access-list search take and give back.
 *
 * Owns: the domain types of the call path (bigint and bytes, never hex). Leaves running them to
 * `executor.ts` and the wire to `src/rpc/`.
 */

/** One entry of an EIP-2930 access list. */
export interface AccessListEntry {
  readonly address: Uint8Array
  readonly storageKeys: readonly Uint8Array[]
}

/** One EIP-7702 authorization, as a transaction carries it. */
export interface AuthorizationEntry {
  readonly chainId: bigint
  readonly address: Uint8Array
  readonly nonce: bigint
  readonly yParity: bigint
  readonly r: bigint
  readonly s: bigint
}

/** Parameters of a call or gas estimate. */
export interface CallParams {
  from?: Uint8Array
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  data?: Uint8Array
  /** EIP-2930: counted in the intrinsic gas and warm from the start, as in a transaction. */
  accessList?: readonly AccessListEntry[]
  /** EIP-7702: counted in the intrinsic gas, and applied before the call runs as a transaction applies them. */
  authorizationList?: readonly AuthorizationEntry[]
}

/** The outcome of a call. */
export interface CallResult {
  readonly returnValue: Uint8Array
  readonly gasUsed: bigint
}
