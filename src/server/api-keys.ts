// Which API keys may use the service. Owns the constant-time comparison: every configured key is
// compared against the sha256 of the candidate (equal-length digests, so timingSafeEqual applies
// and the key's length leaks nothing), and no comparison is skipped once one matches.
// It never stores or logs a key in clear (the root key aside: it is the key the root path `/`
// stands for, given by whoever starts the server, and no secret); reading the key from the path is
// routes.ts's job.

import { createHash, timingSafeEqual } from 'node:crypto'

/** The set of accepted API keys; with none configured, any non-empty key is accepted. */
export class ApiKeys {
  readonly #digests: readonly Buffer[]
  /** The key a request to the root path `/` is served as; undefined: `/` is not served. */
  readonly root: string | undefined

  constructor(keys: readonly string[] | undefined, root?: string) {
    const list = keys ?? []
    for (const key of list) {
      if (typeof key !== 'string' || key.length === 0) throw new TypeError('apiKeys: every key must be a non-empty string')
    }
    this.#digests = list.map(digest)
    if (root !== undefined && root.length === 0) throw new TypeError('rootKey: must be a non-empty string')
    this.root = root
  }

  /** True when `key` may use the service. */
  accepts(key: string): boolean {
    if (key.length === 0) return false
    if (this.#digests.length === 0) return true
    const candidate = digest(key)
    let accepted = false
    // `||` with the call first: every digest is compared, whichever one matches.
    for (const known of this.#digests) accepted = timingSafeEqual(known, candidate) || accepted
    return accepted
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}
