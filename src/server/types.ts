// The contract between the transport (src/server/) and whoever answers JSON-RPC (src/rpc/).
// The server owns sockets, paths, keys and limits; the handler owns every JSON-RPC envelope.
// Nothing here knows about the chain: a handler is just "raw body in, raw body out" (a body may
// come with a status of its own, as a simulated provider's 429 does).

export interface Session {
  /** 'http' or 'ws' */
  readonly transport: 'http' | 'ws'
  /** The API key from the path (already authenticated). Never log it. */
  readonly apiKey: string
  /** Push an unsolicited message (subscription notification) to this client. Only on ws; a no-op on http. */
  send(message: string): void
  /** Register a callback run once when the client goes away (ws close) — used to drop subscriptions. On http it is never called. */
  onClose(callback: () => void): void
  /** True once the client is gone. */
  readonly closed: boolean
}

/**
 * An answer with an HTTP status of its own (a simulated provider's 429 with Retry-After, or its
 * 503). Over WebSocket only the body is sent: a socket has no status.
 */
export interface StatusAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** Whether a handler's answer carries its own status. */
export function isStatusAnswer(answer: unknown): answer is StatusAnswer {
  return typeof answer === 'object' && answer !== null && typeof (answer as StatusAnswer).status === 'number' && typeof (answer as StatusAnswer).body === 'string'
}

/** What a handler answers: a 200 body, nothing (204), or a body with its own status. */
export type HandlerAnswer = string | undefined | StatusAnswer

/** How long the WebSocket connections of an API key live (a simulated provider's drops); undefined: for ever. */
export type WsLifetimeOf = (apiKey: string) => { readonly dropAfterMessages?: number; readonly dropAfterSeconds?: number } | undefined

/** Gets the raw request body (a JSON-RPC request or batch, possibly invalid JSON) and returns the raw response body, or undefined when nothing is to be answered (notifications only). Must never throw for bad input (it builds JSON-RPC errors itself) — but the server must still survive if it does (answer -32603 generic). */
export type RpcHandler = (body: string, session: Session) => Promise<HandlerAnswer>

/** Where the server reports what it cannot tell a client: handler failures, refused limits. Never given an API key. */
export interface Logger {
  warn(message: string): void
  error(message: string): void
  /** Requests refused before any handler ran (keys, paths, methods); never with the path, which holds the key. */
  debug?(message: string): void
}
