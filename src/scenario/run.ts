/**
 * Playing a scenario: a fresh embedded ringchain per scenario (or a running node over HTTP), the
 * steps in order with their timing, the first failure stopping the rest, and the digest of the
 * final chain. Everything goes through JSON-RPC, so a scenario means the same on any node.
 *
 * Owns: `runScenario`, the report it returns and the events it emits while it plays. Leaves
 * reading files to `load.ts`, steps to `steps/` (one module per kind), and rendering to the CLI (`src/cli/run.ts`).
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createRingchain, type ConsoleLog, type RingchainOptions } from '../simulator.js'
import { eip1193Client, httpClient, RpcCallError, type Client, type Eip1193Request } from './client.js'
import {
  ScenarioFileError,
  checkScenario,
  loadScenario,
  stepKind,
  type LoadedScenario,
  type ScenarioDocument,
  type ScenarioProblem,
  type StepKind,
} from './load.js'
import { forkOption } from './fork.js'
import { Checker, type Mismatch } from './match.js'
import { Scope } from './scope.js'
import { StepError, type StepContext } from './steps/context.js'
import { ScenarioValueError, bytesToHex, hexToBytes, parseQuantity, show } from './values.js'

/** Options of `runScenario`. */
export interface RunScenarioOptions {
  /** Play against the node at this JSON-RPC HTTP URL instead of a fresh embedded chain. */
  readonly rpc?: string
  /** Or against this EIP-1193 `request` (a provider, a running ringchain's `request`). */
  readonly request?: Eip1193Request
  /** Where artifact paths of a scenario given as a value are read from. Default: the working directory. */
  readonly baseDir?: string
  /** Called as the scenario plays (a terminal shows progress from it). */
  readonly onEvent?: (event: RunEvent) => void
}

/** What happens while a scenario plays. */
export type RunEvent =
  | { readonly type: 'start'; readonly file: string | undefined; readonly name: string; readonly steps: number; readonly target: string }
  | { readonly type: 'step'; readonly index: number; readonly total: number; readonly description: string; readonly line: number | undefined }
  | { readonly type: 'progress'; readonly index: number; readonly detail: string }
  | { readonly type: 'stepEnd'; readonly step: StepReport }
  | { readonly type: 'end'; readonly report: ScenarioReport }

/** An expectation that did not hold, as reports show it (values JSON-safe: bigints as strings). */
export interface MismatchReport {
  readonly field: string
  readonly expected: unknown
  readonly actual: unknown
  /** The line of the expectation in the file. */
  readonly line?: number
  readonly note?: string
}

/** One step's outcome. */
export interface StepReport {
  /** 1-based, in file order. */
  readonly index: number
  readonly kind: StepKind
  readonly description: string
  readonly line?: number
  readonly status: 'passed' | 'failed' | 'skipped'
  readonly durationMs: number
  readonly mismatches?: readonly MismatchReport[]
  /** Why the step failed when it is not a mismatch (an RPC error nobody expected, a bad value). */
  readonly error?: string
  /** The line the error is about, when it is not the step's own. */
  readonly errorLine?: number
  /** What the contracts printed with Solidity console.log during the step (embedded chain only). */
  readonly console?: readonly ConsoleLog[]
}

/** One scenario's outcome. */
export interface ScenarioReport {
  readonly file?: string
  readonly name: string
  /** `embedded` (a fresh ringchain) or the URL played against. */
  readonly target: string
  readonly status: 'passed' | 'failed'
  readonly durationMs: number
  readonly steps: readonly StepReport[]
  /** The file could not be played: what is wrong with it, with lines. */
  readonly problems?: readonly ScenarioProblem[]
  /** The chain could not be started, or another failure outside the steps. */
  readonly error?: string
  /** keccak256 of the final head block hash and the pending block's transaction hashes. */
  readonly digest?: string
  /** The digest the file expects, when it gives one. */
  readonly expectedDigest?: string
  /** Things worth knowing that are not failures (chain options ignored with --rpc). */
  readonly notes?: readonly string[]
}

/**
 * Plays a scenario: a file path (YAML or JSON), or a scenario as a value. Never throws for the
 * scenario's own failures: they are in the report.
 *
 * @example
 * const report = await runScenario('scenarios/01-transfer.yaml')
 * if (report.status === 'failed') console.log(report.steps.find((s) => s.status === 'failed'))
 */
