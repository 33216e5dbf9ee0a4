/**
 * The `debug_` methods: debug_traceTransaction, debug_traceBlockByNumber, debug_traceBlockByHash,
 * debug_traceCall, with geth's tracers (struct logger by default, `callTracer`, `prestateTracer`,
 * `4byteTracer`, `noopTracer`) and geth's JSON, field for field; and the consensus encodings
 * debug_getRawBlock, debug_getRawHeader, debug_getRawReceipts, debug_getRawTransaction.
 * Owns: decoding the trace config, picking the tracer, and writing its result as geth does.
 * Leaves to others: re-running and tracing (`src/chain/trace/`).
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Chain } from '../chain/chain.js'
import { callTracer, type CallFrame } from '../chain/trace/callTracer.js'
import { fourByteTracer, type FourByteResult } from '../chain/trace/fourByteTracer.js'
import { PrestateConfigError, prestateTracer, type PrestateAccount, type PrestateMap, type PrestateResult } from '../chain/trace/prestateTracer.js'
import {
  GenesisNotTraceableError,
  TraceTimeoutError,
  traceBlock,
  traceCall,
  traceTransaction,
} from '../chain/trace/replay.js'
import { StateOverrideError, type BlockOverrides, type StateOverrides } from '../chain/overrides.js'
import { structLogger, type StructLog, type StructLoggerResult } from '../chain/trace/structLogger.js'
import { noopTracer, type Tracer } from '../chain/trace/tracer.js'
import { encodeReceipt } from '../chain/receipts.js'
import type { BlockRecord, BlockRef } from '../chain/types.js'
import type { ChainFor } from './context.js'
import { RawJson, defineMethod, type Registry, type RpcContext } from './dispatcher.js'
import { InvalidParamsError, ServerError } from './errors.js'
import { toData, toPaddedData, toQuantity } from './hex.js'
import { LATEST, blockNumber, blockParam } from './params/block.js'
import { optional, type Param } from './params/decode.js'
import { decodeBlockOverrides, decodeStateOverrides } from './params/overrides.js'
import { transactionRequest } from './params/transaction.js'
import { address, data, hash, quantity } from './params/values.js'


/** geth's `TraceConfig` (with `TraceCallConfig`'s overrides), decoded. */
export interface TraceConfig {
  readonly tracer: string | undefined
  readonly tracerConfig: Record<string, unknown>
  readonly timeoutMs: number | undefined
  readonly disableStack: boolean
  readonly disableStorage: boolean
  readonly enableMemory: boolean
  readonly enableReturnData: boolean
  readonly limit: number
  readonly stateOverrides: StateOverrides | undefined
  readonly blockOverrides: BlockOverrides | undefined
}

const NO_CONFIG: TraceConfig = {
  tracer: undefined,
  tracerConfig: {},
  timeoutMs: undefined,
  disableStack: false,
  disableStorage: false,
  enableMemory: false,
  enableReturnData: false,
  limit: 0,
  stateOverrides: undefined,
  blockOverrides: undefined,
}

const traceConfig: Param<TraceConfig> = {
  decode(value) {
    if (value === null || value === undefined) return NO_CONFIG
    if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidParamsError('invalid argument 1: json: cannot unmarshal non-object into Go value of type tracers.TraceConfig')
    const v = value as Record<string, unknown>
    const flag = (name: string): boolean => {
      const f = v[name]
      if (f === undefined || f === null) return false
      if (typeof f !== 'boolean') throw new InvalidParamsError(`invalid argument 1: json: cannot unmarshal ${typeof f} into Go struct field TraceConfig.${name} of type bool`)
      return f
    }
    const tracer = v.tracer
    if (tracer !== undefined && tracer !== null && typeof tracer !== 'string') throw new InvalidParamsError('invalid argument 1: tracer must be a string')
    const tracerConfig = v.tracerConfig
    if (tracerConfig !== undefined && tracerConfig !== null && (typeof tracerConfig !== 'object' || Array.isArray(tracerConfig))) {
      throw new InvalidParamsError('invalid argument 1: tracerConfig must be an object')
    }
    const limit = v.limit ?? 0
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) throw new InvalidParamsError('invalid argument 1: limit must be a non-negative integer')
    return {
      tracer: typeof tracer === 'string' && tracer !== '' ? tracer : undefined,
      tracerConfig: (tracerConfig ?? {}) as Record<string, unknown>,
      timeoutMs: v.timeout === undefined || v.timeout === null ? undefined : duration(v.timeout),
      disableStack: flag('disableStack'),
      disableStorage: flag('disableStorage'),
      enableMemory: flag('enableMemory'),
      enableReturnData: flag('enableReturnData'),
      limit,
      stateOverrides: v.stateOverrides === undefined || v.stateOverrides === null ? undefined : decodeStateOverrides(v.stateOverrides),
      blockOverrides: v.blockOverrides === undefined || v.blockOverrides === null ? undefined : decodeBlockOverrides(v.blockOverrides),
    }
  },
}

