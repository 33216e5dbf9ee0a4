/**
 * Contracts as a scenario names them: artifacts (solc/Hardhat/Foundry JSON with `abi` and
 * `bytecode`), human-readable signatures (`transfer(address,uint256)`, `event Transfer(address
 * indexed from, …)`), arguments written in YAML turned into ABI values, and results and logs
 * decoded back. Also where a mapping entry lives in storage.
 *
 * Owns: the conversions between scenario values and ABI values. The encoding itself is
 * micro-eth-signer's (`micro-eth-signer/abi.js`); names become addresses through an
 * `AddressNames` handed in (the run's `Scope`), so this module knows nothing of scopes.
 */
import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createContract, events, parseAbiItem, type ParsedABI } from 'micro-eth-signer/abi.js'
import { ScenarioValueError, bytesToHex, hexToBytes, isAddress, isHash, isQuantityLike, parseQuantity, show } from './values.js'

/** How names (`alice`, `token`, dev account numbers) become addresses: the run's `Scope` is one. */
export interface AddressNames {
  /** The lowercase address a value names; throws naming `what` when it names none. */
  address(value: unknown, what?: string): string
  /** Whether the value names an address (a literal, a dev account, a deployed contract). */
  isAddressLike(value: unknown): boolean
}

/** One parameter of an ABI entry. */
export interface AbiParameter {
  readonly name?: string
  readonly type: string
  readonly indexed?: boolean
  readonly components?: readonly AbiParameter[]
}

/** One ABI entry (function, event, constructor, error). */
export interface AbiItem {
  readonly type: string
  readonly name?: string
  readonly inputs?: readonly AbiParameter[]
  readonly outputs?: readonly AbiParameter[]
  readonly stateMutability?: string
  readonly anonymous?: boolean
}

/** A compiled contract: its ABI and creation bytecode. */
export interface Artifact {
  readonly abi: readonly AbiItem[]
  readonly bytecode: string
}

/**
 * Reads an artifact: `abi` plus `bytecode` as a hex string (solc's and Hardhat's layout) or as
 * `{ object }` (Foundry's and solc's `evm.bytecode`).
 */
export async function loadArtifact(path: string, baseDir: string): Promise<Artifact> {
  const record = (await readJson(`artifact ${path}`, path, baseDir)) as { abi?: unknown; bytecode?: unknown; evm?: { bytecode?: { object?: unknown } } }
  const raw = typeof record.bytecode === 'object' && record.bytecode !== null ? (record.bytecode as { object?: unknown }).object : (record.bytecode ?? record.evm?.bytecode?.object)
  if (!Array.isArray(record.abi)) throw new ScenarioValueError(`artifact ${path}: no "abi" list`)
  if (typeof raw !== 'string' || raw.replace(/^0x/, '').length === 0) throw new ScenarioValueError(`artifact ${path}: no "bytecode"`)
  const bytecode = raw.startsWith('0x') ? raw : `0x${raw}`
  if (!/^0x([0-9a-fA-F]{2})*$/.test(bytecode)) throw new ScenarioValueError(`artifact ${path}: the bytecode is not hex (unlinked libraries?)`)
  return { abi: record.abi as AbiItem[], bytecode: bytecode.toLowerCase() }
}

/** Reads an ABI given inline (a list), as a path to an artifact or ABI file, or as signatures. */
export async function loadAbi(value: unknown, baseDir: string): Promise<readonly AbiItem[]> {
  if (typeof value === 'string') {
    const json = await readJson(`abi ${value}`, value, baseDir)
    const abi = Array.isArray(json) ? json : (json as { abi?: unknown }).abi
    if (!Array.isArray(abi)) throw new ScenarioValueError(`abi ${value}: neither an ABI list nor an artifact with "abi"`)
    return abi as AbiItem[]
  }
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? parseSignature(item, 'function') : (item as AbiItem)))
  throw new ScenarioValueError(`abi: expected a list or a file path, got ${show(value)}`)
}

/** A JSON file, its path relative to `baseDir`; `what` starts the error message. */
async function readJson(what: string, path: string, baseDir: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(isAbsolute(path) ? path : resolve(baseDir, path), 'utf8'))
  } catch (e) {
    throw new ScenarioValueError(`${what}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`)
  }
}

