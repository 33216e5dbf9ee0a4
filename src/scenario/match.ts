/**
 * Expected against actual. An expectation is a value (compared as what the field is: a quantity
 * numerically, an address by name or hex, data case-insensitively, objects partially) or an
 * operator object: `{ min, max }`, `{ contains }`, `{ matches }` (a regular expression),
 * `{ exists }`, `{ not }`.
 *
 * Owns: comparison rules and the mismatch records the report shows (field, expected, actual, and
 * the path in the file that wrote the expectation, for its line). Leaves fetching the actual
 * values to `steps/`.
 */
import type { AbiParameter } from './abi.js'
import type { Scope } from './scope.js'
import { isAddress, isQuantityLike, parseQuantity, show } from './values.js'

/** One expectation that did not hold. */
export interface Mismatch {
  /** The field as the report names it: `status`, `logs[0].args.value`. */
  readonly field: string
  readonly expected: unknown
  readonly actual: unknown
  /** Where the expectation is written in the scenario document (for its line). */
  readonly path: readonly (string | number)[]
  /** Why, when "expected X, got Y" is not enough. */
  readonly note?: string
}

/** How a field is compared. */
export type Kind =
  | 'auto'
  | 'quantity'
  | 'status'
  | 'address'
  | 'hash'
  | 'data'
  | 'string'
  | 'bool'
  | { readonly abi: AbiParameter }

const OPERATORS = new Set(['min', 'max', 'contains', 'matches', 'exists', 'not'])

/** Whether `value` is an operator object rather than a value to compare. */
export function isOperator(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k))
}

/** Collects the mismatches of one step. */
export class Checker {
  readonly mismatches: Mismatch[] = []
  constructor(readonly scope: Scope) {}

  fail(field: string, expected: unknown, actual: unknown, path: readonly (string | number)[], note?: string): void {
    this.mismatches.push({ field, expected, actual, path, ...(note === undefined ? {} : { note }) })
  }

  /** Compares and records a mismatch; returns whether it held. */
  check(field: string, expected: unknown, actual: unknown, kind: Kind, path: readonly (string | number)[]): boolean {
    const before = this.mismatches.length
    this.#match(field, expected, actual, kind, path)
    return this.mismatches.length === before
  }

  #match(field: string, expected: unknown, actual: unknown, kind: Kind, path: readonly (string | number)[]): void {
    if (isOperator(expected)) {
      for (const [op, operand] of Object.entries(expected)) {
        const at = [...path, op]
        switch (op) {
          case 'exists': {
            const exists = actual !== undefined && actual !== null
            if (exists !== Boolean(operand)) this.fail(field, operand === true ? 'present' : 'absent', actual === undefined ? 'absent' : actual, at)
            break
          }
          case 'min':
          case 'max': {
            const n = numeric(actual)
            let bound: bigint
            try {
              bound = parseQuantity(operand, `${field} ${op}`, true)
            } catch (e) {
              this.fail(field, operand, actual, at, (e as Error).message)
              break
            }
            if (n === undefined || (op === 'min' ? n < bound : n > bound)) this.fail(field, `${op === 'min' ? '>=' : '<='} ${show(operand)}`, actual, at)
            break
          }
          case 'contains':
            if (typeof actual !== 'string' || !actual.toLowerCase().includes(String(operand).toLowerCase())) this.fail(field, `contains ${show(operand)}`, actual, at)
            break
          case 'matches':
            if (typeof actual !== 'string' || !new RegExp(String(operand)).test(actual)) this.fail(field, `matches /${String(operand)}/`, actual, at)
            break
          case 'not': {
            const inner = new Checker(this.scope)
            if (inner.check(field, operand, actual, kind, at)) this.fail(field, `not ${show(operand)}`, actual, at)
            break
          }
        }
      }
      return
    }
    if (!equals(expected, actual, kind, this.scope, (sub, e, a, p, note) => this.fail(`${field}${sub}`, e, a, [...path, ...p], note))) {
      this.fail(field, expected, actual, path)
    }
  }
}

type Report = (subfield: string, expected: unknown, actual: unknown, path: readonly (string | number)[], note?: string) => void

/**
 * Whether `actual` is what `expected` describes. Nested mismatches (inside lists and objects) are
 * reported through `report` with their own sub-field and path, and the result is then true so the
 * caller does not report the whole value again.
 */
