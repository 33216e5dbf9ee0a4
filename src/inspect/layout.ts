/**
 * A contract's storage as solc describes it (`storageLayout`), and variable paths on top of it:
 * `balances[0x7099…]`, `positions[2].owner`, `allowed[0xabc…][3]`, `byName["alice"]`.
 *
 * Owns: reading a solc storage layout (or an artifact that holds one), resolving a path to a slot,
 * offset and type, and the reverse: naming what a slot holds from the way it was derived (root
 * slot, mapping keys, keccak, offsets).
 * Leaves the type model to `types.ts`, path and key text to `paths.ts`, the arithmetic to
 * `slots.ts`, reading and decoding to `read.ts`.
 */
import {
  dynamicDataSlot,
  elementLocation,
  elementsPerSlot,
  mappingSlot,
  slotsPerElement,
} from './slots.js'
import { formatKey, hexOf, parseIndex, parseKey, parsePath, type PathStep } from './paths.js'
import {
  LayoutError,
  byteSize,
  type Derivation,
  type KnownKeys,
  type Member,
  type Resolved,
  type SolcStorageEntry,
  type SolcStorageLayout,
  type SolcType,
  type TypeInfo,
  type ValueKind,
  type WordField,
} from './types.js'

/** A contract's storage layout. */
export class Layout {
  readonly variables: readonly Member[]
  readonly #types: Readonly<Record<string, SolcType>>
  readonly #cache = new Map<string, TypeInfo>()

  constructor(layout: SolcStorageLayout) {
    this.#types = layout.types ?? {}
    this.variables = layout.storage.map(member)
    for (const v of this.variables) this.type(v.type)
  }

  /** The resolved type of a type id. */
  type(id: string): TypeInfo {
    const cached = this.#cache.get(id)
    if (cached !== undefined) return cached
    const raw = this.#types[id]
    if (raw === undefined) throw new LayoutError(`the layout has no type ${id}`)
    const info = resolveType(id, raw)
    this.#cache.set(id, info)
    return info
  }

  /** The variable named `name`. */
  variable(name: string): Member {
    const found = this.variables.find((v) => v.name === name)
    if (found === undefined) {
      throw new LayoutError(`no state variable "${name}" (the layout has: ${this.variables.map((v) => v.name).join(', ') || 'none'})`)
    }
    return found
  }

  /**
   * Resolves a variable path to its slot, offset and type.
   *
   * @example layout.resolve('balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]').slot
   */
  resolve(path: string): Resolved {
    const [head, ...steps] = parsePath(path)
    if (head === undefined || head.kind !== 'member') throw new LayoutError(`a path starts with a variable name, got "${path}"`)
    const v = this.variable(head.name)
    let at: Resolved = { path: v.name, slot: v.slot, offset: v.offset, type: this.type(v.type) }
    for (const step of steps) at = this.#step(at, step)
    return at
  }

