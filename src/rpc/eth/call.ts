/**
 * Execution without a transaction: `eth_call`, `eth_estimateGas`, and `eth_createAccessList`
 * (`accessList.ts`).
 *
 * Owns: turning a request object into the chain's call params. Leaves running the call, the gas
 * search and the access-list fixed point to `src/chain/`. A new method of this family (one that
 * runs or fills in a transaction request) goes here or beside it in `eth/`.
 */
import type { BlockOverrides, CallOverrides, StateOverrides } from '../../chain/overrides.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { optional } from '../params/decode.js'
import { blockOverrides, stateOverrides } from '../params/overrides.js'
import { callParams, transactionRequest } from '../params/transaction.js'
import { createAccessListMethod } from './accessList.js'

/** The overrides a call was given, or none (the common case costs nothing). */
function callOverrides(state: StateOverrides | undefined, block: BlockOverrides | undefined): CallOverrides | undefined {
  if (state === undefined && block === undefined) return undefined
  return { ...(state === undefined ? {} : { state }), ...(block === undefined ? {} : { block }) }
}

/** The call and estimate methods over `chainFor`. */
export function callMethods(chainFor: ChainFor) {
  return {
    // geth's third and fourth arguments: state overrides, then block overrides.
    eth_call: defineMethod([transactionRequest, optional(blockParam, LATEST), optional(stateOverrides), optional(blockOverrides)], async ([req, block, state, header], ctx) => {
      const result = await (await chainFor(ctx)).call(callParams(req), block, callOverrides(state, header))
      return toData(result.returnValue)
    }),
    eth_estimateGas: defineMethod([transactionRequest, optional(blockParam, LATEST), optional(stateOverrides), optional(blockOverrides)], async ([req, block, state, header], ctx) => {
      return toQuantity(await (await chainFor(ctx)).estimateGas(callParams(req), block, callOverrides(state, header)))
    }),
    eth_createAccessList: createAccessListMethod(chainFor),
  } satisfies Registry
}
