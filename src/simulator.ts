/**
 * The simulator: a chain (or one per API key) behind the method registry, in-process or served.
 *
 * Owns: wiring chain → rpc → server, the EIP-1193 `request` of the in-process API, which chain a
 * request is about (one shared chain, or in isolate mode one per API key, created on first use,
 * capped and dropped when idle), resetting the caller's chain, and the lifecycle (`close()`
 * idempotent, leaving no timer or socket that keeps the process alive).
 * Leaves chain semantics to `src/chain/`, JSON-RPC to `src/rpc/`, transport to `src/server/`.
 */
import type { Chain } from './chain/chain.js'
import { DEFAULT_MNEMONIC, deriveAccounts, type DevAccount } from './chain/accounts.js'
import { CHAIN_DEFAULTS } from './chain/defaults.js'
import type { StateDump } from './chain/dumpState.js'
import { Chains, type IsolateOptions } from './chains.js'
import { RingchainRpcError, type RequestArguments } from './eip1193.js'
import type { RpcSession } from './rpc/dispatcher.js'
import { ProviderSimulation } from './rpc/provider/engine.js'
import { parseProviderProfile } from './rpc/provider/profile.js'
import type { ProviderDispatch } from './rpc/provider/serve.js'
import { StartupGate } from './rpc/startupGate.js'
import { startServer, type ServerOptions } from './server/server.js'
import { IdleWatch } from './warmup/idleWatch.js'
import type { ScratchService, Warmup, WarmupReport } from './warmup/warmup.js'
import type { ConsoleLog, ForkSpec, ImportSource, RingchainLogger, RingchainOptions } from './assembly.js'

export type { ConsoleLog, ForkSpec, ImportSource, RingchainLogger, RingchainOptions } from './assembly.js'
export { RingchainRpcError, type RequestArguments } from './eip1193.js'
export type { StateDump } from './chain/dumpState.js'
export type { WarmupReport } from './warmup/warmup.js'
export { InvalidProviderProfileError, parseProviderProfile, type ProviderBehaviour, type ProviderProfileJson } from './rpc/provider/profile.js'

export { DEFAULT_MAX_CHAINS, type IsolateOptions } from './chains.js'

export const CLIENT_VERSION = 'ringchain/0.1.0'

/** A dev account as the API hands it out. */
export interface AccountInfo {
  readonly address: `0x${string}`
  readonly privateKey: `0x${string}`
}

/** An in-process ringchain. */
export interface Ringchain {
  /** EIP-1193 request: give it to viem's `custom` transport or ethers' `BrowserProvider`. */
  request(args: RequestArguments): Promise<unknown>
  /** The chain requests go to (a new object after `ringchain_reset`). */
  readonly chain: Chain
  readonly accounts: readonly AccountInfo[]
  /** The head state as anvil's dump (`JSON.stringify` it to get a `--load-state` file). */
  dumpState(): Promise<StateDump>
  /** Stops interval mining. Idempotent. */
  close(): Promise<void>
}

/**
 * Creates an in-process chain with an EIP-1193 `request` (no socket).
 *
 * @example
 * const rc = await createRingchain({ deterministic: true })
 * const client = createPublicClient({ transport: custom(rc) })
 */
export async function createRingchain(options: RingchainOptions = {}): Promise<Ringchain> {
  const { assembly, chains, primary, dispatch } = await oneChain(options, IN_PROCESS_KEY, providerSimulation(options))
  const session = inProcessSession(IN_PROCESS_KEY)
  return {
    get chain() {
      return chains.primary
    },
    accounts: accountsOf(primary.accounts),
    request: (args) => request(dispatch, session, args),
    dumpState: () => assembly.dumpState(chains.primary),
    close: () => chains.close(),
  }
}

