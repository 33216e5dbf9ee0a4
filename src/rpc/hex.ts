// Hex on the wire: the only place where bigint and Uint8Array become 0x-strings and back.
// Owns: quantity and data encoding (lowercase, quantities without leading zeros) and strict
// decoding that reports geth's hexutil wording. Does not own: which argument a string came from
// or how an error is phrased for it (params/), nor JSON-RPC codes (errors.ts).
//
// These run for every field of every response, so they were measured (Node 20, 32 bytes):
// Buffer's native hexSlice ~80 ns, a byte→hex table ~155 ns, Buffer.from(view).toString ~155 ns;
// for decoding a word, a char-code table (~110 ns) beats Buffer.from(hex) plus the regex that has
// to guard it (Buffer.from silently reads the low byte of non-Latin-1 chars); from 64 bytes on,
// native decoding with an ASCII check wins (see `decodeHexDigits`).

/** A string that is not the hex it should be. `message` is geth's hexutil text. */
export class HexError extends Error {
  override name = 'HexError'
}

/** geth's hexutil error texts, reused by params/ to word argument errors. */
export const HexReason = {
  empty: 'empty hex string',
  syntax: 'invalid hex string',
  missingPrefix: 'hex string without 0x prefix',
  oddLength: 'hex string of odd length',
  emptyNumber: 'hex string "0x"',
  leadingZero: 'hex number with leading zero digits',
} as const

// --- encoding -------------------------------------------------------------------------------

type HexSlice = (this: Uint8Array, start: number, end: number) => string
const nativeHexSlice = (Buffer.prototype as unknown as { hexSlice?: HexSlice }).hexSlice

/** The bytes as lowercase hex, without `0x`. */
const hexDigits: (bytes: Uint8Array) => string =
  typeof nativeHexSlice === 'function'
    ? (bytes) => nativeHexSlice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/** The bytes as lowercase `0x` hex (`0x` for none). */
export function toData(bytes: Uint8Array): string {
  return '0x' + hexDigits(bytes)
}

/**
 * A non-negative integer as a JSON-RPC quantity: lowercase hex, no leading zeros, `0x0` for zero.
 *
 * @example toQuantity(255n) // '0xff'
 */
export function toQuantity(value: bigint | number): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(`not a safe integer: ${value}`)
  }
  if (value < 0) throw new RangeError(`negative quantity: ${value}`)
  return '0x' + value.toString(16)
}

// The padding of every word (eth_getStorageAt on each read): building it each time with
// `repeat` costs as much as the hex of the value itself.
const ZERO_BYTES = Array.from({ length: 33 }, (_, n) => '00'.repeat(n))

/**
 * The bytes left-padded with zeros to `size` bytes, as data (storage values are always 32 bytes).
 * Longer input is an error, never truncated.
 */
export function toPaddedData(bytes: Uint8Array, size: number): string {
  if (bytes.length === size) return toData(bytes)
  if (bytes.length > size) throw new RangeError(`${bytes.length} bytes do not fit in ${size}`)
  const padding = size - bytes.length
  return '0x' + (ZERO_BYTES[padding] ?? '00'.repeat(padding)) + hexDigits(bytes)
}

// --- decoding -------------------------------------------------------------------------------

// Char code → nibble, -1 for anything that is not a hex digit.
const NIBBLE = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i
for (let i = 0; i < 6; i++) {
  NIBBLE[65 + i] = 10 + i
  NIBBLE[97 + i] = 10 + i
}

type HexWrite = (this: Uint8Array, text: string, offset: number, length: number) => number
/** Node's native hex decoder, which Buffer#write(text, 'hex') calls: it writes into any Uint8Array. */
const nativeHexWrite = (Buffer.prototype as unknown as { hexWrite?: HexWrite }).hexWrite
/**
 * From this many bytes on (calldata, init code, raw transactions), native decoding: a deployment's
 * kilobytes cost the loop below some 50 µs once V8 has optimized it, and ten times that in a
 * suite's first tests, before it has; native decoding with its ASCII check costs 10-20 µs from the
 * start. Below a word the loop is as quick as a call into Node.
 */
const NATIVE_DECODE_FROM = 32

/** The value of one hex digit at `index`, or -1. */
export function nibbleAt(text: string, index: number): number {
  const c = text.charCodeAt(index)
  return c < 128 ? NIBBLE[c]! : -1
}

/** True when `text` starts with `0x` or `0X` (geth accepts both). */
export function has0xPrefix(text: string): boolean {
  return text.length >= 2 && text.charCodeAt(0) === 48 && (text.charCodeAt(1) | 0x20) === 120
}

/**
 * The bytes spelled by the hex digits of `text` from `start` on (an even count), or `undefined`
 * when one of them is not a hex digit. No prefix handling, no error wording: the building block.
 */
export function decodeHexDigits(text: string, start = 0): Uint8Array | undefined {
  const size = (text.length - start) >> 1
  const out = new Uint8Array(size)
  if (size >= NATIVE_DECODE_FROM && nativeHexWrite !== undefined) {
    // Node decodes up to the first pair that is not two hex digits; it reads only the low byte of
    // each character, so a string with anything beyond ASCII is left to the loop below.
    if (Buffer.byteLength(text, 'utf8') === text.length) {
      return nativeHexWrite.call(out, start === 0 ? text : text.slice(start), 0, size) === size ? out : undefined
    }
  }
  for (let i = 0, j = start; i < size; i++, j += 2) {
    const hi = nibbleAt(text, j)
    const lo = nibbleAt(text, j + 1)
    if ((hi | lo) < 0) return undefined
    out[i] = (hi << 4) | lo
  }
  return out
}

/**
 * Strict data decoding with geth's `hexutil.Decode` rules: `0x` required, an even number of
 * digits, any case. Throws `HexError` with geth's message.
 *
 * @example fromHex('0x00ff') // Uint8Array [0, 255]
 */
export function fromHex(text: string): Uint8Array {
  if (text.length === 0) throw new HexError(HexReason.empty)
  if (!has0xPrefix(text)) throw new HexError(HexReason.missingPrefix)
  // hexutil.Decode (Go's hex.DecodeString) reports a bad digit before an odd length.
  const even = (text.length & 1) === 0
  const bytes = decodeHexDigits(even ? text : text.slice(0, -1), 2)
  if (bytes === undefined || (!even && nibbleAt(text, text.length - 1) < 0)) {
    throw new HexError(HexReason.syntax)
  }
  if (!even) throw new HexError(HexReason.oddLength)
  return bytes
}

/**
 * Strict quantity decoding with geth's rules: `0x` required, at least one digit, no leading
 * zeros. No size limit here (callers bound it). Throws `HexError` with geth's message.
 *
 * @example fromQuantity('0x1f') // 31n
 */
export function fromQuantity(text: string): bigint {
  const reason = quantitySyntaxError(text)
  if (reason !== undefined) throw new HexError(reason)
  for (let i = 2; i < text.length; i++) {
    if (nibbleAt(text, i) < 0) throw new HexError(HexReason.syntax)
  }
  return BigInt(text.charCodeAt(1) === 120 ? text : '0x' + text.slice(2))
}

/**
 * The first of geth's number-shape errors in `text` (empty, missing prefix, `0x`, leading zero),
 * without looking at the digits themselves.
 */
export function quantitySyntaxError(text: string): string | undefined {
  if (text.length === 0) return HexReason.empty
  if (!has0xPrefix(text)) return HexReason.missingPrefix
  if (text.length === 2) return HexReason.emptyNumber
  if (text.length > 3 && text.charCodeAt(2) === 48) return HexReason.leadingZero
  return undefined
}
