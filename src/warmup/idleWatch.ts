/**
 * Whether a server is idle: no request in flight and none for a while. The warm-up runs a step
 * only then, so it takes only time nobody else wants.
 */

/** Watches the requests of one handler. */
export class IdleWatch {
  #inFlight = 0
  #lastActive = performance.now()

  /** `handler`, counted: each call marks the server busy until its promise settles. */
  track<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      this.#inFlight++
      this.#lastActive = performance.now()
      return handler(...args).finally(this.#settled)
    }
  }

  readonly #settled = () => {
    this.#inFlight--
    this.#lastActive = performance.now()
  }

  /** True when nothing is in flight and the last request ended `ms` or more ago. */
  idleFor(ms: number): boolean {
    return this.#inFlight === 0 && performance.now() - this.#lastActive >= ms
  }
}
