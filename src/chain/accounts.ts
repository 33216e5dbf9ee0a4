/**
 * The dev accounts: the mnemonic they come from and the keys derived from it (BIP-39, BIP-32).
 * Kept apart from genesis.ts, and on node:crypto alone, so that `ringchain serve` can hand out the
 * accounts (its ready line) before it loads ethereumjs to build the chain.
 *
 * Leaves to others: funding them at genesis (`genesis.ts`), signing with them (`crypto.ts`).
 */
import { createECDH, createHash, createHmac, pbkdf2Sync } from 'node:crypto'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { wordlist } from '@scure/bip39/wordlists/english'
import { DEFAULT_MNEMONIC_ACCOUNTS } from './defaultAccounts.js'
import { InvalidInputError } from './errors.js'

/** The well-known test mnemonic of Hardhat, anvil and Foundry: their fixtures' addresses work here. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** A dev account: address and private key. */
export interface DevAccount {
  readonly address: Uint8Array
  readonly privateKey: Uint8Array
}

/**
 * Derives `count` accounts at m/44'/60'/0'/0/i, as Hardhat, anvil, viem and ethers do.
 *
 * BIP-39 and BIP-32 are written out here on node:crypto (native PBKDF2, HMAC and secp256k1 keys),
 * rather than taken from @scure/bip32: that one brings a second copy of noble's curves whose
 * precomputed tables cost ~200 ms, paid at every start. The default mnemonic's
 * first accounts are not derived at all but read from a table (see defaultAccounts.ts).
 */
export function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  if (mnemonic === DEFAULT_MNEMONIC && count <= DEFAULT_MNEMONIC_ACCOUNTS.length) {
    return DEFAULT_MNEMONIC_ACCOUNTS.slice(0, count).map(([address, privateKey]) => ({ address: fromHex(address), privateKey: fromHex(privateKey) }))
  }
  const normalized = normalizeMnemonic(mnemonic)
  const seed = pbkdf2Sync(normalized, 'mnemonic', 2048, 64, 'sha512')
  let node = hdMaster(seed)
  for (const index of [44 + HARDENED, 60 + HARDENED, HARDENED, 0]) node = hdChild(node, index)
  const accounts: DevAccount[] = []
  for (let i = 0; i < count; i++) {
    const privateKey = hdChild(node, i).key
    const publicKey = publicKeyOf(privateKey, false)
    accounts.push({ address: keccak_256(publicKey.subarray(1)).slice(12), privateKey })
  }
  return accounts
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

const HARDENED = 0x8000_0000
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

interface HdNode {
  readonly key: Uint8Array
  readonly chainCode: Uint8Array
}

/** The mnemonic as BIP-39 hashes it (NFKD, single spaces); `InvalidInputError` unless its words and checksum are valid. */
export function normalizeMnemonic(mnemonic: string): string {
  const normalized = mnemonic.normalize('NFKD').trim().split(/\s+/).join(' ')
  if (!validMnemonic(normalized)) throw new InvalidInputError('invalid mnemonic: not a BIP-39 English mnemonic with a valid checksum')
  return normalized
}

function validMnemonic(words: string): boolean {
  const list = words.split(' ')
  if (list.length % 3 !== 0 || list.length < 12 || list.length > 24) return false
  let bits = ''
  for (const word of list) {
    const index = wordIndex().get(word)
    if (index === undefined) return false
    bits += index.toString(2).padStart(11, '0')
  }
  const checksumBits = list.length / 3
  const entropyBits = bits.slice(0, bits.length - checksumBits)
  const entropy = Uint8Array.from(entropyBits.match(/.{8}/g)!, (byte) => parseInt(byte, 2))
  const hash = createHash('sha256').update(entropy).digest()
  return hash[0]!.toString(2).padStart(8, '0').slice(0, checksumBits) === bits.slice(-checksumBits)
}

let wordIndexes: Map<string, number> | undefined
function wordIndex(): Map<string, number> {
  return (wordIndexes ??= new Map(wordlist.map((word, i) => [word, i])))
}

function hdMaster(seed: Uint8Array): HdNode {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest()
  return { key: new Uint8Array(I.subarray(0, 32)), chainCode: new Uint8Array(I.subarray(32)) }
}

/** BIP-32 CKDpriv. */
function hdChild(parent: HdNode, index: number): HdNode {
  const data = new Uint8Array(37)
  if (index >= HARDENED) data.set(parent.key, 1)
  else data.set(publicKeyOf(parent.key, true), 0)
  new DataView(data.buffer).setUint32(33, index)
  const I = createHmac('sha512', parent.chainCode).update(data).digest()
  const tweak = BigInt('0x' + I.subarray(0, 32).toString('hex'))
  const key = (tweak + BigInt('0x' + Buffer.from(parent.key).toString('hex'))) % CURVE_ORDER
  // Probability below 2^-127; BIP-32 would skip to the next index, which no wallet does either.
  if (tweak >= CURVE_ORDER || key === 0n) throw new InvalidInputError(`cannot derive child key ${index}`)
  const hex = key.toString(16).padStart(64, '0')
  return { key: Uint8Array.from(hex.match(/.{2}/g)!, (byte) => parseInt(byte, 16)), chainCode: new Uint8Array(I.subarray(32)) }
}

/**
 * The public key that signs for `account`, as recovering one of its signatures gives it (64 bytes,
 * no SEC1 prefix): kept per key, for the transactions the node signs itself.
 */
export function signerKeyOf(account: DevAccount): Uint8Array {
  let key = signerKeys.get(account.privateKey)
  if (key === undefined) signerKeys.set(account.privateKey, (key = publicKeyOf(account.privateKey, false).subarray(1)))
  return key
}

const signerKeys = new WeakMap<Uint8Array, Uint8Array>()

/** The secp256k1 public key of `secretKey` (SEC1, 33 or 65 bytes), by OpenSSL. */
function publicKeyOf(secretKey: Uint8Array, compressed: boolean): Uint8Array {
  const ecdh = createECDH('secp256k1')
  ecdh.setPrivateKey(secretKey)
  return new Uint8Array(ecdh.getPublicKey(null, compressed ? 'compressed' : 'uncompressed'))
}
