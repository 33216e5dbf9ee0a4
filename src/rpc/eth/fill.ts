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
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { TransactionType, createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { MAX_INTEGER } from '@ethereumjs/util'
import type { Chain } from '../../chain/chain.js'
import { unpadded } from '../../chain/encoding.js'
import type { AccessListEntry, AuthorizationEntry, CallParams } from '../../chain/execution/params.js'
import { TX_GAS_CAP } from '../../chain/validate.js'
import type { ChainFor } from '../context.js'
import { RawJson, defineMethod, type MethodSpec } from '../dispatcher.js'
import { ServerError } from '../errors.js'
import { hexJson } from '../format.js'
import { toData, toQuantity } from '../hex.js'
import { PENDING } from '../params/block.js'
import { transactionRequest, type TransactionRequest } from '../params/transaction.js'
import { keccakOf } from '../../chain/crypto.js'

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
    const filled = await fillTransaction(chain, request)
    const common = chain.common
    // Legacy and EIP-1559 are encoded here (building ethereumjs's transaction to encode it cost
    // more than the rest of the answer); anything ethereumjs might refuse goes through it.
    const tx = filled.type !== TransactionType.EOACodeEIP7702 && encodable(filled, common) ? undefined : toTransaction(filled, common)
    const raw = tx === undefined ? encodeUnsigned(filled) : tx.serialize()
    // The chain's keccak (WebAssembly once loaded), as web3_sha3 hashes.
    const keccak = keccakOf(common)
    // Hex throughout (a deployment's code twice): hexJson writes it without the escape scan of JSON.stringify.
    return new RawJson(hexJson({ raw: toData(raw), tx: transactionJson(filled, tx, keccak(raw)) }))
  })
}

/** A request with the node's defaults filled in: the fields of the unsigned transaction. */
export interface FilledTransaction {
  readonly type: typeof TransactionType.Legacy | typeof TransactionType.FeeMarketEIP1559 | typeof TransactionType.EOACodeEIP7702
  readonly chainId: bigint
  readonly nonce: bigint
  readonly gas: bigint
  readonly to: Uint8Array | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly fees: { readonly gasPrice: bigint } | { readonly maxPriorityFeePerGas: bigint; readonly maxFeePerGas: bigint }
  /** Empty for a legacy transaction, which carries none. */
  readonly accessList: readonly AccessListEntry[]
  readonly authorizationList: readonly AuthorizationEntry[] | undefined
}

