// The repository itself: no merge left half-done. A conflict marker in a committed file (one slipped
// into bench/README.md once) is a line starting with seven <, = or > and then a space or the end.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'

const root = new URL('../', import.meta.url).pathname

test('behavior: no tracked text file carries a merge conflict marker', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) => /\.(ts|tsx|mjs|cjs|js|json|md|yml|yaml|sol|css|html)$/.test(f))
  expect(files.length).toBeGreaterThan(100)
  const marked = files.filter((file) => /^(<{7}|>{7})( |$)/m.test(readFileSync(join(root, file), 'utf8')))
  expect(marked).toEqual([])
})
