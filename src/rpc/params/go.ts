// Go's wording, shared by every decoder: geth decodes with Go's encoding/json, so its messages
// name Go types (`json: cannot unmarshal hex string without 0x prefix into Go value of type
// common.Address`). They are reproduced because clients and test suites compare them with geth's.
// Owns: those phrasings and the hexutil readers (fixed bytes, bytes, numbers, bools, arrays).

import { HexReason, decodeHexDigits, has0xPrefix, nibbleAt, quantitySyntaxError } from '../hex.js'
import { ArgumentError } from './decode.js'

/** A decoded object under construction. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Where inside a JSON object a value sits, for Go's `Go struct field S.f` wording. */
export interface Field {
  readonly struct: string
  readonly path: string
}

export function field(struct: string, path: string): Field {
  return { struct, path }
}

/** `json: cannot unmarshal <what> into Go value of type <T>` (or `Go struct field S.f`). */
export function cannotUnmarshal(what: string, goType: string, at?: Field): ArgumentError {
  const into = at === undefined ? 'Go value' : `Go struct field ${at.struct}.${at.path}`
  return new ArgumentError(`json: cannot unmarshal ${what} into ${into} of type ${goType}`)
}

/** Go's name for the kind of a JSON value. */
export function jsonKind(value: unknown): string {
  if (typeof value === 'boolean') return 'bool'
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  return typeof value // 'string' | 'number' | 'object'
}

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Go's `%q`: a double-quoted string with Go's escapes. */
export function goQuote(text: string): string {
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
export function decodeFixed(value: unknown, size: number, goType: string, at?: Field): Uint8Array {
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
export function decodeBytes(value: unknown, at?: Field): Uint8Array {
  const goType = 'hexutil.Bytes'
  if (typeof value !== 'string') throw cannotUnmarshal('non-string', goType, at)
  if (value.length === 0) throw cannotUnmarshal(HexReason.empty, goType, at)
  if (!has0xPrefix(value)) throw cannotUnmarshal(HexReason.missingPrefix, goType, at)
  if ((value.length & 1) !== 0) throw cannotUnmarshal(HexReason.oddLength, goType, at)
  const bytes = decodeHexDigits(value, 2)
  if (bytes === undefined) throw cannotUnmarshal(HexReason.syntax, goType, at)
  return bytes
}

export interface NumberKind {
  readonly goType: string
  readonly maxDigits: number
  readonly rangeReason: string
  /** uint256's own errors are not hexutil's, so geth does not wrap them in `json: cannot unmarshal`. */
  readonly bare?: boolean
}

export const BIG: NumberKind = { goType: '*hexutil.Big', maxDigits: 64, rangeReason: 'hex number > 256 bits' }
export const U256: NumberKind = { goType: '*uint256.Int', maxDigits: 64, rangeReason: 'hex number > 256 bits', bare: true }
export const UINT64: NumberKind = { goType: 'hexutil.Uint64', maxDigits: 16, rangeReason: 'hex number > 64 bits' }
export const UINT: NumberKind = { goType: 'hexutil.Uint', maxDigits: 16, rangeReason: 'hex number > 64 bits' }

/**
 * A quantity in a JSON string, as hexutil.Big/Uint64 (or uint256) decode it: `0x` required, no
 * leading zeros, `0x` alone refused, too many digits refused before the digits are checked.
 * The empty string is refused (geth reads it as zero).
 */
export function decodeNumber(value: unknown, kind: NumberKind, at?: Field): bigint {
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
export function decodeUint64Text(text: string): bigint {
  const shape = quantitySyntaxError(text)
  if (shape !== undefined) throw new ArgumentError(shape)
  for (let i = 2; i < text.length; i++) {
    if (nibbleAt(text, i) < 0) throw new ArgumentError(HexReason.syntax)
    if (i - 2 >= 16) throw new ArgumentError('hex number > 64 bits')
  }
  return BigInt('0x' + text.slice(2))
}

export function decodeBool(value: unknown, at?: Field): boolean {
  if (typeof value !== 'boolean') throw cannotUnmarshal(jsonKind(value), 'bool', at)
  return value
}

export function decodeArray(value: unknown, goType: string, at?: Field): readonly unknown[] {
  if (!Array.isArray(value)) throw cannotUnmarshal(jsonKind(value), goType, at)
  return value
}
