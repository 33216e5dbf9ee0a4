/**
 * `ringchain slot`: prints where something lives in storage, computed offline (no node needed): a
 * mapping entry, a dynamic array element, an ERC-7201 namespace, or a variable path over a solc
 * storage layout. The arithmetic is `src/inspect/slots.ts`'s.
 */
import { readFile } from 'node:fs/promises'
import { parseLayout, type Layout } from '../inspect/layout.js'
import { parseKey } from '../inspect/paths.js'
import { LayoutError, type TypeInfo } from '../inspect/types.js'
import { dynamicArrayElement, erc7201Slot, hexWord, nestedMappingSlot } from '../inspect/slots.js'
import { fail, parseArgsOrFail } from './fail.js'

export const SLOT_HELP = `Usage: ringchain slot [options] [variable path]

Prints a storage slot as a 32-byte hex word (first line), computed by Solidity's rules.

  --mapping <slot> --key <key> [--key <key>...]
                          entry of the mapping at <slot>; nested mappings: outer key first
  --key-type <type>       how keys are encoded: address, uint<N>, int<N>, bool, bytes<N>,
                          string, bytes (default: uint256, or address for 40 hex digits)
  --array <slot> --index <i> [--element-bytes <n>]
                          element of the dynamic array at <slot> (elements of n bytes, default 32)
  --erc7201 <id>          root slot of an ERC-7201 namespace, e.g. openzeppelin.storage.ERC20
  --layout <file> <path>  a variable of a solc storage layout (or an artifact holding one),
                          e.g. balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8] or positions[2].owner
  -h, --help              this help

Examples:
  ringchain slot --mapping 0 --key 0x70997970C51812dc3A010C7d01b50e0d17dc79C8
  ringchain slot --mapping 1 --key 0xf39F... --key 0x7099...        (allowance[owner][spender])
  ringchain slot --layout Token.json '_balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]'
`

export async function slot(rest: string[]): Promise<void> {
  const { values, positionals } = parseArgsOrFail({
    args: rest,
    options: {
      mapping: { type: 'string' },
      key: { type: 'string', multiple: true },
      'key-type': { type: 'string' },
      array: { type: 'string' },
      index: { type: 'string' },
      'element-bytes': { type: 'string' },
      erc7201: { type: 'string' },
      layout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  })
  if (values.help === true) {
    process.stdout.write(SLOT_HELP)
    return
  }
  const modes = [values.mapping, values.array, values.erc7201, values.layout].filter((v) => v !== undefined).length
  if (modes !== 1) fail('give one of --mapping, --array, --erc7201 or --layout (try --help)')

  if (values.layout !== undefined) {
    const [path, ...extra] = positionals
    if (path === undefined || extra.length > 0) fail('--layout takes one variable path, e.g. balances[0x7099...]')
    const layout = await loadLayout(values.layout)
    try {
      const at = layout.resolve(path)
      const lines = [hexWord(at.slot), `path    ${at.path}`, `type    ${at.type.label}`]
      if (at.type.kind === 'value' && at.type.bytes < 32) lines.push(`packed  ${at.type.bytes} bytes at offset ${at.offset} (from the low-order end of the word)`)
      process.stdout.write(lines.join('\n') + '\n')
    } catch (e) {
      if (e instanceof LayoutError) fail(e.message)
      throw e
    }
    return
  }
  if (positionals.length > 0) fail(`unexpected argument "${positionals[0]}" (a variable path needs --layout)`)

  if (values.erc7201 !== undefined) {
    if (values.erc7201 === '') fail('--erc7201 needs a namespace id')
    process.stdout.write(hexWord(erc7201Slot(values.erc7201)) + '\n')
    return
  }
  if (values.array !== undefined) {
    const base = slotNumber('--array', values.array)
    if (values.index === undefined) fail('--array needs --index <i>')
    const index = slotNumber('--index', values.index)
    const bytes = values['element-bytes'] === undefined ? 32 : Number(values['element-bytes'])
    if (!Number.isInteger(bytes) || bytes < 1) fail(`--element-bytes must be a positive whole number, got "${values['element-bytes']}"`)
    const at = dynamicArrayElement(base, index, bytes)
    process.stdout.write(hexWord(at.slot) + '\n' + (at.offset > 0 || bytes < 32 ? `packed  ${bytes} bytes at offset ${at.offset}\n` : ''))
    return
  }
  const base = slotNumber('--mapping', values.mapping!)
  const keys = values.key ?? []
  if (keys.length === 0) fail('--mapping needs at least one --key')
  const encoded = keys.map((k) => encodeCliKey(k, values['key-type']))
  process.stdout.write(hexWord(nestedMappingSlot(base, encoded)) + '\n')
}

/** A slot number from the command line: decimal or 0x hex, up to 32 bytes. */
export function slotNumber(flag: string, text: string): bigint {
  if (!/^(0x[0-9a-fA-F]{1,64}|\d+)$/.test(text)) fail(`${flag}: "${text}" is not a slot (a decimal number or 0x hex of at most 32 bytes)`)
  const value = BigInt(text)
  if (value >= 1n << 256n) fail(`${flag}: ${text} is larger than 32 bytes`)
  return value
}

function encodeCliKey(text: string, keyType: string | undefined): Uint8Array {
  const type = keyType ?? (/^0x[0-9a-fA-F]{40}$/.test(text) ? 'address' : /^-/.test(text) ? 'int256' : 'uint256')
  const info = keyTypeInfo(type)
  try {
    return parseKey(info, text, `--key`)
  } catch (e) {
    if (e instanceof LayoutError) fail(e.message)
    throw e
  }
}

function keyTypeInfo(type: string): TypeInfo {
  const id = `t_${type}`
  let m: RegExpExecArray | null
  if (type === 'string' || type === 'bytes') return { kind: 'bytes', id, label: type, string: type === 'string' }
  if (type === 'address') return { kind: 'value', id, label: type, bytes: 20, value: { kind: 'address' } }
  if (type === 'bool') return { kind: 'value', id, label: type, bytes: 1, value: { kind: 'bool' } }
  if ((m = /^(u?)int(\d*)$/.exec(type)) && (m[2] === '' || (Number(m[2]) % 8 === 0 && Number(m[2]) >= 8 && Number(m[2]) <= 256))) {
    const bits = m[2] === '' ? 256 : Number(m[2])
    return { kind: 'value', id, label: type, bytes: bits / 8, value: { kind: m[1] === 'u' ? 'uint' : 'int', bits } }
  }
  if ((m = /^bytes(\d+)$/.exec(type)) && Number(m[1]) >= 1 && Number(m[1]) <= 32) {
    return { kind: 'value', id, label: type, bytes: Number(m[1]), value: { kind: 'fixedBytes', size: Number(m[1]) } }
  }
  return fail(`--key-type: unknown type "${type}" (address, uint<N>, int<N>, bool, bytes<N>, string, bytes)`)
}

/** Reads a solc storage layout (or an artifact holding one) from a file; fails with a clear message. */
export async function loadLayout(file: string): Promise<Layout> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    return fail(`cannot read layout file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return fail(`layout file ${file} is not JSON: ${(e as Error).message}`)
  }
  try {
    return parseLayout(json)
  } catch (e) {
    if (e instanceof LayoutError) fail(`${file}: ${e.message}`)
    throw e
  }
}
