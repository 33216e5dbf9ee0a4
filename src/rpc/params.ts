// Positional parameter decoders: JSON values in, typed values (bigint, Uint8Array, unions) out.
// Owns: what each parameter kind accepts and geth's exact wording when it does not, including
// the `invalid argument N: ` prefix (N counts from 0, as geth does), `too many arguments` and
// `missing value for required argument N`. Does not own: what a method does with a value, checks
// that need the chain (a block after the head, a range the other way round), or hex encoding of
// results (hex.ts).
//
// geth decodes with Go's encoding/json, so its messages name Go types
// (`json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address`).
// They are reproduced here because clients and test suites compare them with geth's.

import { equalsBytes } from '@ethereumjs/util'
import { BlockTags, type BlockTag } from '../chain/types.js'
import { InvalidParamsError } from './errors.js'
import { HexReason, decodeHexDigits, fromHex, has0xPrefix, nibbleAt, quantitySyntaxError } from './hex.js'

// --- the combinator ---------------------------------------------------------------------------

/**
 * One positional parameter: how to decode a present value, and what an absent (or `null`) one
 * means. Without `absent` the parameter is required.
 */
export interface Param<T> {
  /** Decodes a present, non-null JSON value. Throws `ArgumentError` (or a complete `InvalidParamsError`). */
  readonly decode: (value: unknown) => T
  /** The value of an absent or `null` argument; left out for a required argument. */
  readonly absent?: () => T
}

/** The tuple of values a list of params decodes to. */
export type DecodedParams<P extends readonly Param<unknown>[]> = {
  readonly [K in keyof P]: P[K] extends Param<infer T> ? T : never
}

/**
 * A decoder's complaint about its value; `decodeParams` turns it into
 * `invalid argument N: <message>`. A decoder whose message geth sends without that prefix throws
 * `InvalidParamsError` itself.
 */
export class ArgumentError extends InvalidParamsError {
  override name = 'ArgumentError'
}

/**
 * The param, made optional: absent or `null` gives `fallback` (or `undefined` without one).
 *
 * @example optional(blockParam, LATEST)
 */
export function optional<T>(param: Param<T>): Param<T | undefined>
export function optional<T>(param: Param<T>, fallback: T): Param<T>
export function optional<T>(param: Param<T>, ...fallback: [] | [T]): Param<T | undefined> {
  const value = fallback.length === 0 ? undefined : fallback[0]
  return { decode: param.decode, absent: () => value }
}

/**
 * Decodes a request's positional params (absent `params` is `[]`), in order, as geth does: the
 * first bad argument wins, then `too many arguments`, then missing required ones.
 *
 * @example decodeParams([address, storageSlot, optional(blockParam, LATEST)], ['0xaa…', '0x0'])
 */
export function decodeParams<const P extends readonly Param<unknown>[]>(
  params: P,
  raw: readonly unknown[],
): DecodedParams<P> {
  const out: unknown[] = new Array(params.length)
  for (let i = 0; i < raw.length; i++) {
    const param = params[i]
    if (param === undefined) throw new InvalidParamsError(`too many arguments, want at most ${params.length}`)
    const value = raw[i]
    if (value === null || value === undefined) {
      if (param.absent === undefined) throw new InvalidParamsError(`missing value for required argument ${i}`)
      out[i] = param.absent()
      continue
    }
    try {
      out[i] = param.decode(value)
    } catch (error) {
      if (error instanceof ArgumentError) throw new InvalidParamsError(`invalid argument ${i}: ${error.message}`)
      throw error
    }
  }
  for (let i = raw.length; i < params.length; i++) {
    const absent = params[i]!.absent
    if (absent === undefined) throw new InvalidParamsError(`missing value for required argument ${i}`)
    out[i] = absent()
  }
  return out as unknown as DecodedParams<P>
}

// --- Go's wording -----------------------------------------------------------------------------

/** Where inside a JSON object a value sits, for Go's `Go struct field S.f` wording. */
interface Field {
  readonly struct: string
  readonly path: string
}

function field(struct: string, path: string): Field {
  return { struct, path }
}

/** `json: cannot unmarshal <what> into Go value of type <T>` (or `Go struct field S.f`). */
function cannotUnmarshal(what: string, goType: string, at?: Field): ArgumentError {
  const into = at === undefined ? 'Go value' : `Go struct field ${at.struct}.${at.path}`
  return new ArgumentError(`json: cannot unmarshal ${what} into ${into} of type ${goType}`)
}

