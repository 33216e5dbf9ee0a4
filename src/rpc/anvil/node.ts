/**
 * The node about itself: `anvil_metadata` (Hardhat's `hardhat_metadata` aliases it),
 * `anvil_nodeInfo` (anvil's shape: which forge and cast read), and `anvil_setLoggingEnabled`
 * (accepted; it changes nothing).
 */
import { randomUUID } from 'node:crypto'
import type { ChainFor, MethodsOptions } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { none } from '../params/decode.js'
import { bool } from '../params/values.js'

/** What `eth_gasPrice` adds to the base fee (`eth/fees.ts`): 1 gwei. */
const SUGGESTED_TIP = 1_000_000_000n

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
    anvil_nodeInfo: defineMethod(none, async (_p, ctx) => {
      const chain = await chainFor(ctx)
      const header = chain.head.block.header
      const baseFee = chain.nextBaseFee()
      const hardfork = chain.common.hardfork()
      // anvil's numbers and quantities as it mixes them (timestamp and chain id are JSON numbers).
      return {
        currentBlockNumber: toQuantity(header.number),
        currentBlockTimestamp: Number(header.timestamp),
        currentBlockHash: toData(chain.head.hash),
        hardFork: hardfork.charAt(0).toUpperCase() + hardfork.slice(1),
        transactionOrder: 'fees',
        environment: {
          baseFee: toQuantity(baseFee ?? 0n),
          chainId: Number(chain.common.chainId()),
          gasLimit: toQuantity(chain.blockGasLimit),
          gasPrice: toQuantity((baseFee ?? 0n) + SUGGESTED_TIP),
        },
        forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
      }
    }),
    anvil_metadata: metadata,
    hardhat_metadata: metadata,
    anvil_setLoggingEnabled: defineMethod([bool], () => null),
  } satisfies Registry
}
