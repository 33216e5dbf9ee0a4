/**
 * `Common.consensusType`, `Common.gteHardfork` and `Common.chainId` answered from what they answered before, installed
 * on a chain's `Common` (own properties: its copies carry them, as they carry its other methods).
 *
 * Why: a send asks the consensus type six times (building the block, its header, each EVM frame,
 * the run) and ethereumjs scans the fork list for it each time, as for each `gteHardfork` (the
 * signature check, the journal's cleanup); `chainId()` parses the chain's id from its decimal
 * string on every call. Before V8 optimizes them, some microseconds each.
 * Owns: those three methods. Leaves to `Common` what they answer: the consensus type and
 * `gteHardfork` are functions of the fork list (built once per `Common` and shared by its copies)
 * and the fork, the chain id one of the chain's parameters (likewise).
 */
import { Common } from '@ethereumjs/common'

interface CommonInternals {
  readonly HARDFORK_CHANGES: object
  readonly _chainParams: object
  readonly _hardfork: string
}

/** Per fork list: each fork's consensus type. */
const consensusByForks = new WeakMap<object, Map<string, string>>()
/** Per chain parameters (their fork list): per fork, whether it is at or after each fork asked. */
const gteByParams = new WeakMap<object, Map<string, Map<string, boolean>>>()
/** Per chain parameters: the chain id. */
const chainIds = new WeakMap<object, bigint>()

const { consensusType, chainId, gteHardfork } = Common.prototype

/**
 * Installs the three methods on `common` (once). The same three functions on every chain's
 * `Common`: a closure per chain would be a new call target and a new field value each time, and
 * V8's code optimised on one chain's would be thrown away at the next chain's first use (`--trace-deopt`:
 * "wrong call target", "wrong map" on the served chain's first requests after the warm-up's).
 */
export function memoizeCommonQueries(common: Common): void {
  if (Object.hasOwn(common, 'consensusType')) return
  common.consensusType = memoConsensusType
  common.gteHardfork = memoGteHardfork
  common.chainId = memoChainId
}

function memoConsensusType(this: Common): string {
  const forks = (this as unknown as CommonInternals).HARDFORK_CHANGES
  let byFork = consensusByForks.get(forks)
  if (byFork === undefined) consensusByForks.set(forks, (byFork = new Map()))
  const hardfork = this.hardfork()
  let type = byFork.get(hardfork)
  if (type === undefined) byFork.set(hardfork, (type = consensusType.call(this)))
  return type
}

function memoGteHardfork(this: Common, hardfork: string): boolean {
  const internals = this as unknown as CommonInternals
  let byFork = gteByParams.get(internals._chainParams)
  if (byFork === undefined) gteByParams.set(internals._chainParams, (byFork = new Map()))
  let answers = byFork.get(internals._hardfork)
  if (answers === undefined) byFork.set(internals._hardfork, (answers = new Map()))
  let gte = answers.get(hardfork)
  if (gte === undefined) answers.set(hardfork, (gte = gteHardfork.call(this, hardfork)))
  return gte
}

function memoChainId(this: Common): bigint {
  const params = (this as unknown as CommonInternals)._chainParams
  let id = chainIds.get(params)
  if (id === undefined) chainIds.set(params, (id = chainId.call(this)))
  return id
}
