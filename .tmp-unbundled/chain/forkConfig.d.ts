import { type Common } from '@ethereumjs/common';
/** One fork's configuration. */
export interface ForkConfig {
    /** Unix time the fork activates; 0 when active from genesis. */
    readonly activationTime: bigint;
    /** Blob target, maximum (blobs per block) and base-fee update fraction; undefined before Cancun. */
    readonly blobSchedule: {
        readonly target: number;
        readonly max: number;
        readonly baseFeeUpdateFraction: number;
    } | undefined;
    readonly chainId: bigint;
    /** EIP-2124 fork hash with this fork active (4 bytes). */
    readonly forkId: Uint8Array;
    /** Precompile addresses by geth's names. */
    readonly precompiles: ReadonlyMap<string, Uint8Array>;
    /** System contract addresses by EIP-7910's names. */
    readonly systemContracts: ReadonlyMap<string, Uint8Array>;
}
/** The current, next and last configured forks (`next` and `last` undefined when none is scheduled). */
export interface ForkConfigs {
    readonly current: ForkConfig | undefined;
    readonly next: ForkConfig | undefined;
    readonly last: ForkConfig | undefined;
}
/** The genesis block facts a fork id starts from. */
export interface GenesisFacts {
    readonly hash: Uint8Array;
    readonly timestamp: bigint;
}
/**
 * The EIP-7910 configuration of a chain whose head has timestamp `headTime`, as geth's `eth_config`
 * assembles it: current = the newest timestamp fork active at `headTime`, next = the fork after it
 * in geth's order (undefined if not scheduled), last = the newest scheduled fork (undefined when
 * there is no next).
 */
export declare function forkConfigs(common: Common, genesis: GenesisFacts, headTime: bigint): ForkConfigs;
