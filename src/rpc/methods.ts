/**
 * The method registry: every wire method ringchain serves, keyed by name, assembled from one
 * fragment per namespace or family. Each fragment declares its methods with their param decoders
 * and aliases (`anvil_`/`hardhat_`/`evm_`) beside the method they alias.
 *
 * Where a method goes: `eth/` by family (blocks, state, transactions, send, call, fees, logs,
 * filters, subscriptions, accounts, chainInfo), `forked/` the upstream's part of a forked chain's
 * window, `anvil/` for test controls, `ringchain/` for ringchain's own, `txpool.ts` and `web3.ts`
 * for those namespaces. A new family is a new file whose fragment is spread in below. Envelopes
 * are `dispatcher.ts`'s, params `params/`'s, wire shapes `format.ts`'s, chain semantics `src/chain/`'s.
 */
import { blockSettingsMethods } from './anvil/blockSettings.js'
import { dumpStateMethods } from './anvil/dumpState.js'
import { impersonationMethods } from './anvil/impersonation.js'
import { miningMethods } from './anvil/mining.js'
import { nodeMethods } from './anvil/node.js'
import { anvilReorgMethods } from './anvil/reorg.js'
import { snapshotMethods } from './anvil/snapshots.js'
import { stateSetterMethods } from './anvil/state.js'
import { timeMethods } from './anvil/time.js'
import type { ChainFor, MethodsOptions } from './context.js'
import { createDebugMethods } from './debug.js'
import type { MethodName, Registry } from './dispatcher.js'
import { accountReadMethods } from './eth/account.js'
import { accountMethods } from './eth/accounts.js'
import { blockMethods } from './eth/blocks.js'
import { callMethods } from './eth/call.js'
import { chainInfoMethods } from './eth/chainInfo.js'
import { feeMethods } from './eth/fees.js'
import { fillMethods } from './eth/fill.js'
import { headerMethods } from './eth/headers.js'
import { filterMethods } from './eth/filters.js'
import { logMethods } from './eth/logs.js'
import { sendMethods } from './eth/send.js'
import { simulateMethods } from './eth/simulate.js'
import { stateMethods } from './eth/state.js'
import { subscriptionMethods } from './eth/subscriptions.js'
import { transactionMethods } from './eth/transactions.js'
import { unsignedSendMethods } from './eth/unsigned.js'
import { forkedMethods } from './forked/methods.js'
import { ringchainNodeMethods } from './ringchain/node.js'
import { providerMethods } from './ringchain/provider.js'
import { ringchainReorgMethods } from './ringchain/reorg.js'
import { storageMethods } from './ringchain/storage.js'
import { txpoolMethods } from './txpool.js'
import { web3Methods } from './web3.js'

/** Every namespace's fragment, spread into one registry object. */
function registry(chainFor: ChainFor, options: MethodsOptions) {
  return {
    ...web3Methods(chainFor, options),
    // eth_
    ...chainInfoMethods(chainFor),
    ...blockMethods(chainFor),
    ...headerMethods(chainFor),
    ...stateMethods(chainFor),
    ...accountReadMethods(chainFor),
    ...transactionMethods(chainFor),
    ...callMethods(chainFor),
    ...simulateMethods(chainFor),
    ...fillMethods(chainFor),
    ...feeMethods(chainFor),
    ...sendMethods(chainFor),
    ...unsignedSendMethods(chainFor),
    ...accountMethods(chainFor),
    ...logMethods(chainFor),
    ...filterMethods(chainFor),
    ...subscriptionMethods(chainFor),
    // test controls (anvil_, hardhat_, evm_)
    ...miningMethods(chainFor),
    ...snapshotMethods(chainFor),
    ...anvilReorgMethods(chainFor),
    ...timeMethods(chainFor),
    ...blockSettingsMethods(chainFor),
    ...stateSetterMethods(chainFor),
    ...dumpStateMethods(chainFor),
    ...impersonationMethods(chainFor),
    ...nodeMethods(chainFor, options),
    ...txpoolMethods(chainFor),
    // debug_ (geth's tracers)
    ...createDebugMethods(chainFor),
    // ringchain_
    ...storageMethods(chainFor),
    ...ringchainNodeMethods(options),
    ...providerMethods(options),
    ...ringchainReorgMethods(chainFor),
  } satisfies Registry
}

/** The name of every wire method ringchain serves. */
export type RingchainMethod = MethodName<ReturnType<typeof registry>>

/**
 * Builds the registry over `chainFor`. The reads that may reach before a fork point are overridden
 * by `forked/`, which answers the upstream's part of a forked chain's window and leaves the rest to
 * the methods above.
 */
export function createMethods(chainFor: ChainFor, options: MethodsOptions): Registry {
  const local = registry(chainFor, options)
  return { ...local, ...forkedMethods(chainFor, local) }
}
