/**
 * `expect: { error: … }` on any step: an RPC error the scenario expects is checked and swallowed;
 * one it does not expect propagates and fails the step; an expected error that never came is a
 * mismatch. Used by every step kind that talks to the node.
 */
import { RpcCallError } from '../client.js'
import type { Checker } from '../match.js'
import { GasEstimationError } from '../transactions.js'
import type { StepDocument } from '../load.js'
import type { Path, Spec, StepContext, StepHandler } from './context.js'

/** Runs `action`; an RPC error it throws is checked against `expect.error` when one is expected. */
export async function guarded<T>(checker: Checker, expect: Spec | undefined, path: Path, action: () => Promise<T>): Promise<T | undefined> {
  let result: T
  try {
    result = await action()
  } catch (e) {
    if (expectedError(checker, e, expect, path)) return undefined
    throw e
  }
  if (expect?.error !== undefined) checker.fail('error', expect.error, 'no error', [...path, 'error'])
  return result
}

/** A step whose only expectation is `expect: { error }`: `action` runs guarded by it. */
export function guardedRun(action: (ctx: StepContext, step: StepDocument, path: Path) => Promise<unknown>): StepHandler['run'] {
  return async (ctx, step, path, checker) => {
    await guarded(checker, step.expect as Spec | undefined, [...path, 'expect'], () => action(ctx, step, path))
  }
}

/** When an error was expected and an RPC error came, checks it and returns true. */
export function expectedError(checker: Checker, e: unknown, expect: Spec | undefined, path: Path): boolean {
  const wanted = expect?.error as Spec | undefined
  const rpc = rpcErrorOf(e)
  if (wanted === undefined || rpc === undefined) return false
  checkRpcError(checker, wanted, rpc, [...path, 'error'])
  return true
}

/** The node's error behind `e`: an RPC error, or the one that made gas estimation fail. */
export function rpcErrorOf(e: unknown): RpcCallError | undefined {
  if (e instanceof RpcCallError) return e
  if (e instanceof GasEstimationError && e.cause instanceof RpcCallError) return e.cause
  return undefined
}

/** Checks an RPC error's code, message and data against what `expect.error` wants. */
export function checkRpcError(checker: Checker, wanted: Spec, e: RpcCallError, path: Path): void {
  if (wanted.code !== undefined) checker.check('error.code', wanted.code, e.code, 'quantity', [...path, 'code'])
  if (wanted.message !== undefined) checker.check('error.message', wanted.message, e.message, 'string', [...path, 'message'])
  if (wanted.data !== undefined) checker.check('error.data', wanted.data, e.data, 'auto', [...path, 'data'])
}
