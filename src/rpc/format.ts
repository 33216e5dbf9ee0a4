/**
 * Formatters: chain records to their JSON-RPC shapes, as geth writes them.
 *
 * Owns: the wire shape of blocks, transactions (pending and included), receipts and logs: field
 * names, which fields a type has, null for pending. Records of mined blocks never change, so their
 * JSON is built once and cached (`RawJson`), and leaves with the record when its block leaves.
 */
import type { Block } from '@ethereumjs/block'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { toChecksumAddress } from '@ethereumjs/util'
import type { IncludedTx, LogRecord, PendingTx } from '../chain/types.js'
import { RawJson } from './dispatcher.js'
import { toData, toQuantity } from './hex.js'

type Json = Record<string, unknown>

const txCache = new WeakMap<object, RawJson>()
const receiptCache = new WeakMap<object, RawJson>()
const logCache = new WeakMap<object, RawJson>()
/** Per block, its JSON with transaction hashes and with full transactions, each built when first asked for. */
const blockCache = new WeakMap<object, { hashes?: RawJson; full?: RawJson }>()

/** The transaction object of an included transaction (cached). */
export function includedTxJson(included: IncludedTx): RawJson {
  return cachedJson(txCache, included, () => txObject(included.tx, included.hash, included.from, included))
}

/** The transaction object of a pending transaction: block fields null, gasPrice = fee cap. */
export function pendingTxJson(pending: PendingTx): RawJson {
  return cachedJson(txCache, pending, () => txObject(pending.tx, pending.hash, pending.from, undefined))
}

/** The receipt of an included transaction (cached). */
export function receiptJson(included: IncludedTx): RawJson {
  return cachedJson(receiptCache, included, () => receiptObject(included))
}

/** A log of a mined block (not removed), as `logObject` gives it (cached: the receipt and each eth_getLogs share it). */
export function logJson(log: LogRecord): RawJson {
  return cachedJson(logCache, log, () => logObject(log))
}

/** The JSON of `key`'s object, serialized on first use and kept as long as `key` lives. */
function cachedJson(cache: WeakMap<object, RawJson>, key: object, build: () => unknown): RawJson {
  let cached = cache.get(key)
  if (cached === undefined) {
    cached = new RawJson(hexJson(build()))
    cache.set(key, cached)
  }
  return cached
}

/**
 * `JSON.stringify` of a value whose strings are all hex (`toData`, `toQuantity`), as the
 * formatters build them: those are written as they are, where JSON.stringify scans each character
 * for escapes (a bloom's 512 digits, a contract's code). `RawJson` members go in as their JSON.
 * Members left undefined are left out, as JSON.stringify leaves them. Never for other text.
 */
export function hexJson(value: unknown): string {
  if (typeof value === 'string') return '"' + value + '"'
  if (value instanceof RawJson) return value.json
  if (Array.isArray(value)) {
    let json = '['
    for (let i = 0; i < value.length; i++) json += (i === 0 ? '' : ',') + hexJson(value[i])
    return json + ']'
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  let json = ''
  for (const key in value) {
    const member = (value as Json)[key]
    if (member !== undefined) json += (json === '' ? '{"' : ',"') + key + '":' + hexJson(member)
  }
  return json === '' ? '{}' : json + '}'
}

export function logObject(log: LogRecord, removed = false): Json {
  return {
    address: toData(log.address),
    topics: log.topics.map(toData),
    data: toData(log.data),
    blockNumber: toQuantity(log.blockNumber),
    transactionHash: toData(log.transactionHash),
    transactionIndex: toQuantity(log.transactionIndex),
    blockHash: toData(log.blockHash),
    blockTimestamp: toQuantity(log.blockTimestamp),
    logIndex: toQuantity(log.logIndex),
    removed,
  }
}

function receiptObject(included: IncludedTx): Json {
  const r = included.receipt
  const tx = included.tx
  const out: Json = {}
  if (r.blobGasPrice !== undefined) out.blobGasPrice = toQuantity(r.blobGasPrice)
  if (r.blobGasUsed !== undefined) out.blobGasUsed = toQuantity(r.blobGasUsed)
  out.blockHash = toData(included.blockHash)
  out.blockNumber = toQuantity(included.blockNumber)
  out.contractAddress = r.contractAddress === undefined ? null : toData(r.contractAddress)
  out.cumulativeGasUsed = toQuantity(r.cumulativeGasUsed)
  out.effectiveGasPrice = toQuantity(r.effectiveGasPrice)
  out.from = toData(included.from)
  out.gasUsed = toQuantity(r.gasUsed)
  out.logs = r.logs.map(logJson)
  out.logsBloom = toData(r.logsBloom)
  if (r.root !== undefined) out.root = toData(r.root)
  else out.status = toQuantity(r.status ?? 0)
  out.to = tx.to === undefined ? null : toData(tx.to.bytes)
  out.transactionHash = toData(included.hash)
  out.transactionIndex = toQuantity(included.index)
  out.type = toQuantity(tx.type)
  return out
}

function txObject(tx: TypedTransaction, hash: Uint8Array, from: Uint8Array, included: IncludedTx | undefined): Json {
  const out: Json = {
    blockHash: included === undefined ? null : toData(included.blockHash),
    blockNumber: included === undefined ? null : toQuantity(included.blockNumber),
    blockTimestamp: included === undefined ? null : toQuantity(included.blockTimestamp),
    from: toData(from),
    gas: toQuantity(tx.gasLimit),
  }
  if ('maxFeePerGas' in tx) {
    // geth: a mined fee-market transaction shows what it paid; a pending one its cap.
    out.gasPrice = toQuantity(included === undefined ? tx.maxFeePerGas : included.receipt.effectiveGasPrice)
    out.maxFeePerGas = toQuantity(tx.maxFeePerGas)
    out.maxPriorityFeePerGas = toQuantity(tx.maxPriorityFeePerGas)
  } else {
    out.gasPrice = toQuantity(tx.gasPrice)
  }
  if ('maxFeePerBlobGas' in tx) out.maxFeePerBlobGas = toQuantity(tx.maxFeePerBlobGas)
  out.hash = toData(hash)
  out.input = toData(tx.data)
  out.nonce = toQuantity(tx.nonce)
  out.to = tx.to === undefined ? null : toData(tx.to.bytes)
  out.transactionIndex = included === undefined ? null : toQuantity(included.index)
  out.value = toQuantity(tx.value)
  out.type = toQuantity(tx.type)
  if ('accessList' in tx) {
    out.accessList = tx.accessList.map(([address, keys]) => ({ address: toData(address), storageKeys: keys.map(toData) }))
  }
  const v = tx.v ?? 0n
  if (tx.type !== TransactionType.Legacy) {
    out.chainId = toQuantity(tx.common.chainId())
  } else if (v >= 35n) {
    out.chainId = toQuantity((v - 35n) / 2n)
  }
  if ('blobVersionedHashes' in tx) out.blobVersionedHashes = tx.blobVersionedHashes.map((h) => (typeof h === 'string' ? h : toData(h)))
  if ('authorizationList' in tx) {
    out.authorizationList = tx.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: toQuantity(bytesToBig(chainId)),
      address: toData(address),
      nonce: toQuantity(bytesToBig(nonce)),
      yParity: toQuantity(bytesToBig(yParity)),
      r: toQuantity(bytesToBig(r)),
      s: toQuantity(bytesToBig(s)),
    }))
  }
  out.v = toQuantity(v)
  out.r = toQuantity(tx.r ?? 0n)
  out.s = toQuantity(tx.s ?? 0n)
  if (tx.type !== TransactionType.Legacy) out.yParity = toQuantity(v)
  return out
}