/** A Go duration (`"5s"`, `"300ms"`, `"1m30s"`), in milliseconds. */
function duration(value: unknown): number {
  if (typeof value !== 'string') throw new InvalidParamsError('invalid argument 1: timeout must be a duration string')
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  let total = 0
  let rest = value
  if (rest === '') throw new InvalidParamsError(`time: invalid duration "${value}"`)
  while (rest !== '') {
    const match = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest)
    if (match === null) throw new InvalidParamsError(`time: invalid duration "${value}"`)
    total += Number(match[1]) * units[match[2]!]!
    rest = rest.slice(match[0].length)
  }
  return total
}

/** A tracer for one transaction and the writer of its result as geth's JSON. */
interface TracerChoice {
  make(): Tracer<unknown>
  json(result: unknown): RawJson
}

function chooseTracer(config: TraceConfig): TracerChoice {
  const c = config.tracerConfig
  const bool = (name: string): boolean => c[name] === true
  switch (config.tracer) {
    case undefined:
      return {
        make: () => structLogger(config),
        json: (r) => new RawJson(structLoggerJson(r as StructLoggerResult, config.limit)),
      }
    case 'callTracer':
      return { make: () => callTracer({ onlyTopCall: bool('onlyTopCall'), withLog: bool('withLog') }), json: (r) => new RawJson(JSON.stringify(callFrameJson(r as CallFrame))) }
    case 'prestateTracer':
      return {
        make: () => prestateTracer({ diffMode: bool('diffMode'), disableCode: bool('disableCode'), disableStorage: bool('disableStorage'), includeEmpty: bool('includeEmpty') }),
        json: (r) => new RawJson(JSON.stringify(prestateJson(r as PrestateResult))),
      }
    case '4byteTracer':
      return { make: fourByteTracer, json: (r) => new RawJson(JSON.stringify(Object.fromEntries([...(r as FourByteResult)].map(([k, n]) => [`0x${k}`, n])))) }
    case 'noopTracer':
      return { make: noopTracer, json: () => new RawJson('{}') }
    default:
      throw new ServerError(`tracer ${config.tracer} not found`)
  }
}

// --- geth's JSON ---------------------------------------------------------------------------

/** The struct logger's result; entries stop once `limit` bytes of them are written (geth's `limit`). */
function structLoggerJson(result: StructLoggerResult, limit: number): string {
  const parts: string[] = []
  let size = 0
  for (const log of result.structLogs) {
    if (limit !== 0 && size > limit) break
    const entry = structLogJson(log)
    size += entry.length
    parts.push(entry)
  }
  return `{"gas":${result.gas},"failed":${result.failed},"returnValue":"${toData(result.returnValue)}","structLogs":[${parts.join(',')}]}`
}

