// commonMemo.ts answers Common's consensusType and chainId from what they answered before: the
// answers must follow the fork of the Common asked (the chain's or a copy) as ethereumjs's do.
import { Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { expect, test } from 'vitest'
import { memoizeCommonQueries } from '../../src/chain/commonMemo.js'

const FORKS = ['chainstart', 'homestead', 'spuriousDragon', 'london', 'paris', 'prague', 'osaka']
const stock = (common: Common) => ({
  consensus: Common.prototype.consensusType.call(common),
  chainId: Common.prototype.chainId.call(common),
  gte: FORKS.map((fork) => Common.prototype.gteHardfork.call(common, fork)),
})
const memo = (common: Common) => ({ consensus: common.consensusType(), chainId: common.chainId(), gte: FORKS.map((fork) => common.gteHardfork(fork)) })

test('behavior: consensus type, fork order and chain id follow each hardfork change, as ethereumjs answers them', () => {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'chainstart' })
  memoizeCommonQueries(common)
  for (const fork of ['chainstart', 'london', 'paris', 'osaka', 'berlin']) {
    common.setHardfork(fork)
    expect({ fork, ...memo(common) }).toEqual({ fork, ...stock(common) })
  }
  expect(memo(common)).toEqual({ consensus: 'pow', chainId: 31337n, gte: [true, true, true, false, false, false, false] })
})

test('behavior: a copy answers for its own fork, and another chain for its own id', () => {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })
  memoizeCommonQueries(common)
  expect(common.consensusType()).toBe('pos')
  const copy = common.copy()
  copy.setHardfork('homestead')
  expect([copy.consensusType(), common.consensusType()]).toEqual(['pow', 'pos'])
  expect([copy.gteHardfork('london'), common.gteHardfork('london')]).toEqual([false, true])
  const other = createCustomCommon({ chainId: 5 }, Mainnet, { hardfork: 'osaka' })
  memoizeCommonQueries(other)
  expect([other.chainId(), common.chainId(), copy.chainId()]).toEqual([5n, 31337n, 31337n])
})
