/**
 * A sooner tier-up while the warm-up runs. V8 gives a function to its optimising compiler once the
 * function has spent an "interrupt budget" of bytecode; code that runs a few times per test (a
 * send's decoding, its block, its receipt, an estimate's search) spends it slowly, and at Node 20's
 * default was still being compiled, on V8's threads, two hundred real tests after a 100-test
 * warm-up (`node --trace-opt`: about 20 compiles per 50 tests). With a sixteenth of the budget
 * during the warm-up, that code is compiled within it. With a quarter, the served chain's first
 * tests still spent 3-5 ms each on V8's compiler threads (bench/warmup.mjs); a sixteenth leaves
 * them 1-2 ms, as 300 warm-up tests at a quarter did.
 *
 * The budget is put back when the warm-up ends: the launcher's code cache (src/cli/launcher.ts) is
 * stamped with V8's flags (`v8.cachedDataVersionTag()`), and a cache written under other flags is
 * rejected at the next start. So this acts only where the default is known (the V8 of Node 20) and
 * the command line did not set one, and checks the stamp is back as it was. Warm-ups side by side
 * in one process (several servers) share the lowered budget: the last to end puts it back.
 */
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8'

/** `--interrupt-budget`'s default, by V8 version (major.minor). */
const DEFAULT_BUDGETS: Readonly<Record<string, number>> = { '11.3': 67_584 }
/** The budget while the warm-up runs, as a fraction of the default. */
const WARMUP_FRACTION = 16

/** Warm-ups under way in this process (servers started side by side): the first lowers, the last restores. */
let holders = 0
/** V8's flags stamp before the first of them lowered the budget. */
let stamp = 0

/**
 * Lowers V8's tier-up budget; returns the function that puts it back (true if V8's flags are then
 * as they were) once no other warm-up of this process still holds it low. Does nothing (and the
 * function returns true) where the default is not known.
 */
export function lowerTierUpBudget(v8Version = process.versions.v8, commandLine: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? '']): () => boolean {
  const budget = DEFAULT_BUDGETS[v8Version.split('.').slice(0, 2).join('.')]
  if (budget === undefined || commandLine.some((arg) => arg.includes('interrupt-budget'))) return () => true
  if (holders++ === 0) {
    stamp = cachedDataVersionTag()
    setFlagsFromString(`--interrupt-budget=${Math.floor(budget / WARMUP_FRACTION)}`)
  }
  let released = false
  return () => {
    if (!released) {
      released = true
      if (--holders === 0) setFlagsFromString(`--interrupt-budget=${budget}`)
    }
    return holders > 0 || cachedDataVersionTag() === stamp
  }
}
