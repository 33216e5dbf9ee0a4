/**
 * Every function of Hardhat's `console.sol` and forge-std's `console`/`console2`, generated from the
 * type combinations as Hardhat's generator writes the library, keyed by 4-byte selector.
 * Owns: the selector table and the parameter types of each entry. Leaves decoding to `decode.ts`.
 * Old Hardhat libraries (and forge-std's `console.sol` copied from them) hashed `uint`/`int` and
 * the named forms (`logUint(uint)`, `logBytes4(bytes4)`); those selectors are here too, as EDR
 * and forge keep them.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

/** A parameter type console.log takes. */
export type ConsoleType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`

/** The types Hardhat combines for `log(p0, …, p3)`. */
const COMBINED: readonly ConsoleType[] = ['uint256', 'string', 'bool', 'address']
const FIXED_BYTES: readonly ConsoleType[] = Array.from({ length: 32 }, (_, i) => `bytes${i + 1}` as const)

/** The named single-argument forms: `logUint(uint256)` … `logBytes32(bytes32)`. */
const NAMED: readonly (readonly [string, ConsoleType])[] = [
  ['logInt', 'int256'],
  ['logUint', 'uint256'],
  ['logString', 'string'],
  ['logBool', 'bool'],
  ['logAddress', 'address'],
  ['logBytes', 'bytes'],
  ...FIXED_BYTES.map((type) => [`logBytes${type.slice(5)}`, type] as const),
]

/** Every parameter list of `log(…)`: none, one of each type, and 2 to 4 of the combined types. */
function logParameterLists(): ConsoleType[][] {
  const lists: ConsoleType[][] = [[], ['int256'], ['bytes'], ...FIXED_BYTES.map((t) => [t])]
  let level: ConsoleType[][] = [[]]
  for (let arity = 1; arity <= 4; arity++) {
    level = level.flatMap((prefix) => COMBINED.map((type) => [...prefix, type]))
    lists.push(...level)
  }
  return lists
}

/** The signature with `uint256`/`int256` spelled `uint`/`int`, as the legacy libraries hashed it. */
function legacySpelling(signature: string): string {
  return signature.replace(/\b(u?int)256\b/g, '$1')
}

function selectorOf(signature: string): number {
  const hash = keccak_256(new TextEncoder().encode(signature))
  return ((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0
}

function buildTable(): Map<number, readonly ConsoleType[]> {
  const table = new Map<number, readonly ConsoleType[]>()
  const add = (name: string, types: readonly ConsoleType[]) => {
    const signature = `${name}(${types.join(',')})`
    table.set(selectorOf(signature), types)
    table.set(selectorOf(legacySpelling(signature)), types)
  }
  for (const types of logParameterLists()) add('log', types)
  for (const [name, type] of NAMED) add(name, [type])
  return table
}

let table: Map<number, readonly ConsoleType[]> | undefined

/** The parameter types of the console function with this selector, or undefined for none. */
export function consoleParameters(selector: number): readonly ConsoleType[] | undefined {
  // Built on first use: a chain whose contracts never log never hashes these ~800 signatures.
  table ??= buildTable()
  return table.get(selector)
}
