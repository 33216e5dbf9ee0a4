/**
 * Recording: a dispatcher wrapper that writes every state-changing request a node serves (signed
 * transactions, test controls: mining, time, snapshots, balances, code, storage, impersonation)
 * into a scenario file, with what the node answered as the step's expectation, so that a bug seen
 * once can be replayed with `ringchain run` forever.
 *
 * Owns: which methods count as state-changing, the scenario it writes (appended step by step, in
 * the order requests arrived, so a server that dies still leaves a playable file). Leaves serving
 * to the server and the meaning of steps to `src/scenario/`. Reads are not recorded; blocks mined by
 * the interval timer are not requests and are not recorded either.
 */
import { writeFileSync } from 'node:fs'
import { appendFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Dispatch, RpcSession } from './rpc/dispatcher.js'

// Loaded when a recording starts, not when ringchain is imported (`yaml` ships CommonJS too).
const require = createRequire(import.meta.url)
const stringify = (value: unknown, options: import('yaml').ToStringOptions): string => (require('yaml') as typeof import('yaml')).stringify(value, options)

/** Methods that change the chain, as a replay must repeat them. Reads are left out. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
  'anvil_mine',
  'hardhat_mine',
  'evm_setAutomine',
  'anvil_setAutomine',
  'evm_setIntervalMining',
  'anvil_setIntervalMining',
  'evm_snapshot',
  'anvil_snapshot',
  'evm_revert',
  'anvil_revert',
  'evm_increaseTime',
  'anvil_increaseTime',
  'evm_setNextBlockTimestamp',
  'anvil_setNextBlockTimestamp',
  'anvil_setBalance',
  'hardhat_setBalance',
  'anvil_setCode',
  'hardhat_setCode',
  'anvil_setNonce',
  'hardhat_setNonce',
  'anvil_setStorageAt',
  'hardhat_setStorageAt',
  'anvil_impersonateAccount',
  'hardhat_impersonateAccount',
  'anvil_stopImpersonatingAccount',
  'hardhat_stopImpersonatingAccount',
  'anvil_dropTransaction',
  'hardhat_dropTransaction',
  'anvil_reorg',
  'anvil_rollback',
  'ringchain_reorg',
  'ringchain_setReorgSchedule',
])

/** The chain options worth writing into the recording's `chain:` (the shape of ringchain's `ChainOptions`). */
export interface RecordedChainOptions {
  readonly chainId?: bigint
  readonly hardfork?: string
  readonly accounts?: number
  readonly balance?: bigint
  readonly mnemonic?: string
  readonly blockGasLimit?: bigint
  readonly baseFee?: bigint
  readonly window?: number
  readonly safeLag?: number
  readonly finalizedLag?: number
  readonly mining?: { readonly mode: 'auto' } | { readonly mode: 'manual' } | { readonly mode: 'interval'; readonly blockTimeMs: number }
  readonly deterministic?: boolean | { readonly genesisTimestamp?: bigint; readonly blockTime?: bigint }
}

export interface RecorderOptions {
  /** The served chain's options: a replay starts from the same genesis. */
  readonly chain?: RecordedChainOptions
  /** The scenario's name. Default: `recorded <ISO time>`. */
  readonly name?: string
}

/** A dispatcher that records, and the way to finish the file. */
export interface Recorder {
  /** Answers exactly as the wrapped dispatcher does, and records the state-changing requests. */
  readonly dispatch: Dispatch
  /** Resolves once every request answered so far is written. Idempotent. */
  close(): Promise<void>
}

interface Call {
  readonly method: string
  readonly params: readonly unknown[]
  readonly id: unknown
  readonly hasId: boolean
}

/**
 * Wraps `dispatch` so that the state-changing requests it answers are written to `path` as a
 * scenario (the file is created, or replaced, at once).
 *
 * @example
 * const recorder = wrapWithRecorder(dispatch, 'bug.yaml', { chain: options })
 * const server = await startServer(recorder.dispatch, { port: 0 })
 * // …
 * await server.close()
 * await recorder.close()
 */
export function wrapWithRecorder(dispatch: Dispatch, path: string, options: RecorderOptions = {}): Recorder {
  const started = Date.now()
  writeFileSync(path, header(options, new Date(started)))
  let written = Promise.resolve()
  let steps = 0
  let closing: Promise<void> | undefined

  /** Keeps arrival order: each request takes its place in the file before it is answered. */
  const reserve = (): ((text: string) => void) => {
    let fill!: (text: string) => void
    const ready = new Promise<string>((resolve) => (fill = resolve))
    written = written.then(async () => {
      const text = await ready
      if (text !== '') await appendFile(path, text)
    })
    return fill
  }

  const recorded: Dispatch = async (body, session) => {
    const calls = stateChanging(body)
    if (calls.length === 0 || closing !== undefined) return dispatch(body, session)
    const fill = reserve()
    const at = ((Date.now() - started) / 1000).toFixed(3)
    let answer: string | undefined
    try {
      answer = await dispatch(body, session)
      const answers = answersById(answer)
      let text = ''
      for (const call of calls) {
        const step = await stepFor(call, call.hasId ? answers.get(JSON.stringify(call.id)) : undefined, dispatch, session)
        text += `  # +${at} s\n` + indent(stringify([step], { lineWidth: 0 }))
        steps++
      }
      fill(text)
    } catch (e) {
      fill('')
      throw e
    }
    return answer
  }

  return {
    dispatch: recorded,
    close: () =>
      (closing ??= written.then(async () => {
        // A recording of nothing is still a valid (empty) scenario.
        if (steps === 0) await writeFile(path, header(options, new Date(started)).replace(/steps:\n$/, 'steps: []\n'))
      })),
  }
}

