// The bare module specifiers that built JavaScript loads: static `import`/`export … from`, dynamic
// `import('…')` and `require('…')` with a string literal. Used to check that the published package
// declares everything dist/ needs (an undeclared package works inside this repository, where it is
// hoisted, and breaks in a user's app, where another package may hoist a different version of it).

import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'

// Loose on purpose (it also matches inside strings of the minified CLI bundle); NAME then keeps
// only what can be a package name.
const NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.@-]+)*$/i
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm

/** Every `*.js` and `*.mjs` file under a directory, recursively (the warm-up's worker is an .mjs). */
export function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The bare specifiers (not relative, not `node:`/built-in) in a file, subpaths kept. */
export function bareSpecifiers(source: string): string[] {
  const found = new Set<string>()
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[2]!
    if (!NAME.test(specifier) || isBuiltin(specifier)) continue
    found.add(specifier)
  }
  return [...found]
}

/** `@scope/name/sub/path.js` -> `@scope/name`; `name/sub` -> `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)
}

/** specifier -> the dist files (relative to `dir`) that load it. */
export function distImports(dir: string): Map<string, string[]> {
  const imports = new Map<string, string[]>()
  for (const file of jsFiles(dir)) {
    for (const specifier of bareSpecifiers(readFileSync(file, 'utf8'))) {
      imports.set(specifier, [...(imports.get(specifier) ?? []), relative(dir, file)])
    }
  }
  return imports
}
