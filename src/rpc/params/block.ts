// Block parameters: a tag, a number, a hash or an EIP-1898 object, as geth's rpc.BlockNumber and
// rpc.BlockNumberOrHash read them. Does not own: whether the block exists (the chain does).

import { BlockTags, type BlockTag } from '../../chain/types.js'
import { HexReason, decodeHexDigits, has0xPrefix } from '../hex.js'
import { ArgumentError, type Param } from './decode.js'
import { cannotUnmarshal, decodeBool, decodeFixed, decodeUint64Text, field, isObject, jsonKind } from './go.js'

/** A block by tag or number (what `eth_getBlockByNumber` and filter ranges take). */
export type BlockNumberParam =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: bigint }

/** A block by tag, number or hash (EIP-1898; what state methods take). */
export type BlockParam =
  | BlockNumberParam
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical: boolean }

const TAGS: ReadonlyMap<string, BlockNumberParam> = new Map(
  BlockTags.map((tag) => [
    tag,
    Object.freeze({ kind: 'tag', tag } as const),
  ]),
)

/** The `latest` block: the usual default of an optional block parameter. */
export const LATEST: BlockNumberParam = TAGS.get('latest')!
/** The `pending` block. */
export const PENDING: BlockNumberParam = TAGS.get('pending')!

const MAX_INT64 = (1n << 63n) - 1n

/** rpc.BlockNumber: a tag or a quantity up to int64; anything not a string reads as unprefixed hex. */
export function decodeBlockNumber(value: unknown, tooHigh: string): BlockNumberParam {
  if (typeof value !== 'string') throw new ArgumentError(HexReason.missingPrefix)
  const tag = TAGS.get(value)
  if (tag !== undefined) return tag
  const number = decodeUint64Text(value)
  if (number > MAX_INT64) throw new ArgumentError(tooHigh)
  return { kind: 'number', number }
}

/** A block tag (`latest`, `earliest`, `pending`, `safe`, `finalized`) or number. */
export const blockNumber: Param<BlockNumberParam> = {
  decode: (value) => decodeBlockNumber(value, 'block number larger than int64'),
}

/**
 * A block tag, number, 32-byte block hash, or EIP-1898 object (`{blockNumber}` or
 * `{blockHash, requireCanonical?}`).
 */
export const blockParam: Param<BlockParam> = {
  decode(value) {
    if (typeof value === 'string') {
      const tag = TAGS.get(value)
      if (tag !== undefined) return tag
      if (value.length === 66) {
        // geth reads a 66-character string as a hash, with hexutil's bare errors.
        if (!has0xPrefix(value)) throw new ArgumentError(HexReason.missingPrefix)
        const bytes = decodeHexDigits(value, 2)
        if (bytes === undefined) throw new ArgumentError(HexReason.syntax)
        return { kind: 'hash', hash: bytes, requireCanonical: false }
      }
      const number = decodeUint64Text(value)
      if (number > MAX_INT64) throw new ArgumentError('blocknumber too high')
      return { kind: 'number', number }
    }
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'string')
    return decodeEip1898(value)
  },
}

/**
 * `{blockNumber}` or `{blockHash, requireCanonical?}`. Unlike geth, which then only says
 * `json: cannot unmarshal object into Go value of type string`, a bad member is named.
 */
function decodeEip1898(value: Readonly<Record<string, unknown>>): BlockParam {
  const struct = 'BlockNumberOrHash'
  let number: BlockNumberParam | undefined
  let blockHash: Uint8Array | undefined
  let requireCanonical = false
  for (const key in value) {
    const member = value[key]
    if (member === null || member === undefined) continue
    if (key === 'blockNumber') number = decodeBlockNumber(member, 'block number larger than int64')
    else if (key === 'blockHash') blockHash = decodeFixed(member, 32, 'common.Hash', field(struct, key))
    else if (key === 'requireCanonical') requireCanonical = decodeBool(member, field(struct, key))
  }
  if (number !== undefined && blockHash !== undefined) {
    throw new ArgumentError('cannot specify both BlockHash and BlockNumber, choose one or the other')
  }
  if (blockHash !== undefined) return { kind: 'hash', hash: blockHash, requireCanonical }
  if (number !== undefined) return number
  // geth accepts `{}` and fails later with this text (as -32000); it is a parameter error.
  throw new ArgumentError('invalid arguments; neither block nor hash specified')
}
