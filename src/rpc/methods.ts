/**
 * The method registry: every wire method ringchain serves, keyed by name, each with its positional
 * param decoders and a handler that returns the bare result.
 *
 * Owns: what each method means on top of the chain (tags, pending, filters, subscriptions, test
 * controls and their aliases). Leaves envelopes to `dispatcher.ts`, params to `params.ts`, wire
 * shapes to `format.ts`, and all chain semantics to `src/chain/`.
 */
import { randomUUID } from 'node:crypto'
import {
  TransactionType,
  createTx,
  type TypedTransaction,
  type TypedTxData,
} from '@ethereumjs/tx'
import { Address, bytesToUnprefixedHex, equalsBytes, toChecksumAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Chain } from '../chain/chain.js'
import { keyOf, type StateReader } from '../chain/state.js'
import {
  BlockOutOfWindowError,
  ExecutionFailedError,
  ExecutionRevertedError as ChainRevertedError,
  FutureBlockError,
  InvalidInputError,
  TxRejectedError,
  UnknownBlockError,
} from '../chain/errors.js'
import type { BlockRecord, LogRecord } from '../chain/types.js'
import { RawJson, defineMethod, rawJsonArray, subscriptionNotification, type Registry, type RpcContext } from './dispatcher.js'
import {
  BlockNotFoundError,
  ExecutionRevertedError,
  InvalidParamsError,
  PrunedHistoryError,
  ServerError,
  type RpcError,
} from './errors.js'
import { blockJson, includedTxJson, logObject, pendingBlockJson, pendingTxJson, receiptJson, txSummary } from './format.js'
import { toData, toPaddedData, toQuantity } from './hex.js'
import {
  LATEST,
  PENDING,
  address,
  blockNumber,
  blockParam,
  bool,
  data,
  hash,
  index,
  logFilter,
  optional,
  quantity,
  seconds,
  storageSlot,
  transactionRequest,
  uint64,
  type BlockNumberParam,
  type BlockParam,
  type LogFilter,
  type Param,
  type TransactionRequest,
} from './params.js'
import { ethSignMethod, personalSignMethod, signTypedDataMethod } from './signing.js'
import { storageDiffMethod, storageLayoutMethod } from './storage.js'
import { createAccessListMethod } from './accessList.js'
import { baseFeeMethod, capabilitiesMethod, configMethod } from './chainInfo.js'
import { getProofMethod, getStorageValuesMethod } from './proof.js'
import { dumpStateMethod, loadStateMethod } from './dumpState.js'

/** Picks the chain a request is about (one per API key in isolate mode). */
export type ChainFor = (ctx: RpcContext) => Chain | Promise<Chain>

export interface MethodsOptions {
  /** web3_clientVersion. */
  clientVersion: string
  /** Changes at every start (anvil_metadata's instanceId). */
  instanceId?: string
  /**
   * Replaces the caller's chain with a fresh one from the same options (`ringchain_reset`,
   * `anvil_reset`, `hardhat_reset`). Without it those methods answer -32000.
   */
  reset?: (ctx: RpcContext) => Promise<void>
}

/** Maps the chain's domain errors to JSON-RPC errors: the one place that gives them codes. */
export function mapDomainError(error: unknown): RpcError | undefined {
  if (error instanceof BlockOutOfWindowError) return new PrunedHistoryError(error.requested, error.oldest, error.head, { cause: error })
  if (error instanceof FutureBlockError) return new ServerError('header not found', { cause: error })
  if (error instanceof UnknownBlockError) return new BlockNotFoundError({ cause: error })
  if (error instanceof ChainRevertedError) return new ExecutionRevertedError(error.data, { cause: error })
  if (error instanceof TxRejectedError || error instanceof ExecutionFailedError) return new ServerError(error.message, { cause: error })
  if (error instanceof InvalidInputError) return new InvalidParamsError(error.message, { cause: error })
  return undefined
}

/** Param of no value: methods that take none still refuse extra arguments. */
const none = [] as const

/** Any JSON value, passed through (for params whose shape the handler checks itself). */
const anyValue: Param<unknown> = { decode: (value) => value }

/** evm_mine's optional argument: the next timestamp (a number or a quantity), or ganache's `{ timestamp, blocks }`. */
const mineOptions: Param<{ readonly timestamp?: bigint; readonly blocks?: bigint }> = {
  decode(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: seconds.decode(value) }
    const { timestamp, blocks } = value as { readonly timestamp?: unknown; readonly blocks?: unknown }
    return {
      ...(timestamp === undefined || timestamp === null ? {} : { timestamp: seconds.decode(timestamp) }),
      ...(blocks === undefined || blocks === null ? {} : { blocks: seconds.decode(blocks) }),
    }
  },
}

