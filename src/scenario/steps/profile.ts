/**
 * The `profile:` step: from now on the node answers as the hosted provider a profile describes
 * (rate limits, lagging backends, failures, drops), through `ringchain_setProviderProfile`. The
 * value is the profile, a JSON file read relative to the scenario, or `null` (the perfect provider).
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { label, StepError, type StepContext, type StepTable } from './context.js'
import { guardedRun } from './expectedErrors.js'

export const profileSteps = {
  profile: {
    run: guardedRun(async (ctx, step, path) => setProfile(ctx, await ctx.scope.resolve(step.profile), [...path, 'profile'])),
    describe: (_, step) => (step.profile === null ? 'profile: the perfect provider' : typeof step.profile === 'string' ? `profile ${step.profile}` : `profile ${label(step.profile)}`),
  },
} satisfies StepTable

async function setProfile(ctx: StepContext, value: unknown, path: readonly (string | number)[]): Promise<void> {
  let profile = value
  if (typeof value === 'string') {
    const file = resolve(ctx.baseDir, value)
    try {
      profile = JSON.parse(await readFile(file, 'utf8'))
    } catch (e) {
      throw new StepError(`cannot read the profile ${value}: ${(e as Error).message.split('\n')[0]}`, path, { cause: e })
    }
  }
  await ctx.client.request('ringchain_setProviderProfile', [profile ?? null])
}
