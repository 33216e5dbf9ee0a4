// Every scenario in scenarios/ is played as `ringchain run scenarios/` would play it, and must
// pass: the examples are documentation that cannot go stale.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runScenario, type ScenarioReport } from '../../src/index.js'
import { result, start } from '../helpers/rpc.js'

const dir = new URL('../../scenarios/', import.meta.url).pathname
const files = readdirSync(dir)
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.schema.json'))
  .sort()

/** What went wrong, as the CLI would say it, so a failure here reads like `ringchain run`. */
function failures(report: ScenarioReport): string {
  const lines: string[] = []
  for (const p of report.problems ?? []) lines.push(`${report.file}:${p.line ?? '?'} ${p.path}: ${p.message}`)
  if (report.error !== undefined) lines.push(report.error)
  for (const step of report.steps.filter((s) => s.status === 'failed')) {
    lines.push(`step ${step.index} (${step.description}, line ${step.line ?? '?'})`)
    if (step.error !== undefined) lines.push(`  ${step.error}`)
    for (const m of step.mismatches ?? []) lines.push(`  ${m.field} at line ${m.line ?? '?'}: expected ${JSON.stringify(m.expected)}, actual ${JSON.stringify(m.actual)}${m.note === undefined ? '' : ` (${m.note})`}`)
  }
  if (report.expectedDigest !== undefined && report.digest !== report.expectedDigest) lines.push(`digest: expected ${report.expectedDigest}, actual ${report.digest}`)
  return lines.join('\n')
}

test('default: scenarios/ holds numbered examples, YAML and JSON', () => {
  expect(files.length).toBeGreaterThanOrEqual(10)
  expect(files.every((f) => /^\d\d-/.test(f))).toBe(true)
  expect(files.some((f) => f.endsWith('.json'))).toBe(true)
})

/** The upstream a `fork:` example forks, as its comment says: a node in which 0x…bEEF was sent 1 ether. */
async function prepareUpstream(): Promise<void> {
  const upstream = await start()
  await result(upstream.httpUrl, 'eth_sendTransaction', [{ from: upstream.accounts[9]!.address, to: '0x000000000000000000000000000000000000bEEF', value: '0xde0b6b3a7640000' }])
  process.env.RINGCHAIN_FORK_URL = upstream.httpUrl
}

test.for(files)('behavior: %s passes', async (file) => {
  if (/^fork:/m.test(readFileSync(join(dir, file), 'utf8'))) await prepareUpstream()
  const report = await runScenario(join(dir, file))
  expect(report.status, failures(report)).toBe('passed')
  expect(report.steps.length).toBeGreaterThan(0)
  expect(report.steps.every((s) => s.status === 'passed')).toBe(true)
})
