/**
 * The simulator: a chain (or one per API key) behind the method registry, in-process or served.
 *
 * Owns: wiring chain → rpc → server, the EIP-1193 `request` of the in-process API, which chain a
 * request is about (one shared chain, or in isolate mode one per API key, created on first use,
 * capped and dropped when idle), resetting the caller's chain, and the lifecycle (`close()`
 * idempotent, leaving no timer or socket that keeps the process alive).
 * Leaves chain semantics to `src/chain/`, JSON-RPC to `src/rpc/`, transport to `src/server/`.
 */
import { readFile } from 'node:fs/promises';
import { bytesToHex } from '@ethereumjs/util';
import { Chain } from './chain/chain.js';
import { createCustomCrypto } from './chain/crypto.js';
import { RingchainRpcError } from './eip1193.js';
import { importChain } from './chain/import.js';
import { createDispatcher } from './rpc/dispatcher.js';
import { LimitExceededError } from './rpc/errors.js';
import { createMethods, mapDomainError } from './rpc/methods.js';
import { startServer } from './server/server.js';
export { RingchainRpcError } from './eip1193.js';
export const CLIENT_VERSION = 'ringchain/0.1.0';
/**
 * Creates an in-process chain with an EIP-1193 `request` (no socket).
 *
 * @example
 * const rc = await createRingchain({ deterministic: true })
 * const client = createPublicClient({ transport: custom(rc) })
 */
export async function createRingchain(options = {}) {
    const chains = new Chains(chainFactory(options), { isolate: false });
    const primary = await chains.open(IN_PROCESS_KEY);
    const dispatch = dispatcherFor(chains, undefined);
    const session = inProcessSession(IN_PROCESS_KEY);
    return {
        get chain() {
            return chains.primary;
        },
        accounts: accountsOf(primary),
        request: (args) => request(dispatch, session, args),
        close: () => chains.close(),
    };
}
/** The API key used in the URLs handed out when no keys are configured. */
export const DEFAULT_API_KEY = 'ringchain';
/** Default cap on isolated chains. */
export const DEFAULT_MAX_CHAINS = 64;
/**
 * Starts the chain and the server; resolves once the server listens.
 *
 * @example
 * const rc = await startRingchain({ port: 0 })
 * const provider = new JsonRpcProvider(rc.httpUrl)
 */
export async function startRingchain(options = {}) {
    const { port, host, apiKeys, isolate, logger, server: serverOptions, record, ...ringchainOptions } = options;
    const { maxBatchLength, ...transport } = serverOptions ?? {};
    if (maxBatchLength !== undefined && (!Number.isSafeInteger(maxBatchLength) || maxBatchLength < 1)) {
        throw new RangeError(`maxBatchLength: expected a positive integer, got ${maxBatchLength}`);
    }
    const chainOptions = logger === undefined ? ringchainOptions : { ...ringchainOptions, logger };
    const key = apiKeys?.[0] ?? DEFAULT_API_KEY;
    const chains = new Chains(chainFactory(chainOptions), {
        ...(isolate === undefined || isolate === false ? { isolate: false } : { isolate: true, ...(isolate === true ? {} : isolate) }),
        ...(logger === undefined ? {} : { logger }),
    });
    const primary = await chains.open(key);
    const answering = dispatcherFor(chains, logger, maxBatchLength);
    const recorder = record === undefined ? undefined : (await import('./scenario/record.js')).wrapWithRecorder(answering, record, { chain: ringchainOptions });
    const dispatch = recorder?.dispatch ?? answering;
    let server;
    try {
        server = await startServer(logger?.debug === undefined ? dispatch : logRequests(dispatch, logger.debug.bind(logger)), {
            ...(logger === undefined ? {} : { logger }),
            ...transport,
            port: port ?? 8545,
            host: host ?? '127.0.0.1',
            ...(apiKeys === undefined ? {} : { apiKeys }),
        });
    }
    catch (e) {
        await chains.close();
        throw e;
    }
    const urls = server.urls(key);
    const session = inProcessSession(key);
    let closing;
    return {
        httpUrl: urls.httpUrl,
        wsUrl: urls.wsUrl,
        port: server.port,
        accounts: accountsOf(primary),
        get chain() {
            return chains.primary;
        },
        urls: (apiKey) => server.urls(apiKey),
        request: (args) => request(dispatch, session, args),
        close: () => (closing ??= Promise.all([server.close(), chains.close()]).then(() => recorder?.close())),
    };
}
/**
 * The chains of a simulator, by API key: one shared chain, or in isolate mode one per key. Creates
 * them on first use, refuses past the cap, drops idle ones, resets a key's chain, closes them all.
 */
