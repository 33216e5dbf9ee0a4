// The `fork:` header of a scenario: validated by the schema, its URL read with `${env.NAME}`,
// an unset variable failing the run before any step, and a note when playing against --rpc.
import { expect, test } from 'vitest'
import { checkScenario, ScenarioFileError } from '../../src/scenario/load.js'
import { MissingEnvironmentError, forkOption } from '../../src/scenario/fork.js'
import { runScenario } from '../../src/index.js'
import { start } from '../helpers/rpc.js'

const steps = [{ accounts: { alice: 0 } }]

test('default: ${env.NAME} in the URL reads the environment; blockNumber is a quantity', () => {
  const env = { UPSTREAM: 'https://node.example/v3/KEY' }
  expect(forkOption({ url: '${env.UPSTREAM}' }, env)).toEqual({ url: 'https://node.example/v3/KEY' })
  expect(forkOption({ url: 'ws://127.0.0.1:8546', blockNumber: '0x10' }, env)).toEqual({ url: 'ws://127.0.0.1:8546', blockNumber: 16n })
})

test('error: an unset variable is named', () => {
  expect(() => forkOption({ url: '${env.NOT_SET_ANYWHERE}/v3' }, {})).toThrow(MissingEnvironmentError)
  expect(() => forkOption({ url: '${env.NOT_SET_ANYWHERE}/v3' }, {})).toThrow('fork.url: the environment variable NOT_SET_ANYWHERE is not set')
})

test('behavior: the schema takes fork: { url, blockNumber } and names a misspelt field', () => {
  expect(checkScenario({ fork: { url: 'http://127.0.0.1:8545', blockNumber: 5 }, steps }).document.fork).toEqual({ url: 'http://127.0.0.1:8545', blockNumber: 5 })
  expect(() => checkScenario({ fork: { uri: 'http://127.0.0.1:8545' }, steps })).toThrow(ScenarioFileError)
  expect(() => checkScenario({ fork: { url: 'http://127.0.0.1:8545', uri: 'x' }, steps })).toThrow(/unknown field "uri"/)
  expect(() => checkScenario({ fork: { url: '127.0.0.1:8545' }, steps })).toThrow(/fork\.url/)
})

test('error: a run whose fork URL names an unset variable fails before any step, saying which', async () => {
  const report = await runScenario({ fork: { url: '${env.RINGCHAIN_TEST_UNSET_UPSTREAM}' }, steps })
  expect(report.status).toBe('failed')
  expect(report.steps).toEqual([])
  expect(report.error).toContain('the environment variable RINGCHAIN_TEST_UNSET_UPSTREAM is not set')
})

test('behavior: against --rpc the fork header is not applied, and the report says so', async () => {
  const rc = await start()
  const report = await runScenario({ fork: { url: 'http://127.0.0.1:1' }, steps }, { rpc: rc.httpUrl })
  expect(report.status).toBe('passed')
  expect(report.notes).toContain(`fork: is not applied when playing against ${rc.httpUrl}`)
})
