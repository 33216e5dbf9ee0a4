// examples/github-actions/ci.yml: its "Start ringchain" and "Stop ringchain" steps run as the runner
// runs them (bash -eo pipefail, GITHUB_ENV a file), with `npx ringchain` resolving to this
// repository's built command, as it resolves to the installed package in a user's project.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, onTestFinished, test } from 'vitest'
import { parse } from 'yaml'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname
const workflow = parse(readFileSync(join(root, 'examples/github-actions/ci.yml'), 'utf8')) as {
  jobs: { test: { steps: { name?: string; run?: string }[] } }
}
const step = (name: string): string => {
  const found = workflow.jobs.test.steps.find((s) => s.name === name)?.run
  if (found === undefined) throw new Error(`ci.yml has no step "${name}"`)
  return found
}

test('behavior: the start step waits for the ready line and exports a URL that answers; the stop step ends the server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringchain-gha-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true })
  // What npm links at install: an executable named after the bin (here a shim to the build).
  writeFileSync(join(dir, 'node_modules/.bin/ringchain'), `#!/bin/sh\nexec node ${join(root, 'dist/cli/main.js')} "$@"\n`, { mode: 0o755 })
  const env = { ...process.env, GITHUB_ENV: join(dir, 'github-env') }
  const shell = (script: string) => run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: dir, env, timeout: 60_000 })

  await shell(step('Start ringchain'))
  const pid = Number(readFileSync(join(dir, 'ringchain.pid'), 'utf8'))
  let stopped = false
  // Only while the stop step has not run: afterwards the pid may be another process's.
  onTestFinished(() => {
    if (!stopped && alive(pid)) process.kill(pid)
  })
  const url = /^RINGCHAIN_URL=(.+)$/m.exec(readFileSync(env.GITHUB_ENV, 'utf8'))?.[1]
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v3\/ringchain$/)
  const answer = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
  expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })

  stopped = true
  await shell(step('Stop ringchain'))
  // npx's process, and the server it started: the URL stops answering.
  const deadline = Date.now() + 10_000
  while ((alive(pid) || (await answers(url!))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  expect(alive(pid)).toBe(false)
  expect(await answers(url!)).toBe(false)
})

async function answers(url: string): Promise<boolean> {
  return fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  )
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
