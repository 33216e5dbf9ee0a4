// The bin's launcher (src/cli/launcher.ts): the bundled command runs from V8's code cache, which
// the first run writes into the temporary directory and later runs read; a broken cache file is
// rejected by V8 and rewritten; NODE_DISABLE_COMPILE_CACHE turns it off.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { runCli } from './helpers.js'

/** A fresh temporary directory for the spawned command (TMPDIR), removed after the test. */
function freshTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ringchain-launcher-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function cacheFiles(tmp: string): string[] {
  try {
    return readdirSync(join(tmp, 'ringchain-compile-cache'))
  } catch {
    return []
  }
}

async function help(tmp: string, env: Record<string, string> = {}): Promise<string> {
  const cli = runCli(['--help'], { env: { ...process.env, TMPDIR: tmp, ...env } })
  expect(await cli.exit()).toBe(0)
  return cli.stdout()
}

describe('launcher', () => {
  test('default: the first run writes the code cache, the next runs from it and answers the same', async () => {
    const tmp = freshTmp()
    const first = await help(tmp)
    expect(first).toContain('Usage: ringchain <command>')
    const files = cacheFiles(tmp)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(new RegExp(`^[0-9a-f]{16}-none-${process.version.replaceAll('.', '\\.')}-${process.arch}\\.bin$`))
    const written = readFileSync(join(tmp, 'ringchain-compile-cache', files[0]!))
    expect(await help(tmp)).toBe(first)
    // Read, not rewritten: V8 accepted it.
    expect(readFileSync(join(tmp, 'ringchain-compile-cache', files[0]!))).toEqual(written)
  })

  test('behavior: a corrupt cache is rejected and replaced', async () => {
    const tmp = freshTmp()
    const first = await help(tmp)
    const path = join(tmp, 'ringchain-compile-cache', cacheFiles(tmp)[0]!)
    writeFileSync(path, Buffer.from('not a code cache'))
    expect(await help(tmp)).toBe(first)
    expect(readFileSync(path).length).toBeGreaterThan(1000)
  })

  test('args: NODE_DISABLE_COMPILE_CACHE writes no cache', async () => {
    const tmp = freshTmp()
    expect(await help(tmp, { NODE_DISABLE_COMPILE_CACHE: '1' })).toContain('Usage: ringchain <command>')
    expect(cacheFiles(tmp)).toEqual([])
  })
})
