/**
 * Where a forked chain reads what it does not hold: the upstream node. `chain/` does no I/O, so
 * the chain is handed this interface; `src/upstream/` implements it over HTTP and WebSocket (and
 * tests may implement it over an in-process provider).
 */
export interface ForkSource {
  /** A label safe to print in logs and errors: the upstream's origin, its path and key masked. */
  readonly label: string
  /**
   * One JSON-RPC call to the upstream, answered with its `result` (wire JSON, hex strings).
   * Implementations batch, deduplicate and retry; a failure throws `ForkSourceError`.
   */
  request(method: string, params: readonly unknown[]): Promise<unknown>
  /** Ends the connection; pending requests fail. */
  close(): Promise<void>
}

/** What went wrong talking to the upstream, named with its label and the call, never its full URL. */
export class ForkSourceError extends Error {
  constructor(
    readonly label: string,
    readonly method: string,
    readonly reason: string,
    /** The upstream's JSON-RPC error code, when it answered with one. */
    readonly upstreamCode?: number,
  ) {
    super(`upstream ${label}: ${method} failed: ${reason}`)
    this.name = 'ForkSourceError'
  }
}

/** The point a chain was forked at: blocks up to and including it are the upstream's. */
export interface ForkPoint {
  readonly source: ForkSource
  readonly blockNumber: bigint
  /** 0x-prefixed hash of the upstream's block at `blockNumber`. */
  readonly blockHash: string
}
