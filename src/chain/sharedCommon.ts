/**
 * Copies of a chain's `Common` shared by the objects that only read theirs: what ethereumjs's
 * constructors give each header and each transaction (a copy with their package's parameters
 * merged), made once per state of the chain's `Common` and handed to all of them.
 *
 * Owns: telling when the chain's `Common` or the copy changed (a fork, EIP or parameter change
 * rebuilds a `Common`'s caches as new objects) and making a new copy then. Leaves to the callers
 * what they make with it (`minedHeader.ts`, `feeMarketTx.ts`). The chain never changes the fork of
 * a shared copy (its runs pass `skipHardForkValidation`, the one option under which runTx would);
 * should anything else change one, the objects made after it get a new copy.
 */
import type { Common, ParamsDict } from '@ethereumjs/common'

/** What a `Common` copy takes from its original: rebuilt (new objects) on every hardfork, EIP or parameter change. */
interface CommonState {
  readonly hardfork: string
  readonly eips: unknown
  readonly params: unknown
}

/** Per chain `Common`: its shared copy, and the states of both when the copy was made. */
export type SharedCopies = WeakMap<Common, { readonly copy: Common; readonly of: CommonState; readonly own: CommonState }>

interface CommonCaches {
  readonly _activatedEIPsCache: unknown
  readonly _paramsCache: unknown
}

function stateOf(common: Common): CommonState {
  const caches = common as unknown as CommonCaches
  return { hardfork: common.hardfork(), eips: caches._activatedEIPsCache, params: caches._paramsCache }
}

function unchanged(common: Common, state: CommonState): boolean {
  const caches = common as unknown as CommonCaches
  return common.hardfork() === state.hardfork && caches._activatedEIPsCache === state.eips && caches._paramsCache === state.params
}

/** The copy of `common` with `params` merged kept in `copies`, made again when either changed since. */
export function sharedCopy(copies: SharedCopies, common: Common, params: ParamsDict): Common {
  const known = copies.get(common)
  if (known !== undefined && unchanged(common, known.of) && unchanged(known.copy, known.own)) return known.copy
  const copy = common.copy()
  copy.updateParams(params)
  copies.set(common, { copy, of: stateOf(common), own: stateOf(copy) })
  return copy
}
