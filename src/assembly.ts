/**
 * What a simulator is made of, from its options: the factory of its chains (dev genesis, import,
 * state dump or fork) and the dispatcher in front of them.
 *
 * Owns: the options of a simulator's chains, and turning them into chains and a dispatcher. Leaves
 * the lifecycle, the server and the in-process API to `simulator.ts`, which loads this module (and
 * with it ethereumjs) only once its server listens: see `loadAssembly` there.
 */
import { readFile } from 'node:fs/promises'
import { bytesToHex } from '@ethereumjs/util'
import { Chain, type ChainOptions } from './chain/chain.js'
import type { ConsoleEntry } from './chain/console/report.js'
import { createCustomCrypto, keccakReady } from './chain/crypto.js'
import { InvalidStateDumpError, parseStateDump, readStateDump, toStateDump, type ChainState, type StateDump } from './chain/dumpState.js'
import { importChain, type ChainImport, type GethGenesis } from './chain/import.js'
import { forkChain } from './chain/fork/forkedChain.js'
import { StateNotLoadedError } from './chain/fork/loadedKeys.js'
import type { ForkSource } from './chain/fork/source.js'
import type { Chains } from './chains.js'
import type { MethodsOptions, ResetTarget } from './rpc/context.js'
import { createDispatcher, type Dispatch } from './rpc/dispatcher.js'
import { mapDomainError } from './rpc/domainErrors.js'
import { createMethods } from './rpc/methods.js'
import type { ProviderSimulation } from './rpc/provider/engine.js'
import type { ProviderProfileJson } from './rpc/provider/profile.js'
import { describeError } from './server/log.js'
import { connectUpstream } from './upstream/index.js'

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

/** Where the server and the chains report; `info` and `debug` are optional (quiet without them). */
export interface RingchainLogger {
  error(message: string): void
  warn(message: string): void
  /** Isolated chains created, reset and dropped. */
  info?(message: string): void
  /** Every request: transport, method names and time taken. */
  debug?(message: string): void
}

/**
 * Creates chains from one set of options (or, for a reset, as `target` says); an import is read
 * from disk once, however many chains.
 */
export function chainFactory(options: RingchainOptions): (target?: ResetTarget) => Promise<Chain> {
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

/** What the dispatcher of `dispatcherFor` is built with besides its chains. */
export interface DispatcherSettings {
  readonly clientVersion: string
  readonly provider: ProviderSimulation
  readonly logger?: RingchainLogger | undefined
  readonly maxBatchLength?: number | undefined
  /** What `ringchain_warmup` answers. */
  readonly warmup?: MethodsOptions['warmup']
}

/** The dispatcher of the method registry over `chains`. */
export function dispatcherFor(chains: Chains, { clientVersion, provider, logger, maxBatchLength, warmup }: DispatcherSettings): Dispatch {
  const methods = createMethods(chains.chainFor, {
    clientVersion,
    reset: (ctx, target) => chains.reset(ctx.session.apiKey, target),
    provider,
    ...(warmup === undefined ? {} : { warmup }),
  })
  return createDispatcher(methods, {
    mapDomainError,
    rerunAfter: (thrown) => (thrown instanceof StateNotLoadedError ? thrown.loading : undefined),
    ...(maxBatchLength === undefined ? {} : { maxBatchLength }),
    ...(logger === undefined ? {} : { logger: { error: (message, details) => logger.error(`${message}: ${describeError(details.error)}`) } }),
  })
}

/** The head state of `chain` as anvil's dump. */
export async function dumpState(chain: Chain): Promise<StateDump> {
  return toStateDump(await chain.exportState(), chain.common)
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
