import { Chain, type ChainOptions } from './chain/chain.js';
import { type RequestArguments } from './eip1193.js';
import { type GethGenesis } from './chain/import.js';
import { type ServerOptions } from './server/server.js';
export { RingchainRpcError, type RequestArguments } from './eip1193.js';
export declare const CLIENT_VERSION = "ringchain/0.1.0";
/** A recorded chain to start from (geth's `init` + `import`); paths are read from disk. */
export interface ImportSource {
    /** The geth genesis: the parsed JSON, or the path of the file. */
    readonly genesis: GethGenesis | string;
    /** The blocks after genesis, RLP-concatenated as `geth export` writes them: bytes, or the path of the file. */
    readonly blocks?: Uint8Array | string;
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
    import?: ImportSource;
}
/** A dev account as the API hands it out. */
export interface AccountInfo {
    readonly address: `0x${string}`;
    readonly privateKey: `0x${string}`;
}
/** An in-process ringchain. */
export interface Ringchain {
    /** EIP-1193 request: give it to viem's `custom` transport or ethers' `BrowserProvider`. */
    request(args: RequestArguments): Promise<unknown>;
    /** The chain requests go to (a new object after `ringchain_reset`). */
    readonly chain: Chain;
    readonly accounts: readonly AccountInfo[];
    /** Stops interval mining. Idempotent. */
    close(): Promise<void>;
}
/**
 * Creates an in-process chain with an EIP-1193 `request` (no socket).
 *
 * @example
 * const rc = await createRingchain({ deterministic: true })
 * const client = createPublicClient({ transport: custom(rc) })
 */
export declare function createRingchain(options?: RingchainOptions): Promise<Ringchain>;
/** Isolate mode's limits: how many chains may exist, and when an unused one is dropped. */
export interface IsolateOptions {
    /** Most chains at once (the first key's included); a request with a new key past it gets -32005. Default 64. */
    maxChains?: number;
    /**
     * Drop a chain, with all its state, once it has had no request and no open WebSocket for this
     * long; its key gets a fresh chain on its next request. The first key's chain is never dropped.
     * Default: chains live until `close()`.
     */
    idleTimeoutMs?: number;
}
/** Where the server and the chains report; `info` and `debug` are optional (quiet without them). */
export interface RingchainLogger {
    error(message: string): void;
    warn(message: string): void;
    /** Isolated chains created, reset and dropped. */
    info?(message: string): void;
    /** Every request: transport, method names and time taken. */
    debug?(message: string): void;
}
/** Options of `startRingchain`: the chain's and the server's. */
export interface StartOptions extends RingchainOptions {
    /** Port; 0 picks a free one. Default 8545. */
    port?: number;
    /** Bind address. Default 127.0.0.1. */
    host?: string;
    /** Accepted API keys; none = any non-empty key. */
    apiKeys?: readonly string[];
    /**
     * One chain per API key, each created on its first request from these same options, so parallel
     * test workers share one process and one port but no nonces, blocks or state. Default false (one
     * chain for every key).
     * @example
     * const rc = await startRingchain({ port: 0, isolate: { maxChains: 16 } })
     * const worker1 = rc.urls('worker-1').httpUrl
     */
    isolate?: boolean | IsolateOptions;
    /** Where warnings, errors and (optionally) info and debug lines go. Default: warnings and errors on stderr. */
    logger?: RingchainLogger;
    /** Transport limits (see `ServerOptions`), and the longest batch served. */
    server?: Omit<ServerOptions, 'host' | 'port' | 'apiKeys'> & {
        /** Longest JSON-RPC batch; a longer one is refused whole with -32600 `batch too large`. Default 1,000. */
        maxBatchLength?: number;
    };
    /** Writes the state-changing requests served to this file, as a scenario that replays them (`ringchain run`). */
    record?: string;
}
/** A running ringchain server. */
export interface RunningRingchain {
    /** HTTP URL including the API key path (`http://127.0.0.1:PORT/v3/KEY`). */
    readonly httpUrl: string;
    /** WebSocket URL including the API key path. */
    readonly wsUrl: string;
    readonly port: number;
    readonly accounts: readonly AccountInfo[];
    /** The chain of the key in `httpUrl` (a new object after `ringchain_reset`). */
    readonly chain: Chain;
    /** The URLs of another API key: in isolate mode, another chain. */
    urls(apiKey: string): {
        httpUrl: string;
        wsUrl: string;
    };
    /** The same EIP-1193 request, in-process, as the key in `httpUrl`. */
    request(args: RequestArguments): Promise<unknown>;
    /** Closes the server (WebSocket clients and idle sockets too) and every chain. Idempotent. */
    close(): Promise<void>;
}
/** The API key used in the URLs handed out when no keys are configured. */
export declare const DEFAULT_API_KEY = "ringchain";
/** Default cap on isolated chains. */
export declare const DEFAULT_MAX_CHAINS = 64;
/**
 * Starts the chain and the server; resolves once the server listens.
 *
 * @example
 * const rc = await startRingchain({ port: 0 })
 * const provider = new JsonRpcProvider(rc.httpUrl)
 */
export declare function startRingchain(options?: StartOptions): Promise<RunningRingchain>;
