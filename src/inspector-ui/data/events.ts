/**
 * Decoding logs: by the events of an ABI the user gave (contracts.ts), else by a short list of
 * well-known events (ERC-20 and ERC-721 Transfer and Approval, ApprovalForAll, Ownable's
 * OwnershipTransferred, WETH's Deposit and Withdrawal). A log is matched by its first topic and its
 * number of indexed arguments; values of static types are decoded, dynamic ones in the data
 * (string, bytes) too, others are shown raw.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

/** An event of a JSON ABI. */
export interface AbiEvent {
  readonly type: 'event'
  readonly name: string
  readonly inputs: readonly { readonly name: string; readonly type: string; readonly indexed?: boolean }[]
  readonly anonymous?: boolean
}

/** A decoded log. */
export interface DecodedLog {
  readonly name: string
  /** Where the event's signature came from. */
  readonly source: 'abi' | 'well-known'
  readonly args: readonly { readonly name: string; readonly value: string }[]
}

function event(name: string, inputs: readonly [name: string, type: string, indexed: boolean][]): AbiEvent {
  return { type: 'event', name, inputs: inputs.map(([n, type, indexed]) => ({ name: n, type, indexed })) }
}

const WELL_KNOWN: readonly AbiEvent[] = [
  event('Transfer', [['from', 'address', true], ['to', 'address', true], ['value', 'uint256', false]]),
  event('Transfer', [['from', 'address', true], ['to', 'address', true], ['tokenId', 'uint256', true]]),
  event('Approval', [['owner', 'address', true], ['spender', 'address', true], ['value', 'uint256', false]]),
  event('Approval', [['owner', 'address', true], ['approved', 'address', true], ['tokenId', 'uint256', true]]),
  event('ApprovalForAll', [['owner', 'address', true], ['operator', 'address', true], ['approved', 'bool', false]]),
  event('OwnershipTransferred', [['previousOwner', 'address', true], ['newOwner', 'address', true]]),
  event('Deposit', [['dst', 'address', true], ['wad', 'uint256', false]]),
  event('Withdrawal', [['src', 'address', true], ['wad', 'uint256', false]]),
]

const topicCache = new Map<AbiEvent, string>()

/** The first topic of an event: keccak256 of its signature. */
export function topicOf(e: AbiEvent): string {
  let topic = topicCache.get(e)
  if (topic === undefined) {
    const signature = `${e.name}(${e.inputs.map((i) => i.type).join(',')})`
    topic = '0x' + hex(keccak_256(new TextEncoder().encode(signature)))
    topicCache.set(e, topic)
  }
  return topic
}

/** The log decoded by the first event that fits it, the ABI's before the well-known ones. */
export function decodeLog(log: { readonly topics: readonly string[]; readonly data: string }, abi: readonly AbiEvent[]): DecodedLog | undefined {
  const topic0 = log.topics[0]?.toLowerCase()
  if (topic0 === undefined) return undefined
  for (const [events, source] of [[abi, 'abi'], [WELL_KNOWN, 'well-known']] as const) {
    for (const e of events) {
      if (e.anonymous === true || topicOf(e) !== topic0) continue
      if (e.inputs.filter((i) => i.indexed === true).length + 1 !== log.topics.length) continue
      const decoded = decodeArgs(e, log)
      if (decoded !== undefined) return { name: e.name, source, args: decoded }
    }
  }
  return undefined
}

function decodeArgs(e: AbiEvent, log: { readonly topics: readonly string[]; readonly data: string }) {
  const data = log.data.slice(2)
  const words = data.length / 64
  let topic = 1
  let head = 0
  const args: { name: string; value: string }[] = []
  for (const input of e.inputs) {
    if (input.indexed === true) {
      const word = log.topics[topic++]!.slice(2)
      args.push({ name: input.name, value: isDynamic(input.type) ? `keccak 0x${word}` : decodeWord(input.type, word) })
      continue
    }
    if (head >= words) return undefined
    const word = data.slice(head * 64, head * 64 + 64)
    head++
    args.push({ name: input.name, value: isDynamic(input.type) ? decodeDynamic(input.type, data, Number(BigInt('0x' + word))) : decodeWord(input.type, word) })
  }
  return args
}

function isDynamic(type: string): boolean {
  return type === 'string' || type === 'bytes' || type.endsWith(']') || type.startsWith('(')
}

function decodeWord(type: string, word: string): string {
  const n = BigInt('0x' + word)
  if (type === 'address') return '0x' + word.slice(24)
  if (type === 'bool') return n === 0n ? 'false' : 'true'
  const bits = /^int(\d*)$/.exec(type)
  if (bits !== null) {
    const size = BigInt(bits[1] === '' ? 256 : Number(bits[1]))
    return (n >= 1n << (size - 1n) ? n - (1n << 256n) : n).toString()
  }
  if (type.startsWith('uint')) return n.toString()
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed !== null) return '0x' + word.slice(0, Number(fixed[1]) * 2)
  return '0x' + word
}

function decodeDynamic(type: string, data: string, offset: number): string {
  if (type !== 'string' && type !== 'bytes') return '(not decoded)'
  const at = offset * 2
  const length = Number(BigInt('0x' + (data.slice(at, at + 64) || '0')))
  const body = data.slice(at + 64, at + 64 + length * 2)
  if (type === 'bytes') return '0x' + body
  return JSON.stringify(new TextDecoder().decode(bytes(body)))
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
}

function bytes(h: string): Uint8Array {
  const out = new Uint8Array(h.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16)
  return out
}
