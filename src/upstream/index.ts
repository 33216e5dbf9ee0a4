/**
 * The upstream a forked chain reads through: `connectUpstream(url)` gives a `ForkSource` over
 * HTTP(S) or WebSocket. Rooms: `client.ts` batching, deduplication, concurrency and retries;
 * `retry.ts` the backoff; `http.ts` and `ws.ts` the transports; `mask.ts` the printable label;
 * `trust.ts` the certificates a TLS upstream is checked against.
 */
import { ForkSourceError, type ForkSource } from '../chain/fork/source.js'
import { UpstreamClient, type ClientSettings } from './client.js'
import { httpTransport } from './http.js'
import { maskedLabel } from './mask.js'
import { trustDeferredCaCerts } from './trust.js'
import { wsTransport } from './ws.js'

export { maskedLabel } from './mask.js'

export interface UpstreamOptions extends Partial<ClientSettings> {
  /** Extra headers on every request (and on the WebSocket handshake), e.g. an authorization. */
  readonly headers?: Readonly<Record<string, string>>
}

/** What an upstream client does unless told otherwise. */
export const UPSTREAM_DEFAULTS: ClientSettings = {
  timeoutMs: 15_000,
  retries: 4,
  backoffMs: 250,
  maxBackoffMs: 5_000,
  batchSize: 50,
  concurrency: 8,
}

/**
 * A client for the JSON-RPC node at `url` (http, https, ws or wss), connecting on first use.
 *
 * @example
 * const upstream = connectUpstream('https://eth.example/v3/KEY')
 * await upstream.request('eth_blockNumber', [])
 */
export function connectUpstream(url: string, options: UpstreamOptions = {}): ForkSource {
  const label = maskedLabel(url)
  const { headers = {}, ...settings } = options
  const protocol = URL.canParse(url) ? new URL(url).protocol : ''
  const transport =
    protocol === 'http:' || protocol === 'https:' ? httpTransport(url, headers) : protocol === 'ws:' || protocol === 'wss:' ? wsTransport(url, headers) : undefined
  if (transport === undefined) throw new ForkSourceError(label, 'connect', 'the fork URL must be http(s):// or ws(s)://')
  if (protocol === 'https:' || protocol === 'wss:') trustDeferredCaCerts()
  return new UpstreamClient(label, transport, { ...UPSTREAM_DEFAULTS, ...withoutUndefined(settings) })
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
