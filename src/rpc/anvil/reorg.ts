/**
 * anvil's reorgs: `anvil_reorg [depth, [[tx, blockOffset], …]]` and `anvil_rollback [depth]`, with
 * anvil 1.7.1's answers (`null`) and words. As in anvil, the dropped blocks' transactions that are
 * not given again are gone, and time continues from the common ancestor. Unlike anvil, a depth of
 * 0 is refused with -32602 (anvil answers -32603 "Required data unavailable").
 *
 * Owns: turning the given transactions into the chain's (a request is filled and signed as anvil
 * does: `from` defaults to the first dev account, nonces count on from the common block). Leaves
 * the reorg itself to `src/chain/reorg/`.
 */
import { Address, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util'
import type { Chain, ReorgTransaction } from '../../chain/chain.js'
import { decodeRawTransaction } from '../../chain/validate.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { buildTransaction, fakeSigned } from '../eth/send.js'
import { optional } from '../params/decode.js'
import { placedItems, type PlacedItem, type ReorgItem } from '../params/reorg.js'
import { callParams } from '../params/transaction.js'
import { wholeNumber } from '../params/values.js'
import { isImpersonated } from './impersonation.js'

/**
 * The chain's transactions for a reorg of `depth` (checked first, as anvil checks it before
 * decoding any). A request's nonce counts on from its sender's nonce at the common block.
 */
export async function placedTransactions(chain: Chain, depth: bigint, kind: 'reorg' | 'rollback', placed: readonly PlacedItem[]): Promise<ReorgTransaction[]> {
  const offsets = placed.map((p) => Number(p.offset))
  chain.checkReorg(depth, kind, offsets)
  const common = chain.blockByNumber(chain.head.number - depth)!
  const nonces = new Map<string, bigint>()
  const sorted = placed.map((p, i) => ({ item: p.item, offset: offsets[i]! })).sort((a, b) => a.offset - b.offset)
  const out: ReorgTransaction[] = []
  for (const { item, offset } of sorted) out.push(await transactionOf(chain, common.number, nonces, item, offset))
  return out
}

async function transactionOf(chain: Chain, common: bigint, nonces: Map<string, bigint>, item: ReorgItem, offset: number): Promise<ReorgTransaction> {
  if (item.kind === 'hash') return { kind: 'hash', hash: item.hash, offset }
  if (item.kind === 'raw') {
    try {
      return { kind: 'tx', tx: decodeRawTransaction(item.raw, chain.common, chain.blockGasLimit), offset }
    } catch (e) {
      throw new InvalidParamsError('Failed to decode transaction', { cause: e })
    }
  }
  const req = item.request
  const from = req.from ?? chain.accounts[0]?.address
  if (from === undefined) throw new ServerError('No signer available')
  const senderKey = bytesToUnprefixedHex(from)
  const at = { kind: 'number', number: common } as const
  const nonce = nonces.get(senderKey) ?? chain.stateAtBlock(chain.resolveBlock(at)).account(senderKey)?.nonce ?? 0n
  nonces.set(senderKey, nonce + 1n)
  const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, at))
  const tx = buildTransaction(chain, { ...req, nonce }, from, gas)
  const key = chain.accounts.find((a) => equalsBytes(a.address, from))
  if (key !== undefined) return { kind: 'tx', tx: tx.sign(key.privateKey), offset }
  if (isImpersonated(chain, from)) return { kind: 'tx', tx: fakeSigned(tx, from), sender: new Address(from), offset }
  throw new ServerError('No signer available')
}

/** anvil's reorg methods over `chainFor`. */
export function anvilReorgMethods(chainFor: ChainFor) {
  return {
    anvil_reorg: defineMethod([wholeNumber, placedItems({ hashes: false })], async ([depth, placed], ctx) => {
      const chain = await chainFor(ctx)
      const transactions = await placedTransactions(chain, depth, 'reorg', placed)
      await chain.reorg({ depth, kind: 'reorg', transactions, dropped: 'discard', resetClock: true })
      return null
    }),
    anvil_rollback: defineMethod([optional(wholeNumber, 1n)], async ([depth], ctx) => {
      await (await chainFor(ctx)).reorg({ depth, kind: 'rollback', transactions: [], dropped: 'discard', resetClock: true })
      return null
    }),
  } satisfies Registry
}
