// The fixed answers the transport gives on its own, without the handler: auth refusals, limits,
// routing misses and the generic -32603 for a handler that threw. Written once at load time so
// the hot path never builds them. Every JSON-RPC envelope for a real request is the handler's job.

/** A JSON-RPC error envelope with a null id: what the transport answers when it has no request id to echo. */
export function errorEnvelope(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })
}

// Both refusals speak of the "API key", as the README and the CLI do, and both are JSON-RPC
// envelopes, so a client that parses every answer reads why it was refused.
export const KEY_REQUIRED_BODY = errorEnvelope(-32600, 'API key required: the path is /v3/<API key> (WebSocket: /ws/v3/<API key>)')
export const INVALID_KEY_BODY = errorEnvelope(-32600, 'invalid API key')
export const INTERNAL_ERROR_BODY = errorEnvelope(-32603, 'internal error')
export const METHOD_NOT_ALLOWED_BODY = errorEnvelope(-32600, 'method not allowed: send JSON-RPC with POST')
export const INSPECTOR_METHOD_NOT_ALLOWED_BODY = errorEnvelope(-32600, 'method not allowed: the inspector is served on GET')
export const INSPECTOR_NOT_FOUND_BODY = errorEnvelope(-32600, 'not found: the inspector serves /inspector/<API key> and its views /pool, /tx/<hash>, /block/<n>, /address/<address>')
export const INSPECTOR_NOT_BUILT_BODY = errorEnvelope(-32600, 'not found: the inspector page is not built (run `npm run build`)')
export const UNSUPPORTED_TYPE_BODY = errorEnvelope(-32600, 'invalid content type, only application/json is supported')
export const NOT_FOUND_BODY = errorEnvelope(-32600, 'not found: JSON-RPC is served on POST /v3/<API key> and WebSocket /ws/v3/<API key>')
export const UPGRADE_REQUIRED_BODY = errorEnvelope(-32600, 'websocket upgrade required')
export const SHUTTING_DOWN_BODY = errorEnvelope(-32000, 'server is shutting down')

/** Body of the 413 answer; `limit` is the configured byte limit. */
export function tooLargeBody(limit: number): string {
  return errorEnvelope(-32600, `request body too large: limit ${limit} bytes`)
}

/** Answer to a request nesting arrays and objects deeper than `limit` (refused before parsing). */
export function tooDeepBody(limit: number): string {
  return errorEnvelope(-32600, `request nested too deeply: limit ${limit} levels of arrays and objects`)
}

/** Body of the 503 given on a connection over the limit; -32005 is EIP-1474's "limit exceeded". */
export function tooManyConnectionsBody(limit: number): string {
  return errorEnvelope(-32005, `too many connections: limit ${limit}; close idle clients or raise maxConnections`)
}

/**
 * A complete HTTP/1.1 response to write on a raw socket, for refusing a WebSocket upgrade before
 * the handshake (no ServerResponse exists then).
 */
export function rawResponse(status: number, reason: string, contentType: string, body: string): string {
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    'Connection: close\r\n' +
    'Access-Control-Allow-Origin: *\r\n' +
    `Content-Type: ${contentType}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    '\r\n' +
    body
  )
}
