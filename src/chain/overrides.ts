/**
 * geth's call overrides, in the chain's terms: per account, fields and storage replaced for one
 * call (`eth_call`, `eth_estimateGas`, `debug_traceCall`, `eth_simulateV1`), and the block
 * fields a call sees in place of its block's.
 *
 * Owns: these shapes, the state a call sees through them (a read-only layer over the block's
 * state, so nothing is copied or written back) and the header they give. Leaves decoding to
 * `src/rpc/params/overrides.ts`, moving precompiles to the simulation (`simulate/overrides.ts`).
 */
import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { KECCAK256_NULL, bytesToUnprefixedHex, unpadBytes } from '@ethereumjs/util'
import { newAccount } from './encoding.js'
import { ChainError } from './errors.js'
import { EMPTY, type StateReader } from './state.js'
import type { AccountRecord } from './types.js'

/** One account's override: fields replaced, storage replaced (`state`) or patched (`stateDiff`). */
export interface AccountOverride {
  readonly balance?: bigint
  readonly nonce?: bigint
  readonly code?: Uint8Array
  /** Replaces the whole storage. Slots as unprefixed lowercase hex, values 32 bytes. */
  readonly state?: ReadonlyMap<string, Uint8Array>
  /** Changes these slots only. */
  readonly stateDiff?: ReadonlyMap<string, Uint8Array>
  /** Moves the precompile at this account to another address (execution-apis; `eth_simulateV1` only). */
  readonly movePrecompileToAddress?: Uint8Array
}

/** Overrides by account, as unprefixed lowercase hex. */
export type StateOverrides = ReadonlyMap<string, AccountOverride>

/** What a call's block header takes in place of its block's. */
export interface BlockOverrides {
  readonly number?: bigint
  readonly time?: bigint
  readonly gasLimit?: bigint
  readonly feeRecipient?: Uint8Array
  readonly prevRandao?: Uint8Array
  readonly baseFeePerGas?: bigint
  readonly difficulty?: bigint
}

/** Both kinds, as a call takes them. */
export interface CallOverrides {
  readonly state?: StateOverrides
  readonly block?: BlockOverrides
}

/** An override geth refuses too (both `state` and `stateDiff`, or a field the method cannot apply). */
export class StateOverrideError extends ChainError {
  override name = 'StateOverrideError'
}

/** Refuses what no method applies: both `state` and `stateDiff` for one account. */
export function checkStateOverrides(overrides: StateOverrides): void {
  for (const [address, override] of overrides) {
    if (override.state !== undefined && override.stateDiff !== undefined) throw new StateOverrideError(`account 0x${address} has both 'state' and 'stateDiff'`)
  }
}

/**
 * The state `base` with `overrides` laid over it, read-only. Storage values are stored without
 * leading zeros (the `StateReader` rule); code is found by its hash.
 */
export function overriddenState(base: StateReader, overrides: StateOverrides, keccak: (data: Uint8Array) => Uint8Array): StateReader {
  checkStateOverrides(overrides)
  const code = new Map<string, Uint8Array>()
  const accounts = new Map<string, AccountRecord>()
  for (const [address, override] of overrides) {
    if (override.movePrecompileToAddress !== undefined) throw new StateOverrideError(`account 0x${address}: movePrecompileToAddress is applied by eth_simulateV1 only`)
    const record = base.account(address) ?? newAccount()
    let codeFields = {}
    if (override.code !== undefined) {
      const hash = override.code.length === 0 ? KECCAK256_NULL : keccak(override.code)
      code.set(bytesToUnprefixedHex(hash), override.code)
      codeFields = { codeHash: hash, codeSize: override.code.length }
    }
    accounts.set(address, { ...record, ...pick(override, 'balance'), ...pick(override, 'nonce'), ...codeFields })
  }
  return {
    account: (address) => accounts.get(address) ?? base.account(address),
    storage(address, slot) {
      const override = overrides.get(address)
      if (override?.state !== undefined) return unpadded(override.state.get(slot))
      const patched = override?.stateDiff?.get(slot)
      return patched === undefined ? base.storage(address, slot) : unpadded(patched)
    },
    code: (codeHash) => code.get(codeHash) ?? base.code(codeHash),
  }
}

/** `header` with `overrides` applied (a new header; the block's own is shared and never changed). */
export function overriddenHeader(common: Common, header: BlockHeader, overrides: BlockOverrides): BlockHeader {
  const o = overrides
  return createBlockHeader(
    {
      ...header.toJSON(),
      number: o.number ?? header.number,
      timestamp: o.time ?? header.timestamp,
      gasLimit: o.gasLimit ?? header.gasLimit,
      ...(o.feeRecipient === undefined ? {} : { coinbase: o.feeRecipient }),
      ...(o.prevRandao === undefined ? {} : { mixHash: o.prevRandao }),
      ...(o.difficulty === undefined ? {} : { difficulty: o.difficulty }),
      ...(o.baseFeePerGas === undefined || header.baseFeePerGas === undefined ? {} : { baseFeePerGas: o.baseFeePerGas }),
    },
    { common, skipConsensusFormatValidation: true },
  )
}

function pick<K extends 'balance' | 'nonce'>(override: AccountOverride, key: K): { [P in K]?: bigint } {
  const value = override[key]
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: bigint })
}

function unpadded(value: Uint8Array | undefined): Uint8Array {
  if (value === undefined) return EMPTY
  const bytes = unpadBytes(value)
  return bytes.length === 0 ? EMPTY : bytes
}
