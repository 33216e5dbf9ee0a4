// What a scenario shows when contracts misbehave: their console.log lines under the step, and why
// a transaction failed when a step expected it to succeed.
import { AbiCoder, id } from 'ethers'
import { expect, test } from 'vitest'
import { runScenario } from '../../src/index.js'
import { initcode } from '../helpers/chain.js'

// STATICCALLs the console address with its calldata; with a value, then reverts with Panic(0x11).
const FORWARDER = '3660006000376000600036600073000000000000000000636f6e736f6c652e6c6f675afa503415603f57634e487b7160e01b600052601160045260246000fd5b00'
const logCall = `${id('log(string,uint256)').slice(0, 10)}${AbiCoder.defaultAbiCoder().encode(['string', 'uint256'], ['n = %d', 7n]).slice(2)}`

test('behavior: console.log lines are reported under the step that printed them', async () => {
  const report = await runScenario({
    steps: [
      { deploy: { bytecode: initcode(FORWARDER) }, as: 'fwd' },
      { send: { to: 'fwd', data: logCall } },
      { call: { to: 'fwd', data: logCall } },
    ],
  })
  expect(report.status).toBe('passed')
  expect(report.steps.map((s) => s.console?.map((l) => [l.transaction.length, l.message]))).toEqual([undefined, [[66, 'n = 7']], [[4, 'n = 7']]])
})

test('behavior: a transaction that should have succeeded says why it failed', async () => {
  const report = await runScenario({
    steps: [
      { deploy: { bytecode: initcode(FORWARDER) }, as: 'fwd' },
      { send: { to: 'fwd', data: logCall, value: 1, gas: 100000 }, expect: { status: 'success' } },
    ],
  })
  expect(report.status).toBe('failed')
  const failed = report.steps[1]!
  expect(failed.mismatches?.map((m) => [m.field, m.note])).toEqual([['status', 'reverted: arithmetic underflow or overflow']])
  expect(failed.console?.map((l) => l.message)).toEqual(['n = 7'])
})
