import type { Dispatch } from '../rpc/dispatcher.js';
/** Methods that change the chain, as a replay must repeat them. Reads are left out. */
export declare const STATE_CHANGING_METHODS: ReadonlySet<string>;
/** The chain options worth writing into the recording's `chain:` (the shape of ringchain's `ChainOptions`). */
export interface RecordedChainOptions {
    readonly chainId?: bigint;
    readonly hardfork?: string;
    readonly accounts?: number;
    readonly balance?: bigint;
    readonly mnemonic?: string;
    readonly blockGasLimit?: bigint;
    readonly baseFee?: bigint;
    readonly window?: number;
    readonly safeLag?: number;
    readonly finalizedLag?: number;
    readonly mining?: {
        readonly mode: 'auto';
    } | {
        readonly mode: 'manual';
    } | {
        readonly mode: 'interval';
        readonly blockTimeMs: number;
    };
    readonly deterministic?: boolean | {
        readonly genesisTimestamp?: bigint;
        readonly blockTime?: bigint;
    };
}
export interface RecorderOptions {
    /** The served chain's options: a replay starts from the same genesis. */
    readonly chain?: RecordedChainOptions;
    /** The scenario's name. Default: `recorded <ISO time>`. */
    readonly name?: string;
}
/** A dispatcher that records, and the way to finish the file. */
export interface Recorder {
    /** Answers exactly as the wrapped dispatcher does, and records the state-changing requests. */
    readonly dispatch: Dispatch;
    /** Resolves once every request answered so far is written. Idempotent. */
    close(): Promise<void>;
}
/**
 * Wraps `dispatch` so that the state-changing requests it answers are written to `path` as a
 * scenario (the file is created, or replaced, at once).
 *
 * @example
 * const recorder = wrapWithRecorder(dispatch, 'bug.yaml', { chain: options })
 * const server = await startServer(recorder.dispatch, { port: 0 })
 * // …
 * await server.close()
 * await recorder.close()
 */
export declare function wrapWithRecorder(dispatch: Dispatch, path: string, options?: RecorderOptions): Recorder;
