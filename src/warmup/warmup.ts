/**
 * The warm-up of a served ringchain: while the server is idle after its start, a test of the kind
 * test suites run (`exercise.ts`) is run again and again, over HTTP and WebSocket, against a
 * scratch chain behind a private server on this machine; then both are dropped.
 *
 * Why: V8 compiles a function to fast machine code only after it has run many times. A fresh
 * server answers its first hundred or so tests with code that is still interpreted or baseline
 * compiled, at up to twice the CPU per test of a warm one (bench/warmup.mjs shows the curve). The
 * compiled code belongs to the process's functions, not to a chain, so the scratch chains' tests
 * leave it ready for the real ones. Two scratch services, taking turns: code compiled while only
 * one chain's objects and closures had been seen is specialised to them, and is thrown away
 * (deoptimised) and compiled again at the served chain's first tests; seen two, V8 compiles code
 * that holds for any chain.
 *
 * Its client's sockets are on a worker thread (loopback.ts): the warm-up compiles the server's
 * code, and only the server's.
 *
 * It takes only time nobody else wants: it begins once the server has been idle a while, and each
 * of its requests waits until no real request is in flight and none came for a moment. It stops
 * after a fixed number of tests, at `stop()`, or at the first thing that goes wrong (reported).
 */
import { Exercise } from './exercise.js'
import type { IdleWatch } from './idleWatch.js'
import { LoopbackThread, type Rpc } from './loopback.js'
import { lowerTierUpBudget } from './tierUp.js'

/** What the warm-up has done (`ringchain_warmup`, `RunningRingchain.warmedUp`). */
export interface WarmupReport {
  /** `waiting` for the server to be idle; `running`; `done` (all its tests); `stopped` (the server closed first); `failed` (see `reason`). */
  readonly state: 'waiting' | 'running' | 'done' | 'stopped' | 'failed'
  /** Tests run to the end. */
  readonly tests: number
  /** Requests answered. */
  readonly requests: number
  /** Milliseconds its requests took, answer included: the server's time it used. */
  readonly busyMs: number
  /** Why it failed. */
  readonly reason?: string
}

/** A chain of its own behind a server of its own, to warm up against. */
export interface ScratchService {
  readonly httpUrl: string
  readonly wsUrl: string
  close(): Promise<void>
}

export interface WarmupOptions {
  /** The real server's requests. */
  readonly idle: IdleWatch
  /** Builds a scratch service (twice, when the warm-up begins). */
  readonly scratch: () => Promise<ScratchService>
  /** How many tests to run. Default `DEFAULT_WARMUP_TESTS`. */
  readonly tests?: number
}

/** Tests run by default: past them, a test's CPU no longer drops much (bench/warmup.mjs). */
const DEFAULT_WARMUP_TESTS = 100
/** Scratch services the tests take turns on (see above). */
const SERVICES = 2
/** How long the server must have been idle before the warm-up begins. */
const START_IDLE_MS = 200
/** Longest a warm-up request may take. */
const REQUEST_TIMEOUT_MS = 30_000
/** How long the server must have been idle before each warm-up request. */
const STEP_IDLE_MS = 20

/** Raised inside the run once `stop()` is called. */
class Stopped extends Error {}

/** A warm-up under way; it starts itself. */
export class Warmup {
  #state: WarmupReport['state'] = 'waiting'
  #tests = 0
  #requests = 0
  #busyMs = 0
  #reason: string | undefined
  #stopping = false
  /** Ends the current wait for idleness early (at `stop()`). */
  #wake: (() => void) | undefined
  /** Its connections' thread: ended at `stop()`, so that a request under way ends too. */
  #thread: LoopbackThread | undefined
  /** Resolves with the last report once the warm-up has ended and its scratch service is gone. */
  readonly ended: Promise<WarmupReport>

  constructor(private readonly options: WarmupOptions) {
    this.ended = this.#run()
  }

  get report(): WarmupReport {
    return { state: this.#state, tests: this.#tests, requests: this.#requests, busyMs: Math.round(this.#busyMs), ...(this.#reason === undefined ? {} : { reason: this.#reason }) }
  }

  /** Ends the warm-up at its next request; resolves once its scratch service is closed. */
  stop(): Promise<WarmupReport> {
    this.#stopping = true
    this.#wake?.()
    void this.#thread?.close()
    return this.ended
  }

  async #run(): Promise<WarmupReport> {
    const services: ScratchService[] = []
    let restoreTierUp = (): boolean => true
    try {
      await this.#idle(START_IDLE_MS)
      this.#state = 'running'
      restoreTierUp = lowerTierUpBudget()
      const thread = (this.#thread = new LoopbackThread())
      /** Per service, its HTTP and WebSocket callers and its test. */
      const turns: { rpcs: Rpc[]; exercise: Exercise }[] = []
      for (let i = 0; i < SERVICES; i++) {
        const service = await this.options.scratch()
        services.push(service)
        const pair = [await thread.open('http', service.httpUrl), await thread.open('ws', service.wsUrl)]
        const rpcs = pair.map((rpc) => this.#paced(rpc))
        const [from] = (await rpcs[0]!('eth_accounts')) as string[]
        if (from === undefined) throw new Error('the scratch chain has no dev account')
        turns.push({ rpcs, exercise: new Exercise(from) })
      }
      const tests = this.options.tests ?? DEFAULT_WARMUP_TESTS
      for (let i = 0; i < tests; i++) {
        // Service by turns; within a service's turns, HTTP and WebSocket by turns.
        const { rpcs, exercise } = turns[i % SERVICES]!
        await exercise.run(rpcs[Math.floor(i / SERVICES) % 2]!)
        this.#tests++
      }
      this.#state = 'done'
    } catch (e) {
      if (e instanceof Stopped || this.#stopping) this.#state = 'stopped'
      else {
        this.#state = 'failed'
        this.#reason = (e as Error).message
      }
    } finally {
      restoreTierUp()
      await this.#thread?.close()
      await Promise.all(services.map((s) => s.close()))
    }
    return this.report
  }

  /** `rpc`, each request sent only once the real server is idle, and counted. */
  #paced(rpc: Rpc): Rpc {
    return async (method, params, as) => {
      await this.#idle(STEP_IDLE_MS)
      const started = performance.now()
      let timer: NodeJS.Timeout | undefined
      try {
        // A request of a working chain is answered in milliseconds: one that is not ends the warm-up.
        const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${method}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS)))
        return await Promise.race([rpc(method, params, as), late])
      } finally {
        clearTimeout(timer)
        this.#busyMs += performance.now() - started
        this.#requests++
      }
    }
  }

  /** Resolves once the real server has been idle `ms`; rejects with `Stopped` once stopping. */
  async #idle(ms: number): Promise<void> {
    for (;;) {
      if (this.#stopping) throw new Stopped()
      if (this.options.idle.idleFor(ms)) return
      await new Promise<void>((resolve) => {
        this.#wake = resolve
        setTimeout(resolve, ms).unref()
      })
    }
  }
}
