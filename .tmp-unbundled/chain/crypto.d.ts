import type { CustomCrypto } from '@ethereumjs/common';
import type { KZG } from '@ethereumjs/util';
/** Which secp256k1 implementation recovers senders and signs. */
export type CryptoBackend = 'native' | 'js';
/** Which keccak256 implementation hashes. */
export type KeccakBackend = 'wasm' | 'js';
/** Options of {@link createCustomCrypto}; the defaults take the fast implementations. */
export interface CustomCryptoOptions {
    /** `'js'` keeps ethereumjs's own secp256k1 even where the native binding loads (benchmarks). */
    readonly secp256k1?: CryptoBackend;
    /** `'js'` keeps ethereumjs's own keccak256 (@noble/hashes). */
    readonly keccak256?: KeccakBackend;
}
/** A KZG whose trusted setup is parsed on its first call, not before. */
export declare function lazyKzg(): KZG;
/** Whether the KZG trusted setup has been parsed (the first blob operation does it). */
export declare function kzgLoaded(): boolean;
/** Which secp256k1 implementation {@link createCustomCrypto} uses by default: native if it loads. */
export declare function cryptoBackend(): CryptoBackend;
/**
 * The public key of a secret key (33 bytes compressed, else 65), natively where the binding loads:
 * noble's first call builds its precomputed tables (~190 ms), which deriving the dev accounts at
 * every start cannot afford.
 */
export declare function secp256k1PublicKey(secretKey: Uint8Array, compressed: boolean): Uint8Array;
/** Which keccak256 implementation {@link createCustomCrypto} hashes with right now. */
export declare function keccakBackend(): KeccakBackend;
/**
 * The `customCrypto` for every `Common` of the chain: lazy KZG, native secp256k1 where it loads,
 * WebAssembly keccak256 once compiled.
 * @example
 * const common = createCommonFromGethGenesis(genesis, {
 *   chain: 'ringchain',
 *   customCrypto: createCustomCrypto(),
 * })
 */
export declare function createCustomCrypto(options?: CustomCryptoOptions): CustomCrypto;
