/**
 * The node about itself: `anvil_metadata` (Hardhat's `hardhat_metadata` aliases it) and
 * `anvil_setLoggingEnabled` (accepted; it changes nothing).
 */
import { randomUUID } from 'node:crypto'
import type { ChainFor, MethodsOptions } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { none } from '../params/decode.js'
import { bool } from '../params/values.js'

/** The node methods over `chainFor`, with their aliases. */
export function nodeMethods(chainFor: ChainFor, options: MethodsOptions) {
  const instanceId = options.instanceId ?? randomUUID()
  const metadata = defineMethod(none, async (_p, ctx) => {
    const chain = await chainFor(ctx)
    return {
      clientVersion: options.clientVersion,
      chainId: toQuantity(chain.common.chainId()),
      instanceId,
      latestBlockNumber: toQuantity(chain.head.number),
      latestBlockHash: toData(chain.head.hash),
      forkedNetwork: null,
      snapshots: {},
    }
  })
  return {
    anvil_metadata: metadata,
    hardhat_metadata: metadata,
    anvil_setLoggingEnabled: defineMethod([bool], () => null),
  } satisfies Registry
}
