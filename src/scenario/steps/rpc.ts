/**
 * The `rpc:` step: any JSON-RPC method with its params, the answer captured under `as:` and
 * checked against `expect: { result }` or `expect: { error }`.
 */
import { show } from '../values.js'
import type { Spec, StepTable } from './context.js'
import { expectedError } from './expectedErrors.js'

export const rpcSteps = {
  rpc: {
    run: async (ctx, step, path, checker) => {
      const expectPath = [...path, 'expect']
      const spec = (await ctx.scope.resolve(step.rpc)) as Spec
      const expect = step.expect === undefined ? undefined : ((await ctx.scope.resolve(step.expect)) as Spec)
      let result: unknown
      try {
        result = await ctx.client.request(String(spec.method), (spec.params as unknown[] | undefined) ?? [])
      } catch (e) {
        if (expectedError(checker, e, expect, expectPath)) return
        throw e
      }
      if (typeof step.as === 'string') ctx.scope.define(step.as, { result })
      if (expect?.error !== undefined) checker.fail('error', expect.error, `no error: result ${show(result)}`, [...expectPath, 'error'])
      if (expect !== undefined && 'result' in expect) checker.check('result', expect.result, result, 'auto', [...expectPath, 'result'])
    },
    describe: (s) => `rpc ${String(s.method)}`,
  },
} satisfies StepTable
