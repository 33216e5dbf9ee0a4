/**
 * `ringchain trace <txhash>`: a transaction's call tree as a developer reads it, from geth's
 * `callTracer` (with logs) of a running ringchain or any node that answers `debug_traceTransaction`:
 * depth, call type, from → to, the function and its arguments where the ABI is known (a small
 * built-in table, plus `--abi` files), value, gas used, the result or why it failed, the logs.
 * Owns: the flags, the request and the rendering. The ABI coder is the scenario's (`../scenario/abi.ts`),
 * revert decoding the chain's (`../chain/revert.ts`).
 */
import { parseArgs } from 'node:util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describeRevert, errorSignaturesOfAbi, registerErrorSignatures } from '../chain/revert.js'
import { DEFAULT_RPC_URL, RpcCallError, httpRequest } from '../inspect/client.js'
import { decodeLog, decodeOutputs, eventTopic, loadAbi, parseSignature, signatureOf, type AbiItem } from '../scenario/abi.js'
import { fail } from './fail.js'

export const TRACE_HELP = `Usage: ringchain trace <txhash> [options]

Prints the call tree of a mined transaction: each call with its type, from → to, the function
and arguments where the ABI is known, value, gas used, result or revert reason, and the logs.
Asks the node for debug_traceTransaction with geth's callTracer (ringchain, anvil, geth, …).

  --rpc <url>     the node (default ${DEFAULT_RPC_URL}, what \`ringchain serve\` listens on)
  --abi <file>    an ABI or artifact (solc, Hardhat, Foundry JSON) to name functions, events
                  and custom errors by; repeat for several contracts
  --json          print the node's callTracer answer as it is
  -h, --help      this help
`

/** One frame of geth's callTracer, as the wire carries it. */
export interface CallFrame {
  readonly type: string
  readonly from: string
  readonly to?: string
  readonly value?: string
  readonly gas?: string
  readonly gasUsed?: string
  readonly input?: string
  readonly output?: string
  readonly error?: string
  readonly revertReason?: string
  readonly calls?: readonly CallFrame[]
  readonly logs?: readonly { readonly address: string; readonly topics?: readonly string[]; readonly data?: string; readonly position?: string }[]
}

