/**
 * `eth_createAccessList`: the EIP-2930 access list of a call, the gas it uses with that list, and
 * the call's failure (`error`) when it fails, as geth answers.
 *
 * Owns: the params (geth's TransactionArgs, block, state overrides refused) and the wire shape.
 * Leaves the fixed-point search, the tracer and the defaults to `src/chain/accessList.ts`.
 */
import type { AccessListCall } from '../../chain/accessList.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { optional, type Param } from '../params/decode.js'
import { callParams, transactionRequest, type TransactionRequest } from '../params/transaction.js'

/** geth's third argument, state overrides: only an empty set is accepted (ringchain does not apply overrides). */
const noOverrides: Param<undefined> = {
  decode(value) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return undefined
    throw new InvalidParamsError('invalid argument 2: state overrides are not supported')
  },
}

/**
 * `eth_createAccessList(call, block = latest)`.
 *
 * @example
 * // { from, to, input } → { accessList: [{ address, storageKeys: ['0x00…00'] }], gasUsed: '0xca3c' }
 * // a reverting call     → { accessList: [...], error: 'execution reverted', gasUsed: '0x639d' }
 */
export function createAccessListMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([transactionRequest, optional(blockParam, LATEST), optional(noOverrides)], async ([request, block], ctx) => {
    const chain = await chainFor(ctx)
    const chainId = chain.common.chainId()
    if (request.chainId !== undefined && request.chainId !== chainId) {
      throw new ServerError(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
    }
    const result = await chain.createAccessList(toCall(request), block)
    return {
      accessList: result.accessList.map((entry) => ({ address: toData(entry.address), storageKeys: entry.storageKeys.map(toData) })),
      ...(result.error === undefined ? {} : { error: result.error }),
      gasUsed: toQuantity(result.gasUsed),
    }
  })
}

/** The call fields geth's access-list run uses (blob hashes are not run). */
function toCall(request: TransactionRequest): AccessListCall {
  const call: AccessListCall = callParams(request)
  if (request.nonce !== undefined) call.nonce = request.nonce
  return call
}