  #step(at: Resolved, step: PathStep): Resolved {
    const t = at.type
    if (step.kind === 'member') {
      if (t.kind !== 'struct') throw new LayoutError(`${at.path} is ${t.label}, not a struct: no member "${step.name}"`)
      const m = t.members.find((x) => x.name === step.name)
      if (m === undefined) throw new LayoutError(`${at.path} (${t.label}) has no member "${step.name}" (members: ${t.members.map((x) => x.name).join(', ')})`)
      return { path: `${at.path}.${m.name}`, slot: at.slot + m.slot, offset: m.offset, type: this.type(m.type) }
    }
    if (t.kind === 'mapping') {
      const keyType = this.type(t.key)
      const key = parseKey(keyType, step.text, at.path)
      return { path: `${at.path}[${formatKey(keyType, key)}]`, slot: mappingSlot(at.slot, key), offset: 0, type: this.type(t.value) }
    }
    if (t.kind === 'dynamicArray' || t.kind === 'staticArray') {
      const index = parseIndex(step.text, at.path)
      if (t.kind === 'staticArray' && index >= t.length) throw new LayoutError(`${at.path}[${index}] is out of range: ${t.label} has ${t.length} elements`)
      const base = this.type(t.base)
      const location = elementLocation(t.kind === 'dynamicArray' ? dynamicDataSlot(at.slot) : at.slot, index, byteSize(base))
      return { path: `${at.path}[${index}]`, slot: location.slot, offset: location.offset, type: base }
    }
    throw new LayoutError(`${at.path} is ${t.label}: it cannot be indexed with [${step.text}]`)
  }

  /** Slots a value of this type takes where it is declared (1 for mappings, dynamic arrays, strings). */
  slots(type: TypeInfo): bigint {
    return (BigInt(byteSize(type)) + 31n) / 32n
  }

  /**
   * Names what the word at a derived slot holds (several fields when values are packed), or
   * undefined when the derivation does not fit this layout. `onKey` sees each mapping entry on the
   * way, with the (absolute) slot of the mapping it indexes.
   */
  name(derivation: Derivation, onKey?: (mappingSlot: bigint, key: Uint8Array) => void): WordField[] | undefined {
    let scope: Scope = { kind: 'top' }
    let rel = derivation.root
    let absolute = derivation.root
    let path = ''
    const steps = [...derivation.steps]
    const offsets = () => {
      let sum = 0n
      while (steps[0]?.kind === 'offset') sum += (steps.shift() as { by: bigint }).by
      absolute += sum
      return sum
    }
    for (;;) {
      rel += offsets()
      const step = steps.shift()
      if (step === undefined) return this.#fields(scope, path, rel)
      if (step.kind === 'offset') continue
      // A mapping or keccak step applies to the variable that sits exactly at `rel`.
      const target = this.#at(scope, path, rel)
      if (target === undefined) return undefined
      if (step.kind === 'mapping') {
        if (target.type.kind !== 'mapping') return undefined
        onKey?.(absolute, step.key)
        absolute = mappingSlot(absolute, step.key)
        path = `${target.path}[${formatKey(this.type(target.type.key), step.key)}]`
        scope = { kind: 'type', type: this.type(target.type.value) }
        rel = 0n
        continue
      }
      // keccak: the data of a string, or the elements of a dynamic array.
      absolute = dynamicDataSlot(absolute)
      const offset = offsets()
      if (target.type.kind === 'bytes') {
        return steps.length > 0 ? undefined : [{ path: target.path, role: 'bytesData', type: target.type, offset: Number(offset), size: 32 }]
      }
      if (target.type.kind !== 'dynamicArray') return undefined
      const base = this.type(target.type.base)
      const size = byteSize(base)
      const per = elementsPerSlot(size)
      if (per > 1) {
        if (steps.length > 0) return undefined
        const first = offset * BigInt(per)
        return Array.from({ length: per }, (_, i) => ({ path: `${target.path}[${first + BigInt(i)}]`, role: 'value' as const, type: base, offset: i * size, size }))
      }
      const each = slotsPerElement(size)
      path = `${target.path}[${offset / each}]`
      scope = { kind: 'type', type: base }
      rel = offset % each
    }
  }

  /**
   * The mapping keys a set of derivations went through, by the (absolute) slot of the mapping they
   * index, so that a mapping can be listed with the entries the chain has seen.
   */
  knownKeys(derivations: Iterable<Derivation>): KnownKeys {
    const keys: KnownKeys = new Map()
    for (const d of derivations) {
      this.name(d, (slot, key) => {
        let set = keys.get(slot)
        if (set === undefined) keys.set(slot, (set = new Map()))
        set.set(hexOf(key), key)
      })
    }
    return keys
  }

  /** The variable (or member, or element) that starts exactly at `rel` in `scope` and is not a value type. */
  #at(scope: Scope, path: string, rel: bigint): { path: string; type: TypeInfo } | undefined {
    if (scope.kind === 'type') return this.#descendTo({ path, type: scope.type }, rel)
    // Only value types share a slot; anything with a slot of its own starts at offset 0.
    const v = this.variables.find((m) => m.offset === 0 && m.slot <= rel && rel < m.slot + this.slots(this.type(m.type)))
    return v === undefined ? undefined : this.#descendTo({ path: v.name, type: this.type(v.type) }, rel - v.slot)
  }

  /** Walks into structs and fixed arrays until the thing starting at `rel` that owns a slot of its own. */
  #descendTo(at: { path: string; type: TypeInfo }, rel: bigint): { path: string; type: TypeInfo } | undefined {
    const t = at.type
    if (t.kind === 'struct') {
      const m = [...t.members].reverse().find((x) => x.slot <= rel && x.offset === 0)
      if (m === undefined) return undefined
      return this.#descendTo({ path: `${at.path}.${m.name}`, type: this.type(m.type) }, rel - m.slot)
    }
    if (t.kind === 'staticArray') {
      const base = this.type(t.base)
      const each = slotsPerElement(byteSize(base))
      if (each === 0n) return undefined
      return this.#descendTo({ path: `${at.path}[${rel / each}]`, type: base }, rel % each)
    }
    return rel === 0n ? at : undefined
  }

  /** The fields of the word at `rel` in `scope`. */
  #fields(scope: Scope, path: string, rel: bigint): WordField[] | undefined {
    if (scope.kind === 'top') {
      const out: WordField[] = []
      for (const v of this.variables) {
        const type = this.type(v.type)
        const span = this.slots(type)
        if (rel < v.slot || rel >= v.slot + span) continue
        const fields = this.#fieldsOf({ path: v.name, type }, rel - v.slot, v.offset)
        if (fields !== undefined) out.push(...fields)
      }
      return out.length === 0 ? undefined : out
    }
    return this.#fieldsOf({ path, type: scope.type }, rel, 0)
  }

  #fieldsOf(at: { path: string; type: TypeInfo }, rel: bigint, offset: number): WordField[] | undefined {
    const t = at.type
    switch (t.kind) {
      case 'value':
        return rel === 0n ? [{ path: at.path, role: 'value', type: t, offset, size: t.bytes }] : undefined
      case 'bytes':
        return rel === 0n ? [{ path: at.path, role: 'bytesHead', type: t, offset: 0, size: 32 }] : undefined
      case 'dynamicArray':
        return rel === 0n ? [{ path: `${at.path}.length`, role: 'length', type: t, offset: 0, size: 32 }] : undefined
      case 'mapping':
        return undefined
      case 'struct': {
        const out: WordField[] = []
        for (const m of t.members) {
          const type = this.type(m.type)
          if (rel < m.slot || rel >= m.slot + this.slots(type)) continue
          const fields = this.#fieldsOf({ path: `${at.path}.${m.name}`, type }, rel - m.slot, m.offset)
          if (fields !== undefined) out.push(...fields)
        }
        return out.length === 0 ? undefined : out
      }
      case 'staticArray': {
        const base = this.type(t.base)
        const size = byteSize(base)
        const per = elementsPerSlot(size)
        if (per > 1) {
          const out: WordField[] = []
          for (let i = 0; i < per; i++) {
            const index = rel * BigInt(per) + BigInt(i)
            if (index >= t.length) break
            out.push({ path: `${at.path}[${index}]`, role: 'value', type: base, offset: i * size, size })
          }
          return out
        }
        const each = slotsPerElement(size)
        const index = rel / each
        if (index >= t.length) return undefined
        return this.#fieldsOf({ path: `${at.path}[${index}]`, type: base }, rel % each, 0)
      }
    }
  }
}

