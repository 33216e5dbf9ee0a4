// Which API key a request path names. Owns the path shapes `/v3/<KEY>` (HTTP),
// `/ws/v3/<KEY>` (WebSocket) and `/inspector/<KEY>/<view>` (the inspector page), their query
// strings and a trailing slash, and the root `/`, which
// stands for one key when the server has a root key (clients default to a URL without a path).
// It does not decide
// whether the key is valid (api-keys.ts) nor what status a mismatch gets (http.ts, websocket.ts).
// Plain string scanning, no URL object: this runs once per request on the hot path.

export const HTTP_PREFIX = '/v3'
export const WS_PREFIX = '/ws/v3'
export const INSPECTOR_PREFIX = '/inspector'

/** The path is under the prefix but carries no key (`/v3`, `/v3/`): answered 403. */
export const KEY_MISSING: unique symbol = Symbol('key missing')
/** The path is not one we serve: answered 404. */
export const NOT_OURS: unique symbol = Symbol('not ours')

/** An API key (non-empty, percent-decoded), or why there is none. */
export type PathMatch = string | typeof KEY_MISSING | typeof NOT_OURS

const SLASH = 0x2f
const QUESTION_MARK = 0x3f

/**
 * The API key a request target names: one under `prefix`, or `rootKey` for the root (`/`, `/?…`);
 * without a root key the root is not ours.
 * @example routeKey('/', '/v3', 'ringchain') // 'ringchain'
 */
export function routeKey(url: string, prefix: string, rootKey: string | undefined): PathMatch {
  if (rootKey !== undefined && url.charCodeAt(0) === SLASH && (url.length === 1 || url.charCodeAt(1) === QUESTION_MARK)) return rootKey
  return matchKeyPath(url, prefix)
}

/**
 * Reads the API key from a request target under `prefix`.
 * @example matchKeyPath('/v3/abc/?x=1', '/v3') // 'abc'
 */
export function matchKeyPath(url: string, prefix: string): PathMatch {
  if (!url.startsWith(prefix)) return NOT_OURS
  let end = url.indexOf('?')
  if (end === -1) end = url.length
  if (end === prefix.length) return KEY_MISSING
  if (url.charCodeAt(prefix.length) !== SLASH) return NOT_OURS // `/v30`, `/v3x`
  const start = prefix.length + 1
  // One trailing slash is forgiven (`/v3/KEY/`), as hosted providers do; more segments are not.
  if (end > start && url.charCodeAt(end - 1) === SLASH) end--
  if (end <= start) return KEY_MISSING
  const raw = url.slice(start, end)
  if (raw.includes('/')) return NOT_OURS
  return raw.includes('%') ? decodeKey(raw) : raw
}

/** An inspector path: its API key and what follows it (`/tx/0x…`, `/assets/app.js`, or '' for the ring). */
export interface InspectorPath {
  readonly key: string
  readonly rest: string
}

/**
 * Reads the API key and the view from an inspector path; unlike the JSON-RPC paths, segments may
 * follow the key (every view has its own URL).
 * @example matchInspectorPath('/inspector/abc/tx/0x12?x=1') // { key: 'abc', rest: '/tx/0x12' }
 */
export function matchInspectorPath(url: string): InspectorPath | typeof KEY_MISSING | typeof NOT_OURS {
  let end = url.indexOf('?')
  if (end === -1) end = url.length
  const path = url.slice(0, end)
  if (!path.startsWith(INSPECTOR_PREFIX)) return NOT_OURS
  if (path.length === INSPECTOR_PREFIX.length) return KEY_MISSING
  if (path.charCodeAt(INSPECTOR_PREFIX.length) !== SLASH) return NOT_OURS // `/inspectors`
  const start = INSPECTOR_PREFIX.length + 1
  const slash = path.indexOf('/', start)
  const raw = slash === -1 ? path.slice(start) : path.slice(start, slash)
  if (raw.length === 0) return KEY_MISSING
  const rest = slash === -1 ? '' : path.slice(slash)
  return { key: raw.includes('%') ? decodeKey(raw) : raw, rest: rest === '/' ? '' : rest }
}

// Clients percent-encode unusual characters (`urls(key)` does too), so the key is compared decoded.
// A malformed escape is kept as written: it then simply fails to match a configured key.
function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
