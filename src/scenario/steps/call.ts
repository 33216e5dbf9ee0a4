/**
 * The `call:` step: an `eth_call` against a contract function (or raw data), its result decoded
 * through the function's outputs, captured under `as:` and checked against `expect: { result,
 * returns, error }`.
 */
import { decodeOutputs, signatureOf } from '../abi.js'
import type { StepDocument } from '../load.js'
import type { Checker } from '../match.js'
import { parseQuantity, toQuantityHex } from '../values.js'
import { callData } from './calldata.js'
import { StepError, argsLabel, label, type Path, type Spec, type StepContext, type StepTable } from './context.js'
import { expectedError } from './expectedErrors.js'
import { blockParam } from './reads.js'

export const callSteps = {
  call: {
    run: async (ctx, step, path, checker) => call(ctx, (await ctx.scope.resolve(step.call)) as Spec, step, checker, [...path, 'expect']),
    describe: (s) =>
      `call ${label(s.to)}${s.function === undefined ? '' : `.${String(s.function).split('(')[0]}(${argsLabel(s.args)})`}${s.block === undefined ? '' : ` at ${label(s.block)}`}`,
  },
} satisfies StepTable

/** `eth_call` as the step says; the result (and its decoded `returns`) checked and captured under `as:`. */
async function call(ctx: StepContext, spec: Spec, step: StepDocument, checker: Checker, path: Path): Promise<void> {
  const to = ctx.scope.address(spec.to, 'to')
  const { item, data } = await callData(ctx, spec, to)
  const request: Record<string, unknown> = { to, data: data ?? '0x' }
  if (spec.from !== undefined) request.from = ctx.scope.address(spec.from, 'from')
  if (spec.value !== undefined) request.value = toQuantityHex(parseQuantity(spec.value, 'value'))
  if (spec.gas !== undefined) request.gas = toQuantityHex(parseQuantity(spec.gas, 'gas'))
  const expect = step.expect === undefined ? undefined : ((await ctx.scope.resolve(step.expect)) as Spec)
  let result: string
  try {
    result = (await ctx.client.request('eth_call', [request, blockParam(spec.block)])) as string
  } catch (e) {
    if (expectedError(checker, e, expect, path)) return
    throw e
  }
  const outputs = item?.outputs ?? []
  const returns = item === undefined || outputs.length === 0 ? undefined : decodeOutputs(item, result)
  if (typeof step.as === 'string') ctx.scope.define(step.as, { result, ...(returns === undefined ? {} : { returns: outputs.length === 1 ? returns[0] : returns }) })
  if (expect === undefined) return
  if (expect.error !== undefined) checker.fail('error', expect.error, `no error: result ${result}`, [...path, 'error'])
  if (expect.result !== undefined) checker.check('result', expect.result, result, 'data', [...path, 'result'])
  if ('returns' in expect) {
    if (returns === undefined || item === undefined) {
      throw new StepError('expect.returns: the call names no function with outputs: write its signature with "returns (…)"', [...path, 'returns'])
    }
    const wanted = expect.returns
    if (outputs.length === 1) {
      const single = Array.isArray(wanted) && wanted.length === 1 && !outputs[0]!.type.endsWith(']') ? wanted[0] : wanted
      checker.check('returns', single, returns[0], { abi: outputs[0]! }, [...path, 'returns'])
    } else if (Array.isArray(wanted)) {
      if (wanted.length !== outputs.length) checker.fail('returns.length', wanted.length, outputs.length, [...path, 'returns'])
      else wanted.forEach((w, i) => checker.check(`returns[${i}]`, w, returns[i], { abi: outputs[i]! }, [...path, 'returns', i]))
    } else {
      checker.fail('returns', wanted, returns, [...path, 'returns'], `${signatureOf(item)} returns ${outputs.length} values: write them as a list`)
    }
  }
}

