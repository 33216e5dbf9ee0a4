// The inspector page's files. `GET /inspector/<KEY>` and each view under it (`/pool`, `/tx/<hash>`,
// `/block/<n>`, `/address/<a>`) answer the page's index.html with its base path filled in;
// `/inspector/<KEY>/assets/<file>` answers the bundle, its CSS and source map.
// Owns where the built files are found, their content types and keeping them in memory once read.
// Leaves the key and method checks to http.ts, and the page itself to src/inspector-ui/ (built into
// dist/inspector/ by scripts/bundle-inspector.mjs): it talks to the chain only over the JSON-RPC
// paths, so serving it does no work on the chain.

import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** A file of the page, ready to send. */
export interface InspectorFile {
  readonly contentType: string
  readonly body: Buffer
}

/** Where index.html wants the page's base path (`/inspector/<KEY>`); the build writes it there. */
const BASE_PLACEHOLDER = '__INSPECTOR_BASE__'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
}
const HTML_TYPE = 'text/html; charset=utf-8'

/** The views the page routes itself; each is answered with index.html. */
const VIEW = /^(?:|\/pool|\/tx\/0x[0-9a-fA-F]{64}|\/block\/\d{1,20}|\/address\/0x[0-9a-fA-F]{40})$/
/** Asset names are plain (no `..`, no folders): nothing outside the directory can be named. */
const ASSET = /^\/assets\/([a-z0-9-]+(?:\.[a-z]+)*\.([a-z]+))$/

/**
 * The built page's directory: dist/inspector/ beside dist/server/ (the CLI bundle is given
 * dist/cli/main.js's URL, the same depth), or, when the server runs from its sources (tests),
 * the one `npm run build` wrote. Undefined when neither exists.
 */
export function builtInspectorDir(): string | undefined {
  for (const relative of ['../inspector/', '../../dist/inspector/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url))
    if (existsSync(dir + 'index.html')) return dir
  }
  return undefined
}

/** The page's files, read from `dir` on first request and kept. */
export class InspectorPages {
  readonly #dir: string | undefined
  /** index.html cut at each base placeholder. */
  #index: Promise<readonly string[]> | undefined
  readonly #assets = new Map<string, Promise<InspectorFile | undefined>>()

  /** `dir` undefined: the page is not built, and every path answers 404. */
  constructor(dir: string | undefined) {
    this.#dir = dir
  }

  /** Whether the built page was found. */
  get built(): boolean {
    return this.#dir !== undefined
  }

  /** The file for `rest` (what follows `/inspector/<KEY>`), or undefined for a path that is none of the page's. */
  async file(encodedKey: string, rest: string): Promise<InspectorFile | undefined> {
    const dir = this.#dir
    if (dir === undefined) return undefined
    if (VIEW.test(rest)) {
      const parts = await (this.#index ??= readFile(dir + 'index.html', 'utf8').then((html) => html.split(BASE_PLACEHOLDER)))
      return { contentType: HTML_TYPE, body: Buffer.from(parts.join(`/inspector/${encodedKey}`)) }
    }
    const asset = ASSET.exec(rest)
    const type = asset === null ? undefined : CONTENT_TYPES[asset[2]!]
    if (asset === null || type === undefined) return undefined
    const name = asset[1]!
    let reading = this.#assets.get(name)
    if (reading === undefined) {
      reading = readFile(dir + 'assets/' + name).then(
        (body) => ({ contentType: type, body }),
        () => undefined,
      )
      this.#assets.set(name, reading)
    }
    return reading
  }
}
