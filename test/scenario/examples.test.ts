// Every scenario in scenarios/ is played as `ringchain run scenarios/` would play it, and must
// pass: the examples are documentation that cannot go stale.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runScenario, type ScenarioReport } from '../../src/index.js'

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

test.each(files)('behavior: %s passes', async (file) => {
  const report = await runScenario(join(dir, file))
  expect(report.status, failures(report)).toBe('passed')
  expect(report.steps.length).toBeGreaterThan(0)
  expect(report.steps.every((s) => s.status === 'passed')).toBe(true)
})
