/**
 * The simulator: a chain (or one per API key) behind the method registry, in-process or served.
 *
 * Owns: wiring chain → rpc → server, the EIP-1193 `request` of the in-process API, and the
 * lifecycle (`close()` idempotent, leaving no timer or socket that keeps the process alive).
 * Leaves chain semantics to `src/chain/`, JSON-RPC to `src/rpc/`, transport to `src/server/`.
 */
import { readFile } from 'node:fs/promises'
import { bytesToHex } from '@ethereumjs/util'
import { Chain, type ChainOptions } from './chain/chain.js'
import { createCustomCrypto } from './chain/crypto.js'
import { importChain, type ChainImport, type GethGenesis } from './chain/import.js'
import { createDispatcher, type Dispatch, type RpcSession } from './rpc/dispatcher.js'
import { createMethods, mapDomainError } from './rpc/methods.js'
import { startServer, type ServerOptions } from './server/server.js'

export const CLIENT_VERSION = 'ringchain/0.1.0'

/** A recorded chain to start from (geth's `init` + `import`); paths are read from disk. */
export interface ImportSource {
  /** The geth genesis: the parsed JSON, or the path of the file. */
  readonly genesis: GethGenesis | string
  /** The blocks after genesis, RLP-concatenated as `geth export` writes them: bytes, or the path of the file. */
  readonly blocks?: Uint8Array | string
}

/** Options of `createRingchain`: the chain's options, and optionally a chain to import. */
export interface RingchainOptions extends ChainOptions {
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
}

/** An EIP-1193 request. */
export interface RequestArguments {
  readonly method: string
  readonly params?: readonly unknown[] | object
}

/** The error an EIP-1193 `request` rejects with: the JSON-RPC error's code, message and data. */
export class RingchainRpcError extends Error {
  override name = 'RingchainRpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/** A dev account as the API hands it out. */
export interface AccountInfo {
  readonly address: `0x${string}`
  readonly privateKey: `0x${string}`
}

/** An in-process ringchain. */
export interface Ringchain {
  /** EIP-1193 request: give it to viem's `custom` transport or ethers' `BrowserProvider`. */
  request(args: RequestArguments): Promise<unknown>
  readonly chain: Chain
  readonly accounts: readonly AccountInfo[]
  /** Stops interval mining. Idempotent. */
  close(): Promise<void>
}

const IN_PROCESS: RpcSession = {
  transport: 'http',
  apiKey: 'in-process',
  send: () => {},
  onClose: () => {},
  closed: false,
}

/**
 * Creates an in-process chain with an EIP-1193 `request` (no socket).
 *
 * @example
 * const rc = await createRingchain({ deterministic: true })
 * const client = createPublicClient({ transport: custom(rc) })
 */
export async function createRingchain(options: RingchainOptions = {}): Promise<Ringchain> {
  const { import: source, ...chainOptions } = options
  const withCrypto: ChainOptions = { customCrypto: createCustomCrypto(), ...chainOptions }
  const chain = source === undefined ? await Chain.create(withCrypto) : await importChain(await loadImport(source), withCrypto)
  const dispatch = createDispatcher(createMethods(() => chain, { clientVersion: CLIENT_VERSION }), { mapDomainError })
  return {
    chain,
    accounts: accountsOf(chain),
    request: (args) => request(dispatch, IN_PROCESS, args),
    close: () => chain.close(),
  }
}

/** Options of `startRingchain`: the chain's and the server's. */
export interface StartOptions extends RingchainOptions {
  /** Port; 0 picks a free one. Default 8545. */
  port?: number
  /** Bind address. Default 127.0.0.1. */
  host?: string
  /** Accepted API keys; none = any non-empty key. */
  apiKeys?: readonly string[]
  /** Transport limits and logger. */
  server?: Omit<ServerOptions, 'host' | 'port' | 'apiKeys'>
}

/** A running ringchain server. */
export interface RunningRingchain {
  /** HTTP URL including the API key path (`http://127.0.0.1:PORT/v3/KEY`). */
  readonly httpUrl: string
  /** WebSocket URL including the API key path. */
  readonly wsUrl: string
  readonly port: number
  readonly accounts: readonly AccountInfo[]
  readonly chain: Chain
  /** The same EIP-1193 request, in-process. */
  request(args: RequestArguments): Promise<unknown>
  /** Closes the server (WebSocket clients and idle sockets too) and the chain. Idempotent. */
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
  const { port, host, apiKeys, server: serverOptions, ...chainOptions } = options
  const ringchain = await createRingchain(chainOptions)
  const dispatch = createDispatcher(createMethods(() => ringchain.chain, { clientVersion: CLIENT_VERSION }), { mapDomainError })
  let server
  try {
    server = await startServer(dispatch, {
      ...serverOptions,
      port: port ?? 8545,
      host: host ?? '127.0.0.1',
      ...(apiKeys === undefined ? {} : { apiKeys }),
    })
  } catch (e) {
    await ringchain.close()
    throw e
  }
  const urls = server.urls(apiKeys?.[0] ?? DEFAULT_API_KEY)
  let closing: Promise<void> | undefined
  return {
    httpUrl: urls.httpUrl,
    wsUrl: urls.wsUrl,
    port: server.port,
    accounts: ringchain.accounts,
    chain: ringchain.chain,
    request: ringchain.request,
    close: () => (closing ??= Promise.all([server.close(), ringchain.close()]).then(() => {})),
  }
}

async function loadImport(source: ImportSource): Promise<ChainImport> {
  const genesis = typeof source.genesis === 'string' ? (JSON.parse(await readFile(source.genesis, 'utf8')) as GethGenesis) : source.genesis
  const blocks = typeof source.blocks === 'string' ? new Uint8Array(await readFile(source.blocks)) : source.blocks
  return blocks === undefined ? { genesis } : { genesis, blocks }
}

function accountsOf(chain: Chain): AccountInfo[] {
  return chain.accounts.map((a) => ({ address: bytesToHex(a.address), privateKey: bytesToHex(a.privateKey) }))
}

let nextId = 1

async function request(dispatch: Dispatch, session: RpcSession, args: RequestArguments): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] })
  const answer = await dispatch(body, session)
  if (answer === undefined) return undefined
  const parsed = JSON.parse(answer) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (parsed.error !== undefined) throw new RingchainRpcError(parsed.error.code, parsed.error.message, parsed.error.data)
  return parsed.result
}