/** Options of `startRingchain`: the chain's and the server's. */
export interface StartOptions extends RingchainOptions {
  /** Port; 0 picks a free one. Default 8545. */
  port?: number
  /** Bind address. Default 127.0.0.1. */
  host?: string
  /**
   * Accepted API keys; none = any non-empty key, and the root path `/` (HTTP and WebSocket) serves
   * the default key `ringchain`. With keys, `/` is not served (404): every request names its key.
   */
  apiKeys?: readonly string[]
  /**
   * One chain per API key, each created on its first request from these same options, so parallel
   * test workers share one process and one port but no nonces, blocks or state. Default false (one
   * chain for every key).
   * @example
   * const rc = await startRingchain({ port: 0, isolate: { maxChains: 16 } })
   * const worker1 = rc.urls('worker-1').httpUrl
   */
  isolate?: boolean | IsolateOptions
  /** Where warnings, errors and (optionally) info and debug lines go. Default: warnings and errors on stderr. */
  logger?: RingchainLogger
  /** Transport limits (see `ServerOptions`), and the longest batch served. */
  server?: Omit<ServerOptions, 'host' | 'port' | 'apiKeys' | 'rootKey'> & {
    /** Longest JSON-RPC batch; a longer one is refused whole with -32600 `batch too large`. Default 1,000. */
    maxBatchLength?: number
  }
  /** Writes the state-changing requests served to this file, as a scenario that replays them (`ringchain run`). */
  record?: string
  /** Serve the inspector page at `/inspector/<KEY>` (`inspectorUrl`). Default true; false: 404. */
  inspector?: boolean
  /**
   * Called once the server listens, before the chain is built, for a dev chain (no `fork`,
   * `import`, `loadState` or `providerProfile`), whose id and accounts the options fix. Until the
   * chain is built, `eth_chainId` and `net_version` are answered at once and other requests wait
   * for it, in order. `ringchain serve --json` prints its ready line here.
   */
  onListening?: (listening: ListeningRingchain) => void
  /**
   * Warm the server up while it is idle after its start: a typical test (deploy, storage writes
   * prepared, sent and awaited, views, a revert, events), run again and again over HTTP and
   * WebSocket against a scratch chain of its own, so that V8 has compiled the code real tests
   * take before they take it. It never touches the chain served, and each of its requests waits
   * until no real request is in flight. `false`, or the environment's `RINGCHAIN_WARMUP=off`:
   * none. Default: on, 100 tests (or `RINGCHAIN_WARMUP=<tests>`).
   */
  warmup?: boolean | { readonly tests: number }
}

/** What `onListening` is told: where the server listens, and the chain it is building. */
export interface ListeningRingchain {
  readonly httpUrl: string
  readonly wsUrl: string
  readonly port: number
  readonly chainId: bigint
  readonly accounts: readonly AccountInfo[]
}

/** A running ringchain server. */
export interface RunningRingchain {
  /** HTTP URL including the API key path (`http://127.0.0.1:PORT/v3/KEY`). */
  readonly httpUrl: string
  /** WebSocket URL including the API key path. */
  readonly wsUrl: string
  /** The inspector page of `httpUrl`'s key (`http://127.0.0.1:PORT/inspector/KEY`); undefined with `inspector: false`. */
  readonly inspectorUrl: string | undefined
  readonly port: number
  readonly accounts: readonly AccountInfo[]
  /** The chain of the key in `httpUrl` (a new object after `ringchain_reset`). */
  readonly chain: Chain
  /** The URLs of another API key: in isolate mode, another chain. */
  urls(apiKey: string): { httpUrl: string; wsUrl: string }
  /** The same EIP-1193 request, in-process, as the key in `httpUrl`. */
  request(args: RequestArguments): Promise<unknown>
  /** The head state of the chain of `httpUrl`'s key, as anvil's dump (what `--dump-state` writes). */
  dumpState(): Promise<StateDump>
  /** Resolves with what the warm-up did once it has ended (`{ state: 'off' }` without one); see `StartOptions.warmup`. */
  warmedUp(): Promise<WarmupReport | { readonly state: 'off' }>
  /** Closes the server (WebSocket clients and idle sockets too) and every chain. Idempotent. */
  close(): Promise<void>
}

/** The API key used in the URLs handed out when no keys are configured. */
export const DEFAULT_API_KEY = 'ringchain'

/**
 * Starts the server, then builds the chain behind it (see `onListening`); resolves once both are
 * ready. If building the chain fails, the server is closed and the promise rejects.
 *
 * @example
 * const rc = await startRingchain({ port: 0 })
 * const provider = new JsonRpcProvider(rc.httpUrl)
 */
