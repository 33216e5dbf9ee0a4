import type { Chain } from '../chain/chain.js';
import { type MethodSpec, type RpcContext } from './dispatcher.js';
type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
/** geth's cap on the slots of one `eth_getStorageValues` request. */
export declare const MAX_STORAGE_VALUES = 1024;
/**
 * `eth_getProof(address, storageKeys, block = latest)`: the account's fields with the account-trie
 * nodes that prove them, and each slot's value with its storage-trie nodes. Any block of the
 * window can be proven, and `pending`.
 *
 * @example
 * // → { address, accountProof: ['0xf90211…', …], balance, codeHash, nonce, storageHash,
 * //     storageProof: [{ key: '0x0', value: '0x38', proof: [ … ] }] }
 */
export declare function getProofMethod(chainFor: ChainFor): MethodSpec;
/**
 * `eth_getStorageValues({ address: [slot, …], … }, block = latest)`: each slot's 32-byte value,
 * keyed and ordered as the request. At most 1024 slots in all (-38026); none at all is
 * `empty request` (-32602).
 *
 * @example
 * // { '0x7dcd…': ['0x00…00'] } → { '0x7dcd…': ['0x00…0038'] }
 */
export declare function getStorageValuesMethod(chainFor: ChainFor): MethodSpec;
export {};
