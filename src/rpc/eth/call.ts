/**
 * Execution without a transaction: `eth_call`, `eth_estimateGas`, and `eth_createAccessList`
 * (`accessList.ts`).
 *
 * Owns: turning a request object into the chain's call params. Leaves running the call, the gas
 * search and the access-list fixed point to `src/chain/`. A new method of this family (one that
 * runs or fills in a transaction request) goes here or beside it in `eth/`.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { anyValue, optional } from '../params/decode.js'
import { transactionRequest, type TransactionRequest } from '../params/transaction.js'
import { createAccessListMethod } from './accessList.js'

/** The chain's call params from a request object (the members it has, no defaults). */
export const callParams = (req: TransactionRequest) => ({
  ...(req.from === undefined ? {} : { from: req.from }),
  ...(req.to === undefined ? {} : { to: req.to }),
  ...(req.gas === undefined ? {} : { gas: req.gas }),
  ...(req.gasPrice === undefined ? {} : { gasPrice: req.gasPrice }),
  ...(req.maxFeePerGas === undefined ? {} : { maxFeePerGas: req.maxFeePerGas }),
  ...(req.maxPriorityFeePerGas === undefined ? {} : { maxPriorityFeePerGas: req.maxPriorityFeePerGas }),
  ...(req.value === undefined ? {} : { value: req.value }),
  ...(req.data === undefined ? {} : { data: req.data }),
  ...(req.accessList === undefined ? {} : { accessList: req.accessList }),
  ...(req.authorizationList === undefined ? {} : { authorizationList: req.authorizationList }),
})

/** The call and estimate methods over `chainFor`. */
export function callMethods(chainFor: ChainFor) {
  return {
    // The third argument (state overrides) is accepted and not applied.
    eth_call: defineMethod([transactionRequest, optional(blockParam, LATEST), optional(anyValue)], async ([req, block], ctx) => {
      const result = await (await chainFor(ctx)).call(callParams(req), block)
      return toData(result.returnValue)
    }),
    eth_estimateGas: defineMethod([transactionRequest, optional(blockParam, LATEST), optional(anyValue)], async ([req, block], ctx) => {
      return toQuantity(await (await chainFor(ctx)).estimateGas(callParams(req), block))
    }),
    eth_createAccessList: createAccessListMethod(chainFor),
  } satisfies Registry
}
