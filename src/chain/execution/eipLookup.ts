/**
 * `Common.isActivatedEIP` answered from a Set, installed on the Commons the EVMs run with (see
 * `fastInterpreter.ts`). ethereumjs scans an array of some 60 EIPs (`_activatedEIPsCache.includes`),
 * and the interpreter asks several times a step, mostly for EIPs that are off (a full scan).
 * Owns: that method, an own property of each Common it is installed on.
 * Leaves to Common: which EIPs are on (its array, rebuilt on every hardfork or EIP change).
 */
import type { Common } from '@ethereumjs/common'

/** The Set of `_activatedEIPsCache`, built from the array it was built from. */
const EIP_SET = Symbol('activatedEIPSet')
interface CommonInternals {
  readonly _activatedEIPsCache: readonly number[]
  [EIP_SET]?: { readonly list: readonly number[]; readonly length: number; readonly set: ReadonlySet<number> }
}

/**
 * `common.isActivatedEIP` answered from a Set. Common rebuilds its array on every hardfork or
 * EIP change (`_buildActivatedEIPsCache`): the Set is rebuilt when the array is another or has
 * another length. A copy of `common` (`Common.copy`) carries the method and checks its own array.
 */
export function installFastEIPLookup(common: Common): void {
  if (Object.hasOwn(common, 'isActivatedEIP')) return
  common.isActivatedEIP = function isActivatedEIP(this: CommonInternals, eip: number): boolean {
    const list = this._activatedEIPsCache
    let cached = this[EIP_SET]
    if (cached === undefined || cached.list !== list || cached.length !== list.length) {
      cached = { list, length: list.length, set: new Set(list) }
      this[EIP_SET] = cached
    }
    return cached.set.has(eip)
  } as Common['isActivatedEIP']
}