function structLogJson(log: StructLog): string {
  let json = `{"pc":${log.pc},"op":"${log.op}","gas":${log.gas},"gasCost":${log.gasCost},"depth":${log.depth}`
  if (log.error !== undefined) json += `,"error":${JSON.stringify(log.error)}`
  if (log.stack !== undefined) {
    json += ',"stack":['
    for (let i = 0; i < log.stack.length; i++) json += (i === 0 ? '"0x' : ',"0x') + log.stack[i]!.toString(16) + '"'
    json += ']'
  }
  if (log.returnData !== undefined) json += `,"returnData":"${toData(log.returnData)}"`
  if (log.memory !== undefined) {
    const words: string[] = []
    for (let i = 0; i < log.memory.length; i += 32) {
      const word = bytesToUnprefixedHex(log.memory.subarray(i, i + 32))
      words.push(`"0x${word.padEnd(64, '0')}"`)
    }
    json += `,"memory":[${words.join(',')}]`
  }
  if (log.storage !== undefined && log.storage.size > 0) {
    const entries: string[] = []
    for (const [slot, value] of log.storage) entries.push(`"${word(slot)}":"${word(value)}"`)
    json += `,"storage":{${entries.join(',')}}`
  }
  if (log.refund !== 0n) json += `,"refund":${log.refund}`
  return json + '}'
}

