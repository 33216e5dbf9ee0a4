// runScenario: a fresh deterministic chain per scenario, steps in order with their timing, a
// report that says expected and actual with the line, and the digest of the final chain.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { runScenario, startRingchain, type RunEvent } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ringchain-scenario-'))
let n = 0
/** Writes `text` as a scenario file and returns its path. */
function file(text: string, ext = 'yaml'): string {
  const path = join(dir, `s${++n}.${ext}`)
  writeFileSync(path, text)
  return path
}

const TRANSFER = `
steps:
  - accounts: { alice: 0, bob: 1 }
  - send: { from: alice, to: bob, value: 1 ether }
    as: tx
    expect: { status: success, gasUsed: 21000 }
  - expect: { balance: bob, equals: 10001 ether }
`

test('default: every step passes, with its timing, and the final chain has a digest', async () => {
  const report = await runScenario(file(TRANSFER))
  expect(report.status).toBe('passed')
  expect(report.target).toBe('embedded')
  expect(report.steps.map((s) => [s.index, s.kind, s.status, s.line])).toEqual([
    [1, 'accounts', 'passed', 3],
    [2, 'send', 'passed', 4],
    [3, 'expect', 'passed', 7],
  ])
  expect(report.steps.every((s) => s.durationMs >= 0)).toBe(true)
  expect(report.digest).toMatch(/^0x[0-9a-f]{64}$/)
})

test('behavior: deterministic time and signatures give the same digest on every run', async () => {
  const path = file(TRANSFER)
  const [a, b] = [await runScenario(path), await runScenario(path)]
  expect(a.digest).toBe(b.digest)
})

test('behavior: a digest the chain drifted from fails the scenario', async () => {
  const report = await runScenario(file(`digest: "0x${'00'.repeat(32)}"\n${TRANSFER}`))
  expect(report.status).toBe('failed')
  expect(report.steps.every((s) => s.status === 'passed')).toBe(true)
  expect(report.expectedDigest).toBe(`0x${'00'.repeat(32)}`)
  expect(report.digest).not.toBe(report.expectedDigest)
})

test('behavior: a failed expectation says expected and actual, with the line; later steps are skipped', async () => {
  const report = await runScenario(
    file(`
steps:
  - send: { to: 1, value: 1 }
    as: tx
    expect:
      status: reverted
      gasUsed: { max: 100 }
  - mine: 1
`),
  )
  expect(report.status).toBe('failed')
  const [send, mine] = report.steps
  expect(send!.mismatches).toEqual([
    { field: 'status', expected: 'reverted', actual: '0x1', line: 6 },
    { field: 'gasUsed', expected: '<= 100', actual: '0x5208', line: 7 },
  ])
  expect(mine!.status).toBe('skipped')
  expect(report.digest).toBeUndefined()
})

test('behavior: logs are decoded by event signature and compared by argument', async () => {
  const token = join(new URL('../../scenarios/contracts/Token.json', import.meta.url).pathname)
  const report = await runScenario(
    file(`
steps:
  - accounts: { alice: 0, bob: 1 }
  - deploy: { artifact: ${token}, args: [T, T, 1000] }
    as: token
  - send: { to: token, function: "transfer(address,uint256)", args: [bob, 7] }
    expect:
      logs:
        - event: Transfer(address indexed from, address indexed to, uint256 value)
          args: { from: alice, to: alice, value: 8 }
`),
  )
  expect(report.steps[2]!.mismatches?.map((m) => [m.field, m.line])).toEqual([
    ['logs[0].args.to', 10],
    ['logs[0].args.value', 10],
  ])
})

test('behavior: references read captures, and a receipt is fetched once it exists', async () => {
  const report = await runScenario(
    file(`
chain: { mining: manual }
steps:
  - send: { to: 1, value: 1 }
    as: tx
  - mine: 2
  - expect: { block: "\${tx.receipt.blockNumber}", transactions: [tx] }
  - rpc: { method: eth_getTransactionByHash, params: ["\${tx.hash}"] }
    as: got
    expect: { result: { from: "\${tx.from}", nonce: 0 } }
  - expect: { block: "\${got.result.blockNumber}", number: 1 }
`),
  )
  expect(report.status, JSON.stringify(report.steps)).toBe('passed')
})

test('error: a reference to an unknown name suggests the close one', async () => {
  const report = await runScenario(file('steps:\n  - send: { to: 1, value: 1 }\n    as: tx1\n  - expect: { receipt: "${tx2.hash}", status: success }\n'))
  expect(report.steps[1]!.error).toBe('${tx2.hash}: nothing is named "tx2" (did you mean "tx1"?)')
})

test('error: an RPC error nobody expected fails the step with the code and message', async () => {
  const report = await runScenario(file('steps:\n  - time: { setNext: 1 }\n'))
  expect(report.steps[0]!.error).toMatch(/^the node answered -32602 .*is not after the head block's timestamp/)
})

test('error: an expected error that does not come', async () => {
  const report = await runScenario(file('steps:\n  - send: { to: 1, value: 1 }\n    expect: { error: { code: -32000 } }\n'))
  expect(report.steps[0]!.mismatches?.[0]).toMatchObject({ field: 'error', line: 3 })
})

test('error: a file that cannot be played reports its problems and runs nothing', async () => {
  const report = await runScenario(file('steps:\n  - sned: 1\n'))
  expect(report.status).toBe('failed')
  expect(report.steps).toEqual([])
  expect(report.problems?.[0]).toMatchObject({ line: 2, path: 'steps[0].sned' })
})

test('error: chain options the chain refuses', async () => {
  const report = await runScenario(file('chain: { hardfork: nosuchfork }\nsteps:\n  - mine: 1\n'))
  expect(report.status).toBe('failed')
  expect(report.error).toMatch(/^the chain could not start \(line 1\): unknown hardfork "nosuchfork"/)
})

test('args: a scenario given as a value', async () => {
  const report = await runScenario({ steps: [{ mine: 3 }, { expect: { block: 'latest', number: 3 } }] })
  expect(report.status).toBe('passed')
  expect(report.steps[0]!.line).toBeUndefined()
})

test('args: rpc plays against a running node over HTTP', async () => {
  const rc = await startRingchain({ port: 0, deterministic: true })
  onTestFinished(() => rc.close())
  const report = await runScenario(file(TRANSFER), { rpc: rc.httpUrl })
  expect(report.status, JSON.stringify(report)).toBe('passed')
  expect(report.target).toBe(rc.httpUrl)
  // The same file on a fresh embedded chain ends in the same chain.
  expect(report.digest).toBe((await runScenario(file(TRANSFER))).digest)
  expect(await rc.request({ method: 'eth_blockNumber' })).toBe('0x1')
})

test('args: rpc notes the chain options it cannot apply', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const report = await runScenario(file(`chain: { window: 16 }\n${TRANSFER}`), { rpc: rc.httpUrl })
  expect(report.notes).toEqual([`chain options other than mnemonic and accounts are not applied when playing against ${rc.httpUrl}`])
})

test('args: onEvent sees the scenario start, each step, progress of long steps, and the end', async () => {
  const events: RunEvent['type'][] = []
  await runScenario({ steps: [{ mine: 40 }] }, { onEvent: (e) => events.push(e.type) })
  expect(events).toEqual(['start', 'step', 'progress', 'progress', 'stepEnd', 'end'])
})
