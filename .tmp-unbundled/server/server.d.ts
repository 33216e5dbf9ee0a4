import type { Logger, RpcHandler } from './types.js';
/** Settings of `startServer`; every one has a default. */
export interface ServerOptions {
    /** Address to bind. Default `127.0.0.1` (never all interfaces unless asked). */
    host?: string | undefined;
    /** Port to bind; 0 (the default) picks a free one, given back by `startServer`. */
    port?: number | undefined;
    /** Accepted API keys. Empty or absent: any non-empty key is accepted. */
    apiKeys?: readonly string[] | undefined;
    /** Largest HTTP request body, in bytes; larger ones get 413. Default 5 MiB. */
    maxBodyBytes?: number | undefined;
    /** Largest WebSocket message, in bytes; a larger one closes the connection with 1009. Default 5 MiB. */
    maxWsMessageBytes?: number | undefined;
    /**
     * Deepest nesting of arrays and objects in a request (HTTP body or WebSocket message); a deeper
     * one is answered -32600 without being parsed. Default 64.
     */
    maxJsonDepth?: number | undefined;
    /**
     * Time allowed to receive a request's headers, counted from the connection's start or its last
     * request: a client that connects and sends nothing, or half the headers, is cut off (408).
     * Default 10 s.
     */
    headersTimeoutMs?: number | undefined;
    /** Time allowed to receive a whole request, body included (408 after it). Default 30 s. */
    requestTimeoutMs?: number | undefined;
    /** How long an idle keep-alive connection stays open. Default Node's, 5 s. */
    keepAliveTimeoutMs?: number | undefined;
    /**
     * Most simultaneous connections (HTTP and WebSocket together). Those over it get 503 with
     * JSON-RPC error -32005 on their first request (or upgrade) and are closed; past twice the limit
     * (at least 16 more) they are dropped unanswered. Default 1,000.
     */
    maxConnections?: number | undefined;
    /**
     * WebSocket heartbeat: every client is pinged this often, and one that has not answered the
     * previous ping (nor sent anything) is dropped. 0 turns it off. Default 30 s.
     */
    wsPingIntervalMs?: number | undefined;
    /**
     * Most bytes queued for one WebSocket client that does not read (a stalled subscriber); past it
     * the client is dropped. Default 16 MiB.
     */
    maxWsBufferedBytes?: number | undefined;
    /** How long `close()` lets in-flight requests and closing WebSocket clients finish before cutting them. Default 2 s. */
    shutdownGraceMs?: number | undefined;
    /** Where warnings and errors go. Default: stderr. */
    logger?: Logger | undefined;
}
/** A listening server, as `startServer` resolves it. */
export interface RunningServer {
    /** The bound port (the real one when 0 was asked for). */
    readonly port: number;
    /** The bound address. */
    readonly host: string;
    /** `http://HOST:PORT`, with a wildcard bind address replaced by loopback so that it can be connected to. */
    readonly httpBase: string;
    /** `ws://HOST:PORT`, likewise. */
    readonly wsBase: string;
    /** The endpoint URLs for an API key (percent-encoded into the path). */
    urls(apiKey: string): {
        httpUrl: string;
        wsUrl: string;
    };
    /** Stops accepting, ends WebSocket clients (1001) and idle connections, lets in-flight requests finish within the grace period. Idempotent. */
    close(): Promise<void>;
}
/**
 * Serves `handler` over HTTP and WebSocket on one port; resolves once it really listens.
 * @example
 * const server = await startServer(handle, { apiKeys: ['test'] })
 * const { httpUrl } = server.urls('test') // http://127.0.0.1:PORT/v3/test
 * await server.close()
 */
export declare function startServer(handler: RpcHandler, options?: ServerOptions): Promise<RunningServer>;
