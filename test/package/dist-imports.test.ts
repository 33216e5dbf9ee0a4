// Everything dist/ loads is declared by the package: inside this repository an undeclared package
// is found anyway (hoisted by another dependency), in a user's app it may be missing or another
// version (ethers 6 hoists @noble/hashes 1.x, which has no './sha3.js' export).

import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { distImports, packageName } from '../helpers/dist-imports.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  name: string
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  exports: Record<string, unknown>
}

test('behavior: every bare import in dist/ names a dependency, a peer dependency or an own export', () => {
  expect(existsSync(`${root}dist/index.js`), 'dist/ is missing: run `npm run build`').toBe(true)
  const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)])
  const undeclared: string[] = []
  for (const [specifier, files] of distImports(`${root}dist`)) {
    const name = packageName(specifier)
    const ownExport = name === manifest.name && `.${specifier.slice(name.length)}` in manifest.exports
    if (!declared.has(name) && !ownExport) undeclared.push(`${specifier} (${files.join(', ')})`)
  }
  expect(undeclared).toEqual([])
})

test('behavior: the scan finds subpath imports (it would catch an undeclared @noble/hashes)', () => {
  const specifiers = [...distImports(`${root}dist`).keys()]
  expect(specifiers).toContain('@noble/hashes/sha3.js')
  expect(specifiers).toContain('@noble/curves/secp256k1.js')
  expect(specifiers).toContain('micro-eth-signer/kzg.js') // a `require` inside a function
})
