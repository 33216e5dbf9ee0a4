/**
 * Reading a contract's variables out of storage: value types, strings and bytes (short and long
 * form), arrays with their elements, structs member by member, and mapping entries for the keys
 * the chain has seen.
 *
 * Owns: turning words into values for a layout's types, and walking a variable through as many
 * reads as it takes (through any `SlotReader`: JSON-RPC, or a chain in-process). Leaves slot
 * arithmetic to `slots.ts`, paths to `layout.ts` and `paths.ts`, types to `types.ts`, transport to `client.ts`.
 */
import type { Layout } from './layout.js'
import { checksumAddress, formatKey, hexOf } from './paths.js'
import { byteSize, type KnownKeys, type Resolved, type TypeInfo, type WordField } from './types.js'
import { bytesDataSlots, decodeBytesHead, elementLocation, dynamicDataSlot, mappingSlot, packedField, toBigInt, toSigned } from './slots.js'

/** Reads the 32-byte word at a slot (of one account, at one block: the reader is bound to both). */
export type SlotReader = (slot: bigint) => Promise<Uint8Array>

/** A decoded value. */
export type Value =
  | { readonly kind: 'value'; readonly type: string; readonly text: string }
  | { readonly kind: 'bytes'; readonly type: string; readonly length: bigint; readonly text: string; readonly truncated: boolean }
  | { readonly kind: 'array'; readonly type: string; readonly length: bigint; readonly elements: readonly Value[]; readonly truncated: boolean }
  | { readonly kind: 'struct'; readonly type: string; readonly members: readonly { readonly name: string; readonly value: Value }[] }
  | { readonly kind: 'mapping'; readonly type: string; readonly entries: readonly { readonly key: string; readonly slot: bigint; readonly value: Value }[] }

/** Limits of one read, so a huge array or string does not turn into millions of requests. */
export interface ReadOptions {
  /** Elements read per array (default 32). */
  readonly maxElements?: number
  /** Bytes read per string or `bytes` (default 1024). */
  readonly maxBytes?: number
  /** Mapping entries to list, by mapping slot (from `Layout.knownKeys`). */
  readonly knownKeys?: KnownKeys
}

/** One state variable, read. */
export interface VariableValue {
  readonly name: string
  readonly type: string
  readonly slot: bigint
  readonly offset: number
  readonly value: Value
}

/** A reader that asks for each slot once. */
export function cachedReader(read: SlotReader): SlotReader {
  const cache = new Map<bigint, Promise<Uint8Array>>()
  return (slot) => {
    let word = cache.get(slot)
    if (word === undefined) cache.set(slot, (word = read(slot)))
    return word
  }
}

/** Decodes a value-type field of a word. */
export function decodeField(type: TypeInfo, word: Uint8Array, offset: number): string {
  if (type.kind !== 'value') throw new TypeError(`${type.label} is not a value type`)
  const v = packedField(word, offset, type.bytes)
  switch (type.value.kind) {
    case 'uint':
    case 'enum':
      return v.toString()
    case 'int':
      return toSigned(v, type.bytes * 8).toString()
    case 'bool':
      return v === 0n ? 'false' : 'true'
    case 'address':
      return checksumAddress(v)
    case 'fixedBytes':
    case 'string':
    case 'bytes':
    case 'other':
      return '0x' + v.toString(16).padStart(type.bytes * 2, '0')
  }
}

/** Decodes what a word holds for each of its named fields (see `Layout.name`): `path = value`. */
export function decodeWordFields(fields: readonly WordField[], word: Uint8Array): { path: string; text: string }[] {
  return fields.map((f) => {
    switch (f.role) {
      case 'value':
        return { path: f.path, text: decodeField(f.type, word, f.offset) }
      case 'length':
        return { path: f.path, text: toBigInt(word).toString() }
      case 'bytesHead': {
        const head = safeHead(word)
        if (head === undefined) return { path: f.path, text: `0x${hexOf(word)} (not a string slot)` }
        if (head.form === 'long') return { path: f.path, text: `(${head.length} bytes, in keccak(slot))` }
        return { path: f.path, text: bytesText(f.type, head.data) }
      }
      case 'bytesData':
        return { path: `${f.path} (data word ${f.offset})`, text: '0x' + hexOf(word) }
    }
  })
}

/** Reads and decodes what a resolved path points at. */
export async function readResolved(layout: Layout, read: SlotReader, at: Resolved, options: ReadOptions = {}): Promise<Value> {
  return readValue(layout, read, at.type, at.slot, at.offset, options)
}

/** Reads every state variable of the layout. */
export async function readAll(layout: Layout, read: SlotReader, options: ReadOptions = {}): Promise<VariableValue[]> {
  const out: VariableValue[] = []
  for (const v of layout.variables) {
    const type = layout.type(v.type)
    out.push({ name: v.name, type: type.label, slot: v.slot, offset: v.offset, value: await readValue(layout, read, type, v.slot, v.offset, options) })
  }
  return out
}

