/**
 * `ringchain storage`: reads a contract's storage from a running node over JSON-RPC: one slot or
 * variable, every variable of a solc layout (mapping entries from the keys the node has seen),
 * every non-zero slot named by its derivation (`--all`), or the storage changes of a transaction or
 * block (`--diff`). Flags and output only; the work is `src/inspect/`'s.
 */
import { RpcCallError, StorageClient, httpRequest, DEFAULT_RPC_URL, type ChangeEntry, type Diff, type SlotEntry } from '../inspect/client.js'
import type { Layout } from '../inspect/layout.js'
import { checksumAddress, hexOf } from '../inspect/paths.js'
import { LayoutError, type WordField } from '../inspect/types.js'
import { cachedReader, decodeWordFields, readAll, readResolved, renderValue, renderVariables, type ReadOptions } from '../inspect/read.js'
import { hexWord, toBigInt } from '../inspect/slots.js'
import { fail, parseArgsOrFail } from './fail.js'
import { loadLayout, slotNumber } from './slot.js'

export const STORAGE_HELP = `Usage: ringchain storage <address> [slot | variable path] [options]
       ringchain storage --diff <transaction hash | block> [address] [options]

Reads contract storage from a running ringchain over JSON-RPC and decodes it.

  <slot>                   a slot: decimal or 0x hex (at most 32 bytes)
  <variable path>          with --layout: balances[0x7099...], positions[2].owner, byName["alice"]
  --layout <file>          solc storageLayout JSON, or an artifact holding it; without a slot or
                           path, reads every variable (mapping entries: the keys the node has seen)
  --all                    every non-zero slot, named from the keccak preimages the node recorded
  --diff <tx | block>      what a transaction (hash) or a block (number, tag or hash) changed
  --block <tag | number>   latest (default), earliest, safe, finalized, or a block number
  --rpc <url>              the node (default ${DEFAULT_RPC_URL})
  --max-elements <n>       elements read per array (default 32)
  --json                   one JSON document instead of text
  -h, --help               this help

Examples:
  ringchain storage 0x5FbDB2315678afecb367f032d93f642f64180aa3 2
  ringchain storage 0x5FbDB2315678afecb367f032d93f642f64180aa3 --layout Token.json
  ringchain storage 0x5FbDB2315678afecb367f032d93f642f64180aa3 --all --layout Token.json
  ringchain storage --diff 0x<transaction hash> --layout Token.json 0x5FbDB2315678afecb367f032d93f642f64180aa3
`

const TAGS = new Set(['latest', 'earliest', 'safe', 'finalized'])

