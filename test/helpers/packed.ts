// ringchain as a user gets it: the `npm pack` tarball, installed into a throwaway app. The tarball
// is packed once per state of dist/ and package.json and shared by every test file of the run
// (and the next run, while nothing changed): a lock directory keeps two workers from packing at once.
// Packing skips `prepack` (the build): `npm test` built dist/ already, and rebuilding it here would
// rewrite files that other test files are running.

import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const PACK_WAIT_MS = 120_000

/** `npm install` could not reach the registry: the test says so and skips. */
export class RegistryUnavailableError extends Error {
  override name = 'RegistryUnavailableError'
}

function distFingerprint(): string {
  const hash = createHash('sha256').update(readFileSync(join(repoRoot, 'package.json')))
  const dist = join(repoRoot, 'dist')
  if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first')
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const { size, mtimeMs } = statSync(path)
    hash.update(`${path}:${size}:${mtimeMs}\n`)
  }
  return hash.digest('hex').slice(0, 16)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The path of ringchain's packed tarball, packing it if this state of dist/ has none yet. */
export async function packedTarball(): Promise<string> {
  const dir = join(tmpdir(), 'ringchain-packed', distFingerprint())
  const done = join(dir, 'tarball')
  const deadline = Date.now() + PACK_WAIT_MS
  while (!existsSync(done)) {
    mkdirSync(join(dir, '..'), { recursive: true })
    try {
      mkdirSync(dir) // the lock: whoever creates it packs
    } catch {
      if (Date.now() - statSync(dir).mtimeMs > PACK_WAIT_MS) rmSync(dir, { recursive: true, force: true }) // a packer died
      if (Date.now() > deadline) throw new Error(`waited ${PACK_WAIT_MS} ms for another worker to pack ${dir}`)
      await sleep(200)
      continue
    }
    try {
      const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repoRoot })
      const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]
      writeFileSync(done, join(dir, filename))
    } catch (e) {
      rmSync(dir, { recursive: true, force: true })
      throw e
    }
  }
  return readFileSync(done, 'utf8')
}

const REGISTRY_FAILURE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|ENOTCACHED|E50\d|E429)\b/

/**
 * `npm install` in `dir` (offline first: the ~/.npm cache serves what it has). Throws
 * {@link RegistryUnavailableError} when the registry could not be reached.
 */
export async function npmInstall(dir: string, specs: readonly string[] = []): Promise<void> {
  try {
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
      cwd: dir,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    })
  } catch (e) {
    const output = `${(e as { stderr?: string }).stderr ?? ''}`
    const failure = REGISTRY_FAILURE.exec(output)
    if (failure !== null) throw new RegistryUnavailableError(`npm install could not reach the registry (${failure[1]})`, { cause: e })
    throw new Error(`npm install ${specs.join(' ')} failed in ${dir}:\n${output}`, { cause: e })
  }
}

/** A fresh directory under the system temp dir, optionally a copy of `from` (without node_modules). */
export function tempDir(prefix: string, from?: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ringchain-${prefix}-`))
  if (from !== undefined) cpSync(from, dir, { recursive: true, filter: (path) => !path.includes('node_modules') })
  return dir
}

/** Runs an install step, turning "no registry" into a skip with the reason printed. */
export async function installOrSkip(skip: (note: string) => never, install: () => Promise<void>): Promise<void> {
  try {
    await install()
  } catch (e) {
    if (!(e instanceof RegistryUnavailableError)) throw e
    console.warn(`skipped: ${e.message}`)
    skip(e.message)
  }
}

/**
 * Gives `to` the installed tree of `from` (its node_modules and package-lock.json), hard-linked:
 * a second `npm install` there then only adds and prunes, in seconds instead of extracting every
 * package again. npm replaces a package by removing its directory, never by writing into its files,
 * so `from` stays as it was; the lock files, which npm rewrites, are copies.
 */
export function shareInstall(from: string, to: string): void {
  const modules = join(from, 'node_modules')
  for (const entry of readdirSync(modules, { recursive: true, withFileTypes: true })) {
    const source = join(entry.parentPath, entry.name)
    const target = join(to, 'node_modules', relative(modules, source))
    if (entry.isDirectory()) mkdirSync(target, { recursive: true })
    else {
      mkdirSync(dirname(target), { recursive: true })
      if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target)
      else if (entry.name === '.package-lock.json') copyFileSync(source, target)
      else linkSync(source, target)
    }
  }
  copyFileSync(join(from, 'package-lock.json'), join(to, 'package-lock.json'))
}