function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`
}

function callFrameJson(frame: CallFrame): Record<string, unknown> {
  return {
    from: toData(frame.from),
    gas: toQuantity(frame.gas),
    gasUsed: toQuantity(frame.gasUsed),
    ...(frame.to === undefined ? {} : { to: toData(frame.to) }),
    input: toData(frame.input),
    ...(frame.output === undefined || frame.output.length === 0 ? {} : { output: toData(frame.output) }),
    ...(frame.error === undefined ? {} : { error: frame.error }),
    ...(frame.revertReason === undefined || frame.revertReason === '' ? {} : { revertReason: frame.revertReason }),
    ...(frame.calls.length === 0 ? {} : { calls: frame.calls.map(callFrameJson) }),
    ...(frame.logs.length === 0
      ? {}
      : {
          logs: frame.logs.map((l) => ({ address: toData(l.address), topics: l.topics.map(toData), data: toData(l.data), index: toQuantity(l.index), position: toQuantity(l.position) })),
        }),
    ...(frame.value === undefined ? {} : { value: toQuantity(frame.value) }),
    type: frame.type,
  }
}

function prestateJson(result: PrestateResult): unknown {
  return result.kind === 'diff' ? { post: accountsJson(result.post), pre: accountsJson(result.pre) } : accountsJson(result.pre)
}

function accountsJson(accounts: PrestateMap): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // geth writes a Go map: keys sorted.
  for (const key of [...accounts.keys()].sort()) out[`0x${key}`] = accountJson(accounts.get(key)!)
  return out
}

function accountJson(account: PrestateAccount): Record<string, unknown> {
  const storage = account.storage === undefined || account.storage.size === 0 ? undefined : Object.fromEntries([...account.storage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [word(k), word(v)]))
  return {
    ...(account.balance === undefined ? {} : { balance: toQuantity(account.balance) }),
    ...(account.code === undefined ? {} : { code: toData(account.code) }),
    ...(account.codeHash === undefined ? {} : { codeHash: toPaddedData(account.codeHash, 32) }),
    ...(account.nonce === undefined || account.nonce === 0n ? {} : { nonce: Number(account.nonce) }),
    ...(storage === undefined ? {} : { storage }),
  }
}

// --- the methods ---------------------------------------------------------------------------

/** Gives the trace errors geth's code (-32000) and words. */
async function traced<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (e instanceof GenesisNotTraceableError || e instanceof TraceTimeoutError || e instanceof StateOverrideError || e instanceof PrestateConfigError) {
      throw new ServerError(e.message, { cause: e })
    }
    throw e
  }
}

async function traceWholeBlock(chain: Chain, record: BlockRecord, config: TraceConfig): Promise<RawJson> {
  const choice = chooseTracer(config)
  const traces = await traced(() => traceBlock(chain, record, () => choice.make(), config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }))
  return new RawJson(`[${traces.map((t) => `{"txHash":"${toData(t.hash)}","result":${choice.json(t.result).json}}`).join(',')}]`)
}

/** The `debug_trace*` entries of the registry. */
export function createDebugMethods(chainFor: ChainFor) {
  const debug_traceTransaction = defineMethod([hash, optional(traceConfig, NO_CONFIG)], async ([h, config], ctx) => {
    const chain = await chainFor(ctx)
    const found = chain.lookupTransaction(h)
    if (found?.status !== 'included') throw new ServerError('transaction not found')
    const record = chain.blockByNumber(found.included.blockNumber)!
    const choice = chooseTracer(config)
    return choice.json(await traced(() => traceTransaction(chain, record, found.included, () => choice.make(), config.timeoutMs)))
  })

  const debug_traceBlockByNumber = defineMethod([blockNumber, optional(traceConfig, NO_CONFIG)], async ([block, config], ctx) => {
    const chain = await chainFor(ctx)
    if (block.kind === 'tag' && block.tag === 'pending') throw new ServerError('tracing on top of pending is not supported')
    const number = block.kind === 'tag' ? chain.tagNumber(block.tag) : block.number
    const record = chain.blockByNumber(number)
    if (record === undefined) throw new ServerError(`block #${number} not found`)
    return traceWholeBlock(chain, record, config)
  })

  const debug_traceBlockByHash = defineMethod([hash, optional(traceConfig, NO_CONFIG)], async ([h, config], ctx) => {
    const chain = await chainFor(ctx)
    const record = chain.blockByHash(h)
    if (record === undefined) throw new ServerError(`block ${toData(h)} not found`)
    return traceWholeBlock(chain, record, config)
  })

  const debug_traceCall = defineMethod([transactionRequest, optional(blockParam, LATEST), optional(traceConfig, NO_CONFIG)], async ([req, block, config], ctx) => {
    const chain = await chainFor(ctx)
    const pending = block.kind === 'tag' && block.tag === 'pending'
    const record = pending ? (await chain.pendingBlock()).record : chain.resolveBlock(block)
    const state = await chain.stateAt(block)
    const choice = chooseTracer(config)
    const gasPrice = req.gasPrice ?? req.maxFeePerGas
    return choice.json(
      await traced(() =>
        traceCall(
          {
            common: chain.common,
            record,
            state,
            blockchain: chain.replayBase(chain.head).blockchain,
            gasCap: chain.callGasCap,
            call: {
              ...(req.from === undefined ? {} : { from: req.from }),
              ...(req.to === undefined ? {} : { to: req.to }),
              ...(req.gas === undefined ? {} : { gas: req.gas }),
              ...(gasPrice === undefined ? {} : { gasPrice }),
              ...(req.value === undefined ? {} : { value: req.value }),
              ...(req.data === undefined ? {} : { data: req.data }),
            },
            ...(config.stateOverrides === undefined ? {} : { stateOverrides: config.stateOverrides }),
            ...(config.blockOverrides === undefined ? {} : { blockOverrides: config.blockOverrides }),
          },
          choice.make(),
          config.timeoutMs,
        ),
      ),
    )
  })

  // The block of a BlockNumberOrHash, as geth's raw-encoding methods find it (`pending`: the pending block).
  const rawBlock = async (ref: BlockRef, ctx: RpcContext): Promise<BlockRecord> => {
    const chain = await chainFor(ctx)
    if (ref.kind === 'tag' && ref.tag === 'pending') return (await chain.pendingBlock()).record
    return chain.resolveBlock(ref)
  }

  const debug_getRawBlock = defineMethod([blockParam], async ([ref], ctx) => toData((await rawBlock(ref, ctx)).block.serialize()))
  const debug_getRawHeader = defineMethod([blockParam], async ([ref], ctx) => toData((await rawBlock(ref, ctx)).block.header.serialize()))
  const debug_getRawReceipts = defineMethod([blockParam], async ([ref], ctx) => (await rawBlock(ref, ctx)).transactions.map((t) => toData(encodeReceipt(t))))

  // geth looks in the chain, then in the pool; null when neither has it.
  const debug_getRawTransaction = defineMethod([hash], async ([h], ctx) => {
    const found = (await chainFor(ctx)).lookupTransaction(h)
    if (found === undefined) return null
    return toData((found.status === 'included' ? found.included.tx : found.pending.tx).serialize())
  })

  return {
    debug_traceTransaction,
    debug_traceBlockByNumber,
    debug_traceBlockByHash,
    debug_traceCall,
    debug_getRawBlock,
    debug_getRawHeader,
    debug_getRawReceipts,
    debug_getRawTransaction,
  }
}