class Chains {
    #create;
    #isolate;
    #maxChains;
    #idleTimeoutMs;
    #logger;
    #slots = new Map();
    #counted = new WeakSet();
    #primaryKey = '';
    #sweeper;
    #closed = false;
    constructor(create, options) {
        this.#create = create;
        this.#isolate = options.isolate;
        this.#maxChains = options.maxChains ?? DEFAULT_MAX_CHAINS;
        this.#idleTimeoutMs = options.idleTimeoutMs;
        this.#logger = options.logger;
        if (!Number.isSafeInteger(this.#maxChains) || this.#maxChains < 1)
            throw new RangeError(`maxChains: expected a positive integer, got ${this.#maxChains}`);
        const idle = this.#idleTimeoutMs;
        if (idle !== undefined && (!Number.isFinite(idle) || idle <= 0))
            throw new RangeError(`idleTimeoutMs: expected a positive number, got ${idle}`);
    }
    /** Creates the first key's chain (which also proves the options good); resolves to it. */
    async open(primaryKey) {
        this.#primaryKey = this.#slotKey(primaryKey);
        const chain = await this.#create();
        this.#slots.set(this.#primaryKey, { chain: Promise.resolve(chain), current: chain, lastUsed: Date.now(), sockets: 0, pinned: true });
        if (this.#isolate && this.#idleTimeoutMs !== undefined) {
            this.#sweeper = setInterval(() => this.#dropIdle(), Math.max(10, Math.min(this.#idleTimeoutMs / 2, 30_000)));
            // Dropping idle chains is housekeeping: it must never keep a closing process alive.
            this.#sweeper.unref();
        }
        return chain;
    }
    /** The first key's chain as it is now. */
    get primary() {
        const current = this.#slots.get(this.#primaryKey)?.current;
        if (current === undefined)
            throw new Error('the chain is being reset; use request() to wait for it');
        return current;
    }
    /** The `ChainFor` of the method registry. */
    chainFor = (ctx) => {
        const slot = this.#slotFor(ctx.session.apiKey);
        slot.lastUsed = Date.now();
        if (ctx.session.transport === 'ws' && !this.#counted.has(ctx.session)) {
            this.#counted.add(ctx.session);
            slot.sockets++;
            ctx.session.onClose(() => {
                slot.sockets--;
                slot.lastUsed = Date.now();
            });
        }
        return slot.current ?? slot.chain;
    };
    /** Replaces the chain of `apiKey` with a fresh one from the same options (`ringchain_reset`). */
    async reset(apiKey) {
        const slot = this.#slotFor(apiKey);
        const previous = slot.chain;
        slot.current = undefined;
        // Requests arriving meanwhile wait for the new chain rather than reach the one being replaced.
        slot.chain = previous.then(async (old) => {
            let fresh;
            try {
                fresh = await this.#create();
            }
            catch (e) {
                slot.current = old;
                slot.chain = Promise.resolve(old);
                throw e;
            }
            slot.current = fresh;
            await old.close();
            return fresh;
        });
        await slot.chain;
        if (this.#isolate)
            this.#logger?.info?.(`isolated chain reset (${this.#slots.size} of ${this.#maxChains} in use)`);
    }
    /** Stops every chain; idempotent. */
    async close() {
        this.#closed = true;
        if (this.#sweeper !== undefined)
            clearInterval(this.#sweeper);
        this.#sweeper = undefined;
        const all = [...this.#slots.values()].map((slot) => slot.chain.then((chain) => chain.close()).catch(() => { }));
        await Promise.all(all);
    }
    #slotKey(apiKey) {
        return this.#isolate ? apiKey : '';
    }
    #slotFor(apiKey) {
        const key = this.#slotKey(apiKey);
        const found = this.#slots.get(key);
        if (found !== undefined)
            return found;
        if (this.#closed)
            throw new Error('ringchain is closed');
        if (this.#slots.size >= this.#maxChains)
            this.#dropIdle();
        if (this.#slots.size >= this.#maxChains) {
            throw new LimitExceededError(`isolated chain limit reached: ${this.#maxChains} chains exist, one per API key; ` +
                'reuse a key, raise the cap (--max-chains, isolate.maxChains) or let idle chains go (--idle-timeout, isolate.idleTimeoutMs)', { data: { maxChains: this.#maxChains } });
        }
        const slot = { chain: this.#create(), current: undefined, lastUsed: Date.now(), sockets: 0, pinned: false };
        this.#slots.set(key, slot);
        slot.chain.then((chain) => {
            if (this.#slots.get(key) !== slot || this.#closed) {
                // Closed or dropped while it was being created.
                void chain.close();
                return;
            }
            slot.current = chain;
            this.#logger?.info?.(`isolated chain created (${this.#slots.size} of ${this.#maxChains} in use)`);
        }, () => {
            // The request that caused it gets the error; the next one tries again.
            if (this.#slots.get(key) === slot)
                this.#slots.delete(key);
        });
        return slot;
    }
    #dropIdle() {
        const timeout = this.#idleTimeoutMs;
        if (timeout === undefined)
            return;
        const now = Date.now();
        for (const [key, slot] of this.#slots) {
            if (slot.pinned || slot.sockets > 0 || slot.current === undefined || now - slot.lastUsed < timeout)
                continue;
            this.#slots.delete(key);
            void slot.current.close();
            this.#logger?.info?.(`idle isolated chain dropped (${this.#slots.size} of ${this.#maxChains} in use)`);
        }
    }
}
/** Creates chains from one set of options; an import is read from disk once, however many chains. */
function chainFactory(options) {
    const { import: source, ...chainOptions } = options;
    let loaded;
    return async () => {
        const withCrypto = { customCrypto: createCustomCrypto(), ...chainOptions };
        if (source === undefined)
            return Chain.create(withCrypto);
        loaded ??= loadImport(source);
        return importChain(await loaded, withCrypto);
    };
}
function dispatcherFor(chains, logger, maxBatchLength) {
    const methods = createMethods(chains.chainFor, {
        clientVersion: CLIENT_VERSION,
        reset: (ctx) => chains.reset(ctx.session.apiKey),
    });
    return createDispatcher(methods, {
        mapDomainError,
        ...(maxBatchLength === undefined ? {} : { maxBatchLength }),
        ...(logger === undefined ? {} : { logger: { error: (message, details) => logger.error(`${message}: ${describe(details.error)}`) } }),
    });
}
/** Wraps a dispatcher to log each request's transport, methods and time (never its key). */
function logRequests(dispatch, debug) {
    return async (body, session) => {
        const started = performance.now();
        const answer = await dispatch(body, session);
        debug(`${session.transport} ${methodsOf(body)} ${(performance.now() - started).toFixed(1)} ms`);
        return answer;
    };
}
function methodsOf(body) {
    try {
        const parsed = JSON.parse(body);
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        const names = calls.map((c) => (typeof c === 'object' && c !== null && typeof c.method === 'string' ? c.method : '?'));
        return Array.isArray(parsed) ? `[${names.join(', ')}]` : names.join('');
    }
    catch {
        return '(not JSON)';
    }
}
function describe(error) {
    return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
async function loadImport(source) {
    const genesis = typeof source.genesis === 'string' ? JSON.parse(await readFile(source.genesis, 'utf8')) : source.genesis;
    const blocks = typeof source.blocks === 'string' ? new Uint8Array(await readFile(source.blocks)) : source.blocks;
    return blocks === undefined ? { genesis } : { genesis, blocks };
}
function accountsOf(chain) {
    return chain.accounts.map((a) => ({ address: bytesToHex(a.address), privateKey: bytesToHex(a.privateKey) }));
}
// --- the in-process EIP-1193 request ----------------------------------------------------------
const IN_PROCESS_KEY = 'in-process';
function inProcessSession(apiKey) {
    return { transport: 'http', apiKey, send: () => { }, onClose: () => { }, closed: false };
}
let nextId = 1;
async function request(dispatch, session, args) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] });
    const answer = await dispatch(body, session);
    if (answer === undefined)
        return undefined;
    const parsed = JSON.parse(answer);
    if (parsed.error !== undefined)
        throw new RingchainRpcError(parsed.error.code, parsed.error.message, parsed.error.data);
    return parsed.result;
}
//# sourceMappingURL=simulator.js.map