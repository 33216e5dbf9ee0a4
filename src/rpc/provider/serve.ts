/**
 * Answers requests as the hosted provider of the profile in force would: rate limits (429 with
 * Retry-After, -32005), transient failures (the profile's status, -32603), latency per method,
 * lagging backends (`lag.ts`), and the provider's limits on batches and `eth_getLogs`. Wraps the
 * dispatcher: without a profile a request goes straight through (one field check), as do test
 * controls (`isTestControl`), and the dispatcher still builds every envelope of a call served.
 * Statuses and Retry-After go to the transport in a `ProviderAnswer`; WebSocket drops are the
 * transport's (`ProviderSimulation.wsLifetime`).
 */
import { numberOf, type ChainFor } from '../context.js'
import { errorResponse, resultResponse, type Dispatch, type RpcId, type RpcSession } from '../dispatcher.js'
import { InternalError, InvalidParamsError, InvalidRequestError, LimitExceededError, type RpcError } from '../errors.js'
import { logFilter } from '../params/logFilter.js'
import type { KeyState, ProviderSimulation } from './engine.js'
import { asOfBlock, isLaggableRead, type Call } from './lag.js'
import type { ProviderBehaviour } from './profile.js'

/** An answer with its own HTTP status and headers (over WebSocket, only the body is sent). */
export interface ProviderAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A dispatcher that may answer with a status of its own. */
export type ProviderDispatch = (body: string, session: RpcSession) => Promise<string | undefined | ProviderAnswer>

// Infura's wording for its two rate limits (both -32005, HTTP 429).
const PER_SECOND_MESSAGE = 'project ID request rate exceeded'
const PER_DAY_MESSAGE = 'daily request count exceeded, request rate limited'

/**
 * `dispatch` behind the provider simulation.
 * @example const handle = withProvider(dispatch, new ProviderSimulation(profile), chainFor)
 */
export function withProvider(dispatch: Dispatch, simulation: ProviderSimulation, chainFor: ChainFor): ProviderDispatch {
  return (body, session) => {
    const state = simulation.stateOf(session.apiKey)
    if (state === undefined) return dispatch(body, session)
    return serveAsProvider(body, session, state, { dispatch, simulation, chainFor })
  }
}

interface Parts {
  readonly dispatch: Dispatch
  readonly simulation: ProviderSimulation
  readonly chainFor: ChainFor
}

async function serveAsProvider(body: string, session: RpcSession, state: KeyState, parts: Parts): Promise<string | undefined | ProviderAnswer> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return parts.dispatch(body, session) // the dispatcher's parse error
  }
  const isBatch = Array.isArray(parsed)
  const calls: readonly unknown[] = isBatch ? (parsed as unknown[]) : [parsed]
  if (calls.length > 0 && calls.every(isTestControl)) return parts.dispatch(body, session)
  const refusal = state.admit(Math.max(1, calls.length), parts.simulation.now())
  if (refusal !== undefined) {
    const error = new LimitExceededError(refusal.limit === 'perDay' ? PER_DAY_MESSAGE : PER_SECOND_MESSAGE)
    return { status: 429, headers: { 'Retry-After': String(refusal.retryAfterSeconds) }, body: errorsFor(calls, isBatch, error) }
  }
  const status = state.failure()
  if (status !== undefined) return { status, headers: {}, body: errorsFor(calls, isBatch, new InternalError()) }
  const behaviour = state.behaviour
  const maxBatch = behaviour.limits?.batch
  if (isBatch && maxBatch !== undefined && calls.length > maxBatch) {
    // geth's answer to a batch over its limit, which geth-based providers pass on.
    return '[' + errorResponse(idOf(calls[0]), new InvalidRequestError('batch too large')) + ']'
  }
  if (!isBatch) return serveCall(parsed, session, state, parts)
  const answers: string[] = []
  for (const call of calls) {
    const answer = await serveCall(call, session, state, parts)
    if (answer !== undefined) answers.push(answer)
  }
  return answers.length === 0 ? undefined : '[' + answers.join(',') + ']'
}

