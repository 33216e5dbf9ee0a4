/**
 * Whether a server is idle: no request in flight and none for a while. The warm-up runs a step
 * only then, so it takes only time nobody else wants.
 */

/** Watches the requests of one handler. */
export class IdleWatch {
  #inFlight = 0
  #lastActive = performance.now()
  #retired = false

  /** `handler`, counted: each call marks the server busy until its promise settles. */
  track<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      // Once the warm-up has ended, requests go straight through: no promise more each.
      if (this.#retired) return handler(...args)
      this.#inFlight++
      this.#lastActive = performance.now()
      return handler(...args).finally(this.#settled)
    }
  }

  readonly #settled = () => {
    this.#inFlight--
    this.#lastActive = performance.now()
  }

  /** Stops watching: tracked handlers call straight through from now on. */
  retire(): void {
    this.#retired = true
  }

  /** True when nothing is in flight and the last request ended `ms` or more ago. */
  idleFor(ms: number): boolean {
    return this.#inFlight === 0 && performance.now() - this.#lastActive >= ms
  }
}