function header(options: RecorderOptions, at: Date): string {
  const chain = chainSpec(options.chain ?? {})
  const doc = {
    name: options.name ?? `recorded ${at.toISOString()}`,
    ...(Object.keys(chain).length === 0 ? {} : { chain }),
  }
  return (
    `# Recorded by \`ringchain serve --record\` from ${at.toISOString()}: the state-changing requests the\n` +
    '# node served, in the order they came, each with what it answered. Replay: ringchain run <this file>\n' +
    '# Blocks mined by interval mining are not requests and are not in it. Editors: point them at\n' +
    '# scenarios/scenario.schema.json in the ringchain package for completion.\n' +
    stringify(doc, { lineWidth: 0 }) +
    'steps:\n'
  )
}

function chainSpec(o: RecordedChainOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (o.hardfork !== undefined) out.hardfork = o.hardfork
  if (o.chainId !== undefined) out.chainId = Number(o.chainId)
  if (o.accounts !== undefined) out.accounts = o.accounts
  if (o.balance !== undefined) out.balance = o.balance.toString()
  if (o.mnemonic !== undefined) out.mnemonic = o.mnemonic
  if (o.blockGasLimit !== undefined) out.blockGasLimit = o.blockGasLimit.toString()
  if (o.baseFee !== undefined) out.baseFee = o.baseFee.toString()
  if (o.window !== undefined) out.window = o.window
  if (o.safeLag !== undefined) out.safeLag = o.safeLag
  if (o.finalizedLag !== undefined) out.finalizedLag = o.finalizedLag
  if (o.mining !== undefined) out.mining = o.mining.mode === 'interval' ? { interval: o.mining.blockTimeMs } : o.mining.mode
  // The served chain's clock, as it was: a wall-clock server replays on a wall-clock chain.
  const d = o.deterministic
  out.deterministic =
    typeof d === 'object'
      ? {
          ...(d.genesisTimestamp === undefined ? {} : { genesisTimestamp: d.genesisTimestamp.toString() }),
          ...(d.blockTime === undefined ? {} : { blockTime: Number(d.blockTime) }),
        }
      : d === true
  return out
}

/** The state-changing calls of a body (one request or a batch); none for anything unparsable. */
function stateChanging(body: string): Call[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return []
  }
  const items = Array.isArray(parsed) ? parsed : [parsed]
  const calls: Call[] = []
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue
    const r = item as { method?: unknown; params?: unknown; id?: unknown }
    if (typeof r.method !== 'string' || !STATE_CHANGING_METHODS.has(r.method)) continue
    calls.push({ method: r.method, params: Array.isArray(r.params) ? r.params : [], id: r.id, hasId: Object.hasOwn(r, 'id') })
  }
  return calls
}

interface Answer {
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

function answersById(answer: string | undefined): Map<string, Answer> {
  const map = new Map<string, Answer>()
  if (answer === undefined) return map
  const parsed = JSON.parse(answer) as unknown
  for (const a of Array.isArray(parsed) ? parsed : [parsed]) {
    const r = a as { id?: unknown } & Answer
    map.set(JSON.stringify(r.id ?? null), r)
  }
  return map
}

/** The scenario step that replays `call`, expecting what the node answered. */
async function stepFor(call: Call, answer: Answer | undefined, dispatch: Dispatch, session: RpcSession): Promise<Record<string, unknown>> {
  const expectError = answer?.error === undefined ? undefined : { error: { code: answer.error.code, message: answer.error.message } }
  if (call.method === 'eth_sendRawTransaction' && typeof call.params[0] === 'string') {
    const step: Record<string, unknown> = { send: { raw: call.params[0] } }
    if (expectError !== undefined) step.expect = expectError
    else if (typeof answer?.result === 'string') step.expect = { hash: answer.result, ...(await outcome(answer.result, dispatch, session)) }
    return step
  }
  const step: Record<string, unknown> = { rpc: { method: call.method, params: call.params } }
  if (expectError !== undefined) step.expect = expectError
  else if (answer !== undefined) step.expect = { result: answer.result ?? null }
  return step
}

/** Where the transaction is right after it was sent: pending, or included with its status and gas. */
async function outcome(hash: string, dispatch: Dispatch, session: RpcSession): Promise<Record<string, unknown>> {
  const answer = await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_getTransactionReceipt', params: [hash] }), session)
  const receipt = answer === undefined ? null : ((JSON.parse(answer) as { result?: Record<string, unknown> | null }).result ?? null)
  if (receipt === null) return { is: 'pending' }
  return {
    is: 'included',
    ...(receipt.status === undefined ? {} : { status: receipt.status }),
    gasUsed: receipt.gasUsed,
    ...(receipt.contractAddress === null || receipt.contractAddress === undefined ? {} : { contractAddress: receipt.contractAddress }),
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n')
}
