/**
 * Test helpers for end-to-end JSON-RPC: a real ringchain on port 0 (closed when the test ends), raw
 * requests over HTTP (`fetch`) and WebSocket (`ws`), and signed transactions of every type the
 * default fork takes, sent through `eth_sendRawTransaction`. Requests never go in-process (only
 * signing reads the chain's keys and rules): what the tests see is what a client sees on the wire.
 */
import {
  TransactionType,
  createAccessList2930Tx,
  createBlob4844Tx,
  createEOACode7702Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { onTestFinished } from 'vitest'
import { WebSocket } from 'ws'
import type { Chain } from '../../src/chain/chain.js'
import { startRingchain, type RunningRingchain, type StartOptions } from '../../src/index.js'

export type Hex = `0x${string}`

/** A JSON-RPC error object as it comes off the wire. */
export interface WireError {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

/** A JSON-RPC response envelope as it comes off the wire. */
export interface WireResponse {
  readonly jsonrpc: string
  readonly id: unknown
  readonly result?: unknown
  readonly error?: WireError
}

// --- the simulator ------------------------------------------------------------------------------

/**
 * A fresh ringchain on 127.0.0.1, port 0, deterministic (fixed genesis time, 12 s blocks, so hashes
 * are the same on every run); closed when the current test finishes.
 */
export async function start(options: Omit<StartOptions, 'port'> = {}): Promise<RunningRingchain> {
  const rc = await startRingchain({ port: 0, deterministic: true, ...options })
  onTestFinished(() => rc.close())
  return rc
}

// --- HTTP ---------------------------------------------------------------------------------------

/** An HTTP answer: status, headers, and the body as text. */
export interface HttpAnswer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** POSTs a body (a string is sent as it is, anything else as JSON); never follows redirects. */
export async function post(url: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(5_000),
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** Sends one request (`id` 1 unless given) and returns the parsed envelope; the HTTP status must be 200. */
export async function send(url: string, method: string, params: readonly unknown[], id: unknown = 1): Promise<WireResponse> {
  const answer = await post(url, { jsonrpc: '2.0', id, method, params })
  if (answer.status !== 200) throw new Error(`${method}: HTTP ${answer.status}: ${answer.text}`)
  return JSON.parse(answer.text) as WireResponse
}

/** The result of a call; fails the test with the error object if there is one. */
export async function result<T = unknown>(url: string, method: string, params: readonly unknown[]): Promise<T> {
  const response = await send(url, method, params)
  if (response.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`)
  if (!('result' in response)) throw new Error(`${method}: neither result nor error in ${JSON.stringify(response)}`)
  return response.result as T
}

/** The error of a call that must fail; fails the test if it succeeds. */
export async function rpcError(url: string, method: string, params: readonly unknown[]): Promise<WireError> {
  const response = await send(url, method, params)
  if (response.error === undefined) throw new Error(`${method} was expected to fail, got ${JSON.stringify(response)}`)
  return response.error
}

// --- WebSocket ----------------------------------------------------------------------------------

/** Opens a WebSocket client (terminated when the test finishes). */
export function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    onTestFinished(() => ws.terminate())
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** The next message a client receives, as text (fails after `ms`). */
export function nextMessage(ws: WebSocket, ms = 4_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no WebSocket message within ${ms} ms`)), ms)
    ws.once('message', (data) => {
      clearTimeout(timer)
      resolve(String(data))
    })
  })
}

/** Sends `body` on a fresh connection and returns the first message that comes back, as text. */
export async function wsRoundTrip(url: string, body: string): Promise<string> {
  const ws = await openWs(url)
  const answer = nextMessage(ws)
  ws.send(body)
  try {
    return await answer
  } finally {
    ws.close()
  }
}

/** What a refused WebSocket upgrade got instead of the handshake. */
export function refusedUpgrade(url: string): Promise<{ status: number; contentType: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => {
      ws.terminate()
      reject(new Error('the handshake succeeded'))
    })
    ws.once('error', reject)
    ws.once('unexpected-response', (req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body })
      })
    })
  })
}

// --- transactions -------------------------------------------------------------------------------

/**
 * The transaction types the default fork takes, blob transactions left out: with the default fork's
 * cell proofs (EIP-7594) one takes seconds to build, so tests send `eip4844` on a Prague chain.
 */
export const TX_KINDS = ['legacy', 'legacy-eip155', 'eip2930', 'eip1559', 'eip7702'] as const
export type TxKind = (typeof TX_KINDS)[number] | 'eip4844'

export interface TxFields {
  readonly nonce: bigint
  /** Absent or null: a contract creation (not for `eip7702`, which needs a recipient). */
  readonly to?: Hex | null
  readonly value?: bigint
  readonly data?: Hex
  readonly gasLimit?: bigint
  /** Legacy and 2930. */
  readonly gasPrice?: bigint
  /** 1559, 4844 and 7702. */
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  /** 2930, 1559, 7702. */
  readonly accessList?: readonly { address: Hex; storageKeys: Hex[] }[]
  /** 4844: the blob fee cap (default 1 gwei); the transaction carries one blob. */
  readonly maxFeePerBlobGas?: bigint
  /**
   * 7702: the dev account that signs the authorization (default: the sender) and the address it
   * delegates to (default: `to`). The authorization carries nonce 0: the authority's first.
   */
  readonly authority?: number
  readonly delegate?: Hex
}