/** Go's name for the kind of a JSON value. */
function jsonKind(value: unknown): string {
  if (typeof value === 'boolean') return 'bool'
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  return typeof value // 'string' | 'number' | 'object'
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Go's `%q`: a double-quoted string with Go's escapes. */
function goQuote(text: string): string {
  let out = '"'
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += '\\' + ch
    else if (c === 0x0a) out += '\\n'
    else if (c === 0x09) out += '\\t'
    else if (c === 0x0d) out += '\\r'
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0')
    else out += ch
  }
  return out + '"'
}

// --- hex values (hexutil / common types) ------------------------------------------------------

/** A fixed-size byte string (common.Address, common.Hash), as hexutil.UnmarshalFixedJSON. */
function decodeFixed(value: unknown, size: number, goType: string, at?: Field): Uint8Array {
  if (typeof value !== 'string') throw cannotUnmarshal('non-string', goType, at)
  let start = 0
  if (value.length > 0) {
    if (!has0xPrefix(value)) throw cannotUnmarshal(HexReason.missingPrefix, goType, at)
    start = 2
    if ((value.length & 1) !== 0) throw cannotUnmarshal(HexReason.oddLength, goType, at)
  }
  const digits = value.length - start
  if (digits !== size * 2) throw new ArgumentError(`hex string has length ${digits}, want ${size * 2} for ${goType}`)
  const bytes = decodeHexDigits(value, start)
  if (bytes === undefined) throw cannotUnmarshal(HexReason.syntax, goType, at)
  return bytes
}

/** Variable-length bytes (hexutil.Bytes). The empty string is refused (geth reads it as `0x`). */
function decodeBytes(value: unknown, at?: Field): Uint8Array {
  const goType = 'hexutil.Bytes'
  if (typeof value !== 'string') throw cannotUnmarshal('non-string', goType, at)
  if (value.length === 0) throw cannotUnmarshal(HexReason.empty, goType, at)
  if (!has0xPrefix(value)) throw cannotUnmarshal(HexReason.missingPrefix, goType, at)
  if ((value.length & 1) !== 0) throw cannotUnmarshal(HexReason.oddLength, goType, at)
  const bytes = decodeHexDigits(value, 2)
  if (bytes === undefined) throw cannotUnmarshal(HexReason.syntax, goType, at)
  return bytes
}

interface NumberKind {
  readonly goType: string
  readonly maxDigits: number
  readonly rangeReason: string
  /** uint256's own errors are not hexutil's, so geth does not wrap them in `json: cannot unmarshal`. */
  readonly bare?: boolean
}

const BIG: NumberKind = { goType: '*hexutil.Big', maxDigits: 64, rangeReason: 'hex number > 256 bits' }
const U256: NumberKind = { goType: '*uint256.Int', maxDigits: 64, rangeReason: 'hex number > 256 bits', bare: true }
const UINT64: NumberKind = { goType: 'hexutil.Uint64', maxDigits: 16, rangeReason: 'hex number > 64 bits' }
const UINT: NumberKind = { goType: 'hexutil.Uint', maxDigits: 16, rangeReason: 'hex number > 64 bits' }

/**
 * A quantity in a JSON string, as hexutil.Big/Uint64 (or uint256) decode it: `0x` required, no
 * leading zeros, `0x` alone refused, too many digits refused before the digits are checked.
 * The empty string is refused (geth reads it as zero).
 */
function decodeNumber(value: unknown, kind: NumberKind, at?: Field): bigint {
  const fail = (reason: string): ArgumentError =>
    kind.bare === true ? new ArgumentError(reason) : cannotUnmarshal(reason, kind.goType, at)
  if (typeof value !== 'string') throw cannotUnmarshal('non-string', kind.goType, at)
  const shape = quantitySyntaxError(value)
  if (shape !== undefined) throw fail(shape)
  if (value.length - 2 > kind.maxDigits) throw fail(kind.rangeReason)
  for (let i = 2; i < value.length; i++) if (nibbleAt(value, i) < 0) throw fail(HexReason.syntax)
  return BigInt('0x' + value.slice(2))
}

/**
 * A uint64 as hexutil.DecodeUint64 reads a bare string (block numbers): errors unwrapped, and,
 * like Go's strconv, a bad digit or the 17th digit, whichever comes first.
 */
