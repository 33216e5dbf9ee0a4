/**
 * `eth_estimateGas` on the chain's side: the least gas with which a call succeeds.
 *
 * geth's search, made exact: the first run at the cap tells what the call uses; most calls
 * succeed with exactly that, and most of those are seen to from the first run alone (one run; else
 * a second run with exactly that checks it). Those that need more (the SSTORE stipend check,
 * the 63/64 of gas a CALL keeps back) try geth's optimistic limit, then a binary search down to
 * the gas unit. As in geth, a limit below what the unconstrained run used is taken to fail, the
 * cap is what the balance pays for when the call names a fee, and a call out of gas even at the
 * cap answers `gas required exceeds allowance (cap)`.
 * Owns: the search. Leaves each run to `executor.ts`.
 */
import { keyOf } from '../encoding.js'
import { GasAllowanceError } from '../errors.js'
import { callError, callGas, prepareCall } from './call.js'
import type { CallExecutor, CallView } from './executor.js'
import { callPricing, capByAllowance } from './fees.js'
import { newObservation, type GasObservation } from './gasObservation.js'
import type { CallParams } from './params.js'

/** The stipend a value-carrying CALL adds (geth adds it to its optimistic guess). */
const CALL_STIPEND = 2300n
/** EIP-2200: an SSTORE with no more gas left than this fails (a margin, before Istanbul). */
const SSTORE_SENTRY = 2300n
/** A gas limit below a plain transfer's is no limit to geth's estimator: it searches up to the cap. */
const TX_GAS = 21_000n
const ZERO_ADDRESS = new Uint8Array(20)
/** ethereumjs's text for running out of gas. */
const OUT_OF_GAS = 'out of gas'

/** The least gas with which `params` succeeds on `view`. */
export async function estimateGas(executor: CallExecutor, params: CallParams, view: CallView): Promise<bigint> {
  const call = prepareCall(params, executor.common)
  const balance = view.state.account(keyOf(params.from ?? ZERO_ADDRESS))?.balance ?? 0n
  const asked = params.gas !== undefined && params.gas >= TX_GAS ? params.gas : undefined
  const cap = capByAllowance(callPricing(params, view.header.baseFeePerGas), callGas(asked, view), params.value ?? 0n, balance)
  const least = call.intrinsic > call.floor ? call.intrinsic : call.floor
  if (cap < least) throw new GasAllowanceError(cap)
  // Only the first run reports its console.log lines: the search's probes would repeat them.
  const observation = newObservation()
  const first = await executor.run(call, view, cap, 'estimateGas', observation)
  const failure = first.execResult.exceptionError
  // Out of gas even at the cap: geth's answer names the cap, not the fault.
  if (failure?.error === OUT_OF_GAS) throw new GasAllowanceError(cap)
  if (failure !== undefined) throw callError(failure.error, first.execResult.returnValue)
  // Nothing ran (a transfer to an account without code): the fixed costs are exact, as geth's plain-transfer shortcut answers.
  if (first.execResult.executionGasUsed === 0n) return least
  const succeeds = async (gas: bigint) => (await executor.run(call, view, gas)).execResult.exceptionError === undefined
  if (first.gasUsed >= cap || succeedsWithAsMuchLess(observation, cap - first.gasUsed) || (await succeeds(first.gasUsed))) return first.gasUsed
  let lo = first.gasUsed
  let hi = cap
  const optimistic = ((first.gasUsed + first.refund + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if (await succeeds(optimistic)) hi = optimistic
    else lo = optimistic
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (await succeeds(mid)) hi = mid
    else lo = mid
  }
  return hi
}

/**
 * Whether a successful run, watched as `observation`, would run the same with `less` gas fewer
 * (and so succeed with exactly what it used). A record that is not gas-dependent saw no call or
 * create, so the run had one frame, and with `less` gas fewer that frame has `less` less left at
 * every step and nothing else changes unless a step reads the gas left: running out cannot
 * happen (the run never touched its spare gas; a deployment's code deposit included), GAS, the
 * 63/64 rule and reads of the balance that bought the gas make the record gas-dependent, and
 * what is left is SSTORE's stipend check, which must still pass.
 */
function succeedsWithAsMuchLess(observation: GasObservation, less: bigint): boolean {
  if (observation.gasDependent) return false
  const least = observation.leastGasAtSstore
  return least === undefined || least - less > SSTORE_SENTRY
}
