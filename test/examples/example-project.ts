// Helpers of the example tests (hardhat, foundry): an example copied out of this repository as a
// user would have it, with its npm dependencies, and `ringchain` on its PATH as this repository's
// build. Installs come from ~/.npm's cache (the registry only for what is missing) and are kept in
// ~/.cache/ringchain-examples, keyed by the dependencies, so that a second run does not install.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'

export const run = promisify(execFile)
export const ROOT = new URL('../../', import.meta.url).pathname
const INSTALLS = join(homedir(), '.cache', 'ringchain-examples')

/** Why npm could not install, when it is the network's fault (the test then skips, saying so). */
function networkTrouble(output: string): string | undefined {
  return /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|fetch failed/.exec(output)?.[0]
}

export interface ExampleProject {
  readonly dir: string
  /** The environment to run it in: `ringchain` on PATH. */
  readonly env: NodeJS.ProcessEnv
  /** Deletes the copy (the kept install stays). */
  remove(): Promise<void>
}

/**
 * Copies `examples/<name>` to a temporary directory (the caller removes it) with its
 * devDependencies but `ringchain` installed (this repository's build stands in for it, on PATH);
 * or, when the registry cannot be reached, the reason as `{ skip }`.
 */
export async function exampleProject(name: string): Promise<ExampleProject | { skip: string }> {
  const dir = mkdtempSync(join(tmpdir(), `ringchain-example-${name}-`))
  const remove = () => rm(dir, { recursive: true, force: true })
  cpSync(join(ROOT, 'examples', name), dir, { recursive: true, filter: (path) => !path.includes('node_modules') })
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }
  delete manifest.devDependencies?.ringchain
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2))

  const key = createHash('sha256').update(JSON.stringify(manifest.devDependencies ?? {})).digest('hex').slice(0, 16)
  const installed = join(INSTALLS, `${name}-${key}`)
  if (!existsSync(join(installed, 'node_modules'))) {
    const staging = mkdtempSync(join(tmpdir(), `ringchain-install-${name}-`))
    writeFileSync(join(staging, 'package.json'), JSON.stringify(manifest, null, 2))
    try {
      await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--cache', join(homedir(), '.npm')], { cwd: staging, timeout: 240_000 })
    } catch (e) {
      const trouble = networkTrouble(`${(e as { stderr?: string }).stderr ?? ''}${(e as Error).message}`)
      if (trouble !== undefined) {
        await remove()
        return { skip: `npm cannot reach the registry (${trouble})` }
      }
      throw e
    }
    mkdirSync(INSTALLS, { recursive: true })
    // Renamed into place whole: a run interrupted mid-install leaves nothing half-made behind.
    if (!existsSync(installed)) renameSync(staging, installed)
    else rmSync(staging, { recursive: true, force: true })
  }
  symlinkSync(join(installed, 'node_modules'), join(dir, 'node_modules'))

  const bin = join(dir, '.ringchain-bin')
  mkdirSync(bin)
  // What npm links at install: an executable named after the bin (here a shim to the build).
  writeFileSync(join(bin, 'ringchain'), `#!/bin/sh\nexec node ${join(ROOT, 'dist/cli/main.js')} "$@"\n`, { mode: 0o755 })
  return { dir, env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }, remove }
}
