/**
 * Transaction decoding and admission, as geth's pool does it before accepting a transaction.
 *
 * Owns: turning raw bytes into a transaction (blob transactions in their network form, with the
 * KZG proofs checked), and every rule checked before a transaction enters the pool, each failing
 * with geth's message. Leaves the pool's bookkeeping to `pool.ts` and execution to the VM.
 */
import type { Common } from '@ethereumjs/common';
import { type TypedTransaction } from '@ethereumjs/tx';
import { type Address } from '@ethereumjs/util';
import type { AccountRecord, PendingTx } from './types.js';
/** Decodes a signed raw transaction under `common`'s rules, checking type, chain id and signature. */
export declare function decodeRawTransaction(raw: Uint8Array, common: Common, blockGasLimit: bigint): TypedTransaction;
/** What admission checks a transaction against. */
export interface AdmissionContext {
    readonly blockGasLimit: bigint;
    /** Base fee of the next block, when the fork has one. */
    readonly nextBaseFee: bigint | undefined;
    readonly account: AccountRecord | undefined;
    /** The transaction already pending with the same sender and nonce. */
    readonly existing: PendingTx | undefined;
    readonly known: boolean;
}
/** Geth's pool rules, in geth's order. Throws the first that fails. */
export declare function checkAdmission(tx: TypedTransaction, sender: Address, context: AdmissionContext): void;
/** Gas times fee cap, plus value, plus blob gas at its cap: what the sender must hold. */
export declare function upfrontCost(tx: TypedTransaction): bigint;
