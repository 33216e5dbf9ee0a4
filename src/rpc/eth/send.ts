/**
 * Submission: `eth_sendRawTransaction`, `eth_sendTransaction` (signed with a dev account's key, or
 * sent unsigned from an impersonated account) and `eth_signTransaction` (signed, not sent).
 *
 * Owns: the node's defaults for a request (nonce, gas estimated against pending, type and fees
 * from the next base fee). Leaves validation and the pool to `src/chain/`, impersonation's
 * bookkeeping to `anvil/impersonation.ts`.
 */
import { TransactionType, createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { Address, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util'
import { signerKeyOf } from '../../chain/accounts.js'
import type { AddOptions, Chain } from '../../chain/chain.js'
import { isImpersonated } from '../anvil/impersonation.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry, type RpcContext } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toData } from '../hex.js'
import { PENDING } from '../params/block.js'
import { callParams, transactionRequest, type TransactionRequest } from '../params/transaction.js'
import { data } from '../params/values.js'

/** The submission methods over `chainFor`. */
export function sendMethods(chainFor: ChainFor) {
  return {
    eth_sendRawTransaction: defineMethod([data], async ([raw], ctx) => toData(await (await chainFor(ctx)).sendRawTransaction(raw, undefined, minedAs(ctx)))),

    eth_sendTransaction: defineMethod([transactionRequest], async ([req], ctx) => {
      const chain = await chainFor(ctx)
      const from = req.from
      if (from === undefined) throw new InvalidParamsError('invalid argument 0: missing "from"')
      const key = chain.accounts.find((a) => equalsBytes(a.address, from))
      if (key === undefined && !isImpersonated(chain, from)) throw new ServerError('unknown account')
      // The node fills in the gas, as geth does: estimated against the pending state.
      const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, PENDING))
      const tx = buildTransaction(chain, req, from, gas)
      // Signed here: its signer's key is known, not recovered.
      if (key !== undefined) return toData(await chain.sendRawTransaction(tx.sign(key.privateKey).serialize(), signerKeyOf(key), minedAs(ctx)))
      // Impersonated: a fake signature and the claimed sender, as anvil and Hardhat do.
      const fake = fakeSigned(tx, from)
      return toData(await chain.addTransaction(fake, new Address(from), minedAs(ctx)))
    }),

    // The raw signed transaction, not sent (anvil's answer; geth's `{raw, tx}` is not what viem and ethers read).
    eth_signTransaction: defineMethod([transactionRequest], async ([req], ctx) => {
      const chain = await chainFor(ctx)
      const from = req.from
      if (from === undefined) throw new InvalidParamsError('invalid argument 0: missing "from"')
      const key = chain.accounts.find((a) => equalsBytes(a.address, from))
      if (key === undefined) throw new ServerError('unknown account')
      const chainId = chain.common.chainId()
      if (req.chainId !== undefined && req.chainId !== chainId) throw new ServerError(`chainId does not match node's (have=${req.chainId}, want=${chainId})`)
      const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, PENDING))
      return toData(buildTransaction(chain, req, from, gas).sign(key.privateKey).serialize())
    }),
  } satisfies Registry
}

/**
 * How a send is mined in automine mode: a client over the wire gets its hash first and prepares
 * its next request while the block is mined, as anvil's clients do (its miner runs beside the
 * answer); its next request waits for the block (`Chains.chainFor`). In process there is no one
 * to run beside: the block is mined before the answer, as Hardhat mines it.
 */
export function minedAs(ctx: RpcContext): AddOptions {
  return ctx.session.transport === 'in-process' ? MINE_NOW : MINE_NEXT_TURN
}

const MINE_NOW: AddOptions = { automine: 'now' }
const MINE_NEXT_TURN: AddOptions = { automine: 'next-turn' }

/** A transaction from an eth_sendTransaction request, with the node's defaults filled in. */
export function buildTransaction(chain: Chain, req: TransactionRequest, from: Uint8Array, gas: bigint): TypedTransaction {
  const common = chain.common
  const nonce = req.nonce ?? chain.pendingNonce(from)
  const base = chain.nextBaseFee()
  const type =
    req.type !== undefined
      ? Number(req.type)
      : req.authorizationList !== undefined
        ? TransactionType.EOACodeEIP7702
        : req.gasPrice !== undefined || base === undefined
          ? req.accessList !== undefined && common.isActivatedEIP(2930)
            ? TransactionType.AccessListEIP2930
            : TransactionType.Legacy
          : TransactionType.FeeMarketEIP1559
  const tip = req.maxPriorityFeePerGas ?? 1_000_000_000n
  const data: TypedTxData = {
    type,
    nonce,
    gasLimit: gas,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(0),
    ...(req.to === undefined ? {} : { to: req.to }),
    ...(type === TransactionType.Legacy || type === TransactionType.AccessListEIP2930
      ? { gasPrice: req.gasPrice ?? (base === undefined ? 1_000_000_000n : base * 2n + tip) }
      : { maxPriorityFeePerGas: tip, maxFeePerGas: req.maxFeePerGas ?? (base ?? 0n) * 2n + tip }),
    ...(type !== TransactionType.Legacy ? { chainId: common.chainId() } : {}),
    ...(req.accessList === undefined ? {} : { accessList: req.accessList.map((i) => ({ address: toData(i.address), storageKeys: i.storageKeys.map(toData) })) }),
  } as TypedTxData
  return createTx(data, { common })
}

/** `tx` with a placeholder signature and `from` pinned as its sender (impersonation). */
export function fakeSigned(tx: TypedTransaction, from: Uint8Array): TypedTransaction {
  const json = tx.toJSON() as Record<string, unknown>
  const r = BigInt('0x' + bytesToUnprefixedHex(from).padEnd(64, '0'))
  // Not frozen (the default), or the sender cannot be pinned below.
  const signed = createTx({ ...json, v: tx.type === TransactionType.Legacy ? 27n : 0n, r, s: 1n } as TypedTxData, { common: tx.common, freeze: false })
  Object.defineProperty(signed, 'getSenderAddress', { value: () => new Address(from) })
  return signed
}
