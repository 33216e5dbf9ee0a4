import { type RequestArguments } from './eip1193.js';
import type { AccountInfo } from './simulator.js';
/** What the global setup hands to every worker. */
export interface RingchainProvided {
    /** `http://127.0.0.1:PORT/v3/`: append an API key. */
    readonly httpBase: string;
    /** `ws://127.0.0.1:PORT/ws/v3/`: append an API key. */
    readonly wsBase: string;
    readonly chainId: number;
    readonly accounts: readonly AccountInfo[];
}
declare module 'vitest' {
    interface ProvidedContext {
        ringchain: RingchainProvided;
    }
}
/** A worker's own chain: its key, its URLs, and an EIP-1193 `request` over HTTP. */
export interface WorkerChain {
    /** `vitest-<VITEST_POOL_ID>`: the chain is this worker's alone. */
    readonly apiKey: string;
    readonly httpUrl: string;
    readonly wsUrl: string;
    readonly chainId: number;
    readonly accounts: readonly AccountInfo[];
    /** EIP-1193 request (viem's `custom` transport takes it); rejects with `RingchainRpcError`. */
    request(args: RequestArguments): Promise<unknown>;
}
/** This worker's chain (call it inside a test or hook). */
export declare function workerChain(): WorkerChain;
/** vitest's `test` with a `ringchain` fixture: the worker's chain, snapshotted before the test and reverted after it. */
export declare const test: import("vitest").TestAPI<{
    ringchain: WorkerChain;
}>;