/**
 * Parses a human-readable signature. The keyword may be left out: `transfer(address,uint256)`
 * is a function, `Transfer(address indexed from, …)` given for an event is an event.
 */
export function parseSignature(signature: string, kind: 'function' | 'event' | 'constructor'): AbiItem {
  const text = signature.trim()
  const withKeyword = /^(function|event|constructor|error)\b/.test(text) ? text : kind === 'constructor' ? `constructor${text.startsWith('(') ? '' : ' '}${text}` : `${kind} ${text}`
  try {
    return parseAbiItem(withKeyword) as AbiItem
  } catch (e) {
    throw new ScenarioValueError(`cannot read the signature "${signature}": ${(e as Error).message}`)
  }
}

/** The function a step names: a signature, or a name looked up in the contract's ABI. */
export function findFunction(name: string, abi: readonly AbiItem[] | undefined, argCount: number | undefined): AbiItem {
  if (name.includes('(')) return parseSignature(name, 'function')
  if (abi === undefined) {
    throw new ScenarioValueError(`function "${name}": give its signature (e.g. "${name}(address,uint256)") or an abi, or deploy the contract with an artifact`)
  }
  const candidates = abi.filter((item) => item.type === 'function' && item.name === name)
  const fitting = argCount === undefined ? candidates : candidates.filter((item) => (item.inputs ?? []).length === argCount)
  if (fitting.length === 1) return fitting[0]!
  if (candidates.length === 0) {
    const names = abi.filter((item) => item.type === 'function').map((item) => item.name)
    throw new ScenarioValueError(`function "${name}" is not in the contract's ABI (it has ${names.join(', ')})`)
  }
  throw new ScenarioValueError(`function "${name}" is overloaded: write its signature, e.g. "${signatureOf(candidates[0]!)}"`)
}

/** The event a log expectation names: a signature, or a name looked up in the known ABIs. */
export function findEvent(name: string, abis: readonly (readonly AbiItem[])[]): AbiItem {
  if (name.includes('(')) return parseSignature(name, 'event')
  for (const abi of abis) {
    const found = abi.find((item) => item.type === 'event' && item.name === name)
    if (found !== undefined) return found
  }
  throw new ScenarioValueError(`event "${name}": give its signature (e.g. "${name}(address indexed from, …)") or deploy its contract with an artifact`)
}

/** `name(type1,type2)` of an entry, tuples expanded. */
export function signatureOf(item: AbiItem): string {
  return `${item.name ?? ''}(${(item.inputs ?? []).map(canonicalType).join(',')})`
}

function canonicalType(param: AbiParameter): string {
  if (param.type.startsWith('tuple')) return `(${(param.components ?? []).map(canonicalType).join(',')})${param.type.slice(5)}`
  return param.type
}

/** Calldata of a call to `item` with `args` (a list, or an object by parameter name). */
export function encodeCall(item: AbiItem, args: unknown, scope: AddressNames): string {
  const contract = createContract([{ ...item, type: 'function' }] as unknown as ParsedABI)
  const method = contract[item.name!]!
  const bytes = method.encodeInput(shapeArgs(item.inputs ?? [], args, scope, `${item.name}`))
  return bytesToHex(bytes)
}

/** Constructor arguments, ABI-encoded, to append to the creation bytecode. */
export function encodeConstructorArgs(abi: readonly AbiItem[], args: unknown): (scope: AddressNames) => string {
  return (scope) => {
    const constructor = abi.find((item) => item.type === 'constructor')
    const inputs = constructor?.inputs ?? []
    const given = args === undefined ? [] : args
    if (inputs.length === 0) {
      if (Array.isArray(given) && given.length === 0) return '0x'
      throw new ScenarioValueError('args: the constructor takes no arguments')
    }
    const fake: AbiItem = { type: 'function', name: 'constructor_', inputs }
    return '0x' + encodeCall(fake, given, scope).slice(10)
  }
}

/** Outputs of `item` decoded from return data, as a list (one entry per output). */
export function decodeOutputs(item: AbiItem, data: string): unknown[] {
  const outputs = item.outputs ?? []
  if (outputs.length === 0) return []
  const contract = createContract([{ ...item, type: 'function' }] as unknown as ParsedABI)
  let decoded: unknown
  try {
    decoded = contract[item.name!]!.decodeOutput(hexToBytes(data))
  } catch (e) {
    throw new ScenarioValueError(`cannot decode the result of ${signatureOf(item)} as (${outputs.map(canonicalType).join(',')}): ${(e as Error).message}`)
  }
  return listOf(outputs, decoded).map((value, i) => plain(outputs[i]!, value))
}