type Scope = { readonly kind: 'top' } | { readonly kind: 'type'; readonly type: TypeInfo }

/**
 * Reads a solc storage layout from JSON: the `storageLayout` object itself, or an artifact that
 * holds one at `storageLayout` (solc standard JSON output per contract, Foundry with
 * `extra_output = ["storageLayout"]`, ringchain's own fixtures).
 */
export function parseLayout(json: unknown): Layout {
  const candidate = isObject(json) && isObject(json.storageLayout) ? json.storageLayout : json
  if (!isObject(candidate) || !Array.isArray(candidate.storage)) {
    throw new LayoutError('not a solc storage layout: expected {"storage": [...], "types": {...}} or an artifact with "storageLayout" (compile with outputSelection "storageLayout")')
  }
  for (const [i, e] of (candidate.storage as unknown[]).entries()) {
    if (!isObject(e) || typeof e.label !== 'string' || typeof e.slot !== 'string' || typeof e.offset !== 'number' || typeof e.type !== 'string') {
      throw new LayoutError(`storage entry ${i} of the layout is not {label, slot, offset, type}`)
    }
  }
  return new Layout(candidate as unknown as SolcStorageLayout)
}

function member(e: SolcStorageEntry): Member {
  return { name: e.label, slot: BigInt(e.slot), offset: e.offset, type: e.type }
}

function resolveType(id: string, raw: SolcType): TypeInfo {
  const label = raw.label
  const bytes = Number(raw.numberOfBytes)
  switch (raw.encoding) {
    case 'mapping':
      return { kind: 'mapping', id, label, key: raw.key!, value: raw.value! }
    case 'dynamic_array':
      return { kind: 'dynamicArray', id, label, base: raw.base! }
    case 'bytes':
      return { kind: 'bytes', id, label, string: id.startsWith('t_string') }
    case 'inplace':
      if (raw.members !== undefined) return { kind: 'struct', id, label, members: raw.members.map(member), bytes }
      if (raw.base !== undefined) {
        const length = /\[(\d+)\]$/.exec(label)
        return { kind: 'staticArray', id, label, base: raw.base, length: length === null ? 0n : BigInt(length[1]!), bytes }
      }
      return { kind: 'value', id, label, bytes, value: valueKind(id, bytes) }
  }
}

function valueKind(id: string, bytes: number): ValueKind {
  let m: RegExpExecArray | null
  if ((m = /^t_uint(\d+)$/.exec(id))) return { kind: 'uint', bits: Number(m[1]) }
  if ((m = /^t_int(\d+)$/.exec(id))) return { kind: 'int', bits: Number(m[1]) }
  if ((m = /^t_bytes(\d+)$/.exec(id))) return { kind: 'fixedBytes', size: Number(m[1]) }
  if (id === 't_bool') return { kind: 'bool' }
  if (id === 't_address' || id === 't_address_payable' || id.startsWith('t_contract(')) return { kind: 'address' }
  if (id.startsWith('t_enum(')) return { kind: 'enum' }
  if (id.startsWith('t_userDefinedValueType(')) return { kind: 'uint', bits: bytes * 8 }
  return { kind: 'other' }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
