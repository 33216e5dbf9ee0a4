// The `reorg:` step: a depth, a requeue choice, a schedule and `off`, through ringchain_reorg and
// ringchain_setReorgSchedule; schema errors name the step.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runScenario } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ringchain-reorg-scenario-'))
let n = 0
function file(text: string): string {
  const path = join(dir, `s${++n}.yaml`)
  writeFileSync(path, text)
  return path
}

test('default: reorg: 2 requeues the dropped transfers, which automine includes again', async () => {
  const report = await runScenario(
    file(`
steps:
  - accounts: { alice: 0, bob: 1 }
  - send: { from: alice, to: bob, value: 1 ether }
    as: a
  - send: { from: alice, to: bob, value: 1 ether }
    as: b
  - reorg: 2
    as: r
  - rpc: { method: eth_blockNumber }
    expect: { result: 4 }
  - expect: { receipt: a, blockNumber: 3 }
  - expect: { receipt: b, blockNumber: 4 }
  - expect: { balance: bob, equals: 10002 ether }
`),
  )
  expect(report.steps.map((s) => [s.kind, s.status])).toEqual([
    ['accounts', 'passed'],
    ['send', 'passed'],
    ['send', 'passed'],
    ['reorg', 'passed'],
    ['rpc', 'passed'],
    ['expect', 'passed'],
    ['expect', 'passed'],
    ['expect', 'passed'],
  ])
})

test('args: requeue false; a schedule, then off', async () => {
  const report = await runScenario(
    file(`
steps:
  - accounts: { alice: 0, bob: 1 }
  - send: { from: alice, to: bob, value: 1 ether }
    as: a
  - reorg: { depth: 1, requeue: false }
  - expect: { transaction: a, is: unknown }
  - reorg: { every: 2, depth: 1, seed: 3 }
  - rpc: { method: ringchain_setReorgSchedule, params: [{ every: 2, depth: 1, seed: 3 }] }
    expect: { result: { every: 2, depth: 1, seed: 3 } }
  - reorg: off
  - rpc: { method: ringchain_setReorgSchedule, params: [] }
    expect: { result: null }
`),
  )
  expect(report.status).toBe('passed')
})

test("error: a reorg deeper than the chain fails the step with the node's words", async () => {
  const report = await runScenario(file(`steps:\n  - reorg: 5\n`))
  expect(report.status).toBe('failed')
  expect(JSON.stringify(report.steps[0])).toContain('Reorg depth must not exceed current chain height: current height 0, depth 5')
})

test('error: an unknown member is refused by the schema', async () => {
  const report = await runScenario(file(`steps:\n  - reorg: { depth: 1, requeu: false }\n`))
  expect(report.status).toBe('failed')
  expect(report.problems?.[0]).toMatchObject({ message: 'unknown field "requeu" (did you mean "requeue"?)', path: 'steps[0].reorg.requeu', line: 2 })
})
