import type { Socket } from 'node:net';
import type { Logger } from './types.js';
/**
 * True when `text` opens more than `limit` arrays or objects inside one another (outside strings).
 * One pass, no allocation; strings are skipped with `indexOf`, so hex payloads cost next to
 * nothing. Text that is not JSON is not judged here: JSON.parse answers it.
 * @example nestingExceeds('[[1]]', 1) // true
 */
export declare function nestingExceeds(text: string, limit: number): boolean;
/**
 * Counts open connections (HTTP and WebSocket alike, as sockets). Up to `limit` are served; the
 * ones over it are answered 503 on their first request and closed; past `hardLimit` node:http
 * drops them before they cost more than the accept (`server.maxConnections`).
 */
export declare class ConnectionLimit {
    #private;
    readonly limit: number;
    readonly hardLimit: number;
    constructor(limit: number, logger: Logger);
    /** Connections open right now, refused ones that are still closing included. */
    get open(): number;
    /** The server's 'connection' listener. */
    readonly onConnection: (socket: Socket) => void;
    /** The server's 'drop' listener (a connection past the hard limit, closed by node:net). */
    readonly onDrop: () => void;
    /** True when requests on this socket are to be refused with 503. */
    refuses(socket: object): boolean;
}