/** A log decoded by `event`: its arguments by name and in order; undefined when topic0 differs. */
export function decodeLog(event: AbiItem, topics: readonly string[], data: string): { named: Record<string, unknown>; list: unknown[] } | undefined {
  const decoder = events([event] as unknown as ParsedABI)[event.name!]!
  if (event.anonymous !== true && topics[0]?.toLowerCase() !== eventTopic(event)) return undefined
  let decoded: unknown
  try {
    decoded = decoder.decode(topics as string[], data)
  } catch (e) {
    throw new ScenarioValueError(`cannot decode the log as ${event.name}: ${(e as Error).message} (are the indexed parameters marked "indexed"?)`)
  }
  const inputs = event.inputs ?? []
  const list = listOf(inputs, decoded).map((value, i) => plain(inputs[i]!, value))
  const named: Record<string, unknown> = {}
  inputs.forEach((p, i) => {
    if (p.name !== undefined && p.name !== '') named[p.name] = list[i]
  })
  return { named, list }
}

/** The topic0 of an event. */
export function eventTopic(event: AbiItem): string {
  return bytesToHex(keccak_256(new TextEncoder().encode(signatureOf(event))))
}

/** micro-eth-signer's shape for a parameter list: nothing, the single value, an object when all are named, else a list. */
function listOf(params: readonly AbiParameter[], value: unknown): unknown[] {
  if (params.length === 0) return []
  if (params.length === 1) return [value]
  if (allNamed(params) && !Array.isArray(value)) return params.map((p) => (value as Record<string, unknown>)[p.name!])
  return value as unknown[]
}

function allNamed(params: readonly AbiParameter[]): boolean {
  return params.length > 0 && params.every((p) => p.name !== undefined && p.name !== '')
}

/** Arguments as micro-eth-signer takes them for `params`. */
function shapeArgs(params: readonly AbiParameter[], args: unknown, scope: AddressNames, what: string): unknown {
  const list = argList(params, args, what)
  const values = params.map((p, i) => toAbiValue(p, list[i], scope, `${what} argument ${p.name !== undefined && p.name !== '' ? p.name : i}`))
  if (params.length === 0) return undefined
  if (params.length === 1) return values[0]
  if (allNamed(params)) return Object.fromEntries(params.map((p, i) => [p.name!, values[i]]))
  return values
}

function argList(params: readonly AbiParameter[], args: unknown, what: string): unknown[] {
  if (args === undefined || args === null) {
    if (params.length === 0) return []
    throw new ScenarioValueError(`${what}: expects ${params.length} argument(s) (${params.map(canonicalType).join(', ')}), got none`)
  }
  if (Array.isArray(args)) {
    if (args.length !== params.length) throw new ScenarioValueError(`${what}: expects ${params.length} argument(s) (${params.map(canonicalType).join(', ')}), got ${args.length}`)
    return args
  }
  if (typeof args === 'object') {
    const record = args as Record<string, unknown>
    const missing = params.filter((p) => p.name === undefined || !(p.name in record))
    if (missing.length > 0) throw new ScenarioValueError(`${what}: missing argument(s) ${missing.map((p) => p.name ?? p.type).join(', ')}`)
    return params.map((p) => record[p.name!])
  }
  if (params.length === 1) return [args]
  throw new ScenarioValueError(`${what}: expects a list of arguments, got ${show(args)}`)
}

