/**
 * What a server that listens before its chain is built answers meanwhile: `eth_chainId` and
 * `net_version`, which the options already say, at once (a client's first question, and all a
 * start-up probe asks); every other request is held, in order of arrival, and handed to the real
 * dispatcher once the chain is built, or refused with -32603 if building it failed.
 *
 * Leaves to others: every other answer (the dispatcher behind it), building the chain (simulator).
 * Imports nothing of the chain: it is loaded before the chain's modules are.
 */
import { createDispatcher, defineMethod, type Dispatch, type RpcSession } from './dispatcher.js'
import { toQuantity } from './hex.js'
import { none } from './params/decode.js'
import type { ProviderDispatch } from './provider/serve.js'

/** Methods whose answer the options already hold. */
const EARLY_METHODS: ReadonlySet<string> = new Set(['eth_chainId', 'net_version'])

interface Held {
  readonly body: string
  readonly session: RpcSession
  readonly resolve: (answer: Awaited<ReturnType<ProviderDispatch>>) => void
  readonly reject: (error: unknown) => void
}

/**
 * Holds requests until `open`; with a chain id, answers `eth_chainId` and `net_version` before
 * then, as long as nothing is held (answers never overtake a request that came first).
 * @example
 * const gate = new StartupGate(31337n)
 * const server = await startServer(gate.dispatch)
 * gate.open(await buildDispatcher())
 */
export class StartupGate {
  #dispatch: ProviderDispatch | undefined
  #failure: Error | undefined
  #held: Held[] = []
  readonly #early: Dispatch | undefined

  /** `chainId`: the chain's id when the options fix it; undefined holds every request. */
  constructor(chainId: bigint | undefined) {
    this.#early =
      chainId === undefined
        ? undefined
        : createDispatcher({
            eth_chainId: defineMethod(none, () => toQuantity(chainId)),
            net_version: defineMethod(none, () => chainId.toString()),
          })
  }

  #onFirst: (() => void) | undefined
  /** Resolves on the first request, once an early answer to it has gone out. */
  readonly firstRequest: Promise<void> = new Promise((resolve) => (this.#onFirst = resolve))

  /** The handler to give the server: held, early or passed through. */
  readonly dispatch: ProviderDispatch = (body, session) => {
    if (this.#onFirst !== undefined) {
      // After this turn of the event loop, in which the server writes an early answer.
      setImmediate(this.#onFirst)
      this.#onFirst = undefined
    }
    if (this.#dispatch !== undefined) return this.#dispatch(body, session)
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    if (this.#early !== undefined && this.#held.length === 0 && isEarly(body)) return this.#early(body, session)
    return new Promise((resolve, reject) => this.#held.push({ body, session, resolve, reject }))
  }

  /** From now on requests go to `dispatch`; the held ones first, in the order they came. */
  open(dispatch: ProviderDispatch): void {
    this.#dispatch = dispatch
    for (const held of this.#release()) dispatch(held.body, held.session).then(held.resolve, held.reject)
  }

  /** Building the chain failed: held and later requests are refused (the server answers -32603). */
  fail(error: Error): void {
    this.#failure = error
    for (const held of this.#release()) held.reject(error)
  }

  #release(): Held[] {
    const held = this.#held
    this.#held = []
    return held
  }
}

/** A single request (not a batch) for one of the early methods. */
function isEarly(body: string): boolean {
  let request: unknown
  try {
    request = JSON.parse(body)
  } catch {
    return false
  }
  return typeof request === 'object' && request !== null && EARLY_METHODS.has((request as { method?: unknown }).method as string)
}