/**
 * `next(value)`, at once unless `value` is still a promise. The hot reads use it to answer without
 * a promise hop (which costs about as much as the read) whenever they need not wait.
 */
function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | PromiseLike<U>): U | PromiseLike<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** The state as of a block: at once, but for the pending block, which may have to be built first. */
function stateFor(chain: Chain, block: BlockParam): StateReader | Promise<StateReader> {
  if (block.kind === 'tag' && block.tag === 'pending') return chain.stateAt(block)
  return chain.stateAtBlock(chain.resolveBlock(block))
}

/** Filters and subscriptions live per chain, in this side table (the chain knows nothing of them). */
interface Filter {
  readonly kind: 'block' | 'logs' | 'pending'
  readonly criteria?: LogFilter
  readonly items: unknown[]
  lastPoll: number
}

interface ChainRpcState {
  readonly filters: Map<string, Filter>
  nextFilter: number
  readonly impersonated: Set<string>
  /** Subscriptions by id, with the connection that made them: only it may cancel them. */
  readonly unsubscribe: Map<string, { readonly session: RpcContext['session']; readonly off: () => void }>
}

const rpcState = new WeakMap<Chain, ChainRpcState>()
/** How long a filter lives without being polled: 5 minutes, as geth's filter deadline. */
const FILTER_TIMEOUT_MS = 5 * 60_000

function stateOf(chain: Chain): ChainRpcState {
  let state = rpcState.get(chain)
  if (state === undefined) {
    state = { filters: new Map(), nextFilter: 1, impersonated: new Set(), unsubscribe: new Map() }
    rpcState.set(chain, state)
    const s = state
    chain.on('block', (record) => {
      const now = Date.now()
      for (const [id, filter] of s.filters) {
        // As geth: a filter nobody polled for 5 minutes is dropped. Its client is gone (a test
        // process that died polling), and it would otherwise grow with every block, forever.
        if (now - filter.lastPoll > FILTER_TIMEOUT_MS) s.filters.delete(id)
        else if (filter.kind === 'block') filter.items.push(toData(record.hash))
        else if (filter.kind === 'logs') for (const log of record.logs) if (matches(log, filter.criteria!)) filter.items.push(logObject(log))
      }
    })
    chain.on('pending', (entry) => {
      for (const filter of s.filters.values()) if (filter.kind === 'pending') filter.items.push(toData(entry.hash))
    })
  }
  return state
}

function matches(log: LogRecord, criteria: LogFilter): boolean {
  if (criteria.addresses.length > 0 && !criteria.addresses.some((a) => equalsBytes(a, log.address))) return false
  for (let i = 0; i < criteria.topics.length; i++) {
    const wanted = criteria.topics[i]
    if (wanted === null || wanted === undefined || wanted.length === 0) continue
    const topic = log.topics[i]
    if (topic === undefined || !wanted.some((w) => equalsBytes(w, topic))) return false
  }
  return true
}

/** Logs of the window matching a filter, as eth_getLogs answers. */
function logsOf(chain: Chain, criteria: LogFilter): unknown[] {
  let blocks: BlockRecord[]
  if (criteria.blockHash !== undefined) {
    blocks = [chain.resolveBlock({ kind: 'hash', hash: criteria.blockHash })]
  } else {
    const from = criteria.fromBlock === undefined ? chain.head.number : numberOf(chain, criteria.fromBlock)
    const to = criteria.toBlock === undefined ? chain.head.number : numberOf(chain, criteria.toBlock)
    if (from > to) throw new InvalidParamsError('invalid block range params')
    if (from < chain.oldest.number) throw new BlockOutOfWindowError(from, chain.oldest.number, chain.head.number)
    if (to > chain.head.number) throw new InvalidParamsError('block range extends beyond current head block')
    blocks = []
    for (let n = from; n <= to; n++) blocks.push(chain.blockByNumber(n)!)
  }
  const out: unknown[] = []
  for (const block of blocks) for (const log of block.logs) if (matches(log, criteria)) out.push(logObject(log))
  return out
}

function numberOf(chain: Chain, block: BlockNumberParam): bigint {
  return block.kind === 'tag' ? chain.tagNumber(block.tag) : block.number
}