function equals(expected: unknown, actual: unknown, kind: Kind, scope: Scope, report: Report): boolean {
  if (typeof kind === 'object') return equalsAbi(expected, actual, kind.abi, scope, report)
  switch (kind) {
    case 'quantity':
      return sameNumber(expected, actual)
    case 'status': {
      const wanted = expected === 'success' ? 1n : expected === 'reverted' || expected === 'failure' ? 0n : expected
      return sameNumber(wanted, actual)
    }
    case 'address':
      if (expected === null) return actual === null
      if (typeof actual !== 'string') return false
      try {
        return scope.address(expected) === actual.toLowerCase()
      } catch {
        return false
      }
    case 'hash':
      if (expected === null) return actual === null
      if (typeof actual !== 'string') return false
      try {
        return (typeof expected === 'string' && expected.startsWith('0x') ? expected.toLowerCase() : scope.hash(expected)) === actual.toLowerCase()
      } catch {
        return false
      }
    case 'data':
      return typeof expected === 'string' && typeof actual === 'string' && expected.toLowerCase() === actual.toLowerCase()
    case 'string':
      return typeof actual === 'string' && String(expected) === actual
    case 'bool':
      return expected === actual
    case 'auto':
      return equalsAuto(expected, actual, scope, report)
  }
}

function equalsAuto(expected: unknown, actual: unknown, scope: Scope, report: Report): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined
  if (typeof expected === 'boolean') return expected === actual
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false
    if (expected.length !== actual.length) {
      report('.length', expected.length, actual.length, [])
      return true
    }
    expected.forEach((e, i) => nested(`[${i}]`, [i], e, actual[i], 'auto', scope, report))
    return true
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    for (const [key, e] of Object.entries(expected)) nested(`.${key}`, [key], e, (actual as Record<string, unknown>)[key], 'auto', scope, report)
    return true
  }
  if (typeof expected === 'number' || typeof expected === 'bigint') return sameNumber(expected, actual)
  if (typeof expected === 'string') {
    if (typeof actual === 'string') {
      if (expected.toLowerCase() === actual.toLowerCase() && (expected.startsWith('0x') || expected === actual)) return true
      if (isAddress(actual) && !expected.startsWith('0x') && scope.isAddressLike(expected)) return scope.address(expected) === actual.toLowerCase()
      if (isQuantityLike(expected) && isQuantityLike(actual) && (!expected.startsWith('0x') || !actual.startsWith('0x'))) return sameNumber(expected, actual)
      return expected === actual
    }
    if (typeof actual === 'number' || typeof actual === 'bigint') return isQuantityLike(expected) && sameNumber(expected, actual)
  }
  return false
}

function nested(sub: string, path: readonly (string | number)[], expected: unknown, actual: unknown, kind: Kind, scope: Scope, report: Report): void {
  if (isOperator(expected)) {
    const inner = new Checker(scope)
    inner.check('', expected, actual, kind, [])
    for (const m of inner.mismatches) report(sub, m.expected, m.actual, [...path, ...m.path], m.note)
    return
  }
  const before: Parameters<Report>[] = []
  const ok = equals(expected, actual, kind, scope, (s, e, a, p, n) => before.push([s, e, a, p, n]))
  for (const [s, e, a, p, n] of before) report(sub + s, e, a, [...path, ...p], n)
  if (!ok) report(sub, expected, actual, path)
}

function equalsAbi(expected: unknown, actual: unknown, param: AbiParameter, scope: Scope, report: Report): boolean {
  const type = param.type
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array !== null) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return false
    if (expected.length !== actual.length) {
      report('.length', expected.length, actual.length, [])
      return true
    }
    const inner: AbiParameter = { ...param, type: array[1]! }
    expected.forEach((e, i) => nested(`[${i}]`, [i], e, actual[i], { abi: inner }, scope, report))
    return true
  }
  if (type === 'tuple') {
    const components = param.components ?? []
    if (typeof expected !== 'object' || expected === null) return false
    components.forEach((c, i) => {
      const key = c.name !== undefined && c.name !== '' ? c.name : i
      const e = Array.isArray(expected) ? expected[i] : (expected as Record<string, unknown>)[String(key)]
      if (e === undefined) return
      const a = Array.isArray(actual) ? actual[i] : (actual as Record<string, unknown>)[String(key)]
      nested(`.${String(key)}`, Array.isArray(expected) ? [i] : [String(key)], e, a, { abi: c }, scope, report)
    })
    return true
  }
  if (/^u?int\d*$/.test(type)) return sameNumber(expected, actual, true)
  if (type === 'address') return equals(expected, actual, 'address', scope, report)
  if (type === 'bool') return expected === actual || String(expected) === String(actual)
  if (type === 'string') return String(expected) === actual
  if (/^bytes\d*$/.test(type)) return equals(expected, actual, 'data', scope, report)
  return equalsAuto(expected, actual, scope, report)
}

function sameNumber(expected: unknown, actual: unknown, signed = false): boolean {
  const a = numeric(actual)
  if (a === undefined) return false
  try {
    return parseQuantity(expected, 'expected', signed || a < 0n) === a
  } catch {
    return false
  }
}

/** A number out of an RPC value (hex quantity, number, bigint); undefined if it is none. */
export function numeric(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
  if (typeof value === 'string' && /^-?(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return value.startsWith('-') ? -BigInt(value.slice(1)) : BigInt(value)
  return undefined
}