export async function runScenario(source: string | ScenarioDocument, options: RunScenarioOptions = {}): Promise<ScenarioReport> {
  const started = performance.now()
  const file = typeof source === 'string' ? source : undefined
  const target = options.rpc ?? (options.request === undefined ? 'embedded' : 'provider')
  const emit = options.onEvent ?? (() => {})
  const finish = (report: ScenarioReport): ScenarioReport => {
    emit({ type: 'end', report })
    return report
  }
  let loaded: LoadedScenario
  try {
    loaded = typeof source === 'string' ? await loadScenario(source) : checkScenario(source, options.baseDir)
  } catch (e) {
    if (!(e instanceof ScenarioFileError)) throw e
    return finish({ ...(file === undefined ? {} : { file }), name: file ?? 'scenario', target, status: 'failed', durationMs: elapsed(started), steps: [], problems: e.problems })
  }
  const doc = loaded.document
  const name = doc.name ?? file ?? 'scenario'
  const base = { ...(file === undefined ? {} : { file }), name, target }
  emit({ type: 'start', file, name, steps: doc.steps.length, target })

  const notes: string[] = []
  /** console.log lines of the step playing. */
  const printed: ConsoleLog[] = []
  let client: Client
  let close = async () => {}
  const chain = doc.chain ?? {}
  try {
    if (options.rpc !== undefined) client = httpClient(options.rpc)
    else if (options.request !== undefined) client = eip1193Client(options.request, 'provider')
    else {
      // A send without `gas` estimates first: only what mined transactions and calls print is the step's.
      const rc = await createRingchain({
        ...chainOptions(chain),
        ...(doc.fork === undefined ? {} : { fork: forkOption(doc.fork) }),
        onConsole: (log) => log.transaction !== 'estimateGas' && printed.push(log),
      } satisfies RingchainOptions)
      client = eip1193Client(rc.request as Eip1193Request, 'embedded')
      close = () => rc.close()
    }
  } catch (e) {
    const line = loaded.locate([doc.fork === undefined ? 'chain' : 'fork'])?.line
    return finish({ ...base, status: 'failed', durationMs: elapsed(started), steps: [], error: `the chain could not start${line === undefined ? '' : ` (line ${line})`}: ${(e as Error).message}` })
  }
  if (target !== 'embedded' && Object.keys(chain).some((k) => k !== 'mnemonic' && k !== 'accounts')) {
    notes.push(`chain options other than mnemonic and accounts are not applied when playing against ${target}`)
  }
  if (target !== 'embedded' && doc.fork !== undefined) notes.push(`fork: is not applied when playing against ${target}`)

  // The ABI coder, the signer and the key derivation are loaded with the first scenario played.
  const [{ describeStep, runStep }, { ChainFacts, DEFAULT_MNEMONIC, devAccounts }] = await Promise.all([import('./steps/dispatch.js'), import('./transactions.js')])
  const steps: StepReport[] = []
  let failed = false
  let digest: string | undefined
  let error: string | undefined
  try {
    const scope = new Scope(devAccounts(typeof chain.mnemonic === 'string' ? chain.mnemonic : DEFAULT_MNEMONIC, typeof chain.accounts === 'number' ? chain.accounts : 10))
    const facts = new ChainFacts(client, target === 'embedded' && typeof chain.hardfork === 'string' && PRE_OSAKA.has(chain.hardfork.toLowerCase()) ? 'blob' : 'cell')
    const ctx: Omit<StepContext, 'progress'> = { client, scope, facts, baseDir: loaded.baseDir, snapshots: new Map() }
    for (const [i, step] of doc.steps.entries()) {
      const kind = stepKind(step)!
      const path = ['steps', i]
      const line = loaded.locate(path)?.line
      const description = describeStep(kind, step)
      if (failed) {
        steps.push({ index: i + 1, kind, description, ...(line === undefined ? {} : { line }), status: 'skipped', durationMs: 0 })
        continue
      }
      emit({ type: 'step', index: i + 1, total: doc.steps.length, description, line })
      const checker = new Checker(scope)
      const stepStarted = performance.now()
      let stepError: { message: string; line?: number } | undefined
      try {
        await runStep({ ...ctx, progress: (detail) => emit({ type: 'progress', index: i + 1, detail }) }, kind, step, path, checker)
      } catch (e) {
        stepError = explain(e, loaded)
      }
      const durationMs = elapsed(stepStarted)
      const logged = printed.splice(0)
      const mismatches = checker.mismatches.map((m) => mismatchReport(m, loaded))
      const ok = stepError === undefined && mismatches.length === 0
      const report: StepReport = {
        index: i + 1,
        kind,
        description,
        ...(line === undefined ? {} : { line }),
        status: ok ? 'passed' : 'failed',
        durationMs,
        ...(mismatches.length === 0 ? {} : { mismatches }),
        ...(stepError === undefined ? {} : { error: stepError.message, ...(stepError.line === undefined || stepError.line === line ? {} : { errorLine: stepError.line }) }),
        ...(logged.length === 0 ? {} : { console: logged }),
      }
      steps.push(report)
      emit({ type: 'stepEnd', step: report })
      if (!ok) failed = true
    }
    if (!failed) digest = await chainDigest(client)
  } catch (e) {
    error = (e as Error).message
  } finally {
    await close()
  }
  const digestFailed = doc.digest !== undefined && digest !== undefined && doc.digest.toLowerCase() !== digest
  return finish({
    ...base,
    status: failed || error !== undefined || digestFailed ? 'failed' : 'passed',
    durationMs: elapsed(started),
    steps,
    ...(error === undefined ? {} : { error }),
    ...(digest === undefined ? {} : { digest }),
    ...(doc.digest === undefined ? {} : { expectedDigest: doc.digest.toLowerCase() }),
    ...(notes.length === 0 ? {} : { notes }),
  })
}

