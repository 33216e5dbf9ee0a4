// The README's recipe blocks marked `<!-- example: examples/<path> -->` are the example projects'
// files, byte for byte: what the README shows is what test/examples runs.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { repoRoot } from '../helpers/packed.js'

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/<!-- example: (examples\/[^ ]+) -->\n```\w*\n([\s\S]*?)```/g)]

test('default: the README shows example files', () => {
  expect(blocks.map(([, path]) => path)).toContain('examples/vitest/vitest.config.js')
})

test.each(blocks.map(([, path, code]) => [path!, code!]))('behavior: the README block %s is that file', (path, code) => {
  expect(code).toBe(readFileSync(join(repoRoot, path), 'utf8'))
})