/** Builds the registry over `chainFor`. */
export function createMethods(chainFor: ChainFor, options: MethodsOptions): Registry {
  const instanceId = options.instanceId ?? randomUUID()
  const startedAt = Date.now()

  const storageAt = defineMethod([address, storageSlot, optional(blockParam, LATEST)], ([owner, slot, block], ctx) =>
    andThen(chainFor(ctx), (chain) =>
      andThen(stateFor(chain, block), (state) =>
        // The decoder gives a 32-byte slot; stored values have no leading zeros. Hex needs no
        // escaping: the answer is its JSON already, which spares the dispatcher a scan.
        new RawJson('"' + toPaddedData(state.storage(keyOf(owner), keyOf(slot)), 32) + '"'),
      ),
    ),
  )

  const txByHash = defineMethod([hash], ([h], ctx) =>
    andThen(chainFor(ctx), (chain) => {
      const found = chain.lookupTransaction(h)
      if (found === undefined) return null
      return found.status === 'included' ? includedTxJson(found.included) : pendingTxJson(found.pending)
    }),
  )

  const receipt = defineMethod([hash], ([h], ctx) =>
    andThen(chainFor(ctx), (chain) => {
      const found = chain.lookupTransaction(h)
      return found?.status === 'included' ? receiptJson(found.included) : null
    }),
  )

  const blockResult = (record: BlockRecord, full: boolean) => blockJson(record.block, record.size, record.transactions, full)

  const getBlockByNumber = defineMethod([blockNumber, optional(bool, false)], async ([block, full], ctx) => {
    const chain = await chainFor(ctx)
    if (block.kind === 'tag' && block.tag === 'pending') {
      const { record } = await chain.pendingBlock()
      return pendingBlockJson(record.block, record.size, record.transactions, full)
    }
    const number = numberOf(chain, block)
    if (number > chain.head.number) return null
    const record = chain.blockByNumber(number)
    if (record === undefined) throw new BlockOutOfWindowError(number, chain.oldest.number, chain.head.number)
    return blockResult(record, full)
  })

  const getBlockByHash = defineMethod([hash, optional(bool, false)], async ([h, full], ctx) => {
    const chain = await chainFor(ctx)
    const record = chain.blockByHash(h)
    return record === undefined ? null : blockResult(record, full)
  })

  const balance = defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
    const state = await (await chainFor(ctx)).stateAt(block)
    return toQuantity(state.account(bytesToUnprefixedHex(a))?.balance ?? 0n)
  })

  const code = defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
    const state = await (await chainFor(ctx)).stateAt(block)
    const account = state.account(bytesToUnprefixedHex(a))
    return toData(account === undefined ? new Uint8Array(0) : (state.code(bytesToUnprefixedHex(account.codeHash)) ?? new Uint8Array(0)))
  })

  const txCount = defineMethod([address, optional(blockParam, LATEST)], async ([a, block], ctx) => {
    const chain = await chainFor(ctx)
    if (block.kind === 'tag' && block.tag === 'pending') return toQuantity(chain.pendingNonce(a))
    const state = await chain.stateAt(block)
    return toQuantity(state.account(bytesToUnprefixedHex(a))?.nonce ?? 0n)
  })

  const callParams = (req: TransactionRequest) => ({
    ...(req.from === undefined ? {} : { from: req.from }),
    ...(req.to === undefined ? {} : { to: req.to }),
    ...(req.gas === undefined ? {} : { gas: req.gas }),
    ...(req.gasPrice === undefined ? {} : { gasPrice: req.gasPrice }),
    ...(req.maxFeePerGas === undefined ? {} : { maxFeePerGas: req.maxFeePerGas }),
    ...(req.value === undefined ? {} : { value: req.value }),
    ...(req.data === undefined ? {} : { data: req.data }),
    ...(req.accessList === undefined ? {} : { accessList: req.accessList }),
    ...(req.authorizationList === undefined ? {} : { authorizationList: req.authorizationList }),
  })

  const call = defineMethod([transactionRequest, optional(blockParam, LATEST), optional(anyValue)], async ([req, block], ctx) => {
    const result = await (await chainFor(ctx)).call(callParams(req), block)
    return toData(result.returnValue)
  })

  const estimateGas = defineMethod([transactionRequest, optional(blockParam, LATEST), optional(anyValue)], async ([req, block], ctx) => {
    return toQuantity(await (await chainFor(ctx)).estimateGas(callParams(req), block))
  })

  const sendRaw = defineMethod([data], async ([raw], ctx) => toData(await (await chainFor(ctx)).sendRawTransaction(raw)))

  const sendTransaction = defineMethod([transactionRequest], async ([req], ctx) => {
    const chain = await chainFor(ctx)
    const from = req.from
    if (from === undefined) throw new InvalidParamsError('invalid argument 0: missing "from"')
    const key = chain.accounts.find((a) => equalsBytes(a.address, from))
    const impersonated = stateOf(chain).impersonated.has(bytesToUnprefixedHex(from))
    if (key === undefined && !impersonated) throw new ServerError('unknown account')
    // The node fills in the gas, as geth does: estimated against the pending state.
    const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, PENDING))
    const tx = buildTransaction(chain, req, from, gas)
    if (key !== undefined) return toData(await chain.sendRawTransaction(tx.sign(key.privateKey).serialize()))
    // Impersonated: a fake signature and the claimed sender, as anvil and Hardhat do.
    const fake = fakeSigned(tx, from)
    return toData(await chain.addTransaction(fake, new Address(from)))
  })

  // eth_signTransaction: the raw signed transaction, not sent (anvil's answer; geth's `{raw, tx}` is not what viem and ethers read).
  const signTransaction = defineMethod([transactionRequest], async ([req], ctx) => {
    const chain = await chainFor(ctx)
    const from = req.from
    if (from === undefined) throw new InvalidParamsError('invalid argument 0: missing "from"')
    const key = chain.accounts.find((a) => equalsBytes(a.address, from))
    if (key === undefined) throw new ServerError('unknown account')
    const chainId = chain.common.chainId()
    if (req.chainId !== undefined && req.chainId !== chainId) throw new ServerError(`chainId does not match node's (have=${req.chainId}, want=${chainId})`)
    const gas = req.gas ?? (await chain.estimateGas({ ...callParams(req), from }, PENDING))
    return toData(buildTransaction(chain, req, from, gas).sign(key.privateKey).serialize())
  })

  const gasPrice = async (ctx: RpcContext) => {
    const chain = await chainFor(ctx)
    const base = chain.nextBaseFee()
    return toQuantity(base === undefined ? 1_000_000_000n : base + 1_000_000_000n)
  }

  const feeHistory = defineMethod([quantity, blockNumber, optional(anyValue)], async ([count, newest, percentiles], ctx) => {
    const chain = await chainFor(ctx)
    if (count === 0n) return { oldestBlock: toQuantity(0), baseFeePerGas: [], gasUsedRatio: [] }
    const newestNumber = numberOf(chain, newest)
    const last = newestNumber > chain.head.number ? chain.head.number : newestNumber
    const n = count > 1024n ? 1024n : count
    let first = last - n + 1n
    if (first < chain.oldest.number) first = chain.oldest.number
    const baseFees: string[] = []
    const ratios: number[] = []
    const rewards: string[][] = []
    const wanted = Array.isArray(percentiles) ? (percentiles as unknown[]).filter((p): p is number => typeof p === 'number') : undefined
    for (let b = first; b <= last; b++) {
      const record = chain.blockByNumber(b)!
      const h = record.block.header
      baseFees.push(toQuantity(h.baseFeePerGas ?? 0n))
      ratios.push(Number(h.gasUsed) / Number(h.gasLimit))
      if (wanted !== undefined) {
        const tips = record.transactions.map((t) => t.receipt.effectiveGasPrice - (h.baseFeePerGas ?? 0n)).sort((x, y) => (x < y ? -1 : 1))
        rewards.push(wanted.map((p) => toQuantity(tips.length === 0 ? 0n : tips[Math.min(tips.length - 1, Math.floor((p / 100) * tips.length))]!)))
      }
    }
    baseFees.push(toQuantity(chain.head.number === last ? (chain.nextBaseFee() ?? 0n) : (chain.blockByNumber(last + 1n)!.block.header.baseFeePerGas ?? 0n)))
    return { oldestBlock: toQuantity(first), baseFeePerGas: baseFees, gasUsedRatio: ratios, ...(wanted === undefined ? {} : { reward: rewards }) }
  })

  const getLogs = defineMethod([logFilter], async ([criteria], ctx) => logsOf(await chainFor(ctx), criteria))

  const blockReceipts = defineMethod([blockParam], async ([block], ctx) => {
    const chain = await chainFor(ctx)
    let record: BlockRecord
    try {
      record = chain.resolveBlock(block)
    } catch (e) {
      if (e instanceof FutureBlockError || e instanceof UnknownBlockError) return null
      throw e
    }
    return rawJsonArray(record.transactions.map(receiptJson))
  })

  // --- filters -----------------------------------------------------------------------------
  const newFilter = (kind: Filter['kind'], criteria?: LogFilter) => async (ctx: RpcContext) => {
    const chain = await chainFor(ctx)
    const state = stateOf(chain)
    const id = toQuantity(state.nextFilter++)
    state.filters.set(id, { kind, ...(criteria === undefined ? {} : { criteria }), items: [], lastPoll: Date.now() })
    return id
  }
  const filterId: Param<string> = {
    decode: (value) => {
      if (typeof value !== 'string') throw new InvalidParamsError('invalid argument 0: filter id must be a string')
      return value
    },
  }

  // --- subscriptions -----------------------------------------------------------------------
  const subscribe = defineMethod([anyValue, optional(anyValue)], async ([kind, criteria], ctx) => {
    if (ctx.session.transport !== 'ws') throw new ServerError('notifications not supported')
    const chain = await chainFor(ctx)
    const state = stateOf(chain)
    const id = '0x' + randomUUID().replaceAll('-', '')
    const push = (result: unknown) => {
      if (!ctx.session.closed) ctx.session.send(subscriptionNotification(id, result))
    }
    let off: () => void
    if (kind === 'newHeads') {
      off = chain.on('block', (record) => push(new RawJson(headJson(record))))
    } else if (kind === 'logs') {
      const filter = criteria === undefined ? { addresses: [], topics: [] } : logFilter.decode(criteria)
      off = chain.on('block', (record) => {
        for (const log of record.logs) if (matches(log, filter)) push(logObject(log))
      })
    } else if (kind === 'newPendingTransactions') {
      const full = criteria === true
      off = chain.on('pending', (entry) => push(full ? pendingTxJson(entry) : toData(entry.hash)))
    } else {
      throw new InvalidParamsError(`invalid argument 0: no "${String(kind)}" subscription in eth namespace`)
    }
    state.unsubscribe.set(id, { session: ctx.session, off })
    ctx.session.onClose(() => {
      off()
      state.unsubscribe.delete(id)
    })
    return id
  })

  const unsubscribe = defineMethod([filterId], async ([id], ctx) => {
    const state = stateOf(await chainFor(ctx))
    const subscription = state.unsubscribe.get(id)
    // Another connection's subscription is as unknown to this one as a made-up id.
    if (subscription === undefined || subscription.session !== ctx.session) return false
    subscription.off()
    state.unsubscribe.delete(id)
    return true
  })

  // --- test control ------------------------------------------------------------------------
  const mine = defineMethod([optional(quantity), optional(quantity)], async ([count, interval], ctx) => {
    await (await chainFor(ctx)).mine(count ?? 1n, interval)
    return '0x0'
  })
  const evmMine = defineMethod([optional(mineOptions)], async ([options], ctx) => {
    const chain = await chainFor(ctx)
    if (options?.timestamp !== undefined) await chain.setNextBlockTimestamp(options.timestamp)
    await chain.mine(options?.blocks ?? 1n)
    return '0x0'
  })
  const setAutomine = defineMethod([bool], async ([on], ctx) => {
    await (await chainFor(ctx)).setMiningMode(on ? { mode: 'auto' } : { mode: 'manual' })
    return null
  })
  const getAutomine = defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).miningMode.mode === 'auto')
  const setIntervalMining = defineMethod([anyValue], async ([ms], ctx) => {
    const value = typeof ms === 'string' ? Number(quantity.decode(ms)) : Number(ms)
    if (!Number.isFinite(value) || value < 0) throw new InvalidParamsError('invalid argument 0: interval must be a number of milliseconds')
    // anvil and Hardhat take seconds or milliseconds by method; 0 turns interval mining off.
    await (await chainFor(ctx)).setMiningMode(value === 0 ? { mode: 'manual' } : { mode: 'interval', blockTimeMs: value })
    return null
  })
  const snapshot = defineMethod(none, async (_p, ctx) => toQuantity(await (await chainFor(ctx)).snapshot()))
  const revert = defineMethod([quantity], async ([id], ctx) => (await chainFor(ctx)).revert(Number(id)))
  const increaseTime = defineMethod([seconds], async ([s], ctx) => toQuantity(await (await chainFor(ctx)).increaseTime(s)))
  const setNextTimestamp = defineMethod([seconds], async ([ts], ctx) => {
    await (await chainFor(ctx)).setNextBlockTimestamp(ts)
    return null
  })
  const setBalance = defineMethod([address, quantity], async ([a, v], ctx) => {
    await (await chainFor(ctx)).setBalance(a, v)
    return true
  })
  const setCode = defineMethod([address, data], async ([a, c], ctx) => {
    await (await chainFor(ctx)).setCode(a, c)
    return true
  })
  const setNonce = defineMethod([address, uint64], async ([a, n], ctx) => {
    // EIP-2681: 2^64-1 is no nonce a transaction (or a call built like one) may carry.
    if (n === 2n ** 64n - 1n) throw new InvalidParamsError('invalid argument 1: nonce must be below 2^64-1 (EIP-2681)')
    await (await chainFor(ctx)).setNonce(a, n)
    return true
  })
  const setStorageAt = defineMethod([address, anyValue, anyValue], async ([a, slot, value], ctx) => {
    const slotBytes = storageSlot.decode(slot)
    const valueBytes = storageSlot.decode(value)
    await (await chainFor(ctx)).setStorageAt(a, slotBytes, valueBytes)
    return true
  })
  const impersonate = defineMethod([address], async ([a], ctx) => {
    stateOf(await chainFor(ctx)).impersonated.add(bytesToUnprefixedHex(a))
    return null
  })
  const stopImpersonating = defineMethod([address], async ([a], ctx) => {
    stateOf(await chainFor(ctx)).impersonated.delete(bytesToUnprefixedHex(a))
    return null
  })
  const dropTransaction = defineMethod([hash], async ([h], ctx) => (await chainFor(ctx)).dropTransaction(h))
  const metadata = defineMethod(none, async (_p, ctx) => {
    const chain = await chainFor(ctx)
    return {
      clientVersion: options.clientVersion,
      chainId: toQuantity(chain.common.chainId()),
      instanceId,
      latestBlockNumber: toQuantity(chain.head.number),
      latestBlockHash: toData(chain.head.hash),
      forkedNetwork: null,
      snapshots: {},
    }
  })

  // ringchain_reset / anvil_reset / hardhat_reset: the caller's chain, as new. `answer` is what each node returns.
  const reset = (answer: true | null) =>
    defineMethod([optional(anyValue)], async ([arg], ctx) => {
      if (options.reset === undefined) throw new ServerError('reset is not available on this server')
      // viem's testClient.reset() always sends `{ forking: { blockNumber } }`; only a URL asks for a fork.
      const forking = typeof arg === 'object' && arg !== null ? (arg as { forking?: { jsonRpcUrl?: unknown } }).forking : undefined
      if (typeof forking?.jsonRpcUrl === 'string' && forking.jsonRpcUrl !== '') throw new InvalidParamsError('invalid argument 0: forking is not supported')
      await options.reset(ctx)
      return answer
    })

  // The blocks to come: anvil answers true for the gas limit and null for the others; Hardhat true throughout.
  const setBlockGasLimit = defineMethod([uint64], async ([gasLimit], ctx) => {
    await (await chainFor(ctx)).setBlockSettings({ gasLimit })
    return true
  })
  const setCoinbase = (answer: true | null) =>
    defineMethod([address], async ([coinbase], ctx) => {
      await (await chainFor(ctx)).setBlockSettings({ coinbase })
      return answer
    })
  // A uint64, as anvil's base fee: a larger one overflows `gas * fee cap` (2^256) for every default fee built on it.
  const setNextBaseFee = (answer: true | null) =>
    defineMethod([uint64], async ([nextBaseFee], ctx) => {
      await (await chainFor(ctx)).setBlockSettings({ nextBaseFee })
      return answer
    })
  const setTimestampInterval = defineMethod([seconds], async ([s], ctx) => {
    await (await chainFor(ctx)).setBlockTimestampInterval(s)
    return null
  })
  const removeTimestampInterval = defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).setBlockTimestampInterval(undefined))

  const txpoolContent = defineMethod(none, async (_p, ctx) => {
    const content = (await chainFor(ctx)).poolContent()
    const group = (m: Map<string, { tx: TypedTransaction }[]>) =>
      Object.fromEntries(
        [...m].map(([sender, entries]) => [
          '0x' + sender,
          Object.fromEntries(entries.map((e) => [e.tx.nonce.toString(), JSON.parse(pendingTxJson(e as never).json)])),
        ]),
      )
    return { pending: group(content.executable), queued: group(content.queued) }
  })
  const txpoolInspect = defineMethod(none, async (_p, ctx) => {
    const content = (await chainFor(ctx)).poolContent()
    // geth keys senders checksummed and nonces in decimal.
    const group = (m: Map<string, { tx: TypedTransaction }[]>) =>
      Object.fromEntries([...m].map(([sender, entries]) => [toChecksumAddress('0x' + sender), Object.fromEntries(entries.map((e) => [e.tx.nonce.toString(), txSummary(e.tx)]))]))
    return { pending: group(content.executable), queued: group(content.queued) }
  })
  const txpoolStatus = defineMethod(none, async (_p, ctx) => {
    const content = (await chainFor(ctx)).poolContent()
    const count = (m: Map<string, unknown[]>) => [...m.values()].reduce((n, l) => n + l.length, 0)
    return { pending: toQuantity(count(content.executable)), queued: toQuantity(count(content.queued)) }
  })

  const accounts = defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).accounts.map((a) => toData(a.address)))

  const methods = {
    eth_getStorageAt: storageAt,
    eth_getStorageValues: getStorageValuesMethod(chainFor),
    eth_getProof: getProofMethod(chainFor),
    eth_getTransactionByHash: txByHash,
    eth_getTransactionReceipt: receipt,
    eth_chainId: defineMethod(none, (_p, ctx) => andThen(chainFor(ctx), (chain) => toQuantity(chain.common.chainId()))),
    net_version: defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).common.chainId().toString()),
    net_listening: defineMethod(none, () => true),
    net_peerCount: defineMethod(none, () => '0x0'),
    web3_clientVersion: defineMethod(none, () => options.clientVersion),
    web3_sha3: defineMethod([data], async ([d], ctx) => toData(((await chainFor(ctx)).common.customCrypto.keccak256 ?? keccak_256)(d))),
    eth_syncing: defineMethod(none, () => false),
    eth_mining: defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).miningMode.mode !== 'manual'),
    eth_hashrate: defineMethod(none, () => '0x0'),
    eth_coinbase: defineMethod(none, async (_p, ctx) => toData((await chainFor(ctx)).blockSettings.coinbase)),
    eth_protocolVersion: defineMethod(none, () => '0x44'),
    eth_blockNumber: defineMethod(none, async (_p, ctx) => toQuantity((await chainFor(ctx)).head.number)),
    eth_getBlockByNumber: getBlockByNumber,
    eth_getBlockByHash: getBlockByHash,
    eth_getBlockReceipts: blockReceipts,
    eth_getBlockTransactionCountByNumber: defineMethod([blockNumber], async ([block], ctx) => {
      const chain = await chainFor(ctx)
      const number = numberOf(chain, block)
      if (number > chain.head.number) return null
      const record = chain.blockByNumber(number)
      if (record === undefined) throw new BlockOutOfWindowError(number, chain.oldest.number, chain.head.number)
      return toQuantity(record.transactions.length)
    }),
    eth_getBlockTransactionCountByHash: defineMethod([hash], async ([h], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : toQuantity(record.transactions.length)
    }),
    eth_getTransactionByBlockHashAndIndex: defineMethod([hash, index], async ([h, i], ctx) => {
      const t = (await chainFor(ctx)).blockByHash(h)?.transactions[i]
      return t === undefined ? null : includedTxJson(t)
    }),
    eth_getTransactionByBlockNumberAndIndex: defineMethod([blockNumber, index], async ([block, i], ctx) => {
      const chain = await chainFor(ctx)
      const t = chain.blockByNumber(numberOf(chain, block))?.transactions[i]
      return t === undefined ? null : includedTxJson(t)
    }),
    eth_getUncleCountByBlockHash: defineMethod([hash], async ([h], ctx) => {
      const record = (await chainFor(ctx)).blockByHash(h)
      return record === undefined ? null : toQuantity(record.block.uncleHeaders.length)
    }),
    eth_getUncleCountByBlockNumber: defineMethod([blockNumber], async ([block], ctx) => {
      const chain = await chainFor(ctx)
      const record = chain.blockByNumber(numberOf(chain, block))
      return record === undefined ? null : toQuantity(record.block.uncleHeaders.length)
    }),
    eth_getBalance: balance,
    eth_getCode: code,
    eth_getTransactionCount: txCount,
    eth_call: call,
    eth_estimateGas: estimateGas,
    eth_createAccessList: createAccessListMethod(chainFor),
    eth_baseFee: baseFeeMethod(chainFor),
    eth_config: configMethod(chainFor),
    eth_capabilities: capabilitiesMethod(chainFor),
    eth_gasPrice: defineMethod(none, (_p, ctx) => gasPrice(ctx)),
    eth_maxPriorityFeePerGas: defineMethod(none, () => toQuantity(1_000_000_000n)),
    eth_blobBaseFee: defineMethod(none, async (_p, ctx) => {
      const chain = await chainFor(ctx)
      const header = chain.head.block.header
      return toQuantity(header.excessBlobGas === undefined ? 0n : header.calcNextBlobGasPrice(chain.common))
    }),
    eth_feeHistory: feeHistory,
    eth_sendRawTransaction: sendRaw,
    eth_sendTransaction: sendTransaction,
    eth_accounts: accounts,
    eth_requestAccounts: accounts,
    eth_sign: ethSignMethod(chainFor),
    personal_sign: personalSignMethod(chainFor),
    eth_signTypedData_v4: signTypedDataMethod(chainFor),
    eth_signTransaction: signTransaction,
    eth_getLogs: getLogs,
    eth_newFilter: defineMethod([logFilter], ([criteria], ctx) => newFilter('logs', criteria)(ctx)),
    eth_newBlockFilter: defineMethod(none, (_p, ctx) => newFilter('block')(ctx)),
    eth_newPendingTransactionFilter: defineMethod([optional(bool)], (_p, ctx) => newFilter('pending')(ctx)),
    eth_getFilterChanges: defineMethod([filterId], async ([id], ctx) => {
      const filter = stateOf(await chainFor(ctx)).filters.get(id)
      if (filter === undefined) throw new ServerError('filter not found')
      filter.lastPoll = Date.now()
      return filter.items.splice(0)
    }),
    eth_getFilterLogs: defineMethod([filterId], async ([id], ctx) => {
      const chain = await chainFor(ctx)
      const filter = stateOf(chain).filters.get(id)
      if (filter?.kind !== 'logs') throw new ServerError('filter not found')
      return logsOf(chain, filter.criteria!)
    }),
    eth_uninstallFilter: defineMethod([filterId], async ([id], ctx) => stateOf(await chainFor(ctx)).filters.delete(id)),
    eth_subscribe: subscribe,
    eth_unsubscribe: unsubscribe,

    // mining and time
    evm_mine: evmMine,
    anvil_mine: mine,
    hardhat_mine: mine,
    evm_setAutomine: setAutomine,
    anvil_setAutomine: setAutomine,
    anvil_getAutomine: getAutomine,
    hardhat_getAutomine: getAutomine,
    evm_setIntervalMining: setIntervalMining,
    anvil_setIntervalMining: defineMethod([anyValue], async ([s], ctx) => {
      const seconds = typeof s === 'string' ? Number(quantity.decode(s)) : Number(s)
      if (!Number.isFinite(seconds) || seconds < 0) throw new InvalidParamsError('invalid argument 0: interval must be a number of seconds')
      await (await chainFor(ctx)).setMiningMode(seconds === 0 ? { mode: 'manual' } : { mode: 'interval', blockTimeMs: seconds * 1000 })
      return null
    }),
    evm_snapshot: snapshot,
    anvil_snapshot: snapshot,
    evm_revert: revert,
    anvil_revert: revert,
    evm_increaseTime: increaseTime,
    anvil_increaseTime: increaseTime,
    evm_setNextBlockTimestamp: setNextTimestamp,
    anvil_setNextBlockTimestamp: setNextTimestamp,
    anvil_setBlockTimestampInterval: setTimestampInterval,
    anvil_removeBlockTimestampInterval: removeTimestampInterval,

    // the blocks to come
    evm_setBlockGasLimit: setBlockGasLimit,
    anvil_setBlockGasLimit: setBlockGasLimit,
    anvil_setCoinbase: setCoinbase(null),
    hardhat_setCoinbase: setCoinbase(true),
    anvil_setNextBlockBaseFeePerGas: setNextBaseFee(null),
    hardhat_setNextBlockBaseFeePerGas: setNextBaseFee(true),
    anvil_setLoggingEnabled: defineMethod([bool], () => null),

    // state
    anvil_setBalance: setBalance,
    hardhat_setBalance: setBalance,
    anvil_setCode: setCode,
    hardhat_setCode: setCode,
    anvil_setNonce: setNonce,
    hardhat_setNonce: setNonce,
    anvil_setStorageAt: setStorageAt,
    hardhat_setStorageAt: setStorageAt,
    anvil_impersonateAccount: impersonate,
    hardhat_impersonateAccount: impersonate,
    anvil_stopImpersonatingAccount: stopImpersonating,
    hardhat_stopImpersonatingAccount: stopImpersonating,
    anvil_dropTransaction: dropTransaction,
    hardhat_dropTransaction: dropTransaction,
    anvil_metadata: metadata,
    anvil_dumpState: dumpStateMethod(chainFor),
    anvil_loadState: loadStateMethod(chainFor),
    hardhat_metadata: metadata,
    txpool_content: txpoolContent,
    txpool_status: txpoolStatus,
    txpool_inspect: txpoolInspect,
    ringchain_uptime: defineMethod(none, () => toQuantity(Date.now() - startedAt)),
    ringchain_storageLayout: storageLayoutMethod(chainFor),
    ringchain_storageDiff: storageDiffMethod(chainFor),
    ringchain_reset: reset(true),
    anvil_reset: reset(null),
    hardhat_reset: reset(true),
  } satisfies Registry
  return methods
}

/** The newHeads notification: the block header fields, no transactions. */
function headJson(record: BlockRecord): string {
  const full = JSON.parse(blockJson(record.block, record.size, record.transactions, false).json) as Record<string, unknown>
  delete full.transactions
  delete full.uncles
  delete full.size
  return JSON.stringify(full)
}

/** A transaction from an eth_sendTransaction request, with the node's defaults filled in. */
function buildTransaction(chain: Chain, req: TransactionRequest, from: Uint8Array, gas: bigint): TypedTransaction {
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

function fakeSigned(tx: TypedTransaction, from: Uint8Array): TypedTransaction {
  const json = tx.toJSON() as Record<string, unknown>
  const r = BigInt('0x' + bytesToUnprefixedHex(from).padEnd(64, '0'))
  // Not frozen (the default), or the sender cannot be pinned below.
  const signed = createTx({ ...json, v: tx.type === TransactionType.Legacy ? 27n : 0n, r, s: 1n } as TypedTxData, { common: tx.common, freeze: false })
  Object.defineProperty(signed, 'getSenderAddress', { value: () => new Address(from) })
  return signed
}
