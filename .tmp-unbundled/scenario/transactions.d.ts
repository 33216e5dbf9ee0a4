import type { Client } from './client.js';
import type { AccountEntry } from './scope.js';
/** The mnemonic every dev chain uses unless told otherwise (anvil's, Hardhat's and ringchain's). */
export declare const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
/** Dev accounts `m/44'/60'/0'/0/i` of a mnemonic (cached: the seed takes a while). */
export declare function devAccounts(mnemonic: string, count: number): AccountEntry[];
export declare function addressOfKey(privateKey: string): string;
/** Transaction types by name and number. */
export declare const TX_TYPES: {
    readonly legacy: 0;
    readonly eip2930: 1;
    readonly eip1559: 2;
    readonly eip4844: 3;
    readonly eip7702: 4;
};
export type TxTypeName = keyof typeof TX_TYPES;
export declare function txTypeName(value: unknown): TxTypeName;
/** An EIP-7702 authorization to sign: `signer` lets `address`'s code run for it. */
export interface AuthorizationRequest {
    readonly address: string;
    readonly signer: string;
    readonly nonce?: bigint;
    readonly chainId?: bigint;
}
/** A transaction as a step describes it, names already turned into addresses. */
export interface TxRequest {
    readonly from: string;
    /** Absent: a contract creation. */
    readonly to?: string;
    readonly value?: bigint;
    readonly data?: string;
    readonly type?: TxTypeName;
    readonly gas?: bigint;
    readonly gasPrice?: bigint;
    readonly maxFeePerGas?: bigint;
    readonly maxPriorityFeePerGas?: bigint;
    readonly maxFeePerBlobGas?: bigint;
    readonly nonce?: bigint;
    /** null: a legacy transaction without EIP-155 replay protection. */
    readonly chainId?: bigint | null;
    readonly accessList?: readonly {
        address: string;
        storageKeys: readonly string[];
    }[];
    readonly authorizationList?: readonly AuthorizationRequest[];
    /** EIP-4844 blobs (131,072 bytes each, see `toBlob`): sent with their commitments and proofs. */
    readonly blobs?: readonly Uint8Array[];
}
/** A transaction once the node took it. */
export interface SentTx {
    readonly hash: string;
    readonly from: string;
    readonly to: string | null;
    readonly nonce: bigint;
    readonly type: TxTypeName;
    /** The signed bytes, when the runner signed. */
    readonly raw?: string;
}
/** Gas estimation failed: the step should give `gas` to send the transaction anyway. */
export declare class GasEstimationError extends Error {
    name: string;
}
/**
 * How a blob transaction travels: with one KZG proof per blob (EIP-4844, before Osaka) or with
 * cell proofs (EIP-7594, wrapper version 1, from Osaka on).
 */
export type BlobForm = 'blob' | 'cell';
/** Chain facts a sender needs, read once per scenario over RPC. */
export declare class ChainFacts {
    #private;
    readonly client: Client;
    /** A guess (the scenario's fork when the chain is embedded, else the newest), corrected by the node's answer. */
    blobForm: BlobForm;
    constructor(client: Client, blobForm?: BlobForm);
    chainId(): Promise<bigint>;
    /** The head's base fee; undefined before London. */
    baseFee(): Promise<bigint | undefined>;
}
/** Fills in, signs (or has the node sign) and sends a transaction. */
export declare function sendTransaction(client: Client, facts: ChainFacts, request: TxRequest, keyOf: (address: string) => string | undefined): Promise<SentTx>;
/**
 * A blob holding `data`: 31 bytes in each of its 4096 field elements (the first byte of each
 * stays 0, so every element is below the BLS modulus), up to 126,976 bytes.
 */
export declare function toBlob(data: Uint8Array): Uint8Array;