/** Gas price of legacy and 2930 transactions, and fee cap of the others, unless given: 10 gwei. */
export const FEE_CAP = 10_000_000_000n
/** Tip of 1559, 4844 and 7702 transactions unless given: 1 gwei. */
export const TIP = 1_000_000_000n

/**
 * A transaction of `kind` from dev account `from`, signed. `legacy` is signed without EIP-155 (v is
 * 27 or 28), the way wallets signed before Spurious Dragon; `legacy-eip155` carries the chain id.
 */
export function signedTx(chain: Chain, kind: TxKind, from: number, fields: TxFields): TypedTransaction {
  const key = chain.accounts[from]!.privateKey
  const common = chain.common
  const base = {
    nonce: fields.nonce,
    ...(fields.to == null ? {} : { to: fields.to }),
    value: fields.value ?? 0n,
    data: fields.data ?? '0x',
    gasLimit: fields.gasLimit ?? 100_000n,
  }
  const accessList = (fields.accessList ?? []).map((item) => ({ address: item.address, storageKeys: [...item.storageKeys] }))
  switch (kind) {
    case 'legacy': {
      // Before Spurious Dragon, ethereumjs signs without the chain id.
      const old = common.copy()
      old.setHardfork('tangerineWhistle')
      return createLegacyTx({ ...base, gasPrice: fields.gasPrice ?? FEE_CAP }, { common: old }).sign(key)
    }
    case 'legacy-eip155':
      return createLegacyTx({ ...base, gasPrice: fields.gasPrice ?? FEE_CAP }, { common }).sign(key)
    case 'eip2930':
      return createAccessList2930Tx({ ...base, chainId: common.chainId(), gasPrice: fields.gasPrice ?? FEE_CAP, accessList }, { common }).sign(key)
    case 'eip1559':
      return createFeeMarket1559Tx(
        {
          ...base,
          chainId: common.chainId(),
          maxFeePerGas: fields.maxFeePerGas ?? FEE_CAP,
          maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? TIP,
          accessList,
        },
        { common },
      ).sign(key)
    case 'eip4844':
      if (fields.to == null) throw new Error('a blob transaction needs a recipient')
      return createBlob4844Tx(
        {
          ...base,
          chainId: common.chainId(),
          maxFeePerGas: fields.maxFeePerGas ?? FEE_CAP,
          maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? TIP,
          maxFeePerBlobGas: fields.maxFeePerBlobGas ?? 1_000_000_000n,
          accessList,
          blobsData: ['ringchain blob'],
        },
        { common },
      ).sign(key)
    case 'eip7702': {
      if (fields.to == null) throw new Error('an EIP-7702 transaction needs a recipient')
      const authority = chain.accounts[fields.authority ?? from]!
      const authorization = eoaCode7702SignAuthorization(
        { chainId: toHex(common.chainId()), address: fields.delegate ?? fields.to, nonce: '0x0' },
        authority.privateKey,
      )
      return createEOACode7702Tx(
        {
          ...base,
          chainId: common.chainId(),
          maxFeePerGas: fields.maxFeePerGas ?? FEE_CAP,
          maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? TIP,
          accessList,
          authorizationList: [authorization],
        },
        { common },
      ).sign(key)
    }
  }
}

/**
 * Sends a signed transaction with `eth_sendRawTransaction` over HTTP (a blob transaction in its
 * network form, with its blobs); returns its hash.
 */
export async function sendRaw(rc: RunningRingchain, tx: TypedTransaction): Promise<Hex> {
  const raw = tx.type === TransactionType.BlobEIP4844 && 'serializeNetworkWrapper' in tx ? tx.serializeNetworkWrapper() : tx.serialize()
  return result<Hex>(rc.httpUrl, 'eth_sendRawTransaction', [bytesToHex(raw)])
}

/**
 * A sender of signed transactions: each from dev account `from` with that account's next nonce
 * (counted from 0), `fields` over `defaults`; gives the hash, the signed tx and the nonce it took.
 */
export function txSender(rc: RunningRingchain, defaults: Omit<TxFields, 'nonce'> = {}) {
  const nonces = new Map<number, bigint>()
  return async (kind: TxKind, from: number, fields: Omit<TxFields, 'nonce'> = {}) => {
    const nonce = nonces.get(from) ?? 0n
    nonces.set(from, nonce + 1n)
    const tx = signedTx(rc.chain, kind, from, { ...defaults, ...fields, nonce })
    return { hash: await sendRaw(rc, tx), tx, nonce }
  }
}

// --- words --------------------------------------------------------------------------------------

/** A quantity as the wire writes it. */
export function toHex(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}

/** A 32-byte word as the wire writes storage values: `0x` + 64 hex digits. */
export function word(value: bigint): Hex {
  return `0x${value.toString(16).padStart(64, '0')}`
}

/** The storage slot of `mapping[key]` for a mapping at `slot` (Solidity's rule, service.md §4.2). */
export function mappingSlot(key: bigint, slot: bigint): Hex {
  return bytesToHex(keccak_256(hexToBytes(`${word(key)}${word(slot).slice(2)}`))) as Hex
}