export async function startRingchain(options: StartOptions = {}): Promise<RunningRingchain> {
  const { port, host, apiKeys, isolate, logger, server: serverOptions, record, providerProfile: _profile, inspector, onListening, warmup: warmupOption, ...ringchainOptions } = options
  const provider = providerSimulation(options)
  const { maxBatchLength, ...transport } = serverOptions ?? {}
  if (maxBatchLength !== undefined && (!Number.isSafeInteger(maxBatchLength) || maxBatchLength < 1)) {
    throw new RangeError(`maxBatchLength: expected a positive integer, got ${maxBatchLength}`)
  }
  const wantsWarmup = warmupWanted(warmupOption)
  const chainOptions: RingchainOptions = logger === undefined ? ringchainOptions : { ...ringchainOptions, logger }
  const key = apiKeys?.[0] ?? DEFAULT_API_KEY
  // The server listens first and the chain is built behind it: requests that come meanwhile wait
  // at the gate (a dev chain's id is answered at once). Loading and building the chain is most of
  // a start (scripts/bundle-cli.mjs and bench/startup.mjs measure it).
  const dev = devChainFacts(options)
  const gate = new StartupGate(dev?.chainId)
  const idle = new IdleWatch()
  const handler = logger?.debug === undefined ? gate.dispatch : logRequests(gate.dispatch, logger.debug.bind(logger))
  const server = await startServer(wantsWarmup === undefined ? handler : idle.track(handler), {
    ...(logger === undefined ? {} : { logger }),
    ...transport,
    port: port ?? 8545,
    host: host ?? '127.0.0.1',
    inspector: inspector ?? true,
    // `/` serves the default key's chain, for clients that default to a URL without a path
    // (cast, forge, Hardhat's localhost). With keys configured it is refused: a key is a secret.
    ...(apiKeys === undefined ? { rootKey: key } : { apiKeys }),
    wsLifetime: (apiKey) => provider.wsLifetime(apiKey),
  })
  if (dev !== undefined && onListening !== undefined) {
    onListening({ ...server.urls(key), port: server.port, ...dev })
    // Loading the chain holds the event loop in steps of ~20 ms: the first request of whoever was
    // just told the URL (often an eth_chainId probe) is answered before that begins.
    await Promise.race([gate.firstRequest, new Promise((resolve) => setTimeout(resolve, FIRST_REQUEST_GRACE_MS))])
  }
  let chains: Chains | undefined
  let recorder: Awaited<ReturnType<typeof import('./recorder.js').wrapWithRecorder>> | undefined
  let built
  let warmup: WarmupControl | undefined
  try {
    const { assembly, withProvider } = await loadAssembly()
    chains = new Chains(assembly.chainFactory(chainOptions), {
      ...(isolate === undefined || isolate === false ? { isolate: false } : { isolate: true, ...(isolate === true ? {} : isolate) }),
      ...(logger === undefined ? {} : { logger }),
    })
    const primary = await chains.open(key)
    const answering = assembly.dispatcherFor(chains, { provider, clientVersion: CLIENT_VERSION, logger, maxBatchLength, warmup: () => warmup?.report() ?? { state: 'off' } })
    recorder = record === undefined ? undefined : (await import('./recorder.js')).wrapWithRecorder(answering, record, { chain: ringchainOptions })
    // Outside the recorder: a request the provider refuses was never served.
    built = { chains, primary, assembly, dispatch: withProvider(recorder?.dispatch ?? answering, provider, chains.chainFor) }
  } catch (e) {
    gate.fail(e as Error)
    await Promise.all([server.close(), chains?.close(), recorder?.close()])
    throw e
  }
  const { primary, assembly, dispatch } = built
  const running = built.chains
  // Before the gate opens: requests held there are answered as it opens, and `ringchain_warmup`
  // among them must say `waiting`, not `off`.
  if (wantsWarmup !== undefined) warmup = startWarmup(idle, wantsWarmup, ringchainOptions, logger)
  gate.open(dispatch)
  const urls = server.urls(key)
  const session = inProcessSession(key)
  let closing: Promise<void> | undefined
  return {
    httpUrl: urls.httpUrl,
    wsUrl: urls.wsUrl,
    inspectorUrl: server.inspectorUrl(key),
    port: server.port,
    accounts: accountsOf(primary.accounts),
    get chain() {
      return running.primary
    },
    urls: (apiKey) => server.urls(apiKey),
    request: (args) => request(dispatch, session, args),
    dumpState: () => assembly.dumpState(running.primary),
    warmedUp: async () => (warmup === undefined ? { state: 'off' } : warmup.ended),
    close: () => (closing ??= Promise.all([warmup?.stop(), server.close(), running.close()]).then(() => recorder?.close())),
  }
}

