/**
 * Which view the URL names, and moving between views without reloading (the history API). Every
 * view has its own URL under `/inspector/<KEY>`, so a link can be printed, shared and reopened.
 */
import { Watched } from './store.js'

export type Route =
  | { readonly view: 'ring' }
  | { readonly view: 'pool' }
  | { readonly view: 'tx'; readonly hash: string }
  | { readonly view: 'block'; readonly number: bigint }
  | { readonly view: 'address'; readonly address: string }
  | { readonly view: 'unknown'; readonly path: string }

/** The route of a path below the base (`/tx/0x…`, '' for the ring). */
export function parseRoute(path: string): Route {
  let m: RegExpExecArray | null
  if (path === '' || path === '/') return { view: 'ring' }
  if (path === '/pool') return { view: 'pool' }
  if ((m = /^\/tx\/(0x[0-9a-fA-F]{64})$/.exec(path)) !== null) return { view: 'tx', hash: m[1]!.toLowerCase() }
  if ((m = /^\/block\/(\d{1,20})$/.exec(path)) !== null) return { view: 'block', number: BigInt(m[1]!) }
  if ((m = /^\/address\/(0x[0-9a-fA-F]{40})$/.exec(path)) !== null) return { view: 'address', address: m[1]!.toLowerCase() }
  return { view: 'unknown', path }
}

/** The path of what a search box holds: a hash, a block number or an address; undefined for none of these. */
export function pathOfQuery(text: string): string | undefined {
  const q = text.trim()
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) return `/tx/${q}`
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return `/address/${q}`
  if (/^\d{1,20}$/.test(q)) return `/block/${q}`
  return undefined
}

export class Router extends Watched {
  /** `/inspector/<KEY>` */
  readonly base: string
  route: Route

  constructor(base: string) {
    super()
    this.base = base
    this.route = parseRoute(this.#current())
    addEventListener('popstate', () => this.#update())
  }

  /** The full URL path of a view path. */
  href(path: string): string {
    return this.base + path
  }

  navigate(path: string): void {
    history.pushState(null, '', this.href(path))
    this.#update()
  }

  #current(): string {
    const path = location.pathname
    return path.startsWith(this.base) ? path.slice(this.base.length) : path
  }

  #update(): void {
    this.route = parseRoute(this.#current())
    this.changed()
  }
}
