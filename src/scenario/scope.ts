/**
 * The names a scenario defines as it plays: accounts (dev accounts by index, extra keys, plain
 * addresses) and captures (`as: token`), and the `${token.address}` references that read them.
 *
 * Owns: name lookup, reference syntax and substitution, and turning a name into the address or
 * transaction hash a step needs. A transaction's `receipt` is fetched when a reference first reads
 * it (and again while it is null), so `${tx1.receipt.blockNumber}` works after a later `mine`.
 * Leaves value syntax to `values.ts` and RPC to `client.ts`.
 */
import type { AbiItem } from './abi.js'
import type { Client } from './client.js'
import { ScenarioValueError, isAddress, isHash, show } from './values.js'

/** A dev account or an extra key: the runner signs for it when it holds the key. */
export interface AccountEntry {
  readonly kind: 'account'
  readonly address: string
  readonly privateKey?: string
  /** Dev account index, when it is one. */
  readonly index?: number
}

/** What `as:` keeps of a sent transaction (and, for a deployment, of the contract). */
export class TxCapture {
  readonly kind = 'tx'
  #receipt: unknown = null
  readonly #client: Client
  constructor(
    client: Client,
    readonly hash: string,
    readonly from: string,
    readonly to: string | null,
    readonly nonce: bigint,
    /** The created contract's address (deployments) and its ABI, when known. */
    readonly address?: string,
    readonly abi?: readonly AbiItem[],
  ) {
    this.#client = client
  }

  /** The receipt as the node last answered it (null while pending or once its block left the window). */
  async receipt(): Promise<unknown> {
    if (this.#receipt === null) this.#receipt = await this.#client.request('eth_getTransactionReceipt', [this.hash])
    return this.#receipt
  }

  /** Keeps a receipt already fetched, so references made after its block left the window still read it. */
  remember(receipt: unknown): void {
    if (receipt !== null && receipt !== undefined) this.#receipt = receipt
  }

  async field(key: string): Promise<unknown> {
    switch (key) {
      case 'hash':
        return this.hash
      case 'from':
        return this.from
      case 'to':
        return this.to
      case 'nonce':
        return this.nonce
      case 'address':
        return this.address
      case 'receipt':
        return this.receipt()
      default:
        return undefined
    }
  }

  keys(): string[] {
    return ['hash', 'from', 'to', 'nonce', 'receipt', ...(this.address === undefined ? [] : ['address'])]
  }
}

/** A capture that is just data (a call's result, a block number). */
export type Capture = TxCapture | AccountEntry | Readonly<Record<string, unknown>>

const REFERENCE = /\$\{([^}]*)\}/g
const WHOLE_REFERENCE = /^\$\{([^}]*)\}$/
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** A reference, a name or an address that names nothing the scenario knows. */
export class ReferenceError extends ScenarioValueError {
  override name = 'ReferenceError'
}

export class Scope {
  readonly #names = new Map<string, Capture>()
  readonly #dev: readonly AccountEntry[]

  constructor(devAccounts: readonly AccountEntry[]) {
    this.#dev = devAccounts
  }

  get devAccounts(): readonly AccountEntry[] {
    return this.#dev
  }

  define(name: string, value: Capture): void {
    this.#names.set(name, value)
  }

  /** A name's entry, without following a path. */
  get(name: string): Capture | undefined {
    return this.#names.get(name)
  }

  /** Dev account `index`. */
  dev(index: number): AccountEntry {
    const account = this.#dev[index]
    if (account === undefined) throw new ReferenceError(`there is no dev account ${index} (the chain has ${this.#dev.length})`)
    return account
  }

  /** The value of `${path}`: `token.address`, `tx1.receipt.blockNumber`, `call1.returns[0]`. */
  async lookup(path: string): Promise<unknown> {
    const segments = parsePath(path)
    const [first, ...rest] = segments
    let current: unknown = this.#names.get(String(first))
    if (current === undefined) {
      throw new ReferenceError(`\${${path}}: nothing is named "${String(first)}"${this.#suggest(String(first))}`)
    }
    let walked = String(first)
    for (const segment of rest) {
      const next = await child(current, segment)
      if (next === undefined) {
        throw new ReferenceError(`\${${path}}: ${walked} has no "${segment}"${describeKeys(current)}`)
      }
      current = next
      walked += typeof segment === 'number' ? `[${segment}]` : `.${segment}`
    }
    if (current instanceof TxCapture) return current.hash
    if (isAccount(current)) return current.address
    return current
  }

