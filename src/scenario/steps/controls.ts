/**
 * The clock and snapshot steps: `time:` (move the clock, or set the next block's timestamp),
 * `snapshot:` (take one under a name) and `revert:` (go back to a named one), through `evm_*`.
 */
import { parseDuration, parseQuantity, show, toQuantityHex } from '../values.js'
import { StepError, label, type Path, type Spec, type StepContext, type StepTable } from './context.js'
import { guardedRun } from './expectedErrors.js'

export const controlSteps = {
  time: {
    run: guardedRun(async (ctx, step) => time(ctx, (await ctx.scope.resolve(step.time)) as Spec)),
    describe: (s) => (s.increase !== undefined ? `time +${label(s.increase)}` : `time next block at ${label(s.setNext)}`),
  },
  snapshot: {
    run: guardedRun(async (ctx, step) => {
      ctx.snapshots.set(String(step.snapshot), (await ctx.client.request('evm_snapshot', [])) as string)
    }),
    describe: (_, step) => `snapshot ${String(step.snapshot)}`,
  },
  revert: {
    run: guardedRun((ctx, step, path) => revert(ctx, String(step.revert), [...path, 'revert'])),
    describe: (_, step) => `revert to ${String(step.revert)}`,
  },
} satisfies StepTable

async function time(ctx: StepContext, spec: Spec): Promise<void> {
  if (spec.increase !== undefined) await ctx.client.request('evm_increaseTime', [toQuantityHex(parseDuration(spec.increase, 'increase'))])
  if (spec.setNext !== undefined) await ctx.client.request('evm_setNextBlockTimestamp', [toQuantityHex(parseQuantity(spec.setNext, 'setNext'))])
}

async function revert(ctx: StepContext, name: string, path: Path): Promise<void> {
  const id = ctx.snapshots.get(name)
  if (id === undefined) {
    const known = [...ctx.snapshots.keys()]
    throw new StepError(`no snapshot is named "${name}"${known.length === 0 ? ' (take one with a snapshot step first)' : ` (snapshots: ${known.join(', ')})`}`, path)
  }
  const ok = await ctx.client.request('evm_revert', [id])
  if (ok !== true) throw new StepError(`evm_revert ${id} answered ${show(ok)}: the node did not go back to snapshot "${name}"`, path)
}
