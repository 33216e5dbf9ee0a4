/**
 * How the state names and encodes what it holds: the map key of some bytes, an account's trie
 * leaf, a new account's record, and byte equality.
 *
 * Owns: these few encodings, so that the world state (`state.ts`), its proofs (`proofs.ts`), the
 * VM's journal (`stateManager.ts`) and the block builder agree on them without importing each other.
 * Leaves to others: everything with state in it.
 */
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import type { AccountRecord } from './types.js'

type HexSlice = (this: Uint8Array, start: number, end: number) => string
// Node's native hex encoder, which Buffer#toString('hex') calls: it takes any Uint8Array.
const hexSlice = (Buffer.prototype as unknown as { hexSlice?: HexSlice }).hexSlice

/**
 * The map key of some bytes (an address, a slot, a hash): lowercase hex without `0x`, as every key
 * of the state is. Encoded natively into a flat string: one built two digits at a time (what
 * `bytesToUnprefixedHex` does) is a rope of 32 pieces that every map lookup must first copy flat.
 */
export const keyOf: (bytes: Uint8Array) => string =
  typeof hexSlice === 'function'
    ? (bytes) => hexSlice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/** An account as its leaf in the account trie holds it (RLP of nonce, balance, storage root, code hash). */
export function encodeAccount(record: AccountRecord): Uint8Array {
  return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash).serialize()
}

/** A new account record with no code and no storage. */
export function newAccount(fields: { nonce?: bigint; balance?: bigint } = {}): AccountRecord {
  return { nonce: fields.nonce ?? 0n, balance: fields.balance ?? 0n, storageRoot: KECCAK256_RLP, codeHash: KECCAK256_NULL, codeSize: 0 }
}

/** Whether two records give the same account leaf. */
export function sameAccount(a: AccountRecord, b: AccountRecord): boolean {
  return (
    a.nonce === b.nonce &&
    a.balance === b.balance &&
    equal(a.codeHash, b.codeHash) &&
    equal(a.storageRoot, b.storageRoot)
  )
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