/**
 * The digest of a chain as a node answers for it: keccak256 of the head block's hash followed by
 * the hashes of the pending block's transactions. The head hash commits to every block, state and
 * receipt before it; the pending part catches a pool that differs.
 */
export async function chainDigest(client: Client): Promise<string> {
  const head = (await client.request('eth_getBlockByNumber', ['latest', false])) as { hash: string }
  let pending: string[] = []
  try {
    const block = (await client.request('eth_getBlockByNumber', ['pending', false])) as { transactions?: string[] } | null
    pending = block?.transactions ?? []
  } catch (e) {
    if (!(e instanceof RpcCallError)) throw e
  }
  const parts = [head.hash, ...pending].map((h) => hexToBytes(h))
  const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    input.set(p, at)
    at += p.length
  }
  return bytesToHex(keccak_256(input))
}

/** Forks whose blob transactions carry one proof per blob (cell proofs came with Osaka). */
const PRE_OSAKA = new Set(['chainstart', 'frontier', 'homestead', 'tangerinewhistle', 'spuriousdragon', 'byzantium', 'constantinople', 'petersburg', 'istanbul', 'muirglacier', 'berlin', 'london', 'arrowglacier', 'grayglacier', 'paris', 'merge', 'shanghai', 'cancun', 'prague'])

/** The embedded chain's options from the scenario's `chain:`; deterministic unless it says otherwise. */
function chainOptions(spec: Readonly<Record<string, unknown>>): RingchainOptions {
  const options: RingchainOptions = { deterministic: true }
  const q = (key: string) => parseQuantity(spec[key], `chain.${key}`)
  if (typeof spec.hardfork === 'string') options.hardfork = spec.hardfork
  if (spec.chainId !== undefined) options.chainId = q('chainId')
  if (typeof spec.accounts === 'number') options.accounts = spec.accounts
  if (spec.balance !== undefined) options.balance = q('balance')
  if (typeof spec.mnemonic === 'string') options.mnemonic = spec.mnemonic
  if (spec.blockGasLimit !== undefined) options.blockGasLimit = q('blockGasLimit')
  if (spec.baseFee !== undefined) options.baseFee = q('baseFee')
  if (typeof spec.window === 'number') options.window = spec.window
  if (typeof spec.safeLag === 'number') options.safeLag = spec.safeLag
  if (typeof spec.finalizedLag === 'number') options.finalizedLag = spec.finalizedLag
  const mining = spec.mining
  if (mining === 'auto' || mining === 'manual') options.mining = { mode: mining }
  else if (typeof mining === 'object' && mining !== null) options.mining = { mode: 'interval', blockTimeMs: (mining as { interval: number }).interval }
  const deterministic = spec.deterministic
  if (typeof deterministic === 'boolean') options.deterministic = deterministic
  else if (typeof deterministic === 'object' && deterministic !== null) {
    const d = deterministic as { genesisTimestamp?: unknown; blockTime?: number }
    options.deterministic = {
      ...(d.genesisTimestamp === undefined ? {} : { genesisTimestamp: parseQuantity(d.genesisTimestamp, 'chain.deterministic.genesisTimestamp') }),
      ...(d.blockTime === undefined ? {} : { blockTime: BigInt(d.blockTime) }),
    }
  }
  return options
}

/** A step's error in words, with the line of the field it is about when known. */
function explain(e: unknown, loaded: LoadedScenario): { message: string; line?: number } {
  if (e instanceof StepError) {
    const line = e.path === undefined ? undefined : loaded.locate(e.path)?.line
    return { message: e.message, ...(line === undefined ? {} : { line }) }
  }
  if (e instanceof RpcCallError) return { message: `the node answered ${e.code} ${e.message}${e.data === undefined ? '' : ` (data ${show(e.data)})`}` }
  if (e instanceof ScenarioValueError) return { message: e.message }
  const message = (e as Error)?.message ?? String(e)
  return { message: `${message}${e instanceof Error && e.name !== 'Error' ? ` (${e.name})` : ''}` }
}

function mismatchReport(m: Mismatch, loaded: LoadedScenario): MismatchReport {
  const line = loaded.locate(m.path)?.line
  return { field: m.field, expected: jsonSafe(m.expected), actual: jsonSafe(m.actual), ...(line === undefined ? {} : { line }), ...(m.note === undefined ? {} : { note: m.note }) }
}

/** bigints as decimal strings, bytes as hex: what JSON can carry. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return bytesToHex(value)
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]))
  return value
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 100) / 100
}

