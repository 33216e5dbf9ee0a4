/**
 * Paths and keys as text: splitting `a.b[0x1]["x]y"][2]` into steps, encoding a mapping key written
 * in a path as solc hashes it, and writing a key back (checksummed addresses, decimal numbers,
 * quoted strings). Resolving a path against a layout is `layout.ts`'s.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, encodeKey, fromHex, toBigInt, toSigned } from './slots.js'
import { LayoutError, type TypeInfo } from './types.js'

/** One step of a path: a member name or a bracketed key or index, as written. */
export type PathStep = { readonly kind: 'member'; readonly name: string } | { readonly kind: 'index'; readonly text: string }

/** Splits `a.b[0x1]["x]y"][2]` into steps; quoted keys may hold `]` and `.`. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = []
  let i = 0
  const fail = (why: string): never => {
    throw new LayoutError(`bad path "${path}": ${why} at character ${i + 1}`)
  }
  const ident = () => {
    const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path.slice(i))
    if (m === null) fail('expected a name')
    i += m![0].length
    return m![0]
  }
  steps.push({ kind: 'member', name: ident() })
  while (i < path.length) {
    const c = path[i]
    if (c === '.') {
      i++
      steps.push({ kind: 'member', name: ident() })
    } else if (c === '[') {
      i++
      let text = ''
      const quote = path[i]
      if (quote === '"' || quote === "'") {
        const end = findClosingQuote(path, i)
        if (end < 0) fail('unterminated string')
        const literal = path.slice(i, end + 1)
        text = quote === '"' ? literal : `"${literal.slice(1, -1).replace(/"/g, '\\"')}"`
        i = end + 1
        if (path[i] !== ']') fail('expected "]"')
      } else {
        const end = path.indexOf(']', i)
        if (end < 0) fail('missing "]"')
        text = path.slice(i, end).trim()
        i = end
      }
      if (text === '') fail('empty key')
      i++
      steps.push({ kind: 'index', text })
    } else {
      fail(`unexpected "${c}"`)
    }
  }
  return steps
}

function findClosingQuote(text: string, start: number): number {
  const quote = text[start]
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === quote) return i
  }
  return -1
}

/** An array index written in a path (decimal or 0x), named in the error by `where`. */
export function parseIndex(text: string, where: string): bigint {
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) throw new LayoutError(`${where}[${text}]: an array index is a non-negative number`)
  return BigInt(text)
}

/**
 * A mapping key written in a path, encoded as solc hashes it: `0x…` addresses (any case), decimal
 * or `0x` numbers (a `-` for signed), `true`/`false`, `0x…` of exactly N bytes for `bytesN`,
 * `"text"` (or bare text) for string keys, `0x…` for `bytes` keys.
 */
export function parseKey(type: TypeInfo, text: string, where = 'mapping'): Uint8Array {
  const bad = (want: string): never => {
    throw new LayoutError(`${where.startsWith('--') ? `${where} ${text}` : `${where}[${text}]`}: the key is ${type.label}: ${want}`)
  }
  if (type.kind === 'bytes') {
    if (type.string) {
      if (text.startsWith('"')) {
        try {
          return new TextEncoder().encode(JSON.parse(text) as string)
        } catch {
          bad('a string in double quotes')
        }
      }
      return new TextEncoder().encode(text)
    }
    if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) bad('hex bytes (0x…, an even number of digits)')
    return hexToBytes(text)
  }
  if (type.kind !== 'value') return bad('mapping keys are value types, strings or bytes')
  const kind = type.value
  try {
    switch (kind.kind) {
      case 'address':
        if (!/^0x[0-9a-fA-F]{40}$/.test(text)) bad('20 bytes of hex (0x + 40 digits)')
        return encodeKey(kind, BigInt(text))
      case 'bool':
        if (text !== 'true' && text !== 'false') bad('true or false')
        return encodeKey(kind, text === 'true')
      case 'fixedBytes':
        if (!new RegExp(`^0x[0-9a-fA-F]{${kind.size * 2}}$`).test(text)) bad(`${kind.size} bytes of hex (0x + ${kind.size * 2} digits)`)
        return encodeKey(kind, hexToBytes(text))
      case 'int': {
        if (!/^-?(0x[0-9a-fA-F]+|\d+)$/.test(text)) bad('a number')
        const negative = text.startsWith('-')
        const magnitude = BigInt(negative ? text.slice(1) : text)
        return encodeKey(kind, negative ? -magnitude : magnitude)
      }
      case 'uint':
        if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) bad('a non-negative number')
        return encodeKey(kind, BigInt(text))
      case 'enum':
        if (!/^\d+$/.test(text) || BigInt(text) > 255n) bad('the number of a member (0-255)')
        return encodeKey({ kind: 'uint', bits: 8 }, BigInt(text))
      default:
        return bad('no such key type is supported')
    }
  } catch (e) {
    if (e instanceof LayoutError) throw e
    return bad((e as Error).message)
  }
}

/** A mapping key as a path writes it (checksummed addresses, decimal numbers, quoted strings). */
export function formatKey(type: TypeInfo, key: Uint8Array): string {
  if (type.kind === 'bytes') {
    if (!type.string) return '0x' + hexOf(key)
    const text = new TextDecoder('utf-8', { fatal: false }).decode(key)
    return JSON.stringify(text)
  }
  if (type.kind !== 'value' || key.length !== 32) return '0x' + hexOf(key)
  const v = toBigInt(key)
  switch (type.value.kind) {
    case 'address':
      return checksumAddress(v)
    case 'bool':
      return v === 0n ? 'false' : 'true'
    case 'fixedBytes':
      return '0x' + hexOf(key.subarray(0, type.value.size))
    case 'int':
      return toSigned(v, 256).toString()
    case 'uint':
    case 'enum':
      return v.toString()
    default:
      return '0x' + hexOf(key)
  }
}

export function hexOf(bytes: Uint8Array): string {
  return bytesToHex(bytes)
}

export function hexToBytes(text: string): Uint8Array {
  return fromHex(text.slice(2))
}

/** An address (as a number) with its EIP-55 checksum. */
export function checksumAddress(value: bigint): string {
  const hex = value.toString(16).padStart(40, '0')
  return '0x' + toChecksum(hex)
}

function toChecksum(hex: string): string {
  const hash = hexOf(keccak_256(new TextEncoder().encode(hex)))
  let out = ''
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]
  return out
}
