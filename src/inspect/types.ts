/**
 * The type model of a contract's storage, as solc describes it (`storageLayout`) and as ringchain
 * resolves it: solc's raw entries, the resolved types, what a path resolves to, how a slot was
 * derived, and the one error class of layouts, paths and keys.
 *
 * A leaf of `src/inspect/`: the layout (`layout.ts`) and the path text (`paths.ts`) build on it.
 */
import type { KeyKind } from './slots.js'

/** A bad layout file, path or key: the message says what and where. */
export class LayoutError extends Error {
  override name = 'LayoutError'
}

/** One entry of solc's `storageLayout.storage` (or of a struct's `members`). */
export interface SolcStorageEntry {
  readonly label: string
  readonly slot: string
  readonly offset: number
  readonly type: string
}

/** One entry of solc's `storageLayout.types`. */
export interface SolcType {
  readonly encoding: 'inplace' | 'mapping' | 'dynamic_array' | 'bytes'
  readonly label: string
  readonly numberOfBytes: string
  readonly base?: string
  readonly key?: string
  readonly value?: string
  readonly members?: readonly SolcStorageEntry[]
}

/** solc's `storageLayout` output. */
export interface SolcStorageLayout {
  readonly storage: readonly SolcStorageEntry[]
  readonly types: Readonly<Record<string, SolcType>> | null
}

/** How a value type is decoded. */
export type ValueKind = KeyKind | { readonly kind: 'enum' } | { readonly kind: 'other' }

/** A type of the layout, resolved. Children are named by type id and looked up with `Layout.type`. */
export type TypeInfo =
  | { readonly kind: 'value'; readonly id: string; readonly label: string; readonly bytes: number; readonly value: ValueKind }
  | { readonly kind: 'bytes'; readonly id: string; readonly label: string; readonly string: boolean }
  | { readonly kind: 'mapping'; readonly id: string; readonly label: string; readonly key: string; readonly value: string }
  | { readonly kind: 'dynamicArray'; readonly id: string; readonly label: string; readonly base: string }
  | { readonly kind: 'staticArray'; readonly id: string; readonly label: string; readonly base: string; readonly length: bigint; readonly bytes: number }
  | { readonly kind: 'struct'; readonly id: string; readonly label: string; readonly members: readonly Member[]; readonly bytes: number }

/** A state variable or struct member. */
export interface Member {
  readonly name: string
  readonly slot: bigint
  readonly offset: number
  readonly type: string
}

/** Where a resolved path lives. */
export interface Resolved {
  /** The path, normalized (`balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]`). */
  readonly path: string
  readonly slot: bigint
  /** Bytes from the low-order end of the word (value types only; 0 otherwise). */
  readonly offset: number
  readonly type: TypeInfo
}

/** One thing a storage word holds, named: a value-type field, an array's length, the head or a data chunk of a string. */
export interface WordField {
  readonly path: string
  readonly role: 'value' | 'length' | 'bytesHead' | 'bytesData'
  readonly type: TypeInfo
  readonly offset: number
  readonly size: number
}

/** How a slot was derived, as `ringchain_storageLayout` and `ringchain_storageDiff` tell it. */
export interface Derivation {
  readonly root: bigint
  readonly steps: readonly DerivationStep[]
}
export type DerivationStep =
  | { readonly kind: 'mapping'; readonly key: Uint8Array }
  | { readonly kind: 'keccak' }
  | { readonly kind: 'offset'; readonly by: bigint }

/** Mapping slot → the keys seen for it (hex → encoded key). */
export type KnownKeys = Map<bigint, Map<string, Uint8Array>>

/** Bytes a value of this type takes in place (32 for mappings, dynamic arrays and strings). */
export function byteSize(t: TypeInfo): number {
  switch (t.kind) {
    case 'value':
    case 'staticArray':
    case 'struct':
      return t.bytes
    default:
      return 32
  }
}
