/**
 * What the node says about its chain: `eth_chainId`, `eth_config` (EIP-7910 fork configuration),
 * `eth_capabilities` (which blocks' data it serves), and a dev node's fixed answers about syncing,
 * mining and its coinbase.
 *
 * Owns: their wire shapes. Leaves the fork rules and fork ids to `src/chain/forkConfig.ts`, the
 * window to `src/chain/chain.ts`.
 */
import { forkConfigs, type ForkConfig } from '../../chain/forkConfig.js'
import { andThen, type ChainFor } from '../context.js'
import { defineMethod, type MethodSpec, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { none } from '../params/decode.js'

/** The chain-information methods over `chainFor`. */
export function chainInfoMethods(chainFor: ChainFor) {
  return {
    // Synchronous whenever the chain is at hand (see `andThen`): clients ask it before everything.
    eth_chainId: defineMethod(none, (_p, ctx) => andThen(chainFor(ctx), (chain) => toQuantity(chain.common.chainId()))),
    eth_config: configMethod(chainFor),
    eth_capabilities: capabilitiesMethod(chainFor),
    eth_syncing: defineMethod(none, () => false),
    eth_mining: defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).miningMode.mode !== 'manual'),
    eth_hashrate: defineMethod(none, () => '0x0'),
    eth_coinbase: defineMethod(none, async (_p, ctx) => toData((await chainFor(ctx)).blockSettings.coinbase)),
    eth_protocolVersion: defineMethod(none, () => '0x44'),
  } satisfies Registry
}

/**
 * `eth_config`: the current fork's configuration and, when one is scheduled, the next and the last
 * one's (else `null`), as geth builds them. Before Shanghai `current` is `null`, as in geth.
 *
 * @example
 * // → { current: { activationTime: 540, blobSchedule: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
 * //     chainId: '0xc72dd9d5e883e', forkId: '0xe272ecbe', precompiles: {…}, systemContracts: {…} }, next: null, last: null }
 */
function configMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod(none, async (_params, ctx) => {
    const chain = await chainFor(ctx)
    const configs = forkConfigs(chain.common, chain.genesis, chain.head.block.header.timestamp)
    return { current: configJson(configs.current), next: configJson(configs.next), last: configJson(configs.last) }
  })
}

function configJson(config: ForkConfig | undefined) {
  if (config === undefined) return null
  const named = (entries: ReadonlyMap<string, Uint8Array>) =>
    Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, at]) => [name, toData(at)]))
  return {
    // A JSON number, as geth writes it (a uint64, not a quantity).
    activationTime: Number(config.activationTime),
    blobSchedule: config.blobSchedule ?? null,
    chainId: toQuantity(config.chainId),
    forkId: toData(config.forkId),
    precompiles: named(config.precompiles),
    systemContracts: named(config.systemContracts),
  }
}

/**
 * `eth_capabilities`: the head, and for every kind of data (state, transactions, logs, receipts,
 * blocks, state proofs) the oldest block served and the window that keeps it, since everything a
 * block owns leaves ringchain with the block.
 *
 * @example
 * // → { head: { number: '0x36', hash }, state: { disabled: false, oldestBlock: '0x0',
 * //     deleteStrategy: { type: 'window', retentionBlocks: '0x80' } }, tx: {…}, …, stateproofs: {…} }
 */
function capabilitiesMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod(none, async (_params, ctx) => {
    const chain = await chainFor(ctx)
    const served = () => ({
      disabled: false,
      oldestBlock: toQuantity(chain.oldest.number),
      deleteStrategy: { type: 'window', retentionBlocks: toQuantity(chain.window) },
    })
    return {
      head: { number: toQuantity(chain.head.number), hash: toData(chain.head.hash) },
      state: served(),
      tx: served(),
      logs: served(),
      receipts: served(),
      blocks: served(),
      stateproofs: served(),
    }
  })
}
