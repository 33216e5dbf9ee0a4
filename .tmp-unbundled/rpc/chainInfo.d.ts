/**
 * What the node says about its chain: `eth_config` (EIP-7910 fork configuration),
 * `eth_capabilities` (which blocks' data it serves) and `eth_baseFee` (the next block's base fee).
 *
 * Owns: their wire shapes. Leaves the fork rules and fork ids to `src/chain/forkConfig.ts`, the
 * window and base fees to `src/chain/chain.ts`.
 */
import type { Chain } from '../chain/chain.js';
import { type MethodSpec, type RpcContext } from './dispatcher.js';
type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
/**
 * `eth_config`: the current fork's configuration and, when one is scheduled, the next and the last
 * one's (else `null`), as geth builds them. Before Shanghai `current` is `null`, as in geth.
 *
 * @example
 * // → { current: { activationTime: 540, blobSchedule: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
 * //     chainId: '0xc72dd9d5e883e', forkId: '0xe272ecbe', precompiles: {…}, systemContracts: {…} }, next: null, last: null }
 */
export declare function configMethod(chainFor: ChainFor): MethodSpec;
/**
 * `eth_capabilities`: the head, and for every kind of data (state, transactions, logs, receipts,
 * blocks, state proofs) the oldest block served and the window that keeps it, since everything a
 * block owns leaves ringchain with the block.
 *
 * @example
 * // → { head: { number: '0x36', hash }, state: { disabled: false, oldestBlock: '0x0',
 * //     deleteStrategy: { type: 'window', retentionBlocks: '0x80' } }, tx: {…}, …, stateproofs: {…} }
 */
export declare function capabilitiesMethod(chainFor: ChainFor): MethodSpec;
/** `eth_baseFee`: the base fee per gas of the next block; `null` before London. */
export declare function baseFeeMethod(chainFor: ChainFor): MethodSpec;
export {};
