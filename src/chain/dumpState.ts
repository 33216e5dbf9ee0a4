/**
 * State dumps: the head state and the head block's fields, as anvil's `--dump-state` file and
 * `anvil_dumpState` JSON (anvil's `SerializableState`), so that a dump moves between ringchain and anvil.
 *
 * Owns: the dump's JSON shape, reading one back with a message naming the first bad field, and the
 * head block a loaded state gets. Like `import.ts` reads a geth genesis, this is a file format, so
 * it speaks hex. Leaves replacing the chain's head (`Chain.loadState`), gzip and hex on the wire
 * (`src/rpc/dumpState.ts`) and files (`src/cli/serve.ts`, `src/simulator.ts`) to others.
 *
 * What is written: `block` (anvil's block env: the head's number, timestamp, gas limit, base fee,
 * coinbase, prevrandao, excess blob gas), `accounts` (nonce, balance, code, non-zero storage) and
 * `best_block_number`; `blocks` holds only the head block a load makes (no transactions: the
 * window starts again at the loaded head) and `transactions` stays empty. `ringchain.next_base_fee` keeps the
 * next block's base fee, which anvil reads from the head block ringchain does not write; anvil
 * ignores the key.
 */
import { createBlock, type Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Address, bytesToHex, bytesToUnprefixedHex, hexToBytes, isHexString, setLengthLeft, unpadBytes } from '@ethereumjs/util'
import { InvalidInputError } from './errors.js'

/** An account of a dump: fields, code and non-zero slots (32-byte slot keys, unprefixed hex). */
export interface DumpedAccount {
  readonly nonce: bigint
  readonly balance: bigint
  readonly code: Uint8Array
  /** Slot (64 hex digits) to value without leading zeros; zero values are absent. */
  readonly storage: ReadonlyMap<string, Uint8Array>
}

/** The head block's fields a dump keeps. */
export interface DumpedHead {
  readonly number: bigint
  readonly timestamp: bigint
  readonly gasLimit: bigint
  /** Undefined before London. */
  readonly baseFee: bigint | undefined
  readonly coinbase: Uint8Array
  readonly prevrandao: Uint8Array
  readonly difficulty: bigint
  /** Undefined before Cancun. */
  readonly excessBlobGas: bigint | undefined
  /** The head's blob gas price, written for anvil (which wants it beside the excess); not read back. */
  readonly blobGasPrice?: bigint
  /** The head's state root, for the head block written for anvil; not read back (the state gives it). */
  readonly stateRoot?: Uint8Array
}

/** A chain's state as a dump holds it: the head block's fields and every account, by unprefixed address. */
export interface ChainState {
  readonly head: DumpedHead
  /** The next block's base fee, when known (ringchain's dumps); else it follows from the head. */
  readonly nextBaseFee: bigint | undefined
  readonly accounts: ReadonlyMap<string, DumpedAccount>
}

/** A dump as JSON: anvil's `SerializableState`. u64 fields are numbers (a `0x` string past 2^53). */
export interface StateDump {
  block: {
    number: string
    beneficiary: string
    timestamp: string
    gas_limit: number | string
    basefee: number | string
    difficulty: string
    prevrandao: string
    blob_excess_gas_and_price: { excess_blob_gas: number | string; blob_gasprice: number | string } | null
  }
  accounts: Record<string, { nonce: number | string; balance: string; code: string; storage: Record<string, string> }>
  best_block_number: number | string
  blocks: unknown[]
  transactions: unknown[]
  historical_states: null
  ringchain?: { next_base_fee: string | null }
}

/** A dump that cannot be read: the message names the field and what is wrong with it. */
export class InvalidStateDumpError extends InvalidInputError {
  override name = 'InvalidStateDumpError'
  constructor(
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`invalid state dump: ${problem}`, options)
  }
}

