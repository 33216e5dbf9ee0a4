/**
 * The simulator: a chain (or one per API key) behind the method registry, in-process or served.
 *
 * Owns: wiring chain → rpc → server, the EIP-1193 `request` of the in-process API, which chain a
 * request is about (one shared chain, or in isolate mode one per API key, created on first use,
 * capped and dropped when idle), resetting the caller's chain, and the lifecycle (`close()`
 * idempotent, leaving no timer or socket that keeps the process alive).
 * Leaves chain semantics to `src/chain/`, JSON-RPC to `src/rpc/`, transport to `src/server/`.
 */
import { readFile } from 'node:fs/promises'
import { bytesToHex } from '@ethereumjs/util'
import { Chain, type ChainOptions } from './chain/chain.js'
import type { ConsoleEntry } from './chain/console/report.js'
import { createCustomCrypto, keccakReady } from './chain/crypto.js'
import { InvalidStateDumpError, parseStateDump, readStateDump, toStateDump, type ChainState, type StateDump } from './chain/dumpState.js'
import { RingchainRpcError, type RequestArguments } from './eip1193.js'
import { importChain, type ChainImport, type GethGenesis } from './chain/import.js'
import { forkChain } from './chain/fork/forkedChain.js'
import { StateNotLoadedError } from './chain/fork/loadedKeys.js'
import type { ForkSource } from './chain/fork/source.js'
import type { ResetTarget } from './rpc/context.js'
import { connectUpstream } from './upstream/index.js'
import { createDispatcher, type Dispatch, type RpcContext, type RpcSession } from './rpc/dispatcher.js'
import { LimitExceededError } from './rpc/errors.js'
import { mapDomainError } from './rpc/domainErrors.js'
import { createMethods } from './rpc/methods.js'
import { ProviderSimulation } from './rpc/provider/engine.js'
import { parseProviderProfile, type ProviderProfileJson } from './rpc/provider/profile.js'
import { withProvider, type ProviderDispatch } from './rpc/provider/serve.js'
import { Chains, DEFAULT_MAX_CHAINS, type IsolateOptions } from './chains.js'
import { describeError } from './server/log.js'
import { startServer, type ServerOptions } from './server/server.js'

export { RingchainRpcError, type RequestArguments } from './eip1193.js'
export type { StateDump } from './chain/dumpState.js'
export { InvalidProviderProfileError, parseProviderProfile, type ProviderBehaviour, type ProviderProfileJson } from './rpc/provider/profile.js'

export { DEFAULT_MAX_CHAINS, type IsolateOptions } from './chains.js'

export const CLIENT_VERSION = 'ringchain/0.1.0'

/** A recorded chain to start from (geth's `init` + `import`); paths are read from disk. */
export interface ImportSource {
  /** The geth genesis: the parsed JSON, or the path of the file. */
  readonly genesis: GethGenesis | string
  /** The blocks after genesis, RLP-concatenated as `geth export` writes them: bytes, or the path of the file. */
  readonly blocks?: Uint8Array | string
}

/** A Solidity console.log, as `onConsole` receives it. */
export interface ConsoleLog {
  /** The mined transaction that printed it, or the method of the call that did. */
  readonly transaction: `0x${string}` | 'call' | 'estimateGas'
  /** The contract that called console.log. */
  readonly address: `0x${string}`
  /** The line, formatted as Hardhat and forge format it. */
  readonly message: string
}

/** Options of `createRingchain`: the chain's options, and optionally a chain to import. */
export interface RingchainOptions extends Omit<ChainOptions, 'onConsole'> {
  /**
   * Called with every Solidity console.log (calls to `0x000000000000000000636F6e736F6c652e6c6f67`)
   * of a mined transaction, an `eth_call` or an `eth_estimateGas`. Without it (and without an
   * info logger) console.log costs nothing.
   * @example
   * const rc = await createRingchain({ onConsole: (log) => console.log(`[${log.transaction}] ${log.message}`) })
   */
  onConsole?: (log: ConsoleLog) => void

  /**
   * Start from this recorded chain instead of a dev genesis: every block is replayed and verified,
   * the last one is the head. For imported chains `safeLag`/`finalizedLag` default to 0 (head =
   * safe = finalized), `mining` to manual, `blockGasLimit` to the head's, and there are no dev
   * accounts unless `accounts` or `mnemonic` is given; new blocks follow the head's timestamp.
   * `chainId`, `hardfork`, `baseFee` and `balance` come from the genesis and are ignored.
   * @example
   * await startRingchain({ import: { genesis: 'tests/genesis.json', blocks: 'tests/chain.rlp' } })
   */
  import?: ImportSource
  /**
   * Start from a state dump (`dumpState()`, `anvil_dumpState`, anvil's `--dump-state` file): the
   * parsed JSON, or the path of the file. Its accounts and head block's number, time, base fee
   * and gas limit become the chain's head, where the window starts (see `Chain.loadState`).
   * @example
   * const rc = await createRingchain({ loadState: 'state.json' })
   */
  loadState?: StateDump | string
  /**
   * Answer as a hosted provider does: rate limits (429), latency, lagging backends, transient
   * failures, WebSocket drops and limits, per API key, deterministic under its `seed`. Absent: the
   * perfect provider. `ringchain_setProviderProfile` changes it at runtime.
   * @example
   * await startRingchain({ providerProfile: { seed: 1, default: { failures: { share: 0.2, status: 503 } } } })
   */
  providerProfile?: ProviderProfileJson
  /**
   * Fork a live chain: the chain continues from the upstream's block `blockNumber` (default its
   * latest), with its chain id, hardfork, gas limit and base fee unless the options set them, and
   * reads the state at that block lazily from the upstream. `url` is any JSON-RPC node (http(s)
   * or ws(s)); in-process, a ready `source` may stand in for it (the caller closes it). The dev
   * accounts hold `balance` at the fork.
   * @example
   * const rc = await createRingchain({ fork: { url: 'https://eth.example/v3/KEY', blockNumber: 21_000_000n } })
   */
  fork?: ForkSpec
}

