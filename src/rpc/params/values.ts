// Decoders of single values: addresses, hashes, bytes, numbers, booleans, storage keys and the
// test controls' and signing's own (seconds, EIP-712 typed data).
// Does not own: blocks (block.ts), transaction objects (transaction.ts), log filters (logFilter.ts).

import { InvalidParamsError } from '../errors.js'
import { HexReason, decodeHexDigits, has0xPrefix } from '../hex.js'
import { ArgumentError, type Param } from './decode.js'
import { BIG, UINT, UINT64, cannotUnmarshal, decodeArray, decodeBool, decodeBytes, decodeFixed, decodeNumber, goQuote, isObject, jsonKind } from './go.js'

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

// --- test controls and signing ------------------------------------------------------------------

/**
 * A whole number as anvil reads a `u64` (seconds, a depth): a JSON number, which is what viem
 * sends, or a quantity string.
 */
export const wholeNumber: Param<bigint> = {
  decode(value) {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) throw cannotUnmarshal(`number ${value}`, 'uint64')
      return BigInt(value)
    }
    return decodeNumber(value, UINT64)
  },
}

/** A number of seconds (anvil's `u64`). */
export const seconds: Param<bigint> = wholeNumber

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

/** A filter or subscription id, as the node handed it out (any string; an unknown one is the handler's to refuse). */
export const filterId: Param<string> = {
  decode: (value) => {
    if (typeof value !== 'string') throw new InvalidParamsError('invalid argument 0: filter id must be a string')
    return value
  },
}