/** One call: its latency, its lag, the `eth_getLogs` limits, then the dispatcher. */
async function serveCall(message: unknown, session: RpcSession, state: KeyState, parts: Parts): Promise<string | undefined> {
  if (!isCall(message)) return parts.dispatch(JSON.stringify(message), session) // the dispatcher's -32600
  const behaviour = state.behaviour
  const latency = behaviour.latencyMs?.[message.method] ?? behaviour.latencyMs?.['*'] ?? 0
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency))
  const hasId = Object.hasOwn(message, 'id')
  const id = idOf(message)
  let call: Call = message
  if (isLaggableRead(call.method)) {
    const blocks = state.lag()
    if (blocks > 0) {
      const chain = await parts.chainFor({ session, method: call.method })
      const head = chain.head.number
      const lagged = asOfBlock(call, head > BigInt(blocks) ? head - BigInt(blocks) : 0n)
      if ('result' in lagged) return hasId ? resultResponse(id, lagged.result) : undefined
      if ('error' in lagged) return hasId ? errorResponse(id, lagged.error) : undefined
      call = lagged.call
    }
  }
  if (call.method === 'eth_getLogs') {
    const tooWide = await logRangeError(call, behaviour, session, parts)
    if (tooWide !== undefined) return hasId ? errorResponse(id, tooWide) : undefined
  }
  const answer = await parts.dispatch(call === message ? JSON.stringify(message) : JSON.stringify(call), session)
  const maxResults = behaviour.limits?.getLogsResults
  if (answer !== undefined && call.method === 'eth_getLogs' && maxResults !== undefined) {
    const result = (JSON.parse(answer) as { result?: unknown }).result
    // Infura's answer to a query over its result cap.
    if (Array.isArray(result) && result.length > maxResults) return errorResponse(id, new LimitExceededError(`query returned more than ${maxResults} results`))
  }
  return answer
}

/** Alchemy's refusal of an `eth_getLogs` block range over the limit, or undefined when it is within. */
async function logRangeError(call: Call, behaviour: ProviderBehaviour, session: RpcSession, parts: Parts): Promise<RpcError | undefined> {
  const maxRange = behaviour.limits?.getLogsBlockRange
  const raw = Array.isArray(call.params) ? (call.params as unknown[])[0] : undefined
  if (maxRange === undefined || typeof raw !== 'object' || raw === null) return undefined
  let filter
  try {
    filter = logFilter.decode(raw)
  } catch {
    return undefined // the dispatcher words the bad filter
  }
  if (filter.blockHash !== undefined) return undefined
  const chain = await parts.chainFor({ session, method: call.method })
  const from = filter.fromBlock === undefined ? chain.head.number : numberOf(chain, filter.fromBlock)
  const to = filter.toBlock === undefined ? chain.head.number : numberOf(chain, filter.toBlock)
  if (to - from + 1n <= BigInt(maxRange)) return undefined
  const maxResults = behaviour.limits?.getLogsResults ?? 10_000
  return new InvalidParamsError(
    `Log response size exceeded. You can make eth_getLogs requests with up to a ${maxRange} block range and no limit on the response size, or you can request any block range with a cap of ${maxResults} logs in the response.`,
  )
}

/** The error answer to every call of a refused request, each with its own id. */
function errorsFor(calls: readonly unknown[], isBatch: boolean, error: RpcError): string {
  if (!isBatch) return errorResponse(idOf(calls[0]), error)
  if (calls.length === 0) return errorResponse(null, error)
  return '[' + calls.map((call) => errorResponse(idOf(call), error)).join(',') + ']'
}

/**
 * Test controls (`anvil_`, `hardhat_`, `evm_`, `ringchain_`) are no hosted provider's: they pass
 * untouched, so that a test can mine or change the profile whatever the profile does to its app.
 */
function isTestControl(message: unknown): boolean {
  if (!isCall(message)) return false
  const method = message.method
  return method.startsWith('anvil_') || method.startsWith('evm_') || method.startsWith('hardhat_') || method.startsWith('ringchain_')
}

function isCall(message: unknown): message is Call {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && typeof (message as { method?: unknown }).method === 'string'
}

function idOf(message: unknown): RpcId {
  if (typeof message !== 'object' || message === null) return null
  const id = (message as { id?: unknown }).id
  return typeof id === 'string' || typeof id === 'number' ? id : null
}