/** Where a forked chain forks from: an upstream URL, or (in-process) a ready source, and the block. */
export type ForkSpec = ({ readonly url: string } | { readonly source: ForkSource }) & { readonly blockNumber?: bigint }

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
  const chains = new Chains(chainFactory(options), { isolate: false })
  const provider = providerSimulation(options)
  const primary = await chains.open(IN_PROCESS_KEY)
  const dispatch = withProvider(dispatcherFor(chains, undefined, provider), provider, chains.chainFor)
  const session = inProcessSession(IN_PROCESS_KEY)
  return {
    get chain() {
      return chains.primary
    },
    accounts: accountsOf(primary),
    request: (args) => request(dispatch, session, args),
    dumpState: () => dumpState(chains.primary),
    close: () => chains.close(),
  }
}

/** Where the server and the chains report; `info` and `debug` are optional (quiet without them). */
export interface RingchainLogger {
  error(message: string): void
  warn(message: string): void
  /** Isolated chains created, reset and dropped. */
  info?(message: string): void
  /** Every request: transport, method names and time taken. */
  debug?(message: string): void
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
  /** Closes the server (WebSocket clients and idle sockets too) and every chain. Idempotent. */
  close(): Promise<void>
}

/** The API key used in the URLs handed out when no keys are configured. */
export const DEFAULT_API_KEY = 'ringchain'

/**
 * Starts the chain and the server; resolves once the server listens.
 *
 * @example
 * const rc = await startRingchain({ port: 0 })
 * const provider = new JsonRpcProvider(rc.httpUrl)
 */
