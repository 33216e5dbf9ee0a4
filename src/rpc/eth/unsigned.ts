/**
 * `eth_sendUnsignedTransaction` (anvil; viem's `sendUnsignedTransaction` test action): a
 * transaction from any `from`, no key and no impersonation needed, pooled with a placeholder
 * signature and its sender pinned, as anvil pools it.
 *
 * Owns: that the sender need not be known. The node's defaults and the placeholder signature are
 * `send.ts`'s, validation and the pool `src/chain/`'s.
 */
import { Address } from '@ethereumjs/util'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError } from '../errors.js'
import { toData } from '../hex.js'
import { PENDING } from '../params/block.js'
import { callParams, transactionRequest } from '../params/transaction.js'
import { buildTransaction, fakeSigned, minedAs } from './send.js'

/** The unsigned-submission method over `chainFor`. */
export function unsignedSendMethods(chainFor: ChainFor) {
  return {
    eth_sendUnsignedTransaction: defineMethod([transactionRequest], async ([req], ctx) => {
      const chain = await chainFor(ctx)
      const from = req.from
      if (from === undefined) throw new InvalidParamsError('invalid argument 0: missing "from"')
      const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, PENDING))
      return toData(await chain.addTransaction(fakeSigned(buildTransaction(chain, req, from, gas), from), new Address(from), minedAs(ctx)))
    }),
  } satisfies Registry
}
