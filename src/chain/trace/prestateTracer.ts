/**
 * geth's `prestateTracer` (eth/tracers/native/prestate.go): every account and slot the
 * transaction touched, as they were before it; with `diffMode`, only what it changed, before
 * (`pre`) and after (`post`).
 * Owns: finding the touched accounts and slots from the opcodes that reach them, as geth does,
 * and reading them from the live state at first touch.
 */
import type { InterpreterStep } from '@ethereumjs/evm'
import { KECCAK256_NULL, bigIntToBytes, bigIntToUnpaddedBytes, generateAddress, generateAddress2, setLengthLeft } from '@ethereumjs/util'
import { keyOf } from '../encoding.js'
import type { RingStateManager } from '../stateManager.js'
import type { Tracer, TxEnd, TxStart } from './tracer.js'

export interface PrestateTracerConfig {
  readonly diffMode?: boolean
  readonly disableCode?: boolean
  readonly disableStorage?: boolean
  readonly includeEmpty?: boolean
}

/** One account in geth's prestate shape; an absent field is one geth omits. */
export interface PrestateAccount {
  balance?: bigint
  code?: Uint8Array
  codeHash?: Uint8Array
  nonce?: bigint
  storage?: Map<bigint, bigint>
}

/** Accounts by address (unprefixed hex). */
export type PrestateMap = Map<string, PrestateAccount>

export type PrestateResult = { readonly kind: 'prestate'; readonly pre: PrestateMap } | { readonly kind: 'diff'; readonly pre: PrestateMap; readonly post: PrestateMap }

const SLOAD = 0x54
const SSTORE = 0x55
const BALANCE = 0x31
const EXTCODESIZE = 0x3b
const EXTCODECOPY = 0x3c
const EXTCODEHASH = 0x3f
const SELFDESTRUCT = 0xff
const CALL = 0xf1
const CALLCODE = 0xf2
const DELEGATECALL = 0xf4
const STATICCALL = 0xfa
const CREATE = 0xf0
const CREATE2 = 0xf5
const DELEGATION_PREFIX = [0xef, 0x01, 0x00] as const
const EMPTY_CODE_HASH = keyOf(KECCAK256_NULL)

/** Thrown for `diffMode` with `includeEmpty`, which geth refuses too. */
export class PrestateConfigError extends Error {
  override name = 'PrestateConfigError'
}

