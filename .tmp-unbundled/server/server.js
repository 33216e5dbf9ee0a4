// Starts and stops the transport: one node:http server on one port, HTTP requests going to
// http.ts and upgrades to websocket.ts, both feeding the same RpcHandler. Owns the options and
// their defaults (every limit of the transport is one of them), listening (resolves only once
// bound) and shutdown (idempotent, bounded by a grace period, no leftover handles). Knows nothing
// of the chain or of JSON-RPC methods: it is handed a handler.
import { createServer } from 'node:http';
import { ApiKeys } from './api-keys.js';
import { HttpEndpoint } from './http.js';
import { ConnectionLimit } from './limits.js';
import { describeError, stderrLogger } from './log.js';
import { WebSocketEndpoint } from './websocket.js';
const MIB = 1024 * 1024;
/**
 * Serves `handler` over HTTP and WebSocket on one port; resolves once it really listens.
 * @example
 * const server = await startServer(handle, { apiKeys: ['test'] })
 * const { httpUrl } = server.urls('test') // http://127.0.0.1:PORT/v3/test
 * await server.close()
 */
export async function startServer(handler, options = {}) {
    const host = options.host ?? '127.0.0.1';
    const port = options.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new RangeError(`port: expected an integer in 0..65535, got ${port}`);
    const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, 5 * MIB);
    const maxWsMessageBytes = positive('maxWsMessageBytes', options.maxWsMessageBytes, 5 * MIB);
    const maxJsonDepth = positive('maxJsonDepth', options.maxJsonDepth, 64);
    const graceMs = nonNegative('shutdownGraceMs', options.shutdownGraceMs, 2_000);
    const logger = options.logger ?? stderrLogger;
    const keys = new ApiKeys(options.apiKeys);
    const connections = new ConnectionLimit(positive('maxConnections', options.maxConnections, 1_000), logger);
    const http = new HttpEndpoint(handler, keys, { maxBodyBytes, maxJsonDepth, connections }, logger);
    const ws = new WebSocketEndpoint(handler, keys, {
        maxMessageBytes: maxWsMessageBytes,
        maxJsonDepth,
        maxBufferedBytes: positive('maxWsBufferedBytes', options.maxWsBufferedBytes, 16 * MIB),
        pingIntervalMs: nonNegative('wsPingIntervalMs', options.wsPingIntervalMs, 30_000),
        connections,
    }, logger);
    const server = createServer(nodeServerOptions(options), http.onRequest);
    server.on('checkContinue', http.onCheckContinue);
    server.on('upgrade', ws.onUpgrade);
    // Counted before node:http reads a byte, so that requests on a connection over the limit are refused.
    server.on('connection', connections.onConnection);
    server.on('drop', connections.onDrop);
    server.maxConnections = connections.hardLimit;
    await listen(server, host, port);
    // Past listening, a server error (e.g. EMFILE on accept) is worth a line, not a crash.
    server.on('error', (error) => logger.error(`server error: ${describeError(error)}`));
    return new Listening(server, http, ws, graceMs);
}
class Listening {
    port;
    host;
    httpBase;
    wsBase;
    #server;
    #http;
    #ws;
    #graceMs;
    #closing;
    constructor(server, http, ws, graceMs) {
        this.#server = server;
        this.#http = http;
        this.#ws = ws;
        this.#graceMs = graceMs;
        const address = server.address();
        this.port = address.port;
        this.host = address.address;
        const authority = `${connectableHost(address.address)}:${address.port}`;
        this.httpBase = `http://${authority}`;
        this.wsBase = `ws://${authority}`;
    }
    urls(apiKey) {
        const key = encodeURIComponent(apiKey);
        return { httpUrl: `${this.httpBase}/v3/${key}`, wsUrl: `${this.wsBase}/ws/v3/${key}` };
    }
    close() {
        this.#closing ??= this.#shutdown();
        return this.#closing;
    }
    #shutdown() {
        this.#http.drain();
        // server.close stops accepting and calls back once every connection, upgraded ones included,
        // is gone; the idle keep-alive ones are closed right away rather than at their timeout.
        const connectionsGone = new Promise((resolve) => this.#server.close(() => resolve()));
        this.#server.closeIdleConnections();
        const clientsGone = this.#ws.drain();
        const grace = setTimeout(() => {
            this.#server.closeAllConnections();
            this.#ws.terminate();
        }, this.#graceMs);
        // The connections still open keep the process alive until the timer fires; the timer alone
        // must not, should the caller stop waiting for close().
        grace.unref();
        return Promise.all([connectionsGone, clientsGone]).then(() => clearTimeout(grace));
    }
}
function listen(server, host, port) {
    return new Promise((resolve, reject) => {
        const onError = (error) => {
            server.off('listening', onListening);
            reject(error);
        };
        const onListening = () => {
            server.off('error', onError);
            resolve();
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen({ host, port });
    });
}
function nodeServerOptions(options) {
    const result = { noDelay: true };
    // Node's own defaults (60 s for headers, 300 s for the request) let a client that sends half a
    // request hold a connection, and with it a place under maxConnections, for minutes.
    const requestTimeout = nonNegative('requestTimeoutMs', options.requestTimeoutMs, 30_000);
    // node:http refuses a headers timeout longer than the request timeout (0 means none).
    const headersDefault = requestTimeout === 0 ? 10_000 : Math.min(10_000, requestTimeout);
    result.requestTimeout = requestTimeout;
    result.headersTimeout = nonNegative('headersTimeoutMs', options.headersTimeoutMs, headersDefault);
    if (options.keepAliveTimeoutMs !== undefined)
        result.keepAliveTimeout = nonNegative('keepAliveTimeoutMs', options.keepAliveTimeoutMs, 0);
    // Node checks the two request timeouts only every 30 s by default: a 1 s timeout would
    // otherwise fire up to 30 s late. (Its checking timer is unref'd and cleared on close.)
    const shortest = Math.min(result.headersTimeout || Infinity, result.requestTimeout || Infinity);
    if (shortest < 60_000)
        result.connectionsCheckingInterval = Math.max(50, Math.floor(shortest / 4));
    return result;
}
function connectableHost(address) {
    if (address === '0.0.0.0')
        return '127.0.0.1';
    if (address === '::')
        return '[::1]';
    return address.includes(':') ? `[${address}]` : address;
}
function positive(name, value, fallback) {
    if (value === undefined)
        return fallback;
    if (!Number.isSafeInteger(value) || value <= 0)
        throw new RangeError(`${name}: expected a positive integer, got ${value}`);
    return value;
}
function nonNegative(name, value, fallback) {
    if (value === undefined)
        return fallback;
    if (!Number.isFinite(value) || value < 0)
        throw new RangeError(`${name}: expected a non-negative number, got ${value}`);
    return value;
}
//# sourceMappingURL=server.js.map