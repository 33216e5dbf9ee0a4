/**
 * Transaction decoding and admission, as geth's pool does it before accepting a transaction.
 *
 * Owns: turning raw bytes into a transaction (blob transactions in their network form, with the
 * KZG proofs checked), and every rule checked before a transaction enters the pool, each failing
 * with geth's message. Leaves the pool's bookkeeping to `pool.ts` and execution to the VM.
 */
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import {
  TransactionType,
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createBlob4844TxFromSerializedNetworkWrapper,
  createEOACode7702TxFromBytesArray,
  createLegacyTxFromBytesArray,
  createTxFromRLP,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { Address, SECP256K1_ORDER_DIV_2, bytesToBigInt, ecrecover } from '@ethereumjs/util'
import { minimumGasLimit } from './execution/intrinsic.js'
import { readWord } from './execution/word.js'
import { plainFeeMarketTx } from './feeMarketTx.js'
import { IntrinsicGasError, InsufficientFundsError, NonceTooLowError, TxRejectedError } from './errors.js'
import type { AccountRecord, PendingTx } from './types.js'
import { keccakOf } from './crypto.js'
import { bigIntOf, decodeFlatList } from './encoding.js'

/** EIP-2681: a nonce no transaction can follow. */
const MAX_NONCE = 2n ** 64n - 1n

/** Largest transaction geth's pool takes (blob sidecars aside). */
const MAX_TX_SIZE = 128 * 1024
/** Largest blob transaction, sidecar included. */
const MAX_BLOB_TX_SIZE = 8 * 1024 * 1024

const TYPE_EIPS: Record<number, number> = {
  [TransactionType.AccessListEIP2930]: 2930,
  [TransactionType.FeeMarketEIP1559]: 1559,
  [TransactionType.BlobEIP4844]: 4844,
  [TransactionType.EOACodeEIP7702]: 7702,
}

/**
 * Decodes a signed raw transaction under `common`'s rules, checking type, chain id and signature.
 * `signer`, when the caller made the signature itself: the public key recovering it would give.
 */
export function decodeRawTransaction(raw: Uint8Array, common: Common, blockGasLimit: bigint, signer?: Uint8Array): TypedTransaction {
  if (raw.length === 0) throw new TxRejectedError('typed transaction too short')
  const first = raw[0]!
  const typed = first <= 0x7f
  if (typed) {
    const eip = TYPE_EIPS[first]
    if (eip === undefined || !common.isActivatedEIP(eip)) throw new TxRejectedError('transaction type not supported')
  }
  const limit = typed && first === TransactionType.BlobEIP4844 ? MAX_BLOB_TX_SIZE : MAX_TX_SIZE
  if (raw.length > limit) throw new TxRejectedError('oversized data')
  let fields: unknown
  try {
    // The plain shape in one pass; anything else (and every error) through ethereumjs's decoder.
    fields = decodeFlatList(raw, typed ? 1 : 0) ?? RLP.decode(typed ? raw.subarray(1) : raw)
  } catch (e) {
    throw new TxRejectedError(`rlp: ${(e as Error).message}`, { cause: e })
  }
  if (!Array.isArray(fields)) throw new TxRejectedError('rlp: expected input list for transaction')
  const isNetworkBlob = typed && first === TransactionType.BlobEIP4844 && Array.isArray(fields[0])
  if (typed && first === TransactionType.BlobEIP4844 && !isNetworkBlob) {
    throw new TxRejectedError('blob transaction without its blobs: send it in its network form, with the sidecar')
  }
  const body = (isNetworkBlob ? fields[0] : fields) as Uint8Array[]
  checkChainIdAndSignature(body, typed ? first : undefined, common)
  // Checked before ethereumjs builds the transaction: it refuses gas above the EIP-7825 cap itself.
  const gasIndex = !typed ? 2 : first === TransactionType.AccessListEIP2930 ? 3 : 4
  const gas = body[gasIndex] instanceof Uint8Array ? bigIntOf(body[gasIndex]) : 0n
  if (gas > blockGasLimit) throw new TxRejectedError('exceeds block gas limit')
  // EIP-2681: a nonce of 2^64-1 could never be followed; geth refuses it by name (ethereumjs with its own words).
  const nonceField = body[typed ? 1 : 0]
  if (nonceField instanceof Uint8Array && bigIntOf(nonceField) === MAX_NONCE) throw new TxRejectedError('nonce has max value')
  if (common.isActivatedEIP(7825) && gas > TX_GAS_CAP) throw new TxRejectedError(`transaction gas limit too high (cap: ${TX_GAS_CAP}, tx: ${gas})`)
  let tx: TypedTransaction
  try {
    // Not frozen yet: the sender is pinned first (see `pinSender`).
    tx = isNetworkBlob ? createBlob4844TxFromSerializedNetworkWrapper(raw, { common, freeze: false }) : fromFields(raw, typed ? first : undefined, body, common)
  } catch (e) {
    const message = (e as Error).message
    if (/kzg|proof|commitment|versioned hash|blob/i.test(message)) {
      throw new TxRejectedError(`invalid blob transaction: ${firstLine(message)}`, { cause: e })
    }
    throw new TxRejectedError(`invalid transaction: ${firstLine(message)}`, { cause: e })
  }
  let publicKey: Uint8Array
  try {
    publicKey = signer ?? (isNetworkBlob || !typed ? tx.getSenderPublicKey() : recoverTypedSender(raw, first, body, tx))
  } catch (e) {
    throw new TxRejectedError('invalid sender', { cause: e })
  }
  return pinSender(tx, publicKey, isNetworkBlob ? undefined : raw)
}

/**
 * The transaction of the fields just decoded from it, by its type: what `createTxFromRLP` does
 * after decoding the same bytes again.
 */
function fromFields(raw: Uint8Array, type: number | undefined, fields: Uint8Array[], common: Common): TypedTransaction {
  const opts = { common, freeze: false }
  // Cast to the field tuples ethereumjs types (nested lists for access and authorization lists): its constructors check them.
  switch (type) {
    case undefined:
      return createLegacyTxFromBytesArray(fields, opts)
    case TransactionType.AccessListEIP2930:
      return createAccessList2930TxFromBytesArray(fields as unknown as Parameters<typeof createAccessList2930TxFromBytesArray>[0], opts)
    case TransactionType.FeeMarketEIP1559:
      return plainFeeMarketTx(fields, common) ?? create1559FeeMarketTxFromBytesArray(fields as unknown as Parameters<typeof create1559FeeMarketTxFromBytesArray>[0], opts)
    case TransactionType.EOACodeEIP7702:
      return createEOACode7702TxFromBytesArray(fields as unknown as Parameters<typeof createEOACode7702TxFromBytesArray>[0], opts)
    default:
      return createTxFromRLP(raw, opts)
  }
}

/**
 * `getSenderPublicKey` of a typed transaction (EIP-2930, EIP-1559, EIP-7702), from its raw bytes:
 * its message is the type byte and the RLP list of every field but the signature, whose encodings
 * are in those bytes as they came (`signingMessage`). Why: ethereumjs turns each field back into
 * bytes from its bigint to encode the same message. The low-s rule was checked before (`checkChainIdAndSignature`), as ethereumjs's
 * `validateHighS` does; a typed signature carries no chain id in `v`.
 */
function recoverTypedSender(raw: Uint8Array, type: number, body: Uint8Array[], tx: TypedTransaction): Uint8Array {
  const crypto = tx.common.customCrypto
  const n = body.length
  const hash = keccakOf(tx.common)(signingMessage(raw, type, body))
  return (crypto.ecrecover ?? ecrecover)(hash, bigIntOf(body[n - 3]!), body[n - 2]!, body[n - 1]!, undefined)
}

/**
 * The message a typed transaction signs (its type byte, then the RLP list of every field but the
 * signature), cut from its raw bytes: the fields' encodings lie there in order, the signature's
 * three last, and the decoder took canonical RLP only, which leaves no bytes after them.
 */
function signingMessage(raw: Uint8Array, type: number, body: Uint8Array[]): Uint8Array {
  const n = body.length
  const signature = itemLength(body[n - 3]!) + itemLength(body[n - 2]!) + itemLength(body[n - 1]!)
  const listPrefix = raw[1]! <= 0xf7 ? 1 : 1 + raw[1]! - 0xf7
  const fields = raw.subarray(1 + listPrefix, raw.length - signature)
  const length = fields.length
  const lengthBytes = length < 56 ? 0 : length < 0x100 ? 1 : length < 0x10000 ? 2 : 3
  const message = new Uint8Array(2 + lengthBytes + length)
  message[0] = type
  if (lengthBytes === 0) message[1] = 0xc0 + length
  else {
    message[1] = 0xf7 + lengthBytes
    for (let i = lengthBytes, v = length; i >= 1; i--, v >>>= 8) message[1 + i] = v & 0xff
  }
  message.set(fields, 2 + lengthBytes)
  return message
}

/** The length of a byte string's RLP encoding (at most 55 bytes long: a signature's v, r or s). */
function itemLength(item: Uint8Array): number {
  return item.length === 1 && item[0]! < 0x80 ? 1 : 1 + item.length
}

/**
 * Freezes `tx` (as ethereumjs does by default) with its recovered sender kept: its public key in
 * the transaction's own cache, and `getSenderAddress` answering from the address derived once.
 * Its encoding is kept too: the raw bytes it came from, or made once (a blob transaction's network form is not its encoding).
 *
 * Why: ethereumjs keeps only the public key, so every `getSenderAddress` (admission, then `runTx`
 * when the block is built) hashes it again, with @noble/hashes rather than the chain's keccak; and
 * it encodes the transaction again for each use (its hash at admission, the block's transaction trie).
 */
function pinSender(tx: TypedTransaction, publicKey: Uint8Array, raw: Uint8Array | undefined): TypedTransaction {
  const keccak = keccakOf(tx.common)
  const sender = keccak(publicKey).slice(12)
  tx.cache.senderPubKey = publicKey
  Object.defineProperty(tx, 'getSenderAddress', { value: () => new Address(sender) })
  const serialize = tx.serialize.bind(tx)
  // The bytes it was decoded from are its encoding: ethereumjs's RLP decoder and field checks take
  // canonical encodings only, so encoding the fields again gives them back (a test holds this).
  let serialized: Uint8Array | undefined = raw?.slice()
  Object.defineProperty(tx, 'serialize', { value: () => (serialized ??= serialize()) })
  Object.freeze(tx)
  return tx
}

/** Chain id and the low-s rule, read from the RLP fields before ethereumjs sees them. */
function checkChainIdAndSignature(body: Uint8Array[], type: number | undefined, common: Common): void {
  const typed = type !== undefined
  if (!body.every((f) => f instanceof Uint8Array || Array.isArray(f))) throw new TxRejectedError('rlp: malformed transaction fields')
  const n = body.length
  if (n < 3) throw new TxRejectedError('rlp: too few elements for transaction')
  const v = fieldBigInt(body[n - 3])
  // Through `readWord`: a 32-byte s without the hex string `bytesToBigInt` makes.
  const s = readWord(body[n - 1] as Uint8Array)
  if (typed) {
    const chainId = fieldBigInt(body[0])
    // ethereumjs refuses to even build such a transaction: answer with geth's words first.
    if (type !== TransactionType.AccessListEIP2930 && n > 4 && fieldBigInt(body[2]) > fieldBigInt(body[3])) {
      throw new TxRejectedError('max priority fee per gas higher than max fee per gas')
    }
    if (chainId !== common.chainId()) throw new TxRejectedError('invalid chain id for signer')
    if (v > 1n) throw new TxRejectedError('invalid sender')
  } else if (v !== 27n && v !== 28n) {
    if (v < 35n) throw new TxRejectedError('invalid sender')
    const chainId = (v - 35n) / 2n
    if (chainId !== common.chainId()) throw new TxRejectedError('invalid chain id for signer')
    if (!common.gteHardfork('spuriousDragon')) throw new TxRejectedError('invalid sender')
  }
  if (s === 0n || (common.gteHardfork('homestead') && s > SECP256K1_ORDER_DIV_2)) throw new TxRejectedError('invalid sender')
}

/** A field's number; a nested list fails as ethereumjs's \`bytesToBigInt\` fails on it. */
function fieldBigInt(field: Uint8Array | undefined): bigint {
  return field instanceof Uint8Array ? bigIntOf(field) : bytesToBigInt(field as unknown as Uint8Array)
}

/** What admission checks a transaction against. */
export interface AdmissionContext {
  readonly blockGasLimit: bigint
  /** Base fee of the next block, when the fork has one. */
  readonly nextBaseFee: bigint | undefined
  readonly account: AccountRecord | undefined
  /** The transaction already pending with the same sender and nonce. */
  readonly existing: PendingTx | undefined
  /** Whether this very transaction is pending. */
  readonly pending: boolean
  /** Whether this very transaction is in a block of the window. */
  readonly included: boolean
}

/** The cap EIP-7825 (Osaka) puts on a transaction's gas. */
export const TX_GAS_CAP = 1n << 24n

/** Geth's pool rules, in geth's order. Throws the first that fails. */
export function checkAdmission(tx: TypedTransaction, sender: Address, context: AdmissionContext): void {
  if (context.pending) throw new TxRejectedError('already known')
  if (tx.gasLimit > context.blockGasLimit) throw new TxRejectedError('exceeds block gas limit')
  if (tx.common.isActivatedEIP(7825) && tx.gasLimit > TX_GAS_CAP) {
    throw new TxRejectedError(`transaction gas limit too high (cap: ${TX_GAS_CAP}, tx: ${tx.gasLimit})`)
  }
  const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice
  if ('maxPriorityFeePerGas' in tx && tx.maxPriorityFeePerGas > tx.maxFeePerGas) {
    throw new TxRejectedError('max priority fee per gas higher than max fee per gas')
  }
  if (tx.type === TransactionType.EOACodeEIP7702 && 'authorizationList' in tx && tx.authorizationList.length === 0) {
    throw new TxRejectedError('EIP-7702 transaction with empty auth list')
  }
  const minimum = minimumGasLimit(tx, sender)
  if (tx.gasLimit < minimum) throw new IntrinsicGasError(tx.gasLimit, minimum)
  const nonce = context.account?.nonce ?? 0n
  // A transaction already mined fails here, as in geth (whose pool forgets it once mined).
  if (tx.nonce < nonce) throw new NonceTooLowError(nonce, tx.nonce)
  // Mined, and its nonce given back since (anvil_setNonce): one hash is never in two places.
  if (context.included) throw new TxRejectedError('already known')
  if (context.nextBaseFee !== undefined && feeCap < context.nextBaseFee) {
    throw new TxRejectedError(`max fee per gas less than block base fee: address ${sender.toString()}, maxFeePerGas: ${feeCap}, baseFee: ${context.nextBaseFee}`)
  }
  const balance = context.account?.balance ?? 0n
  const cost = upfrontCost(tx)
  if (balance < cost) throw new InsufficientFundsError(sender.toString(), balance, cost)
  if (context.existing !== undefined && !bumped(context.existing.tx, tx)) {
    throw new TxRejectedError('replacement transaction underpriced')
  }
}

/** Gas times fee cap, plus value, plus blob gas at its cap: what the sender must hold. */
export function upfrontCost(tx: TypedTransaction): bigint {
  const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice
  let cost = tx.gasLimit * feeCap + tx.value
  if ('maxFeePerBlobGas' in tx && 'blobVersionedHashes' in tx) {
    cost += tx.maxFeePerBlobGas * BigInt(tx.blobVersionedHashes.length) * tx.common.param('blobGasPerBlob')
  }
  return cost
}

/** Geth's replacement rule: both the fee cap and the tip raised by at least 10%. */
function bumped(old: TypedTransaction, next: TypedTransaction): boolean {
  const oldCap = 'maxFeePerGas' in old ? old.maxFeePerGas : old.gasPrice
  const oldTip = 'maxPriorityFeePerGas' in old ? old.maxPriorityFeePerGas : old.gasPrice
  const newCap = 'maxFeePerGas' in next ? next.maxFeePerGas : next.gasPrice
  const newTip = 'maxPriorityFeePerGas' in next ? next.maxPriorityFeePerGas : next.gasPrice
  return newCap * 100n >= oldCap * 110n && newTip * 100n >= oldTip * 110n
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/\s*\(tx type=.*$/, '')
}
