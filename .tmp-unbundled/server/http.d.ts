import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeys } from './api-keys.js';
import { type ConnectionLimit } from './limits.js';
import type { Logger, RpcHandler } from './types.js';
/** The limits HttpEndpoint enforces; server.ts checks and defaults them. */
export interface HttpLimits {
    readonly maxBodyBytes: number;
    readonly maxJsonDepth: number;
    readonly connections: ConnectionLimit;
}
/** Serves JSON-RPC over HTTP POST; hand `onRequest` and `onCheckContinue` to a node:http server. */
export declare class HttpEndpoint {
    #private;
    constructor(handler: RpcHandler, keys: ApiKeys, limits: HttpLimits, logger: Logger);
    /** The server's 'request' listener. */
    readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
    /**
     * The server's 'checkContinue' listener: a client that sent `Expect: 100-continue` (curl does
     * for large bodies) is refused before it uploads anything, and told to go on otherwise.
     */
    readonly onCheckContinue: (req: IncomingMessage, res: ServerResponse) => void;
    /** From now on every response closes its connection, so a shutting-down server is left idle. */
    drain(): void;
}