// --- the warm-up (src/warmup/) -----------------------------------------------------------------

/**
 * The warm-up the option (or else the environment's `RINGCHAIN_WARMUP`: `off`, or a number of
 * tests) asks for: undefined for none.
 */
function warmupWanted(option: StartOptions['warmup'], env = process.env.RINGCHAIN_WARMUP): { tests?: number } | undefined {
  if (option === false) return undefined
  if (option === undefined || option === true) {
    if (env === undefined || env === '') return {}
    if (env === 'off') return undefined
    if (!/^\d+$/.test(env)) throw new RangeError(`RINGCHAIN_WARMUP: expected off or a number of tests, got ${env}`)
    return Number(env) === 0 ? undefined : { tests: Number(env) }
  }
  if (!Number.isSafeInteger(option.tests) || option.tests < 0) throw new RangeError(`warmup.tests: expected a whole number of tests, got ${option.tests}`)
  return option.tests === 0 ? undefined : { tests: option.tests }
}

/** A warm-up whose module is still loading, or under way. */
interface WarmupControl {
  report(): WarmupReport
  readonly ended: Promise<WarmupReport>
  stop(): Promise<WarmupReport>
}

function startWarmup(idle: IdleWatch, wanted: { tests?: number }, options: RingchainOptions, logger: RingchainLogger | undefined): WarmupControl {
  let current: Warmup | undefined
  const loaded = import('./warmup/warmup.js').then(({ Warmup }) => (current = new Warmup({ idle, ...wanted, scratch: () => scratchService(options) })))
  const ended = loaded.then((w) => w.ended)
  void ended.then((report) => {
    idle.retire()
    // A scratch dev chain that fails a plain test is a bug of ours: say so; the server goes on.
    if (report.state === 'failed') (logger ?? stderrWarnings).warn(`ringchain: warm-up failed: ${report.reason}`)
    else logger?.debug?.(`warm-up ${report.state}: ${report.tests} tests, ${report.requests} requests, ${report.busyMs} ms`)
  })
  return {
    report: () => current?.report ?? { state: 'waiting', tests: 0, requests: 0, busyMs: 0 },
    ended,
    stop: () => loaded.then((w) => w.stop()),
  }
}

const stderrWarnings = { warn: (message: string) => void process.stderr.write(`${message}\n`) }

/**
 * A throwaway dev chain (the options' hardfork and chain id, nothing else of theirs: no fork,
 * import, state, reorgs or provider faults) behind a private server on 127.0.0.1, for the warm-up.
 * Before London (no EIP-1559 transactions, and before Constantinople not the opcodes of the
 * warm-up's contract) it runs the default hardfork instead.
 */
async function scratchService(options: RingchainOptions): Promise<ScratchService> {
  const { HARDFORKS, normalizeHardfork } = await import('./chain/genesis.js')
  const hardfork = options.hardfork === undefined ? undefined : normalizeHardfork(options.hardfork)
  const modern = hardfork !== undefined && HARDFORKS.indexOf(hardfork) >= HARDFORKS.indexOf('london')
  const { chains, dispatch } = await oneChain({ ...(modern ? { hardfork } : {}), ...(options.chainId === undefined ? {} : { chainId: options.chainId }) }, WARMUP_KEY, new ProviderSimulation(undefined))
  try {
    const server = await startServer(dispatch, { port: 0, host: '127.0.0.1', inspector: false, rootKey: WARMUP_KEY, logger: { warn: () => {}, error: () => {} } })
    return { ...server.urls(WARMUP_KEY), close: async () => void (await Promise.all([server.close(), chains.close()])) }
  } catch (e) {
    await chains.close()
    throw e
  }
}

const WARMUP_KEY = 'warmup'

