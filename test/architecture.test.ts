import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, test } from 'vitest'

const src = new URL('../src/', import.meta.url).pathname

function filesOf(folder: string): string[] {
  return readdirSync(join(src, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(folder, f))
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8')
  return [...text.matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => m[1]!)
}

/** Which src/ folders each folder may import from (the house: cli → scenario → simulator → server/rpc → chain). */
const allowed: Record<string, readonly string[]> = {
  chain: ['chain'],
  rpc: ['rpc', 'chain'],
  server: ['server'],
  inspect: ['inspect', 'eip1193.js'],
  scenario: ['scenario', 'simulator.js', 'rpc', 'eip1193.js'],
  cli: ['cli', 'inspect', 'scenario', 'simulator.js', 'chain'],
}

test('behavior: imports follow the house direction (chain knows no rpc, server knows no chain)', () => {
  for (const [folder, may] of Object.entries(allowed)) {
    for (const file of filesOf(folder)) {
      for (const spec of importsOf(file)) {
        // The target's first segment under src/: its folder (`rpc` for rpc/eth/x.js), or a top file (`simulator.js`).
        const target = relative(src, join(src, dirname(file), spec)).split('/')[0]!
        expect(may, `${file} imports ${spec}`).toContain(target)
      }
    }
  }
})
