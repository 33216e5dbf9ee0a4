/**
 * `eth_call` semantics on the chain's side: the gas a call runs with, its fixed costs, one run,
 * and what a failed run becomes (a revert with its reason, or an execution failure).
 *
 * Owns: the call's gas cap and its errors. Leaves running it to `executor.ts`, estimates to
 * `estimate.ts`.
 */
import type { Common } from '@ethereumjs/common'
import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bigIntToHex, bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util'
import { getCalldataFloorGas } from '@ethereumjs/tx'
import { ExecutionFailedError, ExecutionRevertedError } from '../errors.js'
import type { CallExecutor, CallView, PreparedCall } from './executor.js'
import { callFixedCosts, needsTransaction } from './intrinsic.js'
import type { CallParams, CallResult } from './params.js'
import { describeRevert } from '../revert.js'

/** Runs a call on `view` without changing anything; a failure throws. */
export async function runCall(executor: CallExecutor, params: CallParams, view: CallView): Promise<CallResult> {
  const call = prepareCall(params, executor.common)
  const gas = callGas(params.gas, view)
  if (gas < call.intrinsic) throw new ExecutionFailedError(`intrinsic gas too low: gas ${gas}, minimum needed ${call.intrinsic}`)
  const { execResult } = await executor.run(call, view, gas, 'call')
  const error = execResult.exceptionError
  if (error !== undefined) throw callError(error.error, execResult.returnValue)
  return { returnValue: execResult.returnValue, gasUsed: execResult.executionGasUsed }
}

/**
 * The gas a call runs with: what it asks for, at most the cap (geth caps with its RPC gas cap).
 * Uncapped, `gas: 2^64` on a looping contract would hold the only thread for hours; above the
 * EIP-7825 cap ethereumjs would not even build the call.
 */
export function callGas(asked: bigint | undefined, view: CallView): bigint {
  return asked === undefined || asked > view.gasCap ? view.gasCap : asked
}

/** The call with its fixed costs: computed directly, or read from a transaction on forks that reprice them. */
export function prepareCall(params: CallParams, common: Common): PreparedCall {
  if (!needsTransaction(common)) return { params, ...callFixedCosts(params, common) }
  const tx = createTx(transactionData(params, common), { common })
  return { params, intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx) }
}

/** The transaction type that carries the call's lists, so that they count as a transaction's would. */
function transactionData(params: CallParams, common: Common): TypedTxData {
  const accessList = (params.accessList ?? []).map((item) => ({ address: bytesToHex(item.address), storageKeys: item.storageKeys.map((k) => bytesToHex(k)) }))
  const authorizationList = (params.authorizationList ?? []).map((a) => ({
    chainId: bigIntToHex(a.chainId),
    address: bytesToHex(a.address),
    nonce: bigIntToHex(a.nonce),
    yParity: bigIntToHex(a.yParity),
    r: bigIntToHex(a.r),
    s: bigIntToHex(a.s),
  }))
  return {
    gasLimit: 0n,
    value: params.value ?? 0n,
    data: params.data ?? new Uint8Array(0),
    ...(params.to === undefined ? {} : { to: params.to }),
    ...(authorizationList.length > 0 && common.isActivatedEIP(7702)
      ? { type: 4, authorizationList, accessList, chainId: common.chainId() }
      : accessList.length > 0 && common.isActivatedEIP(2930)
        ? { type: 1, accessList, chainId: common.chainId() }
        : {}),
  } as TypedTxData
}

/** A failed run as the chain reports it. */
export function callError(error: string, returnValue: Uint8Array): Error {
  if (error === 'revert') return new ExecutionRevertedError(returnValue, describeRevert(returnValue))
  return new ExecutionFailedError(error)
}
