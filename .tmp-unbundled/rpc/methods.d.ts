import type { Chain } from '../chain/chain.js';
import { type Registry, type RpcContext } from './dispatcher.js';
import { type RpcError } from './errors.js';
/** Picks the chain a request is about (one per API key in isolate mode). */
export type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
export interface MethodsOptions {
    /** web3_clientVersion. */
    clientVersion: string;
    /** Changes at every start (anvil_metadata's instanceId). */
    instanceId?: string;
    /**
     * Replaces the caller's chain with a fresh one from the same options (`ringchain_reset`,
     * `anvil_reset`, `hardhat_reset`). Without it those methods answer -32000.
     */
    reset?: (ctx: RpcContext) => Promise<void>;
}
/** Maps the chain's domain errors to JSON-RPC errors: the one place that gives them codes. */
export declare function mapDomainError(error: unknown): RpcError | undefined;
/** Builds the registry over `chainFor`. */
export declare function createMethods(chainFor: ChainFor, options: MethodsOptions): Registry;
