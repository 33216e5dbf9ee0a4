/**
 * The message-signing methods a dev node answers with its dev accounts' keys: `personal_sign` and
 * `eth_sign` (EIP-191 "Ethereum Signed Message") and `eth_signTypedData_v4` (EIP-712).
 *
 * Owns: their params, the `unknown account` refusal (geth's text), and the signature's wire form,
 * r ‖ s ‖ v with v 27 or 28, deterministic (RFC 6979) as geth and anvil sign. Leaves the EIP-191
 * and EIP-712 hashing and the signing itself to micro-eth-signer, loaded on the first signature so
 * that a start never pays for it; `eth_signTransaction` lives with `eth_sendTransaction` in
 * `methods.ts`, whose transaction defaults it shares.
 */
import type { Chain } from '../chain/chain.js';
import { type MethodSpec, type RpcContext } from './dispatcher.js';
type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>;
/**
 * `personal_sign(data, address)`: the EIP-191 signature of `data` by a dev account.
 *
 * @example
 * // personal_sign('0x68656c6c6f', '0xf39f…2266') → '0x…1b' (65 bytes, v = 27 or 28)
 */
export declare function personalSignMethod(chainFor: ChainFor): MethodSpec;
/** `eth_sign(address, data)`: `personal_sign` with its arguments the other way round (geth, anvil). */
export declare function ethSignMethod(chainFor: ChainFor): MethodSpec;
/**
 * `eth_signTypedData_v4(address, typedData)`: the EIP-712 signature of typed data (a JSON string or
 * an object). `types.EIP712Domain`, when given, is the domain's type; otherwise it is derived
 * from the domain's fields, as anvil does. A type or value that does not encode is -32602.
 */
export declare function signTypedDataMethod(chainFor: ChainFor): MethodSpec;
export {};
