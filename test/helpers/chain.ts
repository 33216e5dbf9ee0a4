/** Test helpers: signing transactions from dev accounts and a tiny storage-writing contract. */
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { Chain } from '../../src/chain/chain.js'

/**
 * Runtime code: SSTORE(calldata[0:32], calldata[32:64]), then LOG1(topic = the slot, data = the value).
 * Hand-assembled so the tests need no compiler.
 */
export const STORE_RUNTIME = '0x6020356000355560203560005260003560206000a100'
/** Init code that deploys `runtime` (under 256 bytes) as it is. */
export function initcode(runtime: string): `0x${string}` {
  const body = runtime.replace(/^0x/, '')
  const length = (body.length / 2).toString(16).padStart(2, '0')
  return `0x60${length}600c60003960${length}6000f3${body}`
}

/** Init code returning STORE_RUNTIME. */
export const STORE_INITCODE = initcode(STORE_RUNTIME)

export function word(value: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(value), 32)
}

export function storeCalldata(slot: bigint, value: bigint): Uint8Array {
  const out = new Uint8Array(64)
  out.set(word(slot), 0)
  out.set(word(value), 32)
  return out
}

interface TxFields {
  nonce: bigint
  to?: Uint8Array
  value?: bigint
  data?: Uint8Array
  gasLimit?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

/** A signed EIP-1559 transaction from dev account `from`. */
export function signed1559(chain: Chain, from: number, fields: TxFields): TypedTransaction {
  return createFeeMarket1559Tx(
    {
      chainId: chain.common.chainId(),
      nonce: fields.nonce,
      ...(fields.to === undefined ? {} : { to: fields.to }),
      value: fields.value ?? 0n,
      data: fields.data ?? new Uint8Array(0),
      gasLimit: fields.gasLimit ?? 21_000n,
      maxFeePerGas: fields.maxFeePerGas ?? 10_000_000_000n,
      maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? 1_000_000_000n,
    },
    { common: chain.common },
  ).sign(chain.accounts[from]!.privateKey)
}

/** A signed legacy transaction (EIP-155 when the fork has it). */
export function signedLegacy(chain: Chain, from: number, fields: TxFields & { gasPrice?: bigint }): TypedTransaction {
  return createLegacyTx(
    {
      nonce: fields.nonce,
      ...(fields.to === undefined ? {} : { to: fields.to }),
      value: fields.value ?? 0n,
      data: fields.data ?? new Uint8Array(0),
      gasLimit: fields.gasLimit ?? 21_000n,
      gasPrice: fields.gasPrice ?? 10_000_000_000n,
    },
    { common: chain.common },
  ).sign(chain.accounts[from]!.privateKey)
}

/** Sends a transaction and returns its hash. */
export async function send(chain: Chain, tx: TypedTransaction): Promise<Uint8Array> {
  return chain.sendRawTransaction(tx.serialize())
}

/** Deploys the storage contract from dev account `from`; returns its address. */
export async function deployStore(chain: Chain, from = 0, nonce = 0n): Promise<Uint8Array> {
  const hash = await send(chain, signed1559(chain, from, { nonce, data: hexToBytes(STORE_INITCODE), gasLimit: 200_000n }))
  const found = chain.lookupTransaction(hash)
  if (found?.status !== 'included') throw new Error('deploy not mined')
  const address = found.included.receipt.contractAddress
  if (address === undefined) throw new Error('no contract address')
  return address
}