function decodeUint64Text(text: string): bigint {
  const shape = quantitySyntaxError(text)
  if (shape !== undefined) throw new ArgumentError(shape)
  for (let i = 2; i < text.length; i++) {
    if (nibbleAt(text, i) < 0) throw new ArgumentError(HexReason.syntax)
    if (i - 2 >= 16) throw new ArgumentError('hex number > 64 bits')
  }
  return BigInt('0x' + text.slice(2))
}

function decodeBool(value: unknown, at?: Field): boolean {
  if (typeof value !== 'boolean') throw cannotUnmarshal(jsonKind(value), 'bool', at)
  return value
}

// --- simple params ----------------------------------------------------------------------------

/** A 20-byte address (`0x` + 40 hex digits, any case; checksums are not enforced, as in geth). */
export const address: Param<Uint8Array> = { decode: (value) => decodeFixed(value, 20, 'common.Address') }

/** A 32-byte hash (`0x` + 64 hex digits). */
export const hash: Param<Uint8Array> = { decode: (value) => decodeFixed(value, 32, 'common.Hash') }

/** Bytes of any length (`0x` + an even number of hex digits). */
export const data: Param<Uint8Array> = { decode: (value) => decodeBytes(value) }

/** A quantity of up to 256 bits (hexutil.Big). */
export const quantity: Param<bigint> = { decode: (value) => decodeNumber(value, BIG) }

/** A quantity of up to 64 bits (hexutil.Uint64). */
export const uint64: Param<bigint> = { decode: (value) => decodeNumber(value, UINT64) }

/** A position (transaction index in a block; hexutil.Uint), as a number. */
export const index: Param<number> = { decode: (value) => Number(decodeNumber(value, UINT)) }

/** A JSON boolean (`true`/`false`, never a string). */
export const bool: Param<boolean> = { decode: (value) => decodeBool(value) }

/**
 * The storage slot of `eth_getStorageAt`, as geth reads it: `0x` (optional, as in geth) plus up
 * to 64 hex digits, leading zeros allowed, an odd count padded; always 32 bytes, left-padded.
 * geth words its errors without the argument prefix:
 * `storage key too long (want at most 32 bytes): "0x…"`, `invalid hex in storage key: "0x…"`.
 */
export const storageSlot: Param<Uint8Array> = {
  decode(value) {
    if (typeof value !== 'string') throw cannotUnmarshal(jsonKind(value), 'string')
    return storageKey(value).slot
  },
}

/**
 * A storage key as geth's `decodeStorageKey` reads it (`eth_getStorageAt`, `eth_getProof`): the
 * 32-byte slot, and how many bytes the text gave (`eth_getProof` echoes a 32-byte key as it is and
 * any shorter one as a quantity). Errors are -32602 in geth's words, without an argument prefix.
 */
export function storageKey(text: string): { readonly slot: Uint8Array; readonly length: number } {
  let digits = has0xPrefix(text) ? text.slice(2) : text
  if ((digits.length & 1) !== 0) digits = '0' + digits
  if (digits.length > 64) {
    throw new InvalidParamsError(`storage key too long (want at most 32 bytes): ${goQuote(text)}`)
  }
  const bytes = decodeHexDigits(digits)
  if (bytes === undefined) throw new InvalidParamsError(`invalid hex in storage key: ${goQuote(text)}`)
  const slot = new Uint8Array(32)
  slot.set(bytes, 32 - bytes.length)
  return { slot, length: bytes.length }
}

/** The storage keys of `eth_getProof` as strings (geth's `[]string`); each is read by `storageKey` once all arguments are decoded. */
export const storageKeyList: Param<readonly string[]> = {
  decode(value) {
    if (!Array.isArray(value)) throw cannotUnmarshal(jsonKind(value), '[]string')
    return value.map((item: unknown) => {
      if (typeof item !== 'string') throw cannotUnmarshal(jsonKind(item), 'string')
      return item
    })
  },
}

/** One account's slots in an `eth_getStorageValues` request. */
export interface StorageRequest {
  readonly address: Uint8Array
  readonly slots: readonly Uint8Array[]
}

/**
 * The request map of `eth_getStorageValues` (geth's `map[common.Address][]common.Hash`): addresses
 * as map keys (so two spellings of one address keep the later list, as Go's decoder does), slots
 * as full 32-byte hashes.
 */
