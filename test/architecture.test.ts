import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { expect, test } from 'vitest'

const root = new URL('../', import.meta.url).pathname
const src = join(root, 'src/')

/** The .ts and .tsx files of a src/ folder (with its rooms), or the one file a top-level entry is. */
function filesOf(entry: string): string[] {
  if (entry.endsWith('.ts')) return [entry]
  return readdirSync(join(src, entry), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(entry, f))
}

/** Relative specifiers a file imports, statically (`from '…'`, types included) or lazily (`import('…')`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8')
  return [...text.matchAll(/(?:from |import\()'(\.\.?\/[^']+)'/g)].map((m) => m[1]!)
}

/**
 * Which src/ entries each folder or top-level file may import from (the house: cli → scenario →
 * simulator → server/rpc → chain, with the recorder below the simulator). docs/architecture.md
 * states these rules in words: change both together.
 */
const allowed: Record<string, readonly string[]> = {
  chain: ['chain'],
  rpc: ['rpc', 'chain'],
  server: ['server'],
  upstream: ['upstream', 'chain'],
  'eip1193.ts': [],
  'recorder.ts': ['rpc', 'chain'],
  'chains.ts': ['rpc', 'chain'],
  'assembly.ts': ['chain', 'rpc', 'server', 'upstream', 'chains.ts'],
  'simulator.ts': ['chain', 'rpc', 'server', 'upstream', 'recorder.ts', 'chains.ts', 'eip1193.ts', 'assembly.ts', 'warmup'],
  // The warm-up is a client: it knows URLs and JSON-RPC, not the server or the chain it exercises.
  warmup: ['warmup'],
  inspect: ['inspect', 'eip1193.ts'],
  scenario: ['scenario', 'simulator.ts', 'rpc', 'eip1193.ts'],
  cli: ['cli', 'inspect', 'scenario', 'simulator.ts', 'chain'],
  // The inspector page runs in the browser: it reaches the chain over JSON-RPC only.
  'inspector-ui': ['inspector-ui', 'inspect'],
}

test('behavior: imports follow the house direction (chain knows no rpc, server knows no chain)', () => {
  for (const [entry, may] of Object.entries(allowed)) {
    for (const file of filesOf(entry)) {
      for (const spec of importsOf(file)) {
        // The top-level src/ entry the import lands in (folders may have rooms: chain/trace/).
        const target = relative(src, resolve(dirname(join(src, file)), spec)).split('/')[0]!.replace(/\.js$/, '.ts')
        expect(may, `${file} imports ${spec}`).toContain(target)
      }
    }
  }
})

test('behavior: the diagram in docs/architecture.md is the import graph scripts/import-graph.mjs reads from src/', () => {
  const printed = execFileSync(process.execPath, [join(root, 'scripts/import-graph.mjs')], { encoding: 'utf8' }).trim()
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8')
  const drawn = /<!-- import-graph:start[^>]*-->\n([\s\S]*?)\n<!-- import-graph:end -->/.exec(doc)?.[1]
  expect(drawn, 'the doc has no import-graph markers').toBeDefined()
  expect(drawn, 'docs/architecture.md is out of date: paste the output of `node scripts/import-graph.mjs` between its markers').toBe(printed)
})
