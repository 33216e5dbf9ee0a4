/** A JSON-RPC error envelope with a null id: what the transport answers when it has no request id to echo. */
export declare function errorEnvelope(code: number, message: string): string;
export declare const KEY_REQUIRED_BODY: string;
export declare const INVALID_KEY_BODY = "invalid project id";
export declare const INTERNAL_ERROR_BODY: string;
export declare const METHOD_NOT_ALLOWED_BODY: string;
export declare const UNSUPPORTED_TYPE_BODY: string;
export declare const NOT_FOUND_BODY = "not found";
export declare const UPGRADE_REQUIRED_BODY = "websocket upgrade required";
export declare const SHUTTING_DOWN_BODY = "server is shutting down";
/** Body of the 413 answer; `limit` is the configured byte limit. */
export declare function tooLargeBody(limit: number): string;
/** Answer to a request nesting arrays and objects deeper than `limit` (refused before parsing). */
export declare function tooDeepBody(limit: number): string;
/** Body of the 503 given on a connection over the limit; -32005 is EIP-1474's "limit exceeded". */
export declare function tooManyConnectionsBody(limit: number): string;
/**
 * A complete HTTP/1.1 response to write on a raw socket, for refusing a WebSocket upgrade before
 * the handshake (no ServerResponse exists then).
 */
export declare function rawResponse(status: number, reason: string, contentType: string, body: string): string;