  /**
   * Substitutes every `${…}` in `value` (deeply). A string that is one reference becomes the value
   * itself (a number stays a number); references inside text are written as text. `$${` is a
   * literal `${`.
   */
  async resolve(value: unknown): Promise<unknown> {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value
      const whole = WHOLE_REFERENCE.exec(value)
      if (whole !== null && !value.startsWith('$${')) return this.lookup(whole[1]!.trim())
      let out = ''
      let last = 0
      for (const m of value.matchAll(REFERENCE)) {
        const at = m.index
        if (at > 0 && value[at - 1] === '$') {
          out += value.slice(last, at - 1) + m[0]
        } else {
          out += value.slice(last, at) + asText(await this.lookup(m[1]!.trim()))
        }
        last = at + m[0].length
      }
      return out + value.slice(last)
    }
    if (Array.isArray(value)) {
      const out: unknown[] = []
      for (const item of value) out.push(await this.resolve(item))
      return out
    }
    if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[k] = await this.resolve(v)
      return out
    }
    return value
  }

  /**
   * The address a value names: a dev account index, an account or contract name, a capture with
   * an address, or a literal address (lowercased).
   */
  address(value: unknown, what = 'address'): string {
    if (typeof value === 'number' || typeof value === 'bigint') return this.dev(Number(value)).address
    if (isAddress(value)) return value.toLowerCase()
    if (typeof value === 'string' && NAME.test(value)) {
      const entry = this.#names.get(value)
      if (entry === undefined) throw new ReferenceError(`${what}: nothing is named "${value}"${this.#suggest(value)}`)
      if (entry instanceof TxCapture) {
        if (entry.address !== undefined) return entry.address
        throw new ReferenceError(`${what}: "${value}" is a transaction, not an address (write ${value}.to or ${value}.from)`)
      }
      const address = (entry as { address?: unknown }).address
      if (isAddress(address)) return address.toLowerCase()
      throw new ReferenceError(`${what}: "${value}" has no address`)
    }
    throw new ScenarioValueError(`${what}: expected an account name, a dev account index or an address, got ${show(value)}`)
  }

  /** Whether `value` names an address (without throwing). */
  isAddressLike(value: unknown): boolean {
    try {
      this.address(value)
      return true
    } catch {
      return false
    }
  }

  /** The transaction hash a value names: a capture of a sent transaction, or a literal hash. */
  hash(value: unknown, what = 'transaction'): string {
    if (isHash(value)) return value.toLowerCase()
    if (typeof value === 'string' && NAME.test(value)) {
      const entry = this.#names.get(value)
      if (entry instanceof TxCapture) return entry.hash
      if (entry === undefined) throw new ReferenceError(`${what}: nothing is named "${value}"${this.#suggest(value)}`)
      throw new ReferenceError(`${what}: "${value}" is not a transaction`)
    }
    throw new ScenarioValueError(`${what}: expected a transaction hash or the name of a sent transaction, got ${show(value)}`)
  }

  /** The capture of a transaction by hash (to remember receipts). */
  transaction(hash: string): TxCapture | undefined {
    for (const entry of this.#names.values()) if (entry instanceof TxCapture && entry.hash === hash) return entry
    return undefined
  }

  /** The key the runner holds for an address, if any. */
  keyOf(address: string): string | undefined {
    const lower = address.toLowerCase()
    for (const entry of [...this.#dev, ...this.#names.values()]) {
      if (isAccount(entry) && entry.address === lower && entry.privateKey !== undefined) return entry.privateKey
    }
    return undefined
  }

  /** ABIs known for an address (from deployments with an artifact or an ABI). */
  abiOf(address: string): readonly AbiItem[] | undefined {
    const lower = address.toLowerCase()
    for (const entry of this.#names.values()) if (entry instanceof TxCapture && entry.address === lower && entry.abi !== undefined) return entry.abi
    return undefined
  }

  /** Every ABI the scenario knows, for events named without a signature. */
  allAbis(): (readonly AbiItem[])[] {
    const out: (readonly AbiItem[])[] = []
    for (const entry of this.#names.values()) if (entry instanceof TxCapture && entry.abi !== undefined) out.push(entry.abi)
    return out
  }

  /** A short name for an address in step descriptions: the scenario's own name for it, else the address. */
  nameOf(address: string): string {
    const lower = address.toLowerCase()
    for (const [name, entry] of this.#names) {
      if ((isAccount(entry) || entry instanceof TxCapture) && (entry as { address?: string }).address === lower) return name
    }
    const dev = this.#dev.findIndex((a) => a.address === lower)
    if (dev >= 0) return `#${dev}`
    return `${lower.slice(0, 8)}…${lower.slice(-4)}`
  }

  #suggest(name: string): string {
    const names = [...this.#names.keys()]
    const close = names.filter((n) => distance(n, name) <= 2)
    if (close.length > 0) return ` (did you mean ${close.map((n) => `"${n}"`).join(' or ')}?)`
    return names.length === 0 ? '' : ` (known names: ${names.join(', ')})`
  }
}

function isAccount(value: unknown): value is AccountEntry {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'account'
}

function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = []
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part)
    if (m === null || (m[1] === '' && out.length === 0)) throw new ReferenceError(`\${${path}}: not a reference (write \${name.field} or \${name.list[0]})`)
    if (m[1] !== '') out.push(/^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!)
    for (const index of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]))
  }
  return out
}

async function child(value: unknown, key: string | number): Promise<unknown> {
  if (value instanceof TxCapture) return typeof key === 'string' ? value.field(key) : undefined
  if (Array.isArray(value)) return typeof key === 'number' ? value[key] : key === 'length' ? value.length : undefined
  if (typeof value === 'object' && value !== null) return (value as Record<string, unknown>)[String(key)]
  return undefined
}

function describeKeys(value: unknown): string {
  const keys = value instanceof TxCapture ? value.keys() : typeof value === 'object' && value !== null ? Object.keys(value) : []
  if (Array.isArray(value)) return ` (it is a list of ${value.length})`
  return keys.length === 0 ? '' : ` (it has ${keys.join(', ')})`
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  return show(value)
}

/** Levenshtein distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}
