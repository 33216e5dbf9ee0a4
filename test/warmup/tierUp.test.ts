// The warm-up lowers V8's tier-up budget while it runs and puts it back after: V8's flags, as the
// launcher's code cache is stamped with them (v8.cachedDataVersionTag), must be as they were.
import { cachedDataVersionTag } from 'node:v8'
import { expect, test } from 'vitest'
import { lowerTierUpBudget } from '../../src/warmup/tierUp.js'

const NODE_20_V8 = '11.3.244.8-node.33'

test.runIf(process.versions.v8.startsWith('11.3.'))('behavior: on V8 11.3 the budget is lowered (the flags stamp changes) and put back (the stamp is as before)', () => {
  const before = cachedDataVersionTag()
  const restore = lowerTierUpBudget(process.versions.v8, [])
  expect(cachedDataVersionTag()).not.toBe(before)
  expect(restore()).toBe(true)
  expect(cachedDataVersionTag()).toBe(before)
  // A second call changes nothing more.
  expect(restore()).toBe(true)
  expect(cachedDataVersionTag()).toBe(before)
})

test('behavior: on a V8 whose default budget is not known, nothing changes', () => {
  const before = cachedDataVersionTag()
  const restore = lowerTierUpBudget('12.4.254.21-node.33', [])
  expect(cachedDataVersionTag()).toBe(before)
  expect(restore()).toBe(true)
  expect(cachedDataVersionTag()).toBe(before)
})

test('behavior: a budget set on the command line (or NODE_OPTIONS) is left as it is', () => {
  const before = cachedDataVersionTag()
  const restore = lowerTierUpBudget(NODE_20_V8, ['--interrupt-budget=1000'])
  expect(cachedDataVersionTag()).toBe(before)
  expect(restore()).toBe(true)
  const fromEnvironment = lowerTierUpBudget(NODE_20_V8, ['--max-old-space-size=4096 --interrupt-budget=1000'])
  expect(cachedDataVersionTag()).toBe(before)
  expect(fromEnvironment()).toBe(true)
})

test.runIf(process.versions.v8.startsWith('11.3.'))('behavior: two warm-ups side by side: the budget stays low until the last has ended, then the flags are as before', () => {
  const before = cachedDataVersionTag()
  const first = lowerTierUpBudget(process.versions.v8, [])
  const lowered = cachedDataVersionTag()
  const second = lowerTierUpBudget(process.versions.v8, [])
  expect(lowered).not.toBe(before)
  expect(first()).toBe(true)
  expect(cachedDataVersionTag()).toBe(lowered)
  expect(first()).toBe(true)
  expect(cachedDataVersionTag()).toBe(lowered)
  expect(second()).toBe(true)
  expect(cachedDataVersionTag()).toBe(before)
})
