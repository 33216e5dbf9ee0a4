import { type Common, type GethGenesis } from '@ethereumjs/common';
import { Chain, type ChainOptions } from './chain.js';
import { ChainError } from './errors.js';
export type { GethGenesis } from '@ethereumjs/common';
/** What to import: a parsed geth genesis and, optionally, the RLP-encoded blocks after it. */
export interface ChainImport {
    /** A geth genesis (`geth init` format): chain id, forks, blob schedule, alloc. */
    readonly genesis: GethGenesis;
    /** Concatenated RLP blocks (`geth export` format), oldest first, starting at block 1. */
    readonly blocks?: Uint8Array;
}
/** The import stopped at a block that is not valid on top of its parent. */
export declare class ImportError extends ChainError {
    readonly block: bigint;
    readonly field: string;
    name: string;
    constructor(block: bigint, field: string, detail: string, options?: {
        cause?: unknown;
    });
}
/**
 * Builds a chain from a geth genesis and replays `blocks` on it, verifying each one; the last block
 * becomes the head. Unless `options` say otherwise, the head is also safe and finalized, nothing
 * is mined until asked (manual mining), new blocks keep the head's gas limit and follow the head's
 * timestamp 12 s apart (`deterministic: false` takes the wall clock instead), and there are no
 * dev accounts (`accounts` or `mnemonic` derive some, unfunded unless the genesis funds them).
 * `chainId`, `hardfork`, `baseFee` and `balance` come from the genesis: those options are ignored.
 *
 * @example
 * const chain = await importChain({ genesis: JSON.parse(genesisJson), blocks: rlpBytes }, { customCrypto })
 */
export declare function importChain(source: ChainImport, options?: ChainOptions): Promise<Chain>;
/**
 * The fork rules of a geth genesis, starting at block 0: the hardfork then follows each block.
 * ethereumjs 10.1.3 reads the BPO entries of `blobSchedule` into parameters its blob gas schedule
 * does not read, so they are also given as the BPO forks' own `target`/`max`/update fraction.
 */
export declare function createImportCommon(genesis: GethGenesis, customCrypto?: ChainOptions['customCrypto']): Common;