export const storageRequests: Param<readonly StorageRequest[]> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'map[common.Address][]common.Hash')
    const requests = new Map<string, StorageRequest>()
    for (const key in value) {
      const member = value[key]
      // Go decodes a null list as an empty one, and each value before its key.
      const slots = member === null ? [] : decodeArray(member, '[]common.Hash').map((item) => decodeFixed(item, 32, 'common.Hash'))
      const owner = decodeAddressKey(key)
      requests.set(key.toLowerCase(), { address: owner, slots })
    }
    return [...requests.values()]
  },
}

/** An address as a JSON object key: common.Address's UnmarshalText, whose errors Go passes on bare. */
function decodeAddressKey(text: string): Uint8Array {
  let start = 0
  if (text.length > 0) {
    if (!has0xPrefix(text)) throw new ArgumentError(HexReason.missingPrefix)
    start = 2
    if ((text.length & 1) !== 0) throw new ArgumentError(HexReason.oddLength)
  }
  if (text.length - start !== 40) throw new ArgumentError(`hex string has length ${text.length - start}, want 40 for Address`)
  const bytes = decodeHexDigits(text, start)
  if (bytes === undefined) throw new ArgumentError(HexReason.syntax)
  return bytes
}

// --- blocks -----------------------------------------------------------------------------------

/** A block by tag or number (what `eth_getBlockByNumber` and filter ranges take). */
export type BlockNumberParam =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: bigint }

/** A block by tag, number or hash (EIP-1898; what state methods take). */
export type BlockParam =
  | BlockNumberParam
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical: boolean }

const TAGS: ReadonlyMap<string, BlockNumberParam> = new Map(
  BlockTags.map((tag) => [
    tag,
    Object.freeze({ kind: 'tag', tag } as const),
  ]),
)

/** The `latest` block: the usual default of an optional block parameter. */
export const LATEST: BlockNumberParam = TAGS.get('latest')!
/** The `pending` block. */
export const PENDING: BlockNumberParam = TAGS.get('pending')!

const MAX_INT64 = (1n << 63n) - 1n

/** rpc.BlockNumber: a tag or a quantity up to int64; anything not a string reads as unprefixed hex. */
function decodeBlockNumber(value: unknown, tooHigh: string): BlockNumberParam {
  if (typeof value !== 'string') throw new ArgumentError(HexReason.missingPrefix)
  const tag = TAGS.get(value)
  if (tag !== undefined) return tag
  const number = decodeUint64Text(value)
  if (number > MAX_INT64) throw new ArgumentError(tooHigh)
  return { kind: 'number', number }
}

/** A block tag (`latest`, `earliest`, `pending`, `safe`, `finalized`) or number. */
export const blockNumber: Param<BlockNumberParam> = {
  decode: (value) => decodeBlockNumber(value, 'block number larger than int64'),
}

/**
 * A block tag, number, 32-byte block hash, or EIP-1898 object (`{blockNumber}` or
 * `{blockHash, requireCanonical?}`).
 */
export const blockParam: Param<BlockParam> = {
  decode(value) {
    if (typeof value === 'string') {
      const tag = TAGS.get(value)
      if (tag !== undefined) return tag
      if (value.length === 66) {
        // geth reads a 66-character string as a hash, with hexutil's bare errors.
        if (!has0xPrefix(value)) throw new ArgumentError(HexReason.missingPrefix)
        const bytes = decodeHexDigits(value, 2)
        if (bytes === undefined) throw new ArgumentError(HexReason.syntax)
        return { kind: 'hash', hash: bytes, requireCanonical: false }
      }
      const number = decodeUint64Text(value)
      if (number > MAX_INT64) throw new ArgumentError('blocknumber too high')
      return { kind: 'number', number }
    }
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'string')
    return decodeEip1898(value)
  },
}

/**
 * `{blockNumber}` or `{blockHash, requireCanonical?}`. Unlike geth, which then only says
 * `json: cannot unmarshal object into Go value of type string`, a bad member is named.
 */
