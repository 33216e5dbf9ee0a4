/**
 * The data of a transaction or call a step describes: a function with its arguments (encoded
 * through the step's `abi:`, else the ABI the target was deployed or named with), or raw `data:`.
 * Shared by `send` and `call`.
 */
import { encodeCall, findFunction, loadAbi, type AbiItem } from '../abi.js'
import { parseData } from '../values.js'
import type { Spec, StepContext } from './context.js'

/** The function a step calls (when it names one) and the data it sends (when it gives any). */
export async function callData(ctx: StepContext, spec: Spec, to: string | undefined): Promise<{ item: AbiItem | undefined; data: string | undefined }> {
  if (spec.function !== undefined) {
    const abi = spec.abi !== undefined ? await loadAbi(spec.abi, ctx.baseDir) : to === undefined ? undefined : ctx.scope.abiOf(to)
    const item = findFunction(String(spec.function), abi, argCount(spec.args))
    return { item, data: encodeCall(item, spec.args, ctx.scope) }
  }
  return { item: undefined, data: spec.data === undefined ? undefined : parseData(spec.data, 'data') }
}

/** How many arguments the step gives, which picks among overloads (`undefined`: one object of named arguments). */
function argCount(args: unknown): number | undefined {
  return Array.isArray(args) ? args.length : args === undefined ? 0 : undefined
}
