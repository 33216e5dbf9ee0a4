// The transaction object of eth_call, eth_estimateGas, eth_sendTransaction and friends (geth's
// TransactionArgs), with its access list and EIP-7702 authorizations.
// Does not own: defaults a node fills in (the handlers and the chain do), nor the shapes of an
// access-list entry and an authorization (the chain's, `chain/execution/params.ts`).

import { equalsBytes } from '@ethereumjs/util'
import type { AccessListEntry, AuthorizationEntry, CallParams } from '../../chain/execution/params.js'
import { InvalidParamsError } from '../errors.js'
import { ArgumentError, type Param } from './decode.js'
import { BIG, U256, UINT64, cannotUnmarshal, decodeArray, decodeBytes, decodeFixed, decodeNumber, field, isObject, jsonKind, type Mutable } from './go.js'

/**
 * The transaction object of `eth_call`, `eth_estimateGas`, `eth_sendTransaction`: every member
 * optional, `data` being `input` or `data` (geth's TransactionArgs; `null` members are absent,
 * unknown members ignored).
 */
export interface TransactionRequest {
  readonly from?: Uint8Array
  /** Absent for a contract creation. */
  readonly to?: Uint8Array
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly maxFeePerBlobGas?: bigint
  readonly value?: bigint
  readonly nonce?: bigint
  /** From `input`, else `data` (both given must be equal). */
  readonly data?: Uint8Array
  readonly accessList?: readonly AccessListEntry[]
  readonly chainId?: bigint
  readonly type?: bigint
  readonly authorizationList?: readonly AuthorizationEntry[]
  readonly blobVersionedHashes?: readonly Uint8Array[]
}

const TX = 'TransactionArgs'

/** A transaction call object (geth's TransactionArgs). */
export const transactionRequest: Param<TransactionRequest> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'ethapi.TransactionArgs')
    const tx: Mutable<TransactionRequest> = {}
    let data: Uint8Array | undefined
    let input: Uint8Array | undefined
    // Members in the order they came, as Go's decoder meets them: the first bad one is reported.
    for (const key in value) {
      const member = value[key]
      if (member === null || member === undefined) continue
      const at = field(TX, key)
      switch (key) {
        case 'from':
        case 'to':
          tx[key] = decodeFixed(member, 20, 'common.Address', at)
          break
        case 'gas':
        case 'nonce':
        case 'type':
          tx[key] = decodeNumber(member, UINT64, at)
          break
        case 'gasPrice':
        case 'maxFeePerGas':
        case 'maxPriorityFeePerGas':
        case 'maxFeePerBlobGas':
        case 'value':
        case 'chainId':
          tx[key] = decodeNumber(member, BIG, at)
          break
        case 'data':
          data = decodeBytes(member, at)
          break
        case 'input':
          input = decodeBytes(member, at)
          break
        case 'accessList':
          tx.accessList = decodeArray(member, 'types.AccessList', at).map(decodeAccessListItem)
          break
        case 'blobVersionedHashes':
          tx.blobVersionedHashes = decodeArray(member, '[]common.Hash', at).map((item) =>
            decodeFixed(item, 32, 'common.Hash', at),
          )
          break
        case 'authorizationList':
          tx.authorizationList = decodeArray(member, '[]types.SetCodeAuthorization', at).map(decodeAuthorization)
          break
      }
    }
    if (data !== undefined && input !== undefined && !equalsBytes(data, input)) {
      // geth's text (geth sends it as -32000 once the call runs).
      throw new InvalidParamsError(
        'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
      )
    }
    const payload = input ?? data
    if (payload !== undefined) tx.data = payload
    return tx
  },
}

function decodeAccessListItem(value: unknown): AccessListEntry {
  const at = field(TX, 'accessList')
  // A null entry decodes as an empty tuple in Go, which then misses its required fields.
  if (value !== null && !isObject(value)) throw cannotUnmarshal(jsonKind(value), 'types.AccessTuple', at)
  const members: Readonly<Record<string, unknown>> = value ?? {}
  let itemAddress: Uint8Array | undefined
  let storageKeys: Uint8Array[] | undefined
  for (const key in members) {
    const member = members[key]
    if (member === null || member === undefined) continue
    const memberAt = field(TX, `accessList.${key}`)
    if (key === 'address') itemAddress = decodeFixed(member, 20, 'common.Address', memberAt)
    else if (key === 'storageKeys') {
      storageKeys = decodeArray(member, '[]common.Hash', memberAt).map((item) =>
        decodeFixed(item, 32, 'common.Hash', memberAt),
      )
    }
  }
  if (itemAddress === undefined) throw new ArgumentError("missing required field 'address' for AccessTuple")
  if (storageKeys === undefined) throw new ArgumentError("missing required field 'storageKeys' for AccessTuple")
  return { address: itemAddress, storageKeys }
}

const AUTHORIZATION_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'] as const

function decodeAuthorization(value: unknown): AuthorizationEntry {
  const at = field(TX, 'authorizationList')
  if (value !== null && !isObject(value)) throw cannotUnmarshal(jsonKind(value), 'types.SetCodeAuthorization', at)
  const members: Readonly<Record<string, unknown>> = value ?? {}
  const got: Partial<Mutable<AuthorizationEntry>> = {}
  for (const key in members) {
    const member = members[key]
    if (member === null || member === undefined) continue
    const memberAt = field(TX, `authorizationList.${key}`)
    switch (key) {
      case 'chainId':
      case 'r':
      case 's':
        got[key] = decodeNumber(member, U256, memberAt)
        break
      case 'nonce':
      case 'yParity':
        got[key] = decodeNumber(member, UINT64, memberAt)
        break
      case 'address':
        got.address = decodeFixed(member, 20, 'common.Address', memberAt)
        break
    }
  }
  for (const name of AUTHORIZATION_FIELDS) {
    if (got[name] === undefined) throw new ArgumentError(`missing required field '${name}' for SetCodeAuthorization`)
  }
  return got as AuthorizationEntry
}

/**
 * The chain's call params from a request object (the members it has, no defaults). Written as
 * assignments, not `...(x === undefined ? {} : { x })`: on Node 20 each spread after the first
 * takes V8's slow path (see `src/chain/execution/leanEvm.ts`), and every call and estimate pays it.
 */
export const callParams = (req: TransactionRequest): CallParams => {
  const params: CallParams = {}
  if (req.from !== undefined) params.from = req.from
  if (req.to !== undefined) params.to = req.to
  if (req.gas !== undefined) params.gas = req.gas
  if (req.gasPrice !== undefined) params.gasPrice = req.gasPrice
  if (req.maxFeePerGas !== undefined) params.maxFeePerGas = req.maxFeePerGas
  if (req.maxPriorityFeePerGas !== undefined) params.maxPriorityFeePerGas = req.maxPriorityFeePerGas
  if (req.value !== undefined) params.value = req.value
  if (req.data !== undefined) params.data = req.data
  if (req.accessList !== undefined) params.accessList = req.accessList
  if (req.authorizationList !== undefined) params.authorizationList = req.authorizationList
  return params
}