function decodeEip1898(value: Readonly<Record<string, unknown>>): BlockParam {
  const struct = 'BlockNumberOrHash'
  let number: BlockNumberParam | undefined
  let blockHash: Uint8Array | undefined
  let requireCanonical = false
  for (const key in value) {
    const member = value[key]
    if (member === null || member === undefined) continue
    if (key === 'blockNumber') number = decodeBlockNumber(member, 'block number larger than int64')
    else if (key === 'blockHash') blockHash = decodeFixed(member, 32, 'common.Hash', field(struct, key))
    else if (key === 'requireCanonical') requireCanonical = decodeBool(member, field(struct, key))
  }
  if (number !== undefined && blockHash !== undefined) {
    throw new ArgumentError('cannot specify both BlockHash and BlockNumber, choose one or the other')
  }
  if (blockHash !== undefined) return { kind: 'hash', hash: blockHash, requireCanonical }
  if (number !== undefined) return number
  // geth accepts `{}` and fails later with this text (as -32000); it is a parameter error.
  throw new ArgumentError('invalid arguments; neither block nor hash specified')
}

// --- transaction request ----------------------------------------------------------------------

/** One entry of an EIP-2930 access list. */
export interface AccessListItem {
  readonly address: Uint8Array
  readonly storageKeys: readonly Uint8Array[]
}

/** One EIP-7702 authorization. */
export interface Authorization {
  readonly chainId: bigint
  readonly address: Uint8Array
  readonly nonce: bigint
  readonly yParity: bigint
  readonly r: bigint
  readonly s: bigint
}

/**
 * The transaction object of `eth_call`, `eth_estimateGas`, `eth_sendTransaction`: every member
 * optional, `data` being `input` or `data` (geth's TransactionArgs; `null` members are absent,
 * unknown members ignored).
 */
export interface TransactionRequest {
  readonly from?: Uint8Array
  /** Absent for a contract creation. */
  readonly to?: Uint8Array
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly maxFeePerBlobGas?: bigint
  readonly value?: bigint
  readonly nonce?: bigint
  /** From `input`, else `data` (both given must be equal). */
  readonly data?: Uint8Array
  readonly accessList?: readonly AccessListItem[]
  readonly chainId?: bigint
  readonly type?: bigint
  readonly authorizationList?: readonly Authorization[]
  readonly blobVersionedHashes?: readonly Uint8Array[]
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const TX = 'TransactionArgs'

/** A transaction call object (geth's TransactionArgs). */
export const transactionRequest: Param<TransactionRequest> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'ethapi.TransactionArgs')
    const tx: Mutable<TransactionRequest> = {}
    let data: Uint8Array | undefined
    let input: Uint8Array | undefined
    // Members in the order they came, as Go's decoder meets them: the first bad one is reported.
    for (const key in value) {
      const member = value[key]
      if (member === null || member === undefined) continue
      const at = field(TX, key)
      switch (key) {
        case 'from':
        case 'to':
          tx[key] = decodeFixed(member, 20, 'common.Address', at)
          break
        case 'gas':
        case 'nonce':
        case 'type':
          tx[key] = decodeNumber(member, UINT64, at)
          break
        case 'gasPrice':
        case 'maxFeePerGas':
        case 'maxPriorityFeePerGas':
        case 'maxFeePerBlobGas':
        case 'value':
        case 'chainId':
          tx[key] = decodeNumber(member, BIG, at)
          break
        case 'data':
          data = decodeBytes(member, at)
          break
        case 'input':
          input = decodeBytes(member, at)
          break
        case 'accessList':
          tx.accessList = decodeArray(member, 'types.AccessList', at).map(decodeAccessListItem)
          break
        case 'blobVersionedHashes':
          tx.blobVersionedHashes = decodeArray(member, '[]common.Hash', at).map((item) =>
            decodeFixed(item, 32, 'common.Hash', at),
          )
          break
        case 'authorizationList':
          tx.authorizationList = decodeArray(member, '[]types.SetCodeAuthorization', at).map(decodeAuthorization)
          break
      }
    }
    if (data !== undefined && input !== undefined && !equalsBytes(data, input)) {
      // geth's text (geth sends it as -32000 once the call runs).
      throw new InvalidParamsError(
        'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
      )
    }
    const payload = input ?? data
    if (payload !== undefined) tx.data = payload
    return tx
  },
}

function decodeArray(value: unknown, goType: string, at?: Field): readonly unknown[] {
  if (!Array.isArray(value)) throw cannotUnmarshal(jsonKind(value), goType, at)
  return value
}