/** The unsigned transaction `request` amounts to, with the node's defaults, as geth's setDefaults and ToTransaction build it. */
export async function fillTransaction(chain: Chain, request: TransactionRequest): Promise<FilledTransaction> {
  const common = chain.common
  const chainId = common.chainId()
  if (request.chainId !== undefined && request.chainId !== chainId) throw new ServerError(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
  if (request.blobVersionedHashes !== undefined) throw new ServerError('blob transactions are not filled by this node')
  if (request.to === undefined && (request.data === undefined || request.data.length === 0)) throw new ServerError('contract creation without any data provided')
  const from = request.from ?? ZERO_ADDRESS
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
  const gas = request.gas ?? (await chain.estimateGas(estimateParams(request, from, fees), PENDING))
  return {
    type,
    chainId,
    nonce: request.nonce ?? chain.pendingNonce(from),
    gas,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? EMPTY,
    fees,
    accessList: type === TransactionType.Legacy ? [] : (request.accessList ?? []),
    authorizationList: request.authorizationList,
  }
}

/** The call the gas is estimated with: the request with its fees filled in. */
function estimateParams(request: TransactionRequest, from: Uint8Array, fees: FilledTransaction['fees']): CallParams {
  const params: CallParams = { from, ...fees }
  if (request.to !== undefined) params.to = request.to
  if (request.value !== undefined) params.value = request.value
  if (request.data !== undefined) params.data = request.data
  if (request.accessList !== undefined) params.accessList = request.accessList
  if (request.authorizationList !== undefined) params.authorizationList = request.authorizationList
  return params
}

/**
 * Whether ethereumjs would build `filled` without complaint (so that `encodeUnsigned` gives its
 * bytes): every bound its constructors check holds. When one might not, the transaction is built
 * and ethereumjs decides, with its words.
 */
function encodable(filled: FilledTransaction, common: Common): boolean {
  const feeCap = 'gasPrice' in filled.fees ? filled.fees.gasPrice : filled.fees.maxFeePerGas
  if ('maxFeePerGas' in filled.fees && filled.fees.maxFeePerGas < filled.fees.maxPriorityFeePerGas) return false
  if (filled.nonce >= MAX_UINT64 || filled.gas >= MAX_UINT64 || feeCap >= MAX_UINT64 || filled.value > MAX_INTEGER) return false
  if (common.isActivatedEIP(7825) && filled.gas > TX_GAS_CAP) return false
  return !(filled.to === undefined && common.isActivatedEIP(3860) && BigInt(filled.data.length) > common.param('maxInitCodeSize'))
}

/**
 * The RLP of an unsigned legacy or EIP-1559 transaction, as ethereumjs's `serialize` writes it:
 * its fields, then empty `v`, `r` and `s` (a legacy one without EIP-155's chain id: geth's raw).
 */
export function encodeUnsigned(filled: FilledTransaction): Uint8Array {
  const to = filled.to ?? EMPTY
  const value = unpadded(filled.value)
  const gas = unpadded(filled.gas)
  const nonce = unpadded(filled.nonce)
  if ('gasPrice' in filled.fees) return RLP.encode([nonce, unpadded(filled.fees.gasPrice), gas, to, value, filled.data, EMPTY, EMPTY, EMPTY])
  const accessList = filled.accessList.map((entry) => [entry.address, entry.storageKeys as Uint8Array[]])
  const fields = [unpadded(filled.chainId), nonce, unpadded(filled.fees.maxPriorityFeePerGas), unpadded(filled.fees.maxFeePerGas), gas, to, value, filled.data, accessList, EMPTY, EMPTY, EMPTY]
  const body = RLP.encode(fields)
  const raw = new Uint8Array(body.length + 1)
  raw[0] = TransactionType.FeeMarketEIP1559
  raw.set(body, 1)
  return raw
}

/** ethereumjs's transaction of `filled`; a request no transaction can carry (gas above the EIP-7825 cap, a value over 256 bits) is refused. */
function toTransaction(filled: FilledTransaction, common: Common): TypedTransaction {
  const data = {
    type: filled.type,
    nonce: filled.nonce,
    gasLimit: filled.gas,
    value: filled.value,
    data: filled.data,
    ...(filled.to === undefined ? {} : { to: filled.to }),
    ...filled.fees,
    ...(filled.type === TransactionType.Legacy ? {} : { chainId: filled.chainId }),
    ...(filled.type === TransactionType.Legacy ? {} : { accessList: filled.accessList.map((i) => ({ address: toData(i.address), storageKeys: i.storageKeys.map(toData) })) }),
    ...(filled.type === TransactionType.EOACodeEIP7702
      ? {
          authorizationList: filled.authorizationList!.map((a) => ({
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
    throw new ServerError((cause as Error).message, { cause })
  }
}

/**
 * geth's JSON of an unsigned transaction: its fields, a zero signature, and the hash of its
 * encoding. `tx` is ethereumjs's transaction where one was built (it writes an authorization list).
 */
function transactionJson(filled: FilledTransaction, tx: TypedTransaction | undefined, hash: Uint8Array): Record<string, unknown> {
  const legacy = filled.type === TransactionType.Legacy
  const out: Record<string, unknown> = { type: toQuantity(filled.type) }
  if (!legacy) out.chainId = toQuantity(filled.chainId)
  out.nonce = toQuantity(filled.nonce)
  out.to = filled.to === undefined ? null : toData(filled.to)
  out.gas = toQuantity(filled.gas)
  if ('gasPrice' in filled.fees) {
    out.gasPrice = toQuantity(filled.fees.gasPrice)
  } else {
    out.maxFeePerGas = toQuantity(filled.fees.maxFeePerGas)
    out.maxPriorityFeePerGas = toQuantity(filled.fees.maxPriorityFeePerGas)
  }
  out.value = toQuantity(filled.value)
  out.input = toData(filled.data)
  if (!legacy) out.accessList = filled.accessList.map((entry) => ({ address: toData(entry.address), storageKeys: entry.storageKeys.map(toData) }))
  if (filled.type === TransactionType.EOACodeEIP7702) out.authorizationList = (tx?.toJSON() as { authorizationList?: unknown } | undefined)?.authorizationList ?? []
  out.v = '0x0'
  out.r = '0x0'
  out.s = '0x0'
  if (!legacy) out.yParity = '0x0'
  out.hash = toData(hash)
  return out
}

const ZERO_ADDRESS = new Uint8Array(20)
const EMPTY = new Uint8Array(0)
const MAX_UINT64 = (1n << 64n) - 1n

/** The `eth_fillTransaction` fragment of the registry. */
export function fillMethods(chainFor: ChainFor) {
  return { eth_fillTransaction: fillTransactionMethod(chainFor) }
}
