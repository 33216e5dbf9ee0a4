/**
 * The `ringchain` bin as shipped (dist/cli/main.js): runs the bundled command (scripts/bundle-cli.mjs
 * writes it beside this file) from V8's code cache when one is there, and leaves one for the next
 * start. Compiling the 1.4 MB bundle was a third of `ringchain serve`'s CPU before its first answer.
 * Node >= 22.1 has `module.enableCompileCache()`; Node 20 has not, so this does by hand what it
 * does: the cache lives in the temporary directory, keyed by the bundle's content and Node's
 * version, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off. A missing, stale or rejected cache
 * costs nothing but the compile it would have saved.
 *
 * The file begins with a few lines of POSIX shell (scripts/bundle-cli.mjs writes them): run as a
 * program, `ringchain serve` starts Node with NODE_EXTRA_CA_CERTS moved into
 * RINGCHAIN_EXTRA_CA_CERTS, so Node does not read the certificates before the port listens. Here
 * the variable is put back at once, for every process this one starts, and its file is left for
 * the first TLS upstream to load (src/upstream/trust.ts).
 */
import { createRequire } from 'node:module'

const deferredCaCerts = process.env.RINGCHAIN_EXTRA_CA_CERTS
if (deferredCaCerts !== undefined) {
  delete process.env.RINGCHAIN_EXTRA_CA_CERTS
  if (deferredCaCerts !== '') {
    process.env.NODE_EXTRA_CA_CERTS = deferredCaCerts
    // The key src/upstream/trust.ts reads (DEFERRED_CA_CERTS_KEY): the bundle is built apart from this file.
    ;(globalThis as Record<symbol, unknown>)[Symbol.for('ringchain.deferredExtraCaCerts')] = deferredCaCerts
  }
}

// Built-ins through `require`: an `import` of one builds its ES module facade, which reads every
// export, lazy ones too (node:fs's streams), and was a tenth of this start.
const builtin = createRequire(import.meta.url)
const { mkdirSync, readFileSync, renameSync, writeFileSync } = builtin('node:fs') as typeof import('node:fs')
const { tmpdir } = builtin('node:os') as typeof import('node:os')
const { join } = builtin('node:path') as typeof import('node:path')
const { fileURLToPath } = builtin('node:url') as typeof import('node:url')
const { Script } = builtin('node:vm') as typeof import('node:vm')

/** The bundle's content hash, written in by scripts/bundle-cli.mjs. */
declare const RINGCHAIN_BUNDLE_ID: string

/** The bundle is one function expression taking what a CommonJS module gets, plus its own URL. */
type BundleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string, moduleUrl: string) => void

const bundlePath = fileURLToPath(new URL('./ringchain.bundle.js', import.meta.url))
const cacheDir = join(tmpdir(), 'ringchain-compile-cache')
// One cache per subcommand: each holds what its own run compiled, and `--help` leaves `serve` a full one.
const command = /^[a-z]+$/.test(process.argv[2] ?? '') ? process.argv[2] : 'none'
const cachePath = join(cacheDir, `${RINGCHAIN_BUNDLE_ID}-${command}-${process.version}-${process.arch}.bin`)
const useCache = process.env.NODE_DISABLE_COMPILE_CACHE === undefined

const cachedData = useCache ? readCache() : undefined
const script = new Script(readFileSync(bundlePath, 'utf8'), { filename: bundlePath, ...(cachedData === undefined ? {} : { cachedData }) })
// Written at exit, so that it also holds what serving compiled (functions compile lazily); the
// bench and test runners stop `serve` with a signal, which ends in process.exit.
if (useCache && (cachedData === undefined || script.cachedDataRejected === true)) process.once('exit', writeCache)

// The bundle sits where tsc's dist/cli/main.js sat: paths it finds through its URL stay right.
const moduleUrl = new URL('./main.js', import.meta.url).href
const module = { exports: {} }
const bundle = script.runInThisContext() as BundleFunction
bundle(module.exports, createRequire(moduleUrl), module, fileURLToPath(moduleUrl), fileURLToPath(new URL('.', moduleUrl)), moduleUrl)

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cachePath)
  } catch {
    return undefined
  }
}

function writeCache(): void {
  try {
    mkdirSync(cacheDir, { recursive: true })
    // Renamed into place: a concurrent start reads the old file or the new one, never half of one.
    const partial = `${cachePath}.${process.pid}`
    writeFileSync(partial, script.createCachedData())
    renameSync(partial, cachePath)
  } catch {
    // A read-only or full temporary directory: the next start compiles, as without a cache.
  }
}
