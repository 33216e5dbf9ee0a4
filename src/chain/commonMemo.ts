/**
 * `Common.consensusType` and `Common.chainId` answered from what they answered before, installed
 * on a chain's `Common` (own properties: its copies carry them, as they carry its other methods).
 *
 * Why: a send asks the consensus type six times (building the block, its header, each EVM frame,
 * the run) and ethereumjs scans the fork list for it each time; `chainId()` parses the chain's
 * id from its decimal string on every call. Before V8 optimizes them, some microseconds each.
 * Owns: those two methods. Leaves to `Common` what they answer: the consensus type is a function
 * of the fork list (built once per `Common` and shared by its copies) and the fork, the chain id
 * one of the chain's parameters (likewise).
 */
import { Common } from '@ethereumjs/common'

interface CommonInternals {
  readonly HARDFORK_CHANGES: object
  readonly _chainParams: object
}

/** Per fork list: each fork's consensus type. */
const consensusByForks = new WeakMap<object, Map<string, string>>()
/** Per chain parameters: the chain id. */
const chainIds = new WeakMap<object, bigint>()

const { consensusType, chainId } = Common.prototype

/** Installs the two methods on `common` (once). */
export function memoizeCommonQueries(common: Common): void {
  if (Object.hasOwn(common, 'consensusType')) return
  common.consensusType = function memoConsensusType(this: Common): string {
    const forks = (this as unknown as CommonInternals).HARDFORK_CHANGES
    let byFork = consensusByForks.get(forks)
    if (byFork === undefined) consensusByForks.set(forks, (byFork = new Map()))
    const hardfork = this.hardfork()
    let type = byFork.get(hardfork)
    if (type === undefined) byFork.set(hardfork, (type = consensusType.call(this)))
    return type
  }
  common.chainId = function memoChainId(this: Common): bigint {
    const params = (this as unknown as CommonInternals)._chainParams
    let id = chainIds.get(params)
    if (id === undefined) chainIds.set(params, (id = chainId.call(this)))
    return id
  }
}
