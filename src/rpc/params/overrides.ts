/**
 * geth's state and block overrides on the wire (`override.StateOverride`, `override.BlockOverrides`),
 * with its unmarshal errors: the third and fourth arguments of `eth_call` and `eth_estimateGas`,
 * `debug_traceCall`'s `stateOverrides`/`blockOverrides`, and each block of `eth_simulateV1`.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { AccountOverride, BlockOverrides, StateOverrides } from '../../chain/overrides.js'
import { ArgumentError, type Param } from './decode.js'
import { BIG, UINT64, cannotUnmarshal, decodeBytes, decodeFixed, decodeNumber, field, isObject, jsonKind } from './go.js'

export const stateOverrides: Param<StateOverrides> = { decode: decodeStateOverrides }
export const blockOverrides: Param<BlockOverrides> = { decode: decodeBlockOverrides }

export function decodeBlockOverrides(value: unknown): BlockOverrides {
  if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'override.BlockOverrides')
  const at = (name: string) => field('BlockOverrides', name)
  const out: { -readonly [K in keyof BlockOverrides]: BlockOverrides[K] } = {}
  if (value.number != null) out.number = decodeNumber(value.number, BIG, at('number'))
  if (value.time != null) out.time = decodeNumber(value.time, UINT64, at('time'))
  if (value.gasLimit != null) out.gasLimit = decodeNumber(value.gasLimit, UINT64, at('gasLimit'))
  if (value.feeRecipient != null) out.feeRecipient = decodeFixed(value.feeRecipient, 20, 'common.Address', at('feeRecipient'))
  if (value.prevRandao != null) out.prevRandao = decodeFixed(value.prevRandao, 32, 'common.Hash', at('prevRandao'))
  if (value.baseFeePerGas != null) out.baseFeePerGas = decodeNumber(value.baseFeePerGas, BIG, at('baseFeePerGas'))
  if (value.difficulty != null) out.difficulty = decodeNumber(value.difficulty, BIG, at('difficulty'))
  return out
}

export function decodeStateOverrides(value: unknown): StateOverrides {
  if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'override.StateOverride')
  const out = new Map<string, AccountOverride>()
  for (const key in value) {
    const account = bytesToUnprefixedHex(decodeFixed(key, 20, 'common.Address'))
    const o = value[key]
    if (!isObject(o)) throw cannotUnmarshal(jsonKind(o), 'override.OverrideAccount')
    const at = (name: string) => field('OverrideAccount', name)
    if (o.state != null && o.stateDiff != null) throw new ArgumentError(`account 0x${account} has both 'state' and 'stateDiff'`)
    out.set(account, {
      ...(o.balance == null ? {} : { balance: decodeNumber(o.balance, BIG, at('balance')) }),
      ...(o.nonce == null ? {} : { nonce: decodeNumber(o.nonce, UINT64, at('nonce')) }),
      ...(o.code == null ? {} : { code: decodeBytes(o.code, at('code')) }),
      ...(o.state == null ? {} : { state: decodeStorage(o.state) }),
      ...(o.stateDiff == null ? {} : { stateDiff: decodeStorage(o.stateDiff) }),
      ...(o.movePrecompileToAddress == null ? {} : { movePrecompileToAddress: decodeFixed(o.movePrecompileToAddress, 20, 'common.Address', at('movePrecompileToAddress')) }),
    })
  }
  return out
}

/** Slot → value, both 32-byte hashes; slots as unprefixed hex. */
function decodeStorage(value: unknown): ReadonlyMap<string, Uint8Array> {
  if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'map[common.Hash]common.Hash')
  const out = new Map<string, Uint8Array>()
  for (const slot in value) out.set(bytesToUnprefixedHex(decodeFixed(slot, 32, 'common.Hash')), decodeFixed(value[slot], 32, 'common.Hash'))
  return out
}