function decodeAccessListItem(value: unknown): AccessListItem {
  const at = field(TX, 'accessList')
  // A null entry decodes as an empty tuple in Go, which then misses its required fields.
  if (value !== null && !isObject(value)) throw cannotUnmarshal(jsonKind(value), 'types.AccessTuple', at)
  const members: Readonly<Record<string, unknown>> = value ?? {}
  let itemAddress: Uint8Array | undefined
  let storageKeys: Uint8Array[] | undefined
  for (const key in members) {
    const member = members[key]
    if (member === null || member === undefined) continue
    const memberAt = field(TX, `accessList.${key}`)
    if (key === 'address') itemAddress = decodeFixed(member, 20, 'common.Address', memberAt)
    else if (key === 'storageKeys') {
      storageKeys = decodeArray(member, '[]common.Hash', memberAt).map((item) =>
        decodeFixed(item, 32, 'common.Hash', memberAt),
      )
    }
  }
  if (itemAddress === undefined) throw new ArgumentError("missing required field 'address' for AccessTuple")
  if (storageKeys === undefined) throw new ArgumentError("missing required field 'storageKeys' for AccessTuple")
  return { address: itemAddress, storageKeys }
}

const AUTHORIZATION_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'] as const

function decodeAuthorization(value: unknown): Authorization {
  const at = field(TX, 'authorizationList')
  if (value !== null && !isObject(value)) throw cannotUnmarshal(jsonKind(value), 'types.SetCodeAuthorization', at)
  const members: Readonly<Record<string, unknown>> = value ?? {}
  const got: Partial<Mutable<Authorization>> = {}
  for (const key in members) {
    const member = members[key]
    if (member === null || member === undefined) continue
    const memberAt = field(TX, `authorizationList.${key}`)
    switch (key) {
      case 'chainId':
      case 'r':
      case 's':
        got[key] = decodeNumber(member, U256, memberAt)
        break
      case 'nonce':
      case 'yParity':
        got[key] = decodeNumber(member, UINT64, memberAt)
        break
      case 'address':
        got.address = decodeFixed(member, 20, 'common.Address', memberAt)
        break
    }
  }
  for (const name of AUTHORIZATION_FIELDS) {
    if (got[name] === undefined) throw new ArgumentError(`missing required field '${name}' for SetCodeAuthorization`)
  }
  return got as Authorization
}

// --- log filter -------------------------------------------------------------------------------

/**
 * The filter of `eth_getLogs` / `eth_newFilter`. `blockHash` excludes `fromBlock`/`toBlock` (the
 * decoder refuses both). `addresses` empty means any address; a `null` topic position (or an
 * empty or null-containing list there) matches anything.
 */
export interface LogFilter {
  readonly blockHash?: Uint8Array
  readonly fromBlock?: BlockNumberParam
  readonly toBlock?: BlockNumberParam
  readonly addresses: readonly Uint8Array[]
  readonly topics: readonly (readonly Uint8Array[] | null)[]
}

// geth's limits (eth/filters).
const MAX_ADDRESSES = 1000
const MAX_TOPICS = 4
const MAX_SUB_TOPICS = 1000

/** A log filter object (geth's FilterCriteria). */
export const logFilter: Param<LogFilter> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'filters.input')
    let blockHash: Uint8Array | undefined
    let fromBlock: BlockNumberParam | undefined
    let toBlock: BlockNumberParam | undefined
    let rawAddresses: unknown
    let rawTopics: readonly unknown[] | undefined
    for (const key in value) {
      const member = value[key]
      if (member === null || member === undefined) continue
      if (key === 'blockHash') blockHash = decodeFixed(member, 32, 'common.Hash', field('input', key))
      else if (key === 'fromBlock') fromBlock = decodeBlockNumber(member, 'block number larger than int64')
      else if (key === 'toBlock') toBlock = decodeBlockNumber(member, 'block number larger than int64')
      else if (key === 'address') rawAddresses = member
      else if (key === 'topics') rawTopics = decodeArray(member, '[]interface {}', field('input', key))
    }
    if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
      throw new ArgumentError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    }
    const filter: Mutable<LogFilter> = {
      addresses: decodeFilterAddresses(rawAddresses),
      topics: decodeFilterTopics(rawTopics ?? []),
    }
    if (blockHash !== undefined) filter.blockHash = blockHash
    if (fromBlock !== undefined) filter.fromBlock = fromBlock
    if (toBlock !== undefined) filter.toBlock = toBlock
    return filter
  },
}

