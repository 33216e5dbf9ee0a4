/**
 * console.log calldata decoded into the line a developer reads, with the format specifiers forge
 * and Hardhat take when the first argument is a string: `%s`, `%d`/`%i`, `%o`, `%x`, `%e` and
 * `%%`; extra arguments follow, space-separated, as in Node's `util.format`.
 * Owns: ABI-decoding the console types and formatting them. Leaves the selector table to
 * `signatures.ts` and catching the calls to `attach.ts`.
 */
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import { consoleParameters, type ConsoleType } from './signatures.js'

type Value =
  | { readonly kind: 'uint' | 'int'; readonly value: bigint }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'address'; readonly value: string }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }

const utf8 = new TextDecoder()

/**
 * The line a console.log call prints, or undefined when `data` is not a console function's calldata.
 * @example decodeConsoleLog(encode('log(string,uint256)', 'balance %d', 5n)) // 'balance 5'
 */
export function decodeConsoleLog(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const types = consoleParameters(((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0)
  if (types === undefined) return undefined
  const body = data.subarray(4)
  const values: Value[] = []
  for (const [i, type] of types.entries()) {
    const value = decodeValue(body, i * 32, type)
    if (value === undefined) return undefined
    values.push(value)
  }
  return format(values)
}

function decodeValue(body: Uint8Array, at: number, type: ConsoleType): Value | undefined {
  const word = readWord(body, at)
  if (word === undefined) return undefined
  switch (type) {
    case 'uint256':
      return { kind: 'uint', value: word }
    case 'int256':
      return { kind: 'int', value: BigInt.asIntN(256, word) }
    case 'bool':
      return { kind: 'bool', value: word !== 0n }
    case 'address':
      return { kind: 'address', value: toChecksumAddress(`0x${(word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`) }
    case 'string':
    case 'bytes': {
      const content = dynamicAt(body, word)
      if (content === undefined) return undefined
      return type === 'string' ? { kind: 'string', value: utf8.decode(content) } : { kind: 'bytes', value: content }
    }
    default:
      // bytesN: the first N bytes of the word.
      return { kind: 'bytes', value: body.slice(at, at + Number(type.slice(5))) }
  }
}

/** The bytes of a dynamic value whose head word is `offset`. */
function dynamicAt(body: Uint8Array, offset: bigint): Uint8Array | undefined {
  if (offset > BigInt(body.length)) return undefined
  const length = readWord(body, Number(offset))
  if (length === undefined || offset + 32n + length > BigInt(body.length)) return undefined
  const start = Number(offset) + 32
  return body.slice(start, start + Number(length))
}

function readWord(bytes: Uint8Array, at: number): bigint | undefined {
  if (at + 32 > bytes.length) return undefined
  let value = 0n
  for (let i = at; i < at + 32; i++) value = (value << 8n) | BigInt(bytes[i]!)
  return value
}

/** `util.format`'s rules over decoded values: a leading string is the format. */
function format(values: readonly Value[]): string {
  const first = values[0]
  if (first === undefined) return ''
  if (first.kind !== 'string') return values.map((v) => show(v, 's')).join(' ')
  let next = 1
  const text = first.value.replace(/%(\d*)([sdioxe%])/g, (spec, decimals: string, letter: string) => {
    if (letter === '%') return '%'
    const value = values[next]
    // Without a value left the specifier stays as written (util.format does the same).
    if (value === undefined) return spec
    next++
    return letter === 'e' ? exponential(value, decimals === '' ? undefined : Number(decimals)) : show(value, letter)
  })
  return [text, ...values.slice(next).map((v) => show(v, 's'))].join(' ')
}

/** One value under one specifier, as forge's console formatter writes it. */
function show(value: Value, letter: string): string {
  switch (value.kind) {
    case 'uint':
    case 'int':
      if (letter === 'x') return hexOf(value.value)
      return value.value.toString()
    case 'bool':
      if (letter === 'd' || letter === 'i' || letter === 'x') return value.value ? '1' : '0'
      return String(value.value)
    case 'address':
      if (letter === 'd' || letter === 'i') return 'NaN'
      return letter === 'x' ? value.value.toLowerCase() : value.value
    case 'string':
      if (letter === 'd' || letter === 'i') return 'NaN'
      if (letter === 'x') return bytesToHex(new TextEncoder().encode(value.value))
      return letter === 'o' ? `'${value.value}'` : value.value
    case 'bytes':
      if (letter === 'd' || letter === 'i') return 'NaN'
      return bytesToHex(value.value)
  }
}

/** A negative integer in hex is its 256-bit two's complement, as forge prints it. */
function hexOf(value: bigint): string {
  return `0x${BigInt.asUintN(256, value).toString(16)}`
}

/** `%e`: scientific notation; `%18e` first divides by 10^18 (a token amount with its decimals). */
function exponential(value: Value, decimals: number | undefined): string {
  if (value.kind !== 'uint' && value.kind !== 'int') return decimals === undefined ? show(value, 's') : 'NaN'
  const negative = value.value < 0n
  const digits = (negative ? -value.value : value.value).toString()
  const sign = negative ? '-' : ''
  if (decimals !== undefined) {
    const whole = digits.length > decimals ? digits.slice(0, digits.length - decimals) : '0'
    const fraction = digits.padStart(decimals + 1, '0').slice(-decimals).replace(/0+$/, '')
    return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`
  }
  const mantissa = digits.slice(1).replace(/0+$/, '')
  return `${sign}${digits[0]}${mantissa === '' ? '' : `.${mantissa}`}e${digits.length - 1}`
}
