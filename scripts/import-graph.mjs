#!/usr/bin/env node
// Prints the folder-level import graph of src/ as a mermaid flowchart: one node per top-level
// folder or file of src/ (chain/, rpc/, simulator.ts, …), one arrow per pair that imports, read
// from the sources' `from '…'` and `import('…')` specifiers. docs/architecture.md carries this
// output between its import-graph markers, and test/architecture.test.ts checks that it still
// matches, so the picture there is the real one. Usage: node scripts/import-graph.mjs
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const src = fileURLToPath(new URL('../src/', import.meta.url))

/** The top-level entry of src/ a path lies in: `chain/` for src/chain/trace/replay.ts, `simulator.ts` for itself. */
function roomOf(path) {
  const [first, ...rest] = relative(src, path).split('/')
  return rest.length > 0 ? `${first}/` : first.replace(/\.js$/, '.ts')
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Arrows between rooms, as sorted `[from, to]` pairs. */
export function importGraph() {
  const edges = new Set()
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/(?:from |import\()'(\.\.?\/[^']+)'/g)) {
      const from = roomOf(file)
      const to = roomOf(resolve(dirname(file), match[1]))
      if (from !== to) edges.add(`${from} ${to}`)
    }
  }
  return [...edges].sort().map((edge) => edge.split(' '))
}

/** The graph as a mermaid flowchart, top-down. */
export function mermaid(edges) {
  const id = (room) => room.replace(/[/.].*$/, '').replace(/-/g, '_')
  const rooms = [...new Set(edges.flat())].sort()
  return [
    '```mermaid',
    'flowchart TD',
    ...rooms.map((room) => `  ${id(room)}["${room}"]`),
    ...edges.map(([from, to]) => `  ${id(from)} --> ${id(to)}`),
    '```',
  ].join('\n')
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(mermaid(importGraph()) + '\n')
}
