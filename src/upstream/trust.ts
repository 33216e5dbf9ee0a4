/**
 * The certificates a TLS upstream (https://, wss://) is checked against when the `ringchain` bin
 * started Node without loading NODE_EXTRA_CA_CERTS. Node 20 reads that file, and builds its root
 * store, at every start before any JavaScript runs (~80 ms with a distribution's bundle of ~140
 * certificates); the bin's shell lines (scripts/bundle-cli.mjs) move the variable aside for `serve`,
 * and its launcher (src/cli/launcher.ts) names the file here. Owns loading that file when the first
 * TLS upstream is opened; not the transports themselves (http.ts, ws.ts).
 */
import type { SecureContext, SecureContextOptions } from 'node:tls'

/**
 * Where the launcher leaves the deferred file's path: a process-wide name, because the launcher
 * is bundled apart from this module. src/cli/launcher.ts writes the same key.
 */
export const DEFERRED_CA_CERTS_KEY = Symbol.for('ringchain.deferredExtraCaCerts')

let trusted = false

/**
 * Makes this process's TLS connections trust the deferred NODE_EXTRA_CA_CERTS file, as Node would
 * have at start: its certificates join the root store of every secure context made without a `ca`
 * of its own (fetch's and ws's included). Does nothing when nothing was deferred; runs once.
 */
export function trustDeferredCaCerts(): void {
  const file = (globalThis as Record<symbol, unknown>)[DEFERRED_CA_CERTS_KEY]
  if (trusted || typeof file !== 'string' || file === '') return
  trusted = true
  const fs = process.getBuiltinModule('node:fs')
  const tls = process.getBuiltinModule('node:tls')
  let certificates: string[]
  try {
    certificates = fs.readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  } catch (error) {
    // Node's own words for an unreadable file; TLS then goes on with the built-in roots, as Node's does.
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(error as Error).message}`)
    return
  }
  // fetch (undici) and ws reach tls.createSecureContext through tls.connect; no public option of
  // Node 20 adds to the default root store for them all (tls.setDefaultCACertificates is Node 22.15+).
  const createSecureContext = tls.createSecureContext
  const trusting = (options?: SecureContextOptions) => {
    const context = createSecureContext(options)
    // The native context: addCACert copies the shared root store before adding to it (~100 ms for
    // ~140 certificates here), hence one context shared by every connection made with the defaults.
    const native = (context as unknown as { context: { addCACert(pem: string): void } }).context
    for (const pem of certificates) native.addCACert(pem)
    return context
  }
  let shared: SecureContext | undefined
  tls.createSecureContext = (options?: SecureContextOptions) => {
    if (options?.ca !== undefined) return createSecureContext(options)
    if (!madeWithDefaults(options, tls.DEFAULT_CIPHERS)) return trusting(options)
    return (shared ??= trusting())
  }
}

/** The options that shape a secure context (Node 20's configSecureContext reads them), `ciphers` apart. */
const CONTEXT_OPTIONS = [
  'cert', 'key', 'pfx', 'passphrase', 'sigalgs', 'privateKeyIdentifier', 'privateKeyEngine', 'ecdhCurve', 'dhparam', 'crl', 'honorCipherOrder',
  'secureOptions', 'sessionIdContext', 'ticketKeys', 'sessionTimeout', 'clientCertEngine', 'minVersion', 'maxVersion', 'secureProtocol',
] as const

/** Whether `options` asks for nothing but the default context (tls.connect fills in the default ciphers). */
function madeWithDefaults(options: SecureContextOptions | undefined, defaultCiphers: string): boolean {
  if (options === undefined) return true
  return CONTEXT_OPTIONS.every((name) => options[name] === undefined) && (options.ciphers === undefined || options.ciphers === defaultCiphers)
}