/** The dump of `state`, ready for `JSON.stringify`. */
export function toStateDump(state: ChainState, common: Common): StateDump {
  const { head } = state
  const accounts: StateDump['accounts'] = {}
  for (const [address, account] of [...state.accounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const storage: Record<string, string> = {}
    for (const [slot, value] of [...account.storage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) storage[`0x${slot}`] = bytesToHex(setLengthLeft(value, 32))
    accounts[`0x${address}`] = { nonce: u64(account.nonce), balance: quantity(account.balance), code: bytesToHex(account.code), storage }
  }
  return {
    block: {
      number: quantity(head.number),
      beneficiary: bytesToHex(head.coinbase),
      timestamp: quantity(head.timestamp),
      gas_limit: u64(head.gasLimit),
      basefee: u64(head.baseFee ?? 0n),
      difficulty: quantity(head.difficulty),
      prevrandao: bytesToHex(head.prevrandao),
      blob_excess_gas_and_price: head.excessBlobGas === undefined ? null : { excess_blob_gas: u64(head.excessBlobGas), blob_gasprice: u64(head.blobGasPrice ?? 1n) },
    },
    accounts,
    best_block_number: u64(head.number),
    // anvil 1.7 looks the head up here: the block a load makes, so that both load the same head.
    blocks: head.stateRoot === undefined ? [] : [{ header: headerJson(loadedHeadBlock(common, head, head.stateRoot)), transactions: [], ommers: [] }],
    transactions: [],
    historical_states: null,
    ringchain: { next_base_fee: state.nextBaseFee === undefined ? null : quantity(state.nextBaseFee) },
  }
}

/**
 * Reads a dump's JSON text (ringchain's or anvil's), refusing what is not one. Integers too long
 * for a double (anvil writes u64 fields as bare numbers) are read exactly.
 */
export function parseStateDump(text: string): ChainState {
  let value: unknown
  try {
    // A bare integer of 16+ digits becomes a string before JSON.parse rounds it (dumps hold no such text inside strings).
    value = JSON.parse(text.replace(/([:[,]\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"'))
  } catch (cause) {
    throw new InvalidStateDumpError(`not JSON (${(cause as Error).message})`, { cause })
  }
  return readStateDump(value)
}

/** Reads a dump already parsed from JSON, refusing what is not one. */
export function readStateDump(value: unknown): ChainState {
  const dump = object(value, 'the dump')
  const block = object(dump.block, 'block')
  const accountsJson = object(dump.accounts, 'accounts')
  const number = dump.best_block_number === undefined || dump.best_block_number === null ? integer(block.number, 'block.number') : integer(dump.best_block_number, 'best_block_number')
  const blob = block.blob_excess_gas_and_price
  const basefee = block.basefee === undefined || block.basefee === null ? undefined : integer(block.basefee, 'block.basefee')
  const head: DumpedHead = {
    number,
    timestamp: integer(block.timestamp, 'block.timestamp'),
    gasLimit: integer(block.gas_limit, 'block.gas_limit'),
    baseFee: basefee,
    coinbase: bytes(block.beneficiary ?? `0x${'00'.repeat(20)}`, 'block.beneficiary', 20),
    prevrandao: bytes(block.prevrandao ?? `0x${'00'.repeat(32)}`, 'block.prevrandao', 32),
    difficulty: block.difficulty === undefined ? 0n : integer(block.difficulty, 'block.difficulty'),
    excessBlobGas: blob === undefined || blob === null ? undefined : integer(object(blob, 'block.blob_excess_gas_and_price').excess_blob_gas, 'block.blob_excess_gas_and_price.excess_blob_gas'),
  }
  if (head.gasLimit === 0n) throw new InvalidStateDumpError('block.gas_limit: must be greater than 0')
  const accounts = new Map<string, DumpedAccount>()
  for (const [key, json] of Object.entries(accountsJson)) {
    const where = `accounts.${key}`
    const address = bytesToUnprefixedHex(bytes(key, where, 20))
    const account = object(json, where)
    const storage = new Map<string, Uint8Array>()
    for (const [slot, word] of Object.entries(object(account.storage ?? {}, `${where}.storage`))) {
      const value = unpadBytes(word32(word, `${where}.storage.${slot}`))
      if (value.length > 0) storage.set(bytesToUnprefixedHex(word32(slot, `${where}.storage key ${slot}`)), value)
    }
    accounts.set(address, {
      nonce: integer(account.nonce, `${where}.nonce`, 2n ** 64n - 1n),
      balance: integer(account.balance, `${where}.balance`, 2n ** 256n - 1n),
      code: bytes(account.code ?? '0x', `${where}.code`),
      storage,
    })
  }
  const extension = dump.ringchain === undefined || dump.ringchain === null ? {} : object(dump.ringchain, 'ringchain')
  const next = extension.next_base_fee
  return { head, nextBaseFee: next === undefined || next === null ? undefined : integer(next, 'ringchain.next_base_fee'), accounts }
}

/** The head block of a loaded state: the dump's fields on `stateRoot`, no parent in the window, no transactions. */
export function loadedHeadBlock(common: Common, head: DumpedHead, stateRoot: Uint8Array): Block {
  const header: Record<string, unknown> = {
    number: head.number,
    timestamp: head.timestamp,
    gasLimit: head.gasLimit,
    coinbase: new Address(head.coinbase),
    stateRoot,
  }
  if (common.isActivatedEIP(1559)) header.baseFeePerGas = head.baseFee ?? BigInt(common.param('initialBaseFee'))
  if (common.consensusType() === 'pos') header.mixHash = head.prevrandao
  else header.difficulty = head.difficulty
  if (common.isActivatedEIP(4788)) header.parentBeaconBlockRoot = new Uint8Array(32)
  if (common.isActivatedEIP(4844)) {
    header.excessBlobGas = head.excessBlobGas ?? 0n
    header.blobGasUsed = 0n
  }
  return createBlock({ header, ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common, skipConsensusFormatValidation: true })
}

/** A header as anvil writes it (alloy's `Header`: the JSON-RPC names, without `hash`). */
function headerJson(block: Block): Record<string, string> {
  const h = block.header
  const json: Record<string, string> = {
    parentHash: bytesToHex(h.parentHash),
    sha3Uncles: bytesToHex(h.uncleHash),
    miner: bytesToHex(h.coinbase.bytes),
    stateRoot: bytesToHex(h.stateRoot),
    transactionsRoot: bytesToHex(h.transactionsTrie),
    receiptsRoot: bytesToHex(h.receiptTrie),
    logsBloom: bytesToHex(h.logsBloom),
    difficulty: quantity(h.difficulty),
    number: quantity(h.number),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    mixHash: bytesToHex(h.mixHash),
    nonce: bytesToHex(h.nonce),
  }
  if (h.baseFeePerGas !== undefined) json.baseFeePerGas = quantity(h.baseFeePerGas)
  if (h.withdrawalsRoot !== undefined) json.withdrawalsRoot = bytesToHex(h.withdrawalsRoot)
  if (h.blobGasUsed !== undefined) json.blobGasUsed = quantity(h.blobGasUsed)
  if (h.excessBlobGas !== undefined) json.excessBlobGas = quantity(h.excessBlobGas)
  if (h.parentBeaconBlockRoot !== undefined) json.parentBeaconBlockRoot = bytesToHex(h.parentBeaconBlockRoot)
  if (h.requestsHash !== undefined) json.requestsHash = bytesToHex(h.requestsHash)
  return json
}

// --- writing and reading fields ---------------------------------------------------------------

function quantity(value: bigint): string {
  return `0x${value.toString(16)}`
}

/** A u64 as anvil writes it: a JSON number; a `0x` string where a double would round it. */
function u64(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : quantity(value)
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidStateDumpError(`${where}: expected an object`)
  return value as Record<string, unknown>
}

/** A number, a decimal string or a `0x` quantity, at most `max`. */
function integer(value: unknown, where: string, max = 2n ** 64n - 1n): bigint {
  let parsed: bigint | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value)
  else if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) parsed = BigInt(value)
  if (parsed === undefined) throw new InvalidStateDumpError(`${where}: expected a non-negative integer, got ${JSON.stringify(value)}`)
  if (parsed > max) throw new InvalidStateDumpError(`${where}: ${parsed} is too large`)
  return parsed
}

function bytes(value: unknown, where: string, length?: number): Uint8Array {
  if (typeof value !== 'string' || !isHexString(value) || value.length % 2 !== 0) throw new InvalidStateDumpError(`${where}: expected 0x-prefixed hex bytes, got ${JSON.stringify(value)}`)
  const decoded = hexToBytes(value)
  if (length !== undefined && decoded.length !== length) throw new InvalidStateDumpError(`${where}: expected ${length} bytes, got ${decoded.length}`)
  return decoded
}

/** A storage key or value: a quantity or up to 32 bytes of hex, left-padded to 32. */
function word32(value: unknown, where: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw new InvalidStateDumpError(`${where}: expected up to 32 bytes of 0x-prefixed hex, got ${JSON.stringify(value)}`)
  const digits = value.slice(2)
  return setLengthLeft(hexToBytes(`0x${digits.length % 2 === 1 ? '0' : ''}${digits}`), 32)
}
