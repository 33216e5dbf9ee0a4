/**
 * The `reorg:` step, through `ringchain_reorg` and `ringchain_setReorgSchedule`: `reorg: 3` (the
 * last 3 blocks replaced, their transactions back in the pool), `reorg: { depth, requeue,
 * transactions: [{ tx, block }] }` (`tx` a transaction name or hash the new chain takes again,
 * `block` its offset among the new blocks), `reorg: { every, depth, seed }` (a schedule) and
 * `reorg: off`.
 */
import { parseQuantity, toQuantityHex } from '../values.js'
import { label, type Spec, type StepContext, type StepTable } from './context.js'
import { guardedRun } from './expectedErrors.js'

export const reorgSteps = {
  reorg: {
    run: guardedRun(async (ctx, step) => {
      const answer = await reorg(ctx, await ctx.scope.resolve(step.reorg))
      if (typeof step.as === 'string' && answer !== undefined) ctx.scope.define(step.as, answer)
    }),
    describe: (_, step) => {
      const r = step.reorg
      if (r === 'off') return 'reorgs off'
      if (typeof r !== 'object' || r === null) return `reorg ${label(r)} block(s)`
      const s = r as Spec
      return s.every !== undefined ? `a reorg of ${label(s.depth ?? 1)} every ${label(s.every)} blocks` : `reorg ${label(s.depth)} block(s)`
    },
  },
} satisfies StepTable

/** Reorgs (or schedules reorgs) as the step says; the reorg's answer (hashes removed, added, requeued, discarded). */
async function reorg(ctx: StepContext, value: unknown): Promise<Record<string, unknown> | undefined> {
  if (value === 'off') {
    await ctx.client.request('ringchain_setReorgSchedule', [null])
    return undefined
  }
  const spec: Spec = typeof value === 'object' && value !== null ? (value as Spec) : { depth: value }
  if (spec.every !== undefined) {
    const schedule = { every: Number(parseQuantity(spec.every, 'every')), depth: Number(parseQuantity(spec.depth ?? 1, 'depth')), seed: Number(parseQuantity(spec.seed ?? 0, 'seed')) }
    await ctx.client.request('ringchain_setReorgSchedule', [schedule])
    return undefined
  }
  const placed = ((spec.transactions as Spec[] | undefined) ?? []).map((t, i) => [ctx.scope.hash(t.tx, `reorg.transactions[${i}].tx`), toQuantityHex(parseQuantity(t.block ?? 0, 'block'))])
  const request = { depth: toQuantityHex(parseQuantity(spec.depth, 'depth')), transactions: placed, ...(spec.requeue === undefined ? {} : { requeue: spec.requeue }) }
  return (await ctx.client.request('ringchain_reorg', [request])) as Record<string, unknown>
}