async function readValue(layout: Layout, read: SlotReader, type: TypeInfo, slot: bigint, offset: number, options: ReadOptions): Promise<Value> {
  const maxElements = BigInt(options.maxElements ?? 32)
  switch (type.kind) {
    case 'value':
      return { kind: 'value', type: type.label, text: decodeField(type, await read(slot), offset) }
    case 'bytes': {
      const word = await read(slot)
      const head = safeHead(word)
      if (head === undefined) return { kind: 'bytes', type: type.label, length: 0n, text: `0x${hexOf(word)} (not a string slot)`, truncated: false }
      if (head.form === 'short') return { kind: 'bytes', type: type.label, length: BigInt(head.length), text: bytesText(type, head.data), truncated: false }
      const maxBytes = BigInt(options.maxBytes ?? 1024)
      const wanted = head.length < maxBytes ? head.length : maxBytes
      const words = await Promise.all(bytesDataSlots(slot, wanted).map(read))
      const data = new Uint8Array(words.length * 32)
      words.forEach((w, i) => data.set(w, i * 32))
      return { kind: 'bytes', type: type.label, length: head.length, text: bytesText(type, data.subarray(0, Number(wanted))), truncated: wanted < head.length }
    }
    case 'struct': {
      const members = []
      for (const m of type.members) {
        members.push({ name: m.name, value: await readValue(layout, read, layout.type(m.type), slot + m.slot, m.offset, options) })
      }
      return { kind: 'struct', type: type.label, members }
    }
    case 'staticArray':
    case 'dynamicArray': {
      const length = type.kind === 'staticArray' ? type.length : toBigInt(await read(slot))
      const base = layout.type(type.base)
      const start = type.kind === 'staticArray' ? slot : dynamicDataSlot(slot)
      const count = length < maxElements ? length : maxElements
      const elements: Value[] = []
      for (let i = 0n; i < count; i++) {
        const at = elementLocation(start, i, byteSize(base))
        elements.push(await readValue(layout, read, base, at.slot, at.offset, options))
      }
      return { kind: 'array', type: type.label, length, elements, truncated: count < length }
    }
    case 'mapping': {
      const keys = options.knownKeys?.get(slot)
      const keyType = layout.type(type.key)
      const valueType = layout.type(type.value)
      const entries = []
      for (const key of keys?.values() ?? []) {
        const at = mappingSlot(slot, key)
        entries.push({ key: formatKey(keyType, key), slot: at, value: await readValue(layout, read, valueType, at, 0, options) })
      }
      return { kind: 'mapping', type: type.label, entries }
    }
  }
}

function safeHead(word: Uint8Array) {
  try {
    return decodeBytesHead(word)
  } catch {
    return undefined
  }
}

function bytesText(type: TypeInfo, data: Uint8Array): string {
  if (type.kind === 'bytes' && type.string) return JSON.stringify(new TextDecoder('utf-8', { fatal: false }).decode(data))
  return '0x' + hexOf(data)
}

// --- text ------------------------------------------------------------------------------------

/**
 * Variables as text, one per line, nested values indented:
 * `_totalSupply  uint256  slot 2  = 1000`, mapping entries below their mapping.
 */
export function renderVariables(vars: readonly VariableValue[]): string {
  const nameWidth = Math.max(0, ...vars.map((v) => v.name.length))
  const typeWidth = Math.min(48, Math.max(0, ...vars.map((v) => v.type.length)))
  const lines: string[] = []
  for (const v of vars) {
    const where = `slot ${v.slot}${v.offset > 0 ? `+${v.offset}` : ''}`
    const head = `${v.name.padEnd(nameWidth)}  ${v.type.padEnd(typeWidth)}  ${where.padEnd(8)}`
    renderValue(v.value, head, '  ', lines)
  }
  return lines.join('\n') + '\n'
}

/** A value as text lines: scalars on the head line, containers below it. */
export function renderValue(value: Value, head: string, indent: string, lines: string[]): void {
  switch (value.kind) {
    case 'value':
      lines.push(`${head} = ${value.text}`)
      return
    case 'bytes':
      lines.push(`${head} = ${value.text}${value.truncated ? `… (${value.length} bytes)` : ''}`)
      return
    case 'array': {
      const scalar = value.elements.every((e) => e.kind === 'value' || e.kind === 'bytes')
      const more = value.truncated ? `, … ${value.length - BigInt(value.elements.length)} more` : ''
      if (scalar) {
        lines.push(`${head} = [${value.elements.map((e) => (e.kind === 'value' || e.kind === 'bytes' ? e.text : '')).join(', ')}${more}]`)
        return
      }
      lines.push(`${head}   (${value.length} elements)`)
      value.elements.forEach((e, i) => renderValue(e, `${indent}[${i}]`, indent + '  ', lines))
      if (value.truncated) lines.push(`${indent}…${more.slice(1)}`)
      return
    }
    case 'struct':
      lines.push(head)
      for (const m of value.members) renderValue(m.value, `${indent}.${m.name}`, indent + '  ', lines)
      return
    case 'mapping':
      lines.push(`${head}   (${value.entries.length === 0 ? 'no entries seen' : `${value.entries.length} ${value.entries.length === 1 ? 'entry' : 'entries'} seen`})`)
      for (const e of value.entries) renderValue(e.value, `${indent}[${e.key}]`, indent + '  ', lines)
  }
}
