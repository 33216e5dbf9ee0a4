import type { Chain } from '../chain/chain.js';
import { type MethodSpec, type RpcContext } from './dispatcher.js';
type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
/**
 * `eth_createAccessList(call, block = latest)`.
 *
 * @example
 * // { from, to, input } → { accessList: [{ address, storageKeys: ['0x00…00'] }], gasUsed: '0xca3c' }
 * // a reverting call     → { accessList: [...], error: 'execution reverted', gasUsed: '0x639d' }
 */
export declare function createAccessListMethod(chainFor: ChainFor): MethodSpec;
export {};
