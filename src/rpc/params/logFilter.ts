// The log filter of eth_getLogs, eth_newFilter and logs subscriptions (geth's FilterCriteria),
// with geth's limits and wording. Does not own: matching logs against it (src/rpc/eth/logs.ts).

import { fromHex } from '../hex.js'
import { ArgumentError, type Param } from './decode.js'
import { decodeBlockNumber, type BlockNumberParam } from './block.js'
import { cannotUnmarshal, decodeArray, decodeFixed, field, isObject, jsonKind, type Mutable } from './go.js'

/**
 * The filter of `eth_getLogs` / `eth_newFilter`. `blockHash` excludes `fromBlock`/`toBlock` (the
 * decoder refuses both). `addresses` empty means any address; a `null` topic position (or an
 * empty or null-containing list there) matches anything.
 */
export interface LogFilter {
  readonly blockHash?: Uint8Array
  readonly fromBlock?: BlockNumberParam
  readonly toBlock?: BlockNumberParam
  readonly addresses: readonly Uint8Array[]
  readonly topics: readonly (readonly Uint8Array[] | null)[]
}

// geth's limits (eth/filters).
const MAX_ADDRESSES = 1000
const MAX_TOPICS = 4
const MAX_SUB_TOPICS = 1000

/** A log filter object (geth's FilterCriteria). */
export const logFilter: Param<LogFilter> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'filters.input')
    let blockHash: Uint8Array | undefined
    let fromBlock: BlockNumberParam | undefined
    let toBlock: BlockNumberParam | undefined
    let rawAddresses: unknown
    let rawTopics: readonly unknown[] | undefined
    for (const key in value) {
      const member = value[key]
      if (member === null || member === undefined) continue
      if (key === 'blockHash') blockHash = decodeFixed(member, 32, 'common.Hash', field('input', key))
      else if (key === 'fromBlock') fromBlock = decodeBlockNumber(member, 'block number larger than int64')
      else if (key === 'toBlock') toBlock = decodeBlockNumber(member, 'block number larger than int64')
      else if (key === 'address') rawAddresses = member
      else if (key === 'topics') rawTopics = decodeArray(member, '[]interface {}', field('input', key))
    }
    if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
      throw new ArgumentError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    }
    const filter: Mutable<LogFilter> = {
      addresses: decodeFilterAddresses(rawAddresses),
      topics: decodeFilterTopics(rawTopics ?? []),
    }
    if (blockHash !== undefined) filter.blockHash = blockHash
    if (fromBlock !== undefined) filter.fromBlock = fromBlock
    if (toBlock !== undefined) filter.toBlock = toBlock
    return filter
  },
}

function decodeFilterAddresses(raw: unknown): Uint8Array[] {
  if (raw === undefined) return []
  if (typeof raw === 'string') {
    try {
      return [decodeExact(raw, 20, 'address')]
    } catch (error) {
      throw new ArgumentError(`invalid address: ${(error as Error).message}`)
    }
  }
  if (!Array.isArray(raw)) throw new ArgumentError('invalid addresses in query')
  if (raw.length > MAX_ADDRESSES) throw new ArgumentError('exceed max addresses')
  return raw.map((item: unknown, i) => {
    if (typeof item !== 'string') throw new ArgumentError(`non-string address at index ${i}`)
    try {
      return decodeExact(item, 20, 'address')
    } catch (error) {
      throw new ArgumentError(`invalid address at index ${i}: ${(error as Error).message}`)
    }
  })
}

function decodeFilterTopics(raw: readonly unknown[]): (Uint8Array[] | null)[] {
  if (raw.length > MAX_TOPICS) throw new ArgumentError('exceed max topics')
  return raw.map((position) => {
    if (position === null) return null
    if (typeof position === 'string') return [decodeTopic(position)]
    if (!Array.isArray(position)) throw new ArgumentError('invalid topic(s)')
    if (position.length > MAX_SUB_TOPICS) throw new ArgumentError('exceed max topics')
    const alternatives: Uint8Array[] = []
    for (const item of position as unknown[]) {
      if (item === null) return null // a null alternative matches anything (geth stops reading here)
      if (typeof item !== 'string') throw new ArgumentError('invalid topic(s)')
      alternatives.push(decodeTopic(item))
    }
    return alternatives.length === 0 ? null : alternatives
  })
}

function decodeTopic(text: string): Uint8Array {
  return decodeExact(text, 32, 'topic')
}

/** hexutil.Decode plus a length check, worded as geth's filter decoding words it. */
function decodeExact(text: string, size: number, what: string): Uint8Array {
  let bytes: Uint8Array
  try {
    bytes = fromHex(text)
  } catch (error) {
    throw new ArgumentError((error as Error).message)
  }
  if (bytes.length !== size) {
    throw new ArgumentError(`hex has invalid length ${bytes.length} after decoding; expected ${size} for ${what}`)
  }
  return bytes
}
