/**
 * The `web3_` and `net_` namespaces: `web3_clientVersion`, `web3_sha3` (the chain's keccak, so a
 * custom crypto is honoured), `net_version` (the chain id in decimal), `net_listening`,
 * `net_peerCount` (a dev node has no peers).
 */
import type { ChainFor, MethodsOptions } from './context.js'
import { defineMethod, type Registry } from './dispatcher.js'
import { toData } from './hex.js'
import { none } from './params/decode.js'
import { data } from './params/values.js'
import { keccakOf } from '../chain/crypto.js'

/** The web3_ and net_ methods over `chainFor`. */
export function web3Methods(chainFor: ChainFor, options: MethodsOptions) {
  return {
    net_version: defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).common.chainId().toString()),
    net_listening: defineMethod(none, () => true),
    net_peerCount: defineMethod(none, () => '0x0'),
    web3_clientVersion: defineMethod(none, () => options.clientVersion),
    web3_sha3: defineMethod([data], async ([d], ctx) => toData(keccakOf((await chainFor(ctx)).common)(d))),
  } satisfies Registry
}