function decodeFilterAddresses(raw: unknown): Uint8Array[] {
  if (raw === undefined) return []
  if (typeof raw === 'string') {
    try {
      return [decodeExact(raw, 20, 'address')]
    } catch (error) {
      throw new ArgumentError(`invalid address: ${(error as Error).message}`)
    }
  }
  if (!Array.isArray(raw)) throw new ArgumentError('invalid addresses in query')
  if (raw.length > MAX_ADDRESSES) throw new ArgumentError('exceed max addresses')
  return raw.map((item: unknown, i) => {
    if (typeof item !== 'string') throw new ArgumentError(`non-string address at index ${i}`)
    try {
      return decodeExact(item, 20, 'address')
    } catch (error) {
      throw new ArgumentError(`invalid address at index ${i}: ${(error as Error).message}`)
    }
  })
}

function decodeFilterTopics(raw: readonly unknown[]): (Uint8Array[] | null)[] {
  if (raw.length > MAX_TOPICS) throw new ArgumentError('exceed max topics')
  return raw.map((position) => {
    if (position === null) return null
    if (typeof position === 'string') return [decodeTopic(position)]
    if (!Array.isArray(position)) throw new ArgumentError('invalid topic(s)')
    if (position.length > MAX_SUB_TOPICS) throw new ArgumentError('exceed max topics')
    const alternatives: Uint8Array[] = []
    for (const item of position as unknown[]) {
      if (item === null) return null // a null alternative matches anything (geth stops reading here)
      if (typeof item !== 'string') throw new ArgumentError('invalid topic(s)')
      alternatives.push(decodeTopic(item))
    }
    return alternatives.length === 0 ? null : alternatives
  })
}

function decodeTopic(text: string): Uint8Array {
  return decodeExact(text, 32, 'topic')
}

/** hexutil.Decode plus a length check, worded as geth's filter decoding words it. */
function decodeExact(text: string, size: number, what: string): Uint8Array {
  let bytes: Uint8Array
  try {
    bytes = fromHex(text)
  } catch (error) {
    throw new ArgumentError((error as Error).message)
  }
  if (bytes.length !== size) {
    throw new ArgumentError(`hex has invalid length ${bytes.length} after decoding; expected ${size} for ${what}`)
  }
  return bytes
}

// --- test controls and signing ------------------------------------------------------------------

/**
 * A whole number of seconds as anvil reads it (a `u64`): a JSON number, which is what viem sends,
 * or a quantity string.
 */
export const seconds: Param<bigint> = {
  decode(value) {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) throw cannotUnmarshal(`number ${value}`, 'uint64')
      return BigInt(value)
    }
    return decodeNumber(value, UINT64)
  },
}

/** EIP-712 typed data, as `eth_signTypedData_v4` takes it. */
export interface TypedData {
  readonly types: Readonly<Record<string, readonly { readonly name: string; readonly type: string }[]>>
  readonly primaryType: string
  readonly domain: Readonly<Record<string, unknown>>
  readonly message: Readonly<Record<string, unknown>>
}

/**
 * EIP-712 typed data: the JSON object, or a string holding it (viem and ethers send a string).
 * Only the outline is checked here; the types and values are checked when the data is hashed.
 */
export const typedData: Param<TypedData> = {
  decode(value) {
    let parsed: unknown = value
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value)
      } catch {
        throw new ArgumentError('typed data is not valid JSON')
      }
    }
    if (!isObject(parsed)) throw cannotUnmarshal(jsonKind(parsed), 'apitypes.TypedData')
    const { types, primaryType, domain, message } = parsed
    if (!isObject(types)) throw new ArgumentError('typed data: "types" must be an object')
    for (const name in types) {
      const fields = types[name]
      const wellFormed =
        Array.isArray(fields) && fields.every((f: unknown) => isObject(f) && typeof f.name === 'string' && typeof f.type === 'string')
      if (!wellFormed) throw new ArgumentError(`typed data: type ${name} must be a list of {name, type}`)
    }
    if (typeof primaryType !== 'string') throw new ArgumentError('typed data: "primaryType" must be a string')
    if (!Object.hasOwn(types, primaryType)) throw new ArgumentError(`typed data: primary type ${primaryType} is not among the types`)
    if (!isObject(domain)) throw new ArgumentError('typed data: "domain" must be an object')
    if (!isObject(message)) throw new ArgumentError('typed data: "message" must be an object')
    return parsed as unknown as TypedData
  },
}
