import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiKeys } from './api-keys.js';
import { type ConnectionLimit } from './limits.js';
import type { Logger, RpcHandler } from './types.js';
/** The limits WebSocketEndpoint enforces; server.ts checks and defaults them. */
export interface WebSocketLimits {
    readonly maxMessageBytes: number;
    readonly maxJsonDepth: number;
    /** Most bytes queued for one client before it is dropped as not reading. */
    readonly maxBufferedBytes: number;
    /** Ping period; a client that has not answered the previous ping is dropped. 0: no heartbeat. */
    readonly pingIntervalMs: number;
    readonly connections: ConnectionLimit;
}
/** Serves JSON-RPC over WebSocket; hand `onUpgrade` to a node:http server's 'upgrade' event. */
export declare class WebSocketEndpoint {
    #private;
    constructor(handler: RpcHandler, keys: ApiKeys, limits: WebSocketLimits, logger: Logger);
    /** How many WebSocket clients are connected. */
    get size(): number;
    /** The server's 'upgrade' listener. */
    readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
    /** Refuses new clients and asks every connected one to go (1001); resolves once all are gone. */
    drain(): Promise<void>;
    /** Drops every remaining client at once (clients that did not answer the close in time). */
    terminate(): void;
}
