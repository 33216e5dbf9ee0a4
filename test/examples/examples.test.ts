// Each project under examples/ run as a user runs it: copied out of this repository, ringchain
// installed from the packed tarball beside the example's own dependencies, then a plain `npm test`.
// Each example holds its two test files at a meeting point in two workers at once and fails if one
// sees the other's write, or if a test sees the previous test's write.

import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { installOrSkip, npmInstall, packedTarball, repoRoot, tempDir } from '../helpers/packed.js'

const exec = promisify(execFile)
// The example's own runner must not think it runs inside this one (VITEST_POOL_ID, VITEST_WORKER_ID…).
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TINYPOOL|NODE_OPTIONS$|npm_)/.test(name)).concat([['NO_COLOR', '1']]))
const TIMEOUT = 240_000
const copies: string[] = []
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })), 120_000)

async function npmTestOf(example: string, skip: (note: string) => never): Promise<string> {
  const dir = tempDir(example.replaceAll('/', '-'), join(repoRoot, 'examples', example))
  copies.push(dir)
  const tarball = await packedTarball()
  await installOrSkip(skip, () => npmInstall(dir, [tarball]))
  try {
    const { stdout, stderr } = await exec('npm', ['test'], { cwd: dir, env: userEnv, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })
    return stdout + stderr
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string }
    throw new Error(`npm test failed in a copy of examples/${example}:\n${stdout}\n${stderr}`, { cause: e })
  }
}

test.concurrent('examples/vitest: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('vitest', skip)).toMatch(/Tests\s+4 passed/)
})

test.concurrent('examples/node-test: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('node-test', skip)).toMatch(/pass 4\b/)
})