export async function startRingchain(options: StartOptions = {}): Promise<RunningRingchain> {
  const { port, host, apiKeys, isolate, logger, server: serverOptions, record, providerProfile: _profile, inspector, ...ringchainOptions } = options
  const provider = providerSimulation(options)
  const { maxBatchLength, ...transport } = serverOptions ?? {}
  if (maxBatchLength !== undefined && (!Number.isSafeInteger(maxBatchLength) || maxBatchLength < 1)) {
    throw new RangeError(`maxBatchLength: expected a positive integer, got ${maxBatchLength}`)
  }
  const chainOptions: RingchainOptions = logger === undefined ? ringchainOptions : { ...ringchainOptions, logger }
  const key = apiKeys?.[0] ?? DEFAULT_API_KEY
  const chains = new Chains(chainFactory(chainOptions), {
    ...(isolate === undefined || isolate === false ? { isolate: false } : { isolate: true, ...(isolate === true ? {} : isolate) }),
    ...(logger === undefined ? {} : { logger }),
  })
  const primary = await chains.open(key)
  const answering = dispatcherFor(chains, logger, provider, maxBatchLength)
  const recorder = record === undefined ? undefined : (await import('./recorder.js')).wrapWithRecorder(answering, record, { chain: ringchainOptions })
  // Outside the recorder: a request the provider refuses was never served.
  const dispatch = withProvider(recorder?.dispatch ?? answering, provider, chains.chainFor)
  let server
  try {
    server = await startServer(logger?.debug === undefined ? dispatch : logRequests(dispatch, logger.debug.bind(logger)), {
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
  } catch (e) {
    await chains.close()
    throw e
  }
  const urls = server.urls(key)
  const session = inProcessSession(key)
  let closing: Promise<void> | undefined
  return {
    httpUrl: urls.httpUrl,
    wsUrl: urls.wsUrl,
    inspectorUrl: server.inspectorUrl(key),
    port: server.port,
    accounts: accountsOf(primary),
    get chain() {
      return chains.primary
    },
    urls: (apiKey) => server.urls(apiKey),
    request: (args) => request(dispatch, session, args),
    dumpState: () => dumpState(chains.primary),
    close: () => (closing ??= Promise.all([server.close(), chains.close()]).then(() => recorder?.close())),
  }
}

// --- which chain a request is about -----------------------------------------------------------

/** One chain's place: the chain (a promise while it is being created or reset) and its use. */
/**
 * Creates chains from one set of options (or, for a reset, as `target` says); an import is read
 * from disk once, however many chains.
 */
function chainFactory(options: RingchainOptions): (target?: ResetTarget) => Promise<Chain> {
  const { import: source, loadState, onConsole, providerProfile: _profile, fork, ...rest } = options
  const chainOptions: ChainOptions = onConsole === undefined ? rest : { ...rest, onConsole: (entry) => onConsole(consoleLogOf(entry)) }
  let loaded: Promise<ChainImport> | undefined
  let state: Promise<ChainState> | undefined
  return async (target) => {
    const withCrypto: ChainOptions = { customCrypto: createCustomCrypto(), ...chainOptions }
    // Genesis is hashed with the WebAssembly keccak: waiting for its compile (off the main thread)
    // costs less than noble's keccak does while V8 has not yet optimised it. Mining needs it too
    // (see keccakReady).
    await keccakReady()
    const forkTo = target === undefined ? fork : forkOfReset(target, fork)
    if (forkTo !== undefined) return forkChain({ source: forkSource(forkTo), ...(forkTo.blockNumber === undefined ? {} : { blockNumber: forkTo.blockNumber }) }, withCrypto)
    // Otherwise a chain as the options make it, their import and state dump included.
    const chain = source === undefined ? await Chain.create(withCrypto) : await importChain(await (loaded ??= loadImport(source)), withCrypto)
    if (loadState !== undefined) {
      try {
        await chain.loadState(await (state ??= readState(loadState)))
      } catch (e) {
        await chain.close()
        throw e
      }
    }
    return chain
  }
}

/** The fork a reset asks for: its URL, else the options' upstream; undefined for a plain chain. */
function forkOfReset(target: ResetTarget, configured: ForkSpec | undefined): ForkSpec | undefined {
  if (target.fork === null) return undefined
  const at = target.fork.blockNumber === undefined ? {} : { blockNumber: target.fork.blockNumber }
  if (target.fork.url !== undefined) return { url: target.fork.url, ...at }
  if (configured === undefined) return undefined
  return { ...('url' in configured ? { url: configured.url } : { source: configured.source }), ...at }
}

/** A chain's own connection to its upstream (it closes it); a source handed in stays the caller's to close. */
function forkSource(spec: ForkSpec): ForkSource {
  if ('url' in spec) return connectUpstream(spec.url)
  const { source } = spec
  return { label: source.label, request: (method, params) => source.request(method, params), close: async () => {} }
}

function dispatcherFor(chains: Chains, logger: RingchainLogger | undefined, provider: ProviderSimulation, maxBatchLength?: number): Dispatch {
  const methods = createMethods(chains.chainFor, {
    clientVersion: CLIENT_VERSION,
    reset: (ctx, target) => chains.reset(ctx.session.apiKey, target),
    provider,
  })
  return createDispatcher(methods, {
    mapDomainError,
    rerunAfter: (thrown) => (thrown instanceof StateNotLoadedError ? thrown.loading : undefined),
    ...(maxBatchLength === undefined ? {} : { maxBatchLength }),
    ...(logger === undefined ? {} : { logger: { error: (message, details) => logger.error(`${message}: ${describeError(details.error)}`) } }),
  })
}

/** The provider simulation of the options' profile (checked here: a bad one throws before anything starts). */
function providerSimulation(options: RingchainOptions): ProviderSimulation {
  return new ProviderSimulation(options.providerProfile === undefined ? undefined : parseProviderProfile(options.providerProfile))
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

function consoleLogOf(entry: ConsoleEntry): ConsoleLog {
  return { transaction: typeof entry.source === 'string' ? entry.source : bytesToHex(entry.source), address: bytesToHex(entry.address), message: entry.message }
}

async function loadImport(source: ImportSource): Promise<ChainImport> {
  const genesis = typeof source.genesis === 'string' ? (JSON.parse(await readFile(source.genesis, 'utf8')) as GethGenesis) : source.genesis
  const blocks = typeof source.blocks === 'string' ? new Uint8Array(await readFile(source.blocks)) : source.blocks
  return blocks === undefined ? { genesis } : { genesis, blocks }
}

/** A state dump from its parsed JSON or its file; a bad file's error names it. */
async function readState(source: StateDump | string): Promise<ChainState> {
  if (typeof source !== 'string') return readStateDump(source)
  try {
    return parseStateDump(await readFile(source, 'utf8'))
  } catch (e) {
    if (e instanceof InvalidStateDumpError) throw new InvalidStateDumpError(`${source}: ${e.problem}`, { cause: e })
    throw e
  }
}

async function dumpState(chain: Chain): Promise<StateDump> {
  return toStateDump(await chain.exportState(), chain.common)
}

function accountsOf(chain: Chain): AccountInfo[] {
  return chain.accounts.map((a) => ({ address: bytesToHex(a.address), privateKey: bytesToHex(a.privateKey) }))
}

// --- the in-process EIP-1193 request ----------------------------------------------------------

const IN_PROCESS_KEY = 'in-process'

function inProcessSession(apiKey: string): RpcSession {
  return { transport: 'http', apiKey, send: () => {}, onClose: () => {}, closed: false }
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