/** One chain of `options` (not isolated), opened as `key`'s, behind the method registry and `provider`. */
async function oneChain(options: RingchainOptions, key: string, provider: ProviderSimulation) {
  const { assembly, withProvider } = await loadAssembly()
  const chains = new Chains(assembly.chainFactory(options), { isolate: false })
  const primary = await chains.open(key)
  const dispatch = withProvider(assembly.dispatcherFor(chains, { provider, clientVersion: CLIENT_VERSION }), provider, chains.chainFor)
  return { assembly, chains, primary, dispatch }
}

/**
 * The id and accounts of the chain the options make, when the options alone fix them: a dev chain
 * (no fork, import, state dump or provider profile). A bad mnemonic throws here, before listening.
 */
function devChainFacts(options: RingchainOptions): { chainId: bigint; accounts: AccountInfo[] } | undefined {
  if (options.fork !== undefined || options.import !== undefined || options.loadState !== undefined || options.providerProfile !== undefined) return undefined
  const accounts = deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? CHAIN_DEFAULTS.accounts)
  return { chainId: options.chainId ?? CHAIN_DEFAULTS.chainId, accounts: accountsOf(accounts) }
}

/**
 * The chain's modules: ethereumjs, the chain, the method registry (`assembly.ts` and what it
 * imports), loaded a few at a time with a turn of the event loop between them. At once they held
 * the loop for ~80 ms, in which a server already listening could not answer even what its gate
 * answers at once.
 */
async function loadAssembly() {
  for (const load of LOAD_STEPS) {
    await load()
    await new Promise((resolve) => setImmediate(resolve))
  }
  const [assembly, { withProvider }] = await Promise.all([import('./assembly.js'), import('./rpc/provider/serve.js')])
  return { assembly, withProvider }
}

/** How long a server that has just told its URL waits for a first request before loading the chain. */
const FIRST_REQUEST_GRACE_MS = 25

const LOAD_STEPS: readonly (() => Promise<unknown>)[] = [
  () => import('@ethereumjs/util'),
  () => import('@ethereumjs/common'),
  () => import('@ethereumjs/evm'),
  () => import('@ethereumjs/vm'),
  () => import('./chain/chain.js'),
  () => import('./rpc/methods.js'),
]

/** The provider simulation of the options' profile (checked here: a bad one throws before anything starts). */
function providerSimulation(options: RingchainOptions): ProviderSimulation {
  return new ProviderSimulation(options.providerProfile === undefined ? undefined : parseProviderProfile(options.providerProfile))
}

function accountsOf(accounts: readonly DevAccount[]): AccountInfo[] {
  return accounts.map((a) => ({ address: hex(a.address), privateKey: hex(a.privateKey) }))
}

function hex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}

/** Wraps a dispatcher to log each request's transport, methods and time (never its key). */
function logRequests(dispatch: ProviderDispatch, debug: (message: string) => void): ProviderDispatch {
  return async (body, session) => {
    const started = performance.now()
    const answer = await dispatch(body, session)
    debug(`${session.transport} ${methodsOf(body)} ${(performance.now() - started).toFixed(1)} ms`)
    return answer
  }
}

function methodsOf(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body)
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    const names = calls.map((c) => (typeof c === 'object' && c !== null && typeof (c as { method?: unknown }).method === 'string' ? (c as { method: string }).method : '?'))
    return Array.isArray(parsed) ? `[${names.join(', ')}]` : names.join('')
  } catch {
    return '(not JSON)'
  }
}

// --- the in-process EIP-1193 request ----------------------------------------------------------

const IN_PROCESS_KEY = 'in-process'

function inProcessSession(apiKey: string): RpcSession {
  return { transport: 'in-process', apiKey, send: () => {}, onClose: () => {}, closed: false }
}

let nextId = 1

async function request(dispatch: ProviderDispatch, session: RpcSession, args: RequestArguments): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] })
  const answer = await dispatch(body, session)
  if (answer === undefined) return undefined
  // A simulated provider's 429 or 503 has no status in-process: its JSON-RPC error is thrown.
  const parsed = JSON.parse(typeof answer === 'string' ? answer : answer.body) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (parsed.error !== undefined) throw new RingchainRpcError(parsed.error.code, parsed.error.message, parsed.error.data)
  return parsed.result
}
