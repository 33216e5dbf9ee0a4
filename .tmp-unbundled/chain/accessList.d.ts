/**
 * Access-list generation (`eth_createAccessList`), as geth's `AccessList` does it: run the call as
 * a transaction carrying the list found so far, record what it touches with geth's access-list
 * tracer rules, and run again with the larger list until a run adds nothing.
 *
 * Owns: geth's defaults for the call (fees, nonce, gas), the tracer (which opcodes add which
 * addresses and slots, which addresses are left out), the fixed-point loop, and the gas the last
 * run used with its list paid for.
 * Leaves to others: which state and block the call sees (`chain.ts` hands them in), wire shapes
 * (`src/rpc/`).
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type VM } from '@ethereumjs/vm';
import type { StateReader } from './state.js';
/** One entry of an EIP-2930 access list. */
export interface AccessListEntry {
    readonly address: Uint8Array;
    readonly storageKeys: readonly Uint8Array[];
}
/** One EIP-7702 authorization, as a transaction carries it. */
export interface AuthorizationEntry {
    readonly chainId: bigint;
    readonly address: Uint8Array;
    readonly nonce: bigint;
    readonly yParity: bigint;
    readonly r: bigint;
    readonly s: bigint;
}
/** The call to build an access list for (geth's TransactionArgs, as far as a call uses them). */
export interface AccessListCall {
    from?: Uint8Array;
    to?: Uint8Array;
    gas?: bigint;
    gasPrice?: bigint;
    maxFeePerGas?: bigint;
    maxPriorityFeePerGas?: bigint;
    value?: bigint;
    data?: Uint8Array;
    nonce?: bigint;
    /** A list to start from (it only grows). */
    accessList?: readonly AccessListEntry[];
    authorizationList?: readonly AuthorizationEntry[];
}
/** The list, the gas the call uses with it, and the call's failure (geth's text) if it failed. */
export interface AccessListResult {
    readonly accessList: readonly AccessListEntry[];
    readonly gasUsed: bigint;
    readonly error: string | undefined;
}
/** What the chain hands in: the state and block the call runs on, and its call defaults. */
export interface AccessListContext {
    readonly common: Common;
    readonly state: StateReader;
    readonly header: BlockHeader;
    /** For BLOCKHASH. */
    readonly blockchain: VM['blockchain'];
    readonly keccak: (data: Uint8Array) => Uint8Array;
    /** Gas of a call that names none. */
    readonly defaultGas: bigint;
    /** The tip `eth_maxPriorityFeePerGas` suggests, and the price `eth_gasPrice` suggests before London. */
    readonly suggestedTip: bigint;
    readonly suggestedGasPrice: bigint;
}
/**
 * Builds the access list of `call` on the state and block of `context`, as geth's
 * `eth_createAccessList`: sender, recipient (or the address a creation would get), precompiles and
 * EIP-7702 authorities are left out of the list unless one of their slots is touched.
 */
export declare function createAccessList(call: AccessListCall, context: AccessListContext): Promise<AccessListResult>;
