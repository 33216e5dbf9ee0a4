import type { DomainErrorMapper, RpcError } from './errors.js';
import type { DecodedParams, Param } from './params.js';
/**
 * The client connection a request came on, as far as handlers need it. The server's `Session`
 * satisfies it structurally; rpc does not import the server.
 */
export interface RpcSession {
    readonly transport: 'http' | 'ws';
    /** Already authenticated. Never log it. */
    readonly apiKey: string;
    /** Pushes a message to the client (subscriptions; a no-op on http). */
    send(message: string): void;
    /** Runs `callback` once when the client goes away (never on http). */
    onClose(callback: () => void): void;
    readonly closed: boolean;
}
/** What a handler gets besides its params. */
export interface RpcContext {
    readonly session: RpcSession;
    /** The wire method name (an alias's own name, not its target's). */
    readonly method: string;
}
/**
 * A result that is already JSON text (the chain caches the JSON of immutable receipts and
 * transactions): the dispatcher splices it into the envelope as it is.
 */
export declare class RawJson {
    readonly json: string;
    constructor(json: string);
}
/** Many cached JSON values as one JSON array. */
export declare function rawJsonArray(items: readonly RawJson[]): RawJson;
/**
 * One method: its positional params and its handler, which returns the bare result (a
 * JSON-serializable value, `RawJson`, or a promise of either; `undefined` is sent as `null`).
 */
export interface MethodSpec<P extends readonly Param<unknown>[] = readonly Param<unknown>[]> {
    readonly params: P;
    handler(params: DecodedParams<P>, ctx: RpcContext): unknown;
}
/** The method table, keyed by wire name. Aliases are entries of their own. */
export type Registry = Readonly<Record<string, MethodSpec>>;
/** The wire method names of a registry. */
export type MethodName<R extends Registry> = keyof R & string;
/**
 * A method whose handler's params are typed from its decoders.
 *
 * @example
 * const eth_getStorageAt = defineMethod(
 *   [address, storageSlot, optional(blockParam, LATEST)],
 *   ([owner, slot, block]) => chain.storageAt(owner, slot, block),
 * )
 */
export declare function defineMethod<const P extends readonly Param<unknown>[]>(params: P, handler: (params: DecodedParams<P>, ctx: RpcContext) => unknown): MethodSpec<P>;
/** A request id as echoed: JSON-RPC allows a string, a number or null. */
export type RpcId = string | number | null;
/** A success envelope. */
export declare function resultResponse(id: RpcId, result: unknown): string;
/** An error envelope. */
export declare function errorResponse(id: RpcId, error: RpcError): string;
/** An `eth_subscription` notification, pushed through `RpcSession.send`. */
export declare function subscriptionNotification(subscription: string, result: unknown): string;
/** Where internal failures are reported; the client only ever sees `internal error`. */
export interface RpcLogger {
    error(message: string, details: {
        readonly method: string | undefined;
        readonly error: unknown;
    }): void;
}
export interface DispatcherOptions {
    /** Gets the detail of every -32603. Default: `console.error`. */
    readonly logger?: RpcLogger;
    /** Longest batch served (default 1000); a longer one is refused whole with -32600 `batch too large`. */
    readonly maxBatchLength?: number;
    /** Gives the chain's domain errors their RPC errors (see `toRpcError`). */
    readonly mapDomainError?: DomainErrorMapper;
}
/** Answers a raw body; `undefined` when there is nothing to answer (notifications only). Never throws. */
export type Dispatch = (body: string, session: RpcSession) => Promise<string | undefined>;
/**
 * The dispatcher for a method table.
 *
 * Batch items run one after another, in order, as geth runs them: a batch of
 * `[eth_sendRawTransaction, eth_getTransactionByHash]` sees its own transaction.
 *
 * @example
 * const dispatch = createDispatcher(methods, { mapDomainError })
 * await dispatch('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', session)
 */
export declare function createDispatcher(methods: Registry, options?: DispatcherOptions): Dispatch;
