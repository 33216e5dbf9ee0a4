// Each project under examples/ run as a user runs it: copied out of this repository, ringchain
// installed from the packed tarball beside the example's own dependencies, then a plain `npm test`
// (the Python one: `python3 -m unittest`, with the installed `ringchain` on PATH). Each Node example
// holds its two test files at a meeting point in two workers at once and fails if one sees the
// other's write, or if a test sees the previous test's write.
//
// Installs are layered to keep the run short: ringchain alone is installed once, and each example
// starts from that tree, hard-linked (jest's CommonJS project from its ESM twin's, whose
// dependencies are the same); `npm install` then adds the example's own dependencies and prunes
// what its package.json does not ask for, so each tree is what npm gives that package.json.

import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { installOrSkip, npmInstall, packedTarball, repoRoot, shareInstall, tempDir } from '../helpers/packed.js'

const exec = promisify(execFile)
// The example's own runner must not think it runs inside this one (VITEST_POOL_ID, VITEST_WORKER_ID…).
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TINYPOOL|NODE_OPTIONS$|npm_)/.test(name)).concat([['NO_COLOR', '1']]))
const TIMEOUT = 300_000
const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))), 120_000)

const installs = new Map<string, Promise<string>>()
function installOnce(name: string, install: () => Promise<string>): Promise<string> {
  if (!installs.has(name)) installs.set(name, install())
  return installs.get(name)!
}

/** An app with ringchain alone installed: where every example's install starts. */
function ringchainAlone(): Promise<string> {
  return installOnce('ringchain', async () => {
    const dir = tempDir('alone')
    dirs.push(dir)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ringchain-alone', private: true }))
    await npmInstall(dir, [await packedTarball()])
    return dir
  })
}

/** A copy of examples/<example>, installed, starting from `startFrom`'s node_modules. */
function installedExample(example: string, startFrom?: string): Promise<string> {
  return installOnce(example, async () => {
    const from = await (startFrom === undefined ? ringchainAlone() : installedExample(startFrom))
    const dir = tempDir(example.replaceAll('/', '-'), join(repoRoot, 'examples', example))
    dirs.push(dir)
    shareInstall(from, dir)
    await npmInstall(dir, [await packedTarball()])
    return dir
  })
}

async function outputOf(dir: string, command: string, args: string[], env = userEnv): Promise<string> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: dir, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })
    return stdout + stderr
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${dir}:\n${stdout}\n${stderr}`, { cause: e })
  }
}

type Skip = (note: string) => never

async function npmTestOf(example: string, skip: Skip, startFrom?: string): Promise<string> {
  let dir = ''
  await installOrSkip(skip, async () => {
    dir = await installedExample(example, startFrom)
  })
  return outputOf(dir, 'npm', ['test'])
}

test.concurrent('examples/vitest: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('vitest', skip)).toMatch(/Tests\s+4 passed/)
})

test.concurrent('examples/node-test: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('node-test', skip)).toMatch(/pass 4\b/)
})

test.concurrent('examples/jest/esm: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('jest/esm', skip)).toMatch(/Tests:\s+4 passed, 4 total/)
})

test.concurrent('examples/jest/commonjs: npm test passes', { timeout: TIMEOUT }, async ({ skip }) => {
  expect(await npmTestOf('jest/commonjs', skip, 'jest/esm')).toMatch(/Tests:\s+4 passed, 4 total/)
})

test.concurrent('examples/mocha: npm test passes, serially and with --parallel', { timeout: TIMEOUT }, async ({ skip }) => {
  const output = await npmTestOf('mocha', skip)
  expect(output.match(/\b4 passing\b/g)).toHaveLength(2)
})

test.concurrent('examples/python: python3 -m unittest passes with ringchain on PATH', { timeout: TIMEOUT }, async ({ skip }) => {
  const python = await exec('python3', ['--version']).catch((e: Error) => e)
  if (python instanceof Error) {
    console.warn(`skipped: python3 cannot run here (${python.message})`)
    skip(`python3 cannot run here (${python.message})`)
  }
  let alone = ''
  await installOrSkip(skip, async () => {
    alone = await ringchainAlone()
  })
  const dir = tempDir('python', join(repoRoot, 'examples', 'python'))
  dirs.push(dir)
  const env = { ...userEnv, PATH: `${join(alone, 'node_modules', '.bin')}${delimiter}${process.env.PATH}` } // as after npm install -g
  expect(await outputOf(dir, 'python3', ['-m', 'unittest', '-v'], env)).toMatch(/Ran 2 tests[\s\S]*\bOK\b/)
})