export async function storage(rest: string[]): Promise<void> {
  const { values, positionals } = parseArgsOrFail({
    args: rest,
    options: {
      layout: { type: 'string' },
      all: { type: 'boolean' },
      diff: { type: 'string' },
      block: { type: 'string' },
      rpc: { type: 'string' },
      'max-elements': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  })
  if (values.help === true) {
    process.stdout.write(STORAGE_HELP)
    return
  }
  const client = new StorageClient(httpRequest(values.rpc ?? DEFAULT_RPC_URL))
  const layout = values.layout === undefined ? undefined : await loadLayout(values.layout)
  const json = values.json === true
  const maxElements = values['max-elements'] === undefined ? 32 : Number(values['max-elements'])
  if (!Number.isInteger(maxElements) || maxElements < 0) fail(`--max-elements must be a whole number, got "${values['max-elements']}"`)

  try {
    if (values.diff !== undefined) {
      if (values.all === true || values.block !== undefined) fail('--diff names its own block: it takes no --all or --block')
      if (positionals.length > 1) fail(`--diff takes at most one address, got ${positionals.join(' ')}`)
      const address = positionals[0] === undefined ? undefined : checkAddress(positionals[0])
      if (layout !== undefined && address === undefined) fail('--diff with --layout needs the address the layout is for')
      const target = diffTarget(values.diff)
      if (typeof target === 'bigint') await client.blockNumber(target) // a clear message for a block after the head
      const diff = await client.diff(target, address)
      process.stdout.write(json ? toJson(diffJson(diff, layout, address)) : renderDiff(diff, layout, address))
      return
    }
    const [addressText, target, ...extra] = positionals
    if (addressText === undefined) fail('give a contract address (try --help)')
    if (extra.length > 0) fail(`unexpected argument "${extra[0]}"`)
    const address = checkAddress(addressText)
    const number = await client.blockNumber(blockArg(values.block))
    const read = cachedReader(client.reader(address, number))

    if (values.all === true) {
      if (target !== undefined) fail('--all lists every slot: it takes no slot or path')
      const slots = await client.slots(address, number)
      process.stdout.write(json ? toJson(allJson(address, number, slots, layout)) : renderAll(address, number, slots, layout))
      return
    }
    if (target === undefined) {
      if (layout === undefined) fail('give a slot, a variable path with --layout, --layout alone (every variable) or --all')
      const options: ReadOptions = { maxElements, knownKeys: layout.knownKeys(await derivationsOf(client, address, number)) }
      const vars = await readAll(layout, read, options)
      process.stdout.write(json ? toJson({ address, blockNumber: number, variables: vars }) : `${address} at block ${number}\n${renderVariables(vars)}`)
      return
    }
    if (/^(0x[0-9a-fA-F]+|\d+)$/.test(target)) {
      const slot = slotNumber('slot', target)
      const word = await read(slot)
      const fields = layout === undefined ? undefined : await fieldsOf(client, layout, address, number, slot)
      process.stdout.write(json ? toJson(slotJson(slot, word, fields)) : renderSlot(address, number, slot, word, fields))
      return
    }
    if (layout === undefined) fail(`"${target}" is not a slot number; reading a variable by name needs --layout <file>`)
    let resolved
    try {
      resolved = layout.resolve(target)
    } catch (e) {
      if (e instanceof LayoutError) fail(e.message)
      throw e
    }
    const options: ReadOptions = { maxElements, knownKeys: layout.knownKeys(await derivationsOf(client, address, number)) }
    const value = await readResolved(layout, read, resolved, options)
    const word = await read(resolved.slot)
    if (json) {
      process.stdout.write(toJson({ address, blockNumber: number, path: resolved.path, type: resolved.type.label, slot: resolved.slot, offset: resolved.offset, word: '0x' + hexOf(word), value }))
      return
    }
    const lines = [`${address} at block ${number}`, `${resolved.path}  ${resolved.type.label}`, `slot  ${hexWord(resolved.slot)}${resolved.offset > 0 ? `  (offset ${resolved.offset})` : ''}`, `word  0x${hexOf(word)}`]
    renderValue(value, 'value', '  ', lines)
    process.stdout.write(lines.join('\n') + '\n')
  } catch (e) {
    if (e instanceof RpcCallError) fail(e.message)
    throw e
  }
}

function checkAddress(text: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) fail(`invalid address "${text}": want 0x and 40 hex digits`)
  return checksumAddress(BigInt(text))
}

function blockArg(text: string | undefined): bigint | string {
  if (text === undefined) return 'latest'
  if (TAGS.has(text)) return text
  if (text === 'pending') fail('--block pending: the pending block has no storage history; use latest')
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) fail(`invalid block "${text}": want latest, earliest, safe, finalized or a block number`)
  return BigInt(text)
}

function diffTarget(text: string): string | bigint {
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return text
  if (TAGS.has(text)) return text
  if (/^(0x[0-9a-fA-F]{1,16}|\d+)$/.test(text)) return BigInt(text)
  return fail(`invalid --diff "${text}": want a transaction hash (0x + 64 hex digits), a block number or a tag`)
}

/** The derivations the node knows for the account's slots (none from a node without ringchain's methods). */
async function derivationsOf(client: StorageClient, address: string, number: bigint) {
  try {
    return (await client.slots(address, number)).flatMap((s) => (s.derivation === undefined ? [] : [s.derivation]))
  } catch (e) {
    if (e instanceof RpcCallError && e.code === -32601) return []
    throw e
  }
}

async function fieldsOf(client: StorageClient, layout: Layout, address: string, number: bigint, slot: bigint): Promise<WordField[] | undefined> {
  const direct = layout.name({ root: slot, steps: [] })
  if (direct !== undefined) return direct
  const known = (await client.slots(address, number).catch(() => [] as SlotEntry[])).find((s) => s.slot === slot)
  return known?.derivation === undefined ? undefined : layout.name(known.derivation)
}

// --- text --------------------------------------------------------------------------------------

