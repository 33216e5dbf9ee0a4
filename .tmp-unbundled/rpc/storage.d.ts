import type { Chain } from '../chain/chain.js';
import type { SlotDerivation } from '../chain/preimages.js';
import { type MethodSpec, type RpcContext } from './dispatcher.js';
type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
/**
 * `ringchain_storageLayout(address, block = latest)`: every non-zero slot of the account at the block.
 *
 * @example
 * // → { address, blockNumber, blockHash, slots: [{ slot, value, path: '0[0xf39f…]', derivation }] }
 */
export declare function storageLayoutMethod(chainFor: ChainFor): MethodSpec;
/**
 * `ringchain_storageDiff(target, address?)`: the storage changes of a transaction (by hash) or of a
 * block (number, tag or hash), optionally of one account only.
 */
export declare function storageDiffMethod(chainFor: ChainFor): MethodSpec;
/**
 * A derivation as text: the root slot (decimal; hex when large), `[key]` per mapping entry (a 32-byte key as a
 * number in hex; a string/bytes key as a quoted string when printable, else `hex"…"`),
 * `keccak(…)` for the data of a dynamic value, `+n` for an offset.
 *
 * @example formatPath({ root: 1n, steps: [{ kind: 'mapping', key: owner }, { kind: 'mapping', key: spender }] }) // '1[0xf39f…][0x7099…]'
 */
export declare function formatPath(d: SlotDerivation): string;
export {};