/** A block, with transaction hashes or full transaction objects (cached). */
export function blockJson(block: Block, size: number, transactions: readonly IncludedTx[], full: boolean): RawJson {
  let cached = blockCache.get(block)
  if (cached === undefined) blockCache.set(block, (cached = {}))
  if (full) return (cached.full ??= new RawJson(blockText(block, size, '[' + transactions.map((t) => includedTxJson(t).json).join(',') + ']')))
  return (cached.hashes ??= new RawJson(blockText(block, size, '[' + transactions.map((t) => JSON.stringify(toData(t.hash))).join(',') + ']')))
}

/** A block's JSON around `txs`, the JSON array of its transactions. */
function blockText(block: Block, size: number, txs: string): string {
  // The body's fields go on the header's object, after its own: an object literal of two spreads
  // copies through V8's slow path (see src/chain/execution/leanEvm.ts), a third of this function.
  const out = headerObject(block, size)
  out.transactions = new RawJson(txs)
  out.transactionsRoot = toData(block.header.transactionsTrie)
  out.uncles = block.uncleHeaders.map((u) => toData(u.hash()))
  if (block.withdrawals !== undefined) {
    out.withdrawals = block.withdrawals.map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: toData(w.address.bytes),
      amount: toQuantity(w.amount),
    }))
    out.withdrawalsRoot = toData(block.header.withdrawalsRoot!)
  }
  return hexJson(out)
}

/**
 * The pending block (built on the head from the pool, never mined as such): geth's shape, with
 * `hash`, `nonce` and `miner` null as geth sends them for `pending`.
 */
export function pendingBlockJson(block: Block, size: number, transactions: readonly IncludedTx[], full: boolean): Json {
  const json = JSON.parse(blockJson(block, size, transactions, full).json) as Json
  return { ...json, hash: null, miner: null, nonce: null }
}

/**
 * A pool transaction as geth's `txpool_inspect` sums it up:
 * `0xTo: <value> wei + <gas> gas × <gas price> wei`, the recipient checksummed, the fee cap as the
 * price of fee-market transactions.
 */
export function txSummary(tx: TypedTransaction): string {
  const price = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice
  const to = tx.to === undefined ? 'contract creation' : toChecksumAddress(toData(tx.to.bytes))
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`
}

function headerObject(block: Block, size: number): Json {
  const h = block.header
  const out: Json = {}
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = toQuantity(h.baseFeePerGas)
  if (h.blobGasUsed !== undefined) out.blobGasUsed = toQuantity(h.blobGasUsed)
  out.difficulty = toQuantity(h.difficulty)
  if (h.excessBlobGas !== undefined) out.excessBlobGas = toQuantity(h.excessBlobGas)
  out.extraData = toData(h.extraData)
  out.gasLimit = toQuantity(h.gasLimit)
  out.gasUsed = toQuantity(h.gasUsed)
  out.hash = toData(block.hash())
  out.logsBloom = toData(h.logsBloom)
  out.miner = toData(h.coinbase.bytes)
  out.mixHash = toData(h.mixHash)
  out.nonce = toData(h.nonce)
  out.number = toQuantity(h.number)
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = toData(h.parentBeaconBlockRoot)
  out.parentHash = toData(h.parentHash)
  out.receiptsRoot = toData(h.receiptTrie)
  if (h.requestsHash !== undefined) out.requestsHash = toData(h.requestsHash)
  out.sha3Uncles = toData(h.uncleHash)
  out.size = toQuantity(size)
  out.stateRoot = toData(h.stateRoot)
  out.timestamp = toQuantity(h.timestamp)
  return out
}

function bytesToBig(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(toData(bytes))
}
