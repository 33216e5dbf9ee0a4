import { type Block } from '@ethereumjs/block';
import { Common, type CustomCrypto } from '@ethereumjs/common';
import { type StateChanges } from './state.js';
/** The well-known test mnemonic of Hardhat, anvil and Foundry: their fixtures' addresses work here. */
export declare const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
/** Mainnet forks in order, as ethereumjs names them. `mergeNetsplitBlock` and `dao` are not rule sets. */
export declare const HARDFORKS: readonly string[];
/** The newest mainnet fork ethereumjs 10 supports and mainnet has scheduled. */
export declare const DEFAULT_HARDFORK: string;
/** Accepts ethereumjs's names and the common aliases (`frontier`, `merge`). */
export declare function normalizeHardfork(name: string): string;
/**
 * A Common with every fork up to `hardfork` active from genesis and none after it, so the rules
 * never change under a running dev chain.
 */
export declare function createDevCommon(options: {
    chainId: bigint;
    hardfork: string;
    customCrypto?: CustomCrypto;
}): Common;
/**
 * Merges the parameter sets of ethereumjs's packages into `common` once, and makes every copy of it
 * skip merging them again.
 *
 * Why: ethereumjs copies the chain's `Common` for every block header and transaction it builds,
 * then merges its package's parameter set into the copy (`updateParams`: a JSON deep copy of every
 * EIP's parameters and a rebuilt cache), which was a third of the CPU of mining a transfer. The
 * sets are module constants, so skipping one already merged changes nothing. `copy()` copies own
 * enumerable properties, so the copies inherit the skipping; any other set is merged as before.
 */
export declare function mergeParamsOnce(common: Common): void;
/** A dev account: address and private key. */
export interface DevAccount {
    readonly address: Uint8Array;
    readonly privateKey: Uint8Array;
}
/**
 * Derives `count` accounts at m/44'/60'/0'/0/i, as Hardhat, anvil, viem and ethers do.
 *
 * BIP-39 and BIP-32 are written out here on node:crypto (native PBKDF2 and HMAC) and the native
 * secp256k1 binding, rather than taken from @scure/bip32: that one brings a second copy of noble's
 * curves whose precomputed tables cost ~200 ms, paid at every start.
 */
export declare function deriveAccounts(mnemonic: string, count: number): DevAccount[];
/** The mnemonic as BIP-39 hashes it (NFKD, single spaces); `InvalidInputError` unless its words and checksum are valid. */
export declare function normalizeMnemonic(mnemonic: string): string;
/** The genesis alloc of a dev chain: each dev account funded with `balance`. */
export declare function devAlloc(accounts: readonly DevAccount[], balance: bigint): StateChanges;
/** The genesis block of a dev chain, given its state root. */
export declare function devGenesisBlock(common: Common, options: {
    stateRoot: Uint8Array;
    gasLimit: bigint;
    baseFee: bigint;
    timestamp: bigint;
}): Block;
