// ringchain/vitest, used as a user would: a separate vitest run (./vitest-project) whose global
// setup starts one server in isolate mode and whose tests use the `ringchain` fixture.

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

const root = new URL('../../', import.meta.url).pathname

test('default: the global setup and the fixture give each worker a clean chain of its own', () => {
  // The outer run's VITEST_* variables would make the inner vitest think it is a worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'))
  const run = spawnSync(
    process.execPath,
    [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', 'test/simulator/vitest-project/vitest.config.ts', '--reporter=json'],
    { cwd: root, env, encoding: 'utf8', timeout: 60_000 },
  )
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { success: boolean; numPassedTests: number; numFailedTests: number }
  expect(report, run.stderr).toMatchObject({ success: true, numPassedTests: 6, numFailedTests: 0 })
  expect(run.status).toBe(0)
})

test('behavior: package.json exports it as ringchain/vitest and ringchain/vitest/setup', () => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, unknown> }
  expect(pkg.exports['./vitest']).toEqual({ types: './dist/vitest.d.ts', default: './dist/vitest.js' })
  expect(pkg.exports['./vitest/setup']).toEqual({ types: './dist/vitest-setup.d.ts', default: './dist/vitest-setup.js' })
})