function renderSlot(address: string, number: bigint, slot: bigint, word: Uint8Array, fields: WordField[] | undefined): string {
  const lines = [`${address} at block ${number}`, `slot  ${hexWord(slot)}`, `word  0x${hexOf(word)}`]
  if (fields === undefined) lines.push(`uint  ${toBigInt(word)}`)
  else for (const f of decodeWordFields(fields, word)) lines.push(`${f.path} = ${f.text}`)
  return lines.join('\n') + '\n'
}

function renderAll(address: string, number: bigint, slots: readonly SlotEntry[], layout: Layout | undefined): string {
  const lines = [`${address} at block ${number}: ${slots.length} non-zero slot${slots.length === 1 ? '' : 's'}`]
  for (const s of slots) {
    const fields = layout === undefined || s.derivation === undefined ? undefined : layout.name(s.derivation)
    lines.push(`${hexWord(s.slot)}  0x${hexOf(s.value)}`)
    if (fields !== undefined) for (const f of decodeWordFields(fields, s.value)) lines.push(`    ${f.path} = ${f.text}`)
    else lines.push(`    ${s.path ?? '(unknown derivation)'}  uint ${toBigInt(s.value)}`)
  }
  return lines.join('\n') + '\n'
}

function renderDiff(diff: Diff, layout: Layout | undefined, address: string | undefined): string {
  const lines = [diff.transactionHash === undefined ? `block ${diff.blockNumber} (${diff.blockHash})` : `transaction ${diff.transactionHash} in block ${diff.blockNumber}`]
  if (diff.changes.length === 0) lines.push('  no storage changes')
  let current = ''
  for (const c of diff.changes) {
    const owner = checksumAddress(BigInt(c.address))
    if (owner !== current) lines.push(owner)
    current = owner
    const fields = fieldsFor(c, layout, address)
    lines.push(`  ${hexWord(c.slot)}  ${fields === undefined ? (c.path ?? '(unknown derivation)') : ''}`.trimEnd())
    if (fields === undefined) {
      lines.push(`      ${toBigInt(c.before)} → ${toBigInt(c.after)}`)
      continue
    }
    const before = decodeWordFields(fields, c.before)
    const after = decodeWordFields(fields, c.after)
    before.forEach((b, i) => {
      if (b.text !== after[i]!.text) lines.push(`    ${b.path}: ${b.text} → ${after[i]!.text}`)
    })
  }
  return lines.join('\n') + '\n'
}

function fieldsFor(c: ChangeEntry, layout: Layout | undefined, address: string | undefined): WordField[] | undefined {
  if (layout === undefined || address === undefined || BigInt(c.address) !== BigInt(address) || c.derivation === undefined) return undefined
  return layout.name(c.derivation)
}

// --- JSON --------------------------------------------------------------------------------------

function slotJson(slot: bigint, word: Uint8Array, fields: WordField[] | undefined) {
  return { slot: hexWord(slot), word: '0x' + hexOf(word), fields: fields === undefined ? null : decodeWordFields(fields, word) }
}

function allJson(address: string, number: bigint, slots: readonly SlotEntry[], layout: Layout | undefined) {
  return {
    address,
    blockNumber: number,
    slots: slots.map((s) => {
      const fields = layout === undefined || s.derivation === undefined ? undefined : layout.name(s.derivation)
      return { slot: hexWord(s.slot), word: '0x' + hexOf(s.value), path: s.path, fields: fields === undefined ? null : decodeWordFields(fields, s.value) }
    }),
  }
}

function diffJson(diff: Diff, layout: Layout | undefined, address: string | undefined) {
  return {
    ...diff,
    changes: diff.changes.map((c) => {
      const fields = fieldsFor(c, layout, address)
      const afterFields = fields === undefined ? [] : decodeWordFields(fields, c.after)
      return {
        address: checksumAddress(BigInt(c.address)),
        slot: hexWord(c.slot),
        before: '0x' + hexOf(c.before),
        after: '0x' + hexOf(c.after),
        path: c.path,
        fields: fields === undefined ? null : decodeWordFields(fields, c.before).map((b, i) => ({ path: b.path, before: b.text, after: afterFields[i]!.text })),
      }
    }),
  }
}

function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? '0x' + hexOf(v) : v), 2) + '\n'
}
