/**
 * The `wait:` step: some milliseconds, some blocks (mined by the node's own timer), or a
 * transaction reaching a status; polled with progress until its timeout (10 s by default).
 */
import { StepError, label, type Spec, type StepContext, type StepTable } from './context.js'
import { transactionStatus } from './reads.js'

export const waitSteps = {
  wait: {
    run: async (ctx, step) => wait(ctx, (await ctx.scope.resolve(step.wait)) as Spec),
    describe: (s) => `wait ${s.blocks !== undefined ? `${String(s.blocks)} block(s)` : s.tx !== undefined ? `for ${label(s.tx)} to be ${String(s.is ?? 'included')}` : `${String(s.ms)} ms`}`,
  },
} satisfies StepTable

/** Waits as the step says, polling every 20 ms; a timeout is a `StepError`. */
async function wait(ctx: StepContext, spec: Spec): Promise<void> {
  const timeout = typeof spec.timeout === 'number' ? spec.timeout : 10_000
  const started = Date.now()
  if (typeof spec.ms === 'number') await sleep(spec.ms)
  const sleepUntil = async (done: () => Promise<boolean>, what: () => string) => {
    for (;;) {
      if (await done()) return
      if (Date.now() - started > timeout) throw new StepError(`timed out after ${timeout} ms waiting for ${what()}`)
      ctx.progress(`${what()} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      await sleep(20)
    }
  }
  if (typeof spec.blocks === 'number') {
    const start = BigInt((await ctx.client.request('eth_blockNumber', [])) as string)
    const target = start + BigInt(spec.blocks)
    let head = start
    await sleepUntil(
      async () => (head = BigInt((await ctx.client.request('eth_blockNumber', [])) as string)) >= target,
      () => `block ${target} (head ${head})`,
    )
  }
  if (spec.tx !== undefined) {
    const hash = ctx.scope.hash(spec.tx, 'wait.tx')
    const wanted = (spec.is as string | undefined) ?? 'included'
    let status = ''
    await sleepUntil(
      async () => (status = await transactionStatus(ctx.client, hash)) === wanted,
      () => `${ctx.scope.transaction(hash) === undefined ? hash : String(spec.tx)} to be ${wanted} (it is ${status})`,
    )
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
