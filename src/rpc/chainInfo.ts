/**
 * What the node says about its chain: `eth_config` (EIP-7910 fork configuration),
 * `eth_capabilities` (which blocks' data it serves) and `eth_baseFee` (the next block's base fee).
 *
 * Owns: their wire shapes. Leaves the fork rules and fork ids to `src/chain/forkConfig.ts`, the
 * window and base fees to `src/chain/chain.ts`.
 */
import { forkConfigs, type ForkConfig } from '../chain/forkConfig.js'
import { defineMethod, type MethodSpec } from './dispatcher.js'
import { toData, toQuantity } from './hex.js'
import type { ChainFor } from './methods.js'

const none = [] as const

/**
 * `eth_config`: the current fork's configuration and, when one is scheduled, the next and the last
 * one's (else `null`), as geth builds them. Before Shanghai `current` is `null`, as in geth.
 *
 * @example
 * // → { current: { activationTime: 540, blobSchedule: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
 * //     chainId: '0xc72dd9d5e883e', forkId: '0xe272ecbe', precompiles: {…}, systemContracts: {…} }, next: null, last: null }
 */
export function configMethod(chainFor: ChainFor): MethodSpec {
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
export function capabilitiesMethod(chainFor: ChainFor): MethodSpec {
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

/** `eth_baseFee`: the base fee per gas of the next block; `null` before London. */
export function baseFeeMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod(none, async (_params, ctx) => {
    const next = (await chainFor(ctx)).nextBaseFee()
    return next === undefined ? null : toQuantity(next)
  })
}
