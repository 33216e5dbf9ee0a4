/**
 * `eth_fillTransaction`: a transaction request with the node's defaults filled in, unsigned, as
 * geth answers it: `{ raw, tx }`, raw being the RLP of the unsigned transaction and tx its JSON.
 * viem asks this first when it prepares a transaction: one call instead of four.
 *
 * Owns: geth's choice of type (EIP-7702 with authorizations, legacy when `gasPrice` is given,
 * EIP-1559 otherwise on London forks) and the wire shape. The defaults are those
 * `eth_sendTransaction` fills here: nonce from the pending pool, gas estimated against the pending
 * state, fees from the next block's base fee plus a 1 gwei tip.
 */
import { TransactionType, accessListBytesToJSON, createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Chain } from '../../chain/chain.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec } from '../dispatcher.js'
import { ServerError } from '../errors.js'
import { toData, toQuantity } from '../hex.js'
import { PENDING } from '../params/block.js'
import { transactionRequest, type TransactionRequest } from '../params/transaction.js'

/** What eth_maxPriorityFeePerGas suggests, and the price before London. */
const SUGGESTED_TIP = 1_000_000_000n

/**
 * `eth_fillTransaction(request)`.
 *
 * @example
 * // { from, to, input } → { raw: '0x02f8…', tx: { type: '0x2', nonce: '0x1', gas: '0xab12', maxFeePerGas: '0x…', … } }
 */
export function fillTransactionMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([transactionRequest], async ([request], ctx) => {
    const chain = await chainFor(ctx)
    const tx = await fillTransaction(chain, request)
    const raw = tx.serialize()
    // The chain's keccak (WebAssembly once loaded), as web3_sha3 hashes.
    const keccak = chain.common.customCrypto.keccak256 ?? keccak_256
    return { raw: toData(raw), tx: transactionJson(tx, keccak(raw)) }
  })
}

/** The unsigned transaction `request` amounts to, with the node's defaults, as geth's setDefaults and ToTransaction build it. */
export async function fillTransaction(chain: Chain, request: TransactionRequest): Promise<TypedTransaction> {
  const common = chain.common
  const chainId = common.chainId()
  if (request.chainId !== undefined && request.chainId !== chainId) throw new ServerError(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
  if (request.blobVersionedHashes !== undefined) throw new ServerError('blob transactions are not filled by this node')
  if (request.to === undefined && (request.data === undefined || request.data.length === 0)) throw new ServerError('contract creation without any data provided')
  const from = request.from ?? new Uint8Array(20)
  const base = chain.nextBaseFee()
  const type =
    request.authorizationList !== undefined
      ? TransactionType.EOACodeEIP7702
      : request.gasPrice !== undefined || base === undefined
        ? TransactionType.Legacy
        : TransactionType.FeeMarketEIP1559
  const tip = request.maxPriorityFeePerGas ?? SUGGESTED_TIP
  const fees =
    type === TransactionType.Legacy
      ? { gasPrice: request.gasPrice ?? (base === undefined ? SUGGESTED_TIP : base * 2n + tip) }
      : { maxPriorityFeePerGas: tip, maxFeePerGas: request.maxFeePerGas ?? (base ?? 0n) * 2n + tip }
  const gas =
    request.gas ??
    (await chain.estimateGas(
      {
        from,
        ...(request.to === undefined ? {} : { to: request.to }),
        ...(request.value === undefined ? {} : { value: request.value }),
        ...(request.data === undefined ? {} : { data: request.data }),
        ...(request.accessList === undefined ? {} : { accessList: request.accessList }),
        ...(request.authorizationList === undefined ? {} : { authorizationList: request.authorizationList }),
        ...('gasPrice' in fees ? { gasPrice: fees.gasPrice } : { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }),
      },
      PENDING,
    ))
  const data = {
    type,
    nonce: request.nonce ?? chain.pendingNonce(from),
    gasLimit: gas,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(0),
    ...(request.to === undefined ? {} : { to: request.to }),
    ...fees,
    ...(type === TransactionType.Legacy ? {} : { chainId }),
    ...(type === TransactionType.Legacy ? {} : { accessList: (request.accessList ?? []).map((i) => ({ address: toData(i.address), storageKeys: i.storageKeys.map(toData) })) }),
    ...(type === TransactionType.EOACodeEIP7702
      ? {
          authorizationList: request.authorizationList!.map((a) => ({
            chainId: toQuantity(a.chainId),
            address: toData(a.address),
            nonce: toQuantity(a.nonce),
            yParity: toQuantity(a.yParity),
            r: toQuantity(a.r),
            s: toQuantity(a.s),
          })),
        }
      : {}),
  } as TypedTxData
  try {
    return createTx(data, { common })
  } catch (cause) {
    // A request no transaction can carry (gas above the EIP-7825 cap, a value over 256 bits).
    throw new ServerError((cause as Error).message, { cause })
  }
}

/** geth's JSON of an unsigned transaction: its fields, a zero signature, and the hash of its encoding. */
function transactionJson(tx: TypedTransaction, hash: Uint8Array): Record<string, unknown> {
  const out: Record<string, unknown> = { type: toQuantity(tx.type) }
  if (tx.type !== TransactionType.Legacy) out.chainId = toQuantity(tx.common.chainId())
  out.nonce = toQuantity(tx.nonce)
  out.to = tx.to === undefined ? null : toData(tx.to.bytes)
  out.gas = toQuantity(tx.gasLimit)
  if ('maxFeePerGas' in tx) {
    out.maxFeePerGas = toQuantity(tx.maxFeePerGas)
    out.maxPriorityFeePerGas = toQuantity(tx.maxPriorityFeePerGas)
  } else {
    out.gasPrice = toQuantity(tx.gasPrice)
  }
  out.value = toQuantity(tx.value)
  out.input = toData(tx.data)
  // ethereumjs's JSON of the lists, without the rest of its toJSON (hex of every field) on the common types.
  if (tx.type !== TransactionType.Legacy && 'accessList' in tx) out.accessList = accessListBytesToJSON(tx.accessList)
  if (tx.type === TransactionType.EOACodeEIP7702) out.authorizationList = (tx.toJSON() as { authorizationList?: unknown }).authorizationList ?? []
  out.v = '0x0'
  out.r = '0x0'
  out.s = '0x0'
  if (tx.type !== TransactionType.Legacy) out.yParity = '0x0'
  out.hash = toData(hash)
  return out
}

/** The `eth_fillTransaction` fragment of the registry. */
export function fillMethods(chainFor: ChainFor) {
  return { eth_fillTransaction: fillTransactionMethod(chainFor) }
}
