/** Deterministic time: a fixed genesis timestamp and a fixed step per block. */
export interface DeterministicTime {
    readonly genesisTimestamp: bigint;
    readonly blockTime: bigint;
}
/** 2025-01-01T00:00:00Z: the genesis time of deterministic chains. */
export declare const DETERMINISTIC_GENESIS_TIMESTAMP = 1735689600n;
/**
 * The largest timestamp and time offset accepted: a header's time is a uint64 in geth. Without a
 * bound, one request could push timestamps past 2^256, which the beacon-roots contract cannot
 * store, and no block could ever be mined again.
 */
export declare const MAX_TIMESTAMP: bigint;
export interface ClockState {
    readonly offset: bigint;
    readonly next: bigint | undefined;
    /** Seconds between block timestamps, when fixed (anvil_setBlockTimestampInterval). */
    readonly interval: bigint | undefined;
}
export declare class Clock {
    #private;
    constructor(deterministic: DeterministicTime | undefined, now?: () => bigint);
    get deterministic(): boolean;
    genesisTimestamp(): bigint;
    /**
     * The timestamp of the block after one stamped `parent`. Consumes a timestamp set for it.
     * `interval` (else the one set with `setInterval`) spaces it from `parent` by that many seconds.
     */
    next(parent: bigint, interval?: bigint | undefined): bigint;
    /** Moves time forward by `seconds`; returns the total offset, as anvil and Hardhat do. */
    increaseTime(seconds: bigint): bigint;
    /** The next block gets exactly `timestamp`, which must be after `head`. */
    setNextTimestamp(timestamp: bigint, head: bigint): void;
    /**
     * Spaces every next block `seconds` after its parent (anvil's block timestamp interval), or, with
     * `undefined`, goes back to the clock. Returns whether an interval was set before.
     */
    setInterval(seconds: bigint | undefined): boolean;
    state(): ClockState;
    restore(state: ClockState): void;
}
