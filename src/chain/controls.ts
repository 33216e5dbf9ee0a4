/**
 * Test controls that write the head state in place, as anvil and Hardhat do (setBalance, setNonce,
 * setCode, setStorageAt), and the checks of the other controls' arguments (block settings, mining mode).
 *
 * Owns: turning an edit of one account into the state changes it makes and committing them at the
 * head, so that reads at older blocks of the window stay right.
 * Leaves to others: running one operation at a time, dropping the pending block and automining
 * after a write (`chain.ts`), time (`clock.ts`), what the next blocks are built with (`miner.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { KECCAK256_NULL, bytesToUnprefixedHex, setLengthLeft, unpadBytes } from '@ethereumjs/util'
import { newAccount } from './encoding.js'
import { InvalidInputError } from './errors.js'
import type { BlockSettings } from './miner.js'
import { emptyChanges, type StateChanges, type WorldState } from './state.js'
import type { AccountRecord, MiningMode } from './types.js'

/** An edit of one account's head record, and of the code or storage that goes with it. */
export interface AccountEdit {
  readonly update: (account: AccountRecord) => AccountRecord
  readonly extra?: (changes: StateChanges) => void
  /** The slot it writes, if any (a forked chain loads it first: its history needs the value before). */
  readonly slot?: Uint8Array
}

/** Gives an account `code` (empty: no code). */
export function codeEdit(code: Uint8Array, keccak: (data: Uint8Array) => Uint8Array): AccountEdit {
  const codeHash = code.length === 0 ? KECCAK256_NULL : keccak(code)
  return { update: (a) => ({ ...a, codeHash, codeSize: code.length }), extra: (c) => c.code.set(bytesToUnprefixedHex(codeHash), code) }
}

/** Writes a 32-byte word at `slot` (the value is left-padded to 32 bytes). */
export function storageEdit(address: Uint8Array, slot: Uint8Array, value: Uint8Array): AccountEdit {
  return {
    update: (a) => a,
    slot: setLengthLeft(slot, 32),
    extra: (c) => {
      c.storage.set(bytesToUnprefixedHex(address), new Map([[bytesToUnprefixedHex(setLengthLeft(slot, 32)), unpadBytes(value)]]))
    },
  }
}

/** Commits `edit` of `address` into the head state, block `head` (which it becomes part of). */
export async function editHead(world: WorldState, head: bigint, address: Uint8Array, edit: AccountEdit): Promise<void> {
  const key = bytesToUnprefixedHex(address)
  const changes = emptyChanges()
  changes.accounts.set(key, edit.update(world.head.account(key) ?? newAccount()))
  edit.extra?.(changes)
  const computed = await world.computeRoot(changes)
  await world.commit(changes, computed, head)
}

/** Throws `InvalidInputError` unless `changes` can apply (a next base fee needs EIP-1559). */
export function checkBlockSettings(common: Common, changes: Partial<BlockSettings>): void {
  if (changes.gasLimit !== undefined && changes.gasLimit <= 0n) throw new InvalidInputError('block gas limit must be greater than 0')
  if (changes.coinbase !== undefined && changes.coinbase.length !== 20) throw new InvalidInputError('coinbase must be a 20-byte address')
  if (changes.nextBaseFee !== undefined && !common.isActivatedEIP(1559)) {
    throw new InvalidInputError('a next block base fee needs EIP-1559 (London or later)')
  }
}

/** Throws `InvalidInputError` for an interval mode without a usable block time. */
export function checkMiningMode(mode: MiningMode): void {
  if (mode.mode === 'interval' && (!Number.isFinite(mode.blockTimeMs) || mode.blockTimeMs <= 0)) {
    throw new InvalidInputError('interval mining needs a block time above 0 ms')
  }
}