export async function trace(rest: string[]): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({
      args: rest,
      options: { rpc: { type: 'string' }, abi: { type: 'string', multiple: true }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (e) {
    fail((e as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    process.stdout.write(TRACE_HELP)
    return
  }
  const [hash, ...extra] = positionals
  if (hash === undefined || extra.length > 0) fail('give one transaction hash (try --help)')
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) fail(`"${hash}" is not a transaction hash (0x and 64 hex digits)`)
  const abis: AbiItem[] = []
  for (const path of values.abi ?? []) {
    try {
      abis.push(...(await loadAbi(path, process.cwd())))
    } catch (e) {
      fail((e as Error).message)
    }
  }
  const url = values.rpc ?? DEFAULT_RPC_URL
  let frame: CallFrame
  try {
    frame = (await httpRequest(url)('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrame
  } catch (e) {
    if (!(e instanceof RpcCallError)) throw e
    process.stderr.write(`ringchain: ${url}: ${e.message}${e.code === -32601 ? ' (the node does not trace transactions)' : ''}\n`)
    process.exit(1)
  }
  process.stdout.write(values.json === true ? `${JSON.stringify(frame, null, 2)}\n` : renderCallTree(frame, abis))
}

/** The built-in names: the functions and events most traces meet (ERC-20, ERC-721, WETH, Ownable). */
const BUILT_IN = [
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
  'function deposit()',
  'function withdraw(uint256 amount)',
  'function multicall(bytes[] data) returns (bytes[])',
  'function owner() view returns (address)',
  'function transferOwnership(address newOwner)',
  'function renounceOwnership()',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
].map((signature) => parseSignature(signature, 'function'))

/** Functions by selector and events by topic0 and topic count; the user's ABIs win over the built-in ones. */
class Names {
  readonly #functions = new Map<string, AbiItem>()
  readonly #events = new Map<string, AbiItem>()

  constructor(abis: readonly AbiItem[]) {
    for (const item of [...BUILT_IN, ...abis]) {
      if (item.type === 'function') this.#functions.set(selectorOf(item), item)
      else if (item.type === 'event' && item.anonymous !== true) this.#events.set(`${eventTopic(item)}/${indexedCount(item)}`, item)
    }
    registerErrorSignatures(errorSignaturesOfAbi(abis))
  }

  function(input: string): AbiItem | undefined {
    return input.length >= 10 ? this.#functions.get(input.slice(0, 10).toLowerCase()) : undefined
  }

  event(topics: readonly string[]): AbiItem | undefined {
    const topic0 = topics[0]
    return topic0 === undefined ? undefined : this.#events.get(`${topic0.toLowerCase()}/${topics.length - 1}`)
  }
}

function selectorOf(item: AbiItem): string {
  return `0x${Buffer.from(keccak_256(new TextEncoder().encode(signatureOf(item))).subarray(0, 4)).toString('hex')}`
}

function indexedCount(event: AbiItem): number {
  return (event.inputs ?? []).filter((p) => p.indexed === true).length
}

/**
 * The call tree, one line per call, log and result, indented by depth.
 * @example renderCallTree(await request('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]), [])
 */
export function renderCallTree(top: CallFrame, abis: readonly AbiItem[]): string {
  const names = new Names(abis)
  const lines: string[] = []
  const walk = (frame: CallFrame, depth: number) => {
    const pad = '  '.repeat(depth)
    const fn = frame.input === undefined ? undefined : names.function(frame.input)
    const parts = [`${frame.type} ${frame.from} → ${frame.to ?? '(new contract)'}`, describeInput(frame, fn)]
    const value = BigInt(frame.value ?? '0x0')
    if (value !== 0n) parts.push(`value ${formatEther(value)} ETH`)
    if (frame.gasUsed !== undefined) parts.push(`gas ${BigInt(frame.gasUsed).toLocaleString('en-US')}`)
    lines.push(pad + parts.filter((p) => p !== '').join('  '))
    // geth's `position`: how many subcalls came before the log.
    const calls = frame.calls ?? []
    const logs = frame.logs ?? []
    let next = 0
    const logsBefore = (position: number) => {
      while (next < logs.length && Number(logs[next]!.position ?? '0x0') <= position) lines.push(`${pad}  ${describeLog(logs[next++]!, names)}`)
    }
    calls.forEach((call, i) => {
      logsBefore(i)
      walk(call, depth + 1)
    })
    logsBefore(Number.MAX_SAFE_INTEGER)
    lines.push(`${pad}  ← ${describeResult(frame, fn)}`)
  }
  walk(top, 0)
  return `${lines.join('\n')}\n`
}

function describeInput(frame: CallFrame, fn: AbiItem | undefined): string {
  const input = frame.input ?? '0x'
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') return `(init code, ${(input.length - 2) / 2} bytes)`
  if (input === '0x') return ''
  if (fn === undefined) return `${input.slice(0, 10)}(…${(input.length - 10) / 2} bytes)`
  try {
    const args = decodeOutputs({ type: 'function', name: fn.name!, outputs: fn.inputs ?? [] }, `0x${input.slice(10)}`)
    return `${fn.name}(${args.map(show).join(', ')})`
  } catch {
    return `${signatureOf(fn)} (arguments not decodable)`
  }
}

function describeResult(frame: CallFrame, fn: AbiItem | undefined): string {
  const output = frame.output ?? '0x'
  if (frame.error !== undefined) {
    if (frame.error !== 'execution reverted') return `failed: ${frame.error}`
    const reason = frame.revertReason ?? (output === '0x' ? undefined : describeRevert(Buffer.from(output.slice(2), 'hex')))
    return reason === undefined ? `reverted${output === '0x' ? '' : ` with data ${shorten(output)}`}` : `reverted: ${reason}`
  }
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') return `created (${(output.length - 2) / 2} bytes of code)`
  if (output === '0x') return 'ok'
  if (fn !== undefined && (fn.outputs ?? []).length > 0) {
    try {
      return decodeOutputs(fn, output).map(show).join(', ')
    } catch {
      // Not what the ABI says it returns: show the bytes.
    }
  }
  return shorten(output)
}

function describeLog(log: { readonly address: string; readonly topics?: readonly string[]; readonly data?: string }, names: Names): string {
  const topics = log.topics ?? []
  const event = names.event(topics)
  if (event !== undefined) {
    try {
      const decoded = decodeLog(event, topics, log.data ?? '0x')
      if (decoded !== undefined) return `emit ${event.name}(${decoded.list.map(show).join(', ')})  from ${log.address}`
    } catch {
      // Not what the ABI says it logs: show the raw log.
    }
  }
  return `log ${log.address} topics [${topics.map(shorten).join(', ')}] data ${shorten(log.data ?? '0x')}`
}

function show(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return value.startsWith('0x') ? shorten(value) : JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`
  if (typeof value === 'object' && value !== null) return `{ ${Object.entries(value).map(([k, v]) => `${k}: ${show(v)}`).join(', ')} }`
  return String(value)
}

/** Long hex shortened in the middle: a trace line stays readable, addresses and hashes stay whole. */
function shorten(hex: string): string {
  return hex.length <= 66 ? hex : `${hex.slice(0, 34)}…${hex.slice(-8)} (${(hex.length - 2) / 2} bytes)`
}

function formatEther(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`
}