export function prestateTracer(config: PrestateTracerConfig = {}): Tracer<PrestateResult> {
  if (config.diffMode === true && config.includeEmpty === true) throw new PrestateConfigError('cannot use diffMode with includeEmpty')
  const pre: PrestateMap = new Map()
  const empty = new Set<string>()
  const created = new Set<string>()
  const deleted = new Set<string>()
  let state: RingStateManager | undefined
  let onlyCreatedDie = true
  const withStorage = config.disableStorage !== true

  const codeAt = (address: string): Uint8Array => {
    const record = state!.accountRecord(address)
    return record === undefined ? new Uint8Array(0) : state!.codeOf(record.codeHash)
  }

  const lookupAccount = (address: string): void => {
    if (pre.has(address)) return
    const record = state!.accountRecord(address)
    const code = codeAt(address)
    const account: PrestateAccount = { balance: record?.balance ?? 0n }
    if ((record?.nonce ?? 0n) !== 0n) account.nonce = record!.nonce
    if (code.length > 0) account.code = code
    if (record !== undefined && keyOf(record.codeHash) !== EMPTY_CODE_HASH) account.codeHash = record.codeHash
    if (account.nonce === undefined && code.length === 0 && account.balance === 0n) empty.add(address)
    if (config.disableCode === true) delete account.code
    if (withStorage) account.storage = new Map()
    pre.set(address, account)
  }

  const lookupDelegation = (address: string): void => {
    const code = codeAt(address)
    if (code.length === 23 && code[0] === DELEGATION_PREFIX[0] && code[1] === DELEGATION_PREFIX[1] && code[2] === DELEGATION_PREFIX[2]) lookupAccount(keyOf(code.subarray(3)))
  }

  const step = (step: InterpreterStep): void => {
    const op = step.opcode.code
    const s = step.stack
    const n = s.length
    const caller = keyOf(step.address.bytes)
    if (n >= 1 && (op === SLOAD || op === SSTORE)) {
      if (!withStorage) return
      const slot = s[n - 1]!
      const account = pre.get(caller)
      if (account?.storage === undefined || account.storage.has(slot)) return
      account.storage.set(slot, bytesToBigInt(state!.storageValue(caller, slot.toString(16).padStart(64, '0'))))
    } else if (n >= 1 && (op === EXTCODECOPY || op === EXTCODEHASH || op === EXTCODESIZE || op === BALANCE || op === SELFDESTRUCT)) {
      lookupAccount(addressOf(s[n - 1]!))
      if (op === SELFDESTRUCT && (!onlyCreatedDie || created.has(caller))) deleted.add(caller)
    } else if (n >= 5 && (op === DELEGATECALL || op === CALL || op === STATICCALL || op === CALLCODE)) {
      const target = addressOf(s[n - 2]!)
      lookupAccount(target)
      lookupDelegation(target)
    } else if (op === CREATE) {
      const nonce = state!.accountRecord(caller)?.nonce ?? 0n
      const address = keyOf(generateAddress(step.address.bytes, bigIntToUnpaddedBytes(nonce)))
      lookupAccount(address)
      created.add(address)
    } else if (n >= 4 && op === CREATE2) {
      const offset = Number(s[n - 2]!)
      const size = Number(s[n - 3]!)
      const init = new Uint8Array(size)
      init.set(step.memory.subarray(offset, offset + size))
      const address = keyOf(generateAddress2(step.address.bytes, setLengthLeft(bigIntToBytes(s[n - 4]!), 32), init))
      lookupAccount(address)
      created.add(address)
    }
  }

  return {
    hooks: { step },
    start(tx: TxStart) {
      state = tx.state
      onlyCreatedDie = tx.selfdestructOnlyCreated
      const to = keyOf(tx.to)
      if (tx.create) created.add(to)
      else lookupDelegation(to)
      lookupAccount(keyOf(tx.from))
      lookupAccount(to)
      lookupAccount(keyOf(tx.coinbase))
    },
    finish(_tx: TxEnd): PrestateResult {
      const post: PrestateMap = new Map()
      if (config.diffMode === true) diff(pre, post, deleted, state!, config)
      if (config.includeEmpty !== true) for (const address of empty) pre.delete(address)
      return config.diffMode === true ? { kind: 'diff', pre, post } : { kind: 'prestate', pre }
    },
  }
}

/** geth's `processDiffState`: keeps in `pre` only what changed, and puts the new values in `post`. */
function diff(pre: PrestateMap, post: PrestateMap, deleted: ReadonlySet<string>, state: RingStateManager, config: PrestateTracerConfig): void {
  for (const [address, before] of pre) {
    if (deleted.has(address)) continue
    let modified = false
    const after: PrestateAccount = { storage: new Map() }
    const record = state.accountRecord(address)
    const balance = record?.balance ?? 0n
    const nonce = record?.nonce ?? 0n
    const codeHash = record?.codeHash ?? KECCAK256_NULL
    if (balance !== before.balance) {
      modified = true
      after.balance = balance
    }
    if (nonce !== (before.nonce ?? 0n)) {
      modified = true
      after.nonce = nonce
    }
    if (keyOf(codeHash) !== keyOf(before.codeHash ?? KECCAK256_NULL)) {
      modified = true
      after.codeHash = codeHash
    }
    if (config.disableCode !== true) {
      const code = record === undefined ? new Uint8Array(0) : state.codeOf(record.codeHash)
      if (keyOf(code) !== keyOf(before.code ?? new Uint8Array(0))) {
        modified = true
        after.code = code
      }
    }
    if (config.disableStorage !== true && before.storage !== undefined) {
      for (const [slot, value] of [...before.storage]) {
        if (value === 0n) before.storage.delete(slot)
        const now = bytesToBigInt(state.storageValue(address, slot.toString(16).padStart(64, '0')))
        if (now === value) before.storage.delete(slot)
        else {
          modified = true
          if (now !== 0n) after.storage!.set(slot, now)
        }
      }
    }
    if (modified) post.set(address, after)
    else pre.delete(address)
  }
}

function addressOf(word: bigint): string {
  return (word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return value
}

