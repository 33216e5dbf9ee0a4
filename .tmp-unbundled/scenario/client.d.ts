/**
 * How a scenario talks to a node: JSON-RPC and nothing else, so the same file plays on a fresh
 * embedded ringchain (its in-process EIP-1193 `request`) or on any node over HTTP (`--rpc`).
 *
 * Owns: the request function a scenario uses, its error (`RpcCallError`: code, message, data),
 * and the HTTP transport. Leaves what is asked to the steps.
 */
/** A JSON-RPC error answer, as a scenario sees it. */
export declare class RpcCallError extends Error {
    readonly code: number;
    readonly data?: unknown | undefined;
    name: string;
    constructor(code: number, message: string, data?: unknown | undefined);
}
/** The one thing a scenario needs from a node. */
export interface Client {
    /** Sends `method` with positional `params`; rejects with `RpcCallError` on an error answer. */
    request(method: string, params?: readonly unknown[]): Promise<unknown>;
    /** What the scenario plays against, for reports: `embedded` or the URL. */
    readonly target: string;
}
/** An EIP-1193 `request` (ringchain's in-process one, or any provider's). */
export type Eip1193Request = (args: {
    method: string;
    params?: readonly unknown[];
}) => Promise<unknown>;
/** A client over an EIP-1193 `request`; errors carrying a numeric `code` become `RpcCallError`. */
export declare function eip1193Client(request: Eip1193Request, target: string): Client;
/** A client that POSTs JSON-RPC to `url`. */
export declare function httpClient(url: string): Client;
/** Calls `method`, and on `-32601` (not served) the next alias: `anvil_mine`, then `hardhat_mine`. */
export declare function requestFirstServed(client: Client, methods: readonly string[], params: readonly unknown[]): Promise<{
    method: string;
    result: unknown;
}>;