/** A scenario value as the ABI coder wants it for `param` (names become addresses). */
export function toAbiValue(param: AbiParameter, value: unknown, scope: AddressNames, what: string): unknown {
  const type = param.type
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array !== null) {
    if (!Array.isArray(value)) throw new ScenarioValueError(`${what}: expected a list for ${type}, got ${show(value)}`)
    if (array[2] !== '' && value.length !== Number(array[2])) throw new ScenarioValueError(`${what}: ${type} takes exactly ${array[2]} items, got ${value.length}`)
    const inner: AbiParameter = { ...param, type: array[1]! }
    return value.map((v, i) => toAbiValue(inner, v, scope, `${what}[${i}]`))
  }
  if (type === 'tuple') {
    const components = param.components ?? []
    const list = argList(components, value, what)
    const values = components.map((c, i) => toAbiValue(c, list[i], scope, `${what}.${c.name ?? i}`))
    return allNamed(components) ? Object.fromEntries(components.map((c, i) => [c.name!, values[i]])) : values
  }
  if (/^u?int\d*$/.test(type)) return parseQuantity(value, what, type.startsWith('int'))
  if (type === 'address') return scope.address(value, what)
  if (type === 'bool') {
    if (typeof value === 'boolean') return value
    if (value === 'true' || value === 'false') return value === 'true'
    throw new ScenarioValueError(`${what}: expected true or false, got ${show(value)}`)
  }
  if (type === 'string') {
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'bigint') return String(value)
    throw new ScenarioValueError(`${what}: expected a string, got ${show(value)}`)
  }
  const bytes = /^bytes(\d*)$/.exec(type)
  if (bytes !== null) {
    if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new ScenarioValueError(`${what}: expected hex bytes for ${type}, got ${show(value)}`)
    const data = hexToBytes(value)
    if (bytes[1] !== '' && data.length !== Number(bytes[1])) throw new ScenarioValueError(`${what}: ${type} takes exactly ${bytes[1]} bytes, got ${data.length}`)
    return data
  }
  throw new ScenarioValueError(`${what}: the ABI type ${type} is not supported`)
}

/** A decoded ABI value as the scenario compares and captures it: bytes as hex, addresses lowercase. */
function plain(param: AbiParameter, value: unknown): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(param.type)
  if (array !== null) return (value as unknown[]).map((v) => plain({ ...param, type: array[1]! }, v))
  if (param.type === 'tuple') {
    const components = param.components ?? []
    const list = listOf(components, value)
    return allNamed(components) ? Object.fromEntries(components.map((c, i) => [c.name!, plain(c, list[i])])) : components.map((c, i) => plain(c, list[i]))
  }
  if (value instanceof Uint8Array) return bytesToHex(value)
  if (typeof value === 'string' && param.type === 'address') return value.toLowerCase()
  return value
}

/**
 * The slot of a mapping entry, as Solidity lays it out: `keccak256(key . slot)` per key, the key
 * padded to 32 bytes (value types) or as its bytes (`string`, `bytes`).
 */
export function mappingSlot(slot: bigint, keys: readonly unknown[], keyTypes: readonly (string | undefined)[], scope: AddressNames): bigint {
  let current = slot
  keys.forEach((key, i) => {
    const bytes = mappingKey(key, keyTypes[i], scope, `mapping key ${i + 1}`)
    const input = new Uint8Array(bytes.length + 32)
    input.set(bytes, 0)
    input.set(word(current), bytes.length)
    current = BigInt(bytesToHex(keccak_256(input)))
  })
  return current
}

/** A mapping key's bytes; the type is given or guessed (an address-like value, a number, a 32-byte hex, else a string). */
function mappingKey(key: unknown, type: string | undefined, scope: AddressNames, what: string): Uint8Array {
  const t = type ?? guessKeyType(key, scope)
  if (t === 'address') return word(BigInt(scope.address(key, what)))
  if (/^u?int\d*$/.test(t)) {
    const n = parseQuantity(key, what, true)
    return word(n < 0n ? (1n << 256n) + n : n)
  }
  if (t === 'bool') return word(key === true || key === 'true' ? 1n : 0n)
  if (/^bytes\d+$/.test(t)) {
    const data = hexToBytes(String(key))
    const out = new Uint8Array(32)
    out.set(data.subarray(0, 32))
    return out
  }
  if (t === 'string') return new TextEncoder().encode(String(key))
  if (t === 'bytes') return hexToBytes(String(key))
  throw new ScenarioValueError(`${what}: the key type ${t} is not supported`)
}

function guessKeyType(key: unknown, scope: AddressNames): string {
  if (isAddress(key)) return 'address'
  if (isHash(key)) return 'bytes32'
  if (typeof key === 'number' || typeof key === 'bigint' || (typeof key === 'string' && isQuantityLike(key))) return 'uint256'
  if (typeof key === 'boolean') return 'bool'
  if (scope.isAddressLike(key)) return 'address'
  return 'string'
}

function word(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(64, '0'))
}
