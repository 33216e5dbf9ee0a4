// `ringchain run`: a line per step, the diff of a failure with its file:line, the summary
// `N passed, M failed`, exit codes, --json, directories, and progress on a terminal.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { runCommand } from '../../src/cli/run.js'
import { startRingchain } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ringchain-run-'))
writeFileSync(join(dir, 'pass.yaml'), 'name: passes\nsteps:\n  - send: { to: 1, value: 1 ether }\n  - expect: { balance: 1, equals: 10001 ether }\n')
writeFileSync(join(dir, 'fail.yaml'), 'steps:\n  - send: { to: 1, value: 1 ether }\n  - expect: { balance: 1, equals: 10002 ether }\n  - mine: 1\n')
writeFileSync(join(dir, 'notes.txt'), 'not a scenario')
writeFileSync(join(dir, 'scenario.schema.json'), '{}')

/** Runs the command with captured output. */
async function run(args: string[], terminal = false): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runCommand(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, terminal })
  return { code, out, err }
}

test('default: a line per step with its timing, the digest, and the summary', async () => {
  const { code, out } = await run([join(dir, 'pass.yaml')])
  expect(code).toBe(0)
  const lines = out.split('\n')
  expect(lines).toContain(`${join(dir, 'pass.yaml')}  passes`)
  expect(lines.some((l) => /^ {2}✓ {2}1 send → 1 1 ether +[\d.]+ ms$/.test(l))).toBe(true)
  expect(lines.some((l) => /^ {2}✓ {2}2 expect balance 1 +[\d.]+ ms$/.test(l))).toBe(true)
  expect(lines.some((l) => /^ {2}digest 0x[0-9a-f]{64}$/.test(l))).toBe(true)
  expect(lines.at(-2)).toBe('1 passed, 0 failed')
})

test('behavior: a failure shows expected and actual at file:line, and exits 1', async () => {
  const file = join(dir, 'fail.yaml')
  const { code, out } = await run([file])
  expect(code).toBe(1)
  expect(out).toContain(`  ✗  2 expect balance 1`)
  expect(out).toContain(`       balance  at ${file}:3\n         expected  10002 ether\n         actual    10001 ether  (0x21e27c1806e59a40000)\n`)
  expect(out).toContain('  … 1 step not run\n')
  expect(out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed')
})

test('behavior: a directory stands for its scenario files, in name order', async () => {
  const { code, out } = await run([dir])
  expect(code).toBe(1)
  expect(out.indexOf('fail.yaml')).toBeLessThan(out.indexOf('pass.yaml'))
  expect(out).not.toContain('notes.txt')
  expect(out).not.toContain('scenario.schema.json')
  expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed')
})

test('args: --json prints the reports, and the summary on stderr', async () => {
  const { code, out, err } = await run(['--json', join(dir, 'pass.yaml'), join(dir, 'fail.yaml')])
  expect(code).toBe(1)
  const report = JSON.parse(out) as { passed: number; failed: number; scenarios: { status: string; steps: { status: string; mismatches?: unknown[] }[] }[] }
  expect(report.passed).toBe(1)
  expect(report.failed).toBe(1)
  expect(report.scenarios.map((s) => s.status)).toEqual(['passed', 'failed'])
  expect(report.scenarios[1]!.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped'])
  expect(report.scenarios[1]!.steps[1]!.mismatches).toEqual([{ field: 'balance', expected: '10002 ether', actual: '0x21e27c1806e59a40000', line: 3 }])
  expect(err).toBe('1 passed, 1 failed\n')
})

test('args: --rpc plays against a running node', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const { code, out } = await run(['--rpc', rc.httpUrl, join(dir, 'pass.yaml')])
  expect(code).toBe(0)
  expect(out).toContain(`(on ${rc.httpUrl})`)
})

test('behavior: on a terminal, a long step shows a live line that is cleared when it ends', async () => {
  const file = join(dir, 'slow', 'slow.yaml')
  mkdirSync(join(dir, 'slow'), { recursive: true })
  writeFileSync(file, 'steps:\n  - wait: { ms: 450 }\n')
  const { code, out } = await run([file], true)
  expect(code).toBe(0)
  expect(out).toMatch(/\r\x1b\[2K {2}\x1b\[33m…\x1b\[0m {2}1\/1 wait 450 ms/)
  expect(out).toContain('\r\x1b[2K  \x1b[32m✓\x1b[0m')
})

test('error: usage problems exit 2 and run nothing', async () => {
  expect(await run([])).toMatchObject({ code: 2, err: 'ringchain run: give at least one scenario file or directory (try --help)\n' })
  expect(await run([join(dir, 'missing.yaml')])).toMatchObject({ code: 2, err: `ringchain run: no such file or directory: ${join(dir, 'missing.yaml')}\n` })
  expect((await run(['--bogus', 'x'])).code).toBe(2)
  expect(await run(['--rpc', 'localhost:8545', dir])).toMatchObject({ code: 2 })
})

test('args: --help', async () => {
  const { code, out } = await run(['--help'])
  expect(code).toBe(0)
  expect(out).toMatch(/^Usage: ringchain run <file\|dir>\.\.\. \[options\]/)
})
