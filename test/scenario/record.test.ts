// Recording: a server started with `record` writes the state-changing requests it serves as a
// scenario, with the answers as expectations, and `runScenario` replays that file.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { parseScenario, runScenario, startRingchain, wrapWithRecorder, type RunningRingchain } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ringchain-record-'))
let n = 0

async function post(rc: RunningRingchain, body: unknown): Promise<unknown> {
  const response = await fetch(rc.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await response.text()
  return text === '' ? undefined : JSON.parse(text)
}

test('default: the state-changing requests become a scenario that replays', async () => {
  const path = join(dir, `r${++n}.yaml`)
  const rc = await startRingchain({ port: 0, deterministic: true, hardfork: 'cancun', record: path })
  const [alice, bob] = rc.accounts
  await post(rc, { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: alice!.address, to: bob!.address, value: '0x10' }] })
  await post(rc, { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' })
  await post(rc, [
    { jsonrpc: '2.0', id: 3, method: 'evm_snapshot' },
    { jsonrpc: '2.0', id: 4, method: 'eth_getBalance', params: [bob!.address, 'latest'] },
    { jsonrpc: '2.0', id: 5, method: 'evm_mine' },
  ])
  await post(rc, { jsonrpc: '2.0', id: 6, method: 'evm_setNextBlockTimestamp', params: ['0x1'] })
  await post(rc, { jsonrpc: '2.0', method: 'evm_mine' })
  await rc.close()

  const loaded = parseScenario(readFileSync(path, 'utf8'), path)
  expect(loaded.document.chain).toEqual({ hardfork: 'cancun', deterministic: true })
  expect(loaded.document.steps).toEqual([
    { rpc: { method: 'eth_sendTransaction', params: [{ from: alice!.address, to: bob!.address, value: '0x10' }] }, expect: { result: expect.stringMatching(/^0x[0-9a-f]{64}$/) } },
    { rpc: { method: 'evm_snapshot', params: [] }, expect: { result: '0x1' } },
    { rpc: { method: 'evm_mine', params: [] }, expect: { result: '0x0' } },
    { rpc: { method: 'evm_setNextBlockTimestamp', params: ['0x1'] }, expect: { error: { code: -32602, message: expect.stringContaining('is not after') } } },
    { rpc: { method: 'evm_mine', params: [] } },
  ])
  const replay = await runScenario(path)
  expect(replay.status, JSON.stringify(replay)).toBe('passed')
})

test('behavior: a raw transaction is recorded as a send with its hash and outcome', async () => {
  const path = join(dir, `r${++n}.yaml`)
  const rc = await startRingchain({ port: 0, record: path })
  // Signed elsewhere: dev account #2 sends 1 ether to #1 (chain 31337, nonce 0).
  const raw =
    '0x02f875827a6980843b9aca008502540be4008252089470997970c51812dc3a010c7d01b50e0d17dc79c8880de0b6b3a764000080c001a0d0a709626433d95ff3335e87f517f09e461f7203e69cf0a2dbabbc46086b8030a01f2485c6e28ddfafbacadbccf9dc2d9ebae13fc954d8253838e2f7eecaef2e40'
  await post(rc, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })
  await post(rc, { jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [raw] })
  await rc.close()
  const steps = parseScenario(readFileSync(path, 'utf8')).document.steps
  expect(steps).toEqual([
    { send: { raw }, expect: { hash: '0x19fa6ea9fcee6a26d92971e2cea3657b02c36962b82b546ff8e018f4a7cbb3ab', is: 'included', status: '0x1', gasUsed: '0x5208' } },
    { send: { raw }, expect: { error: { code: -32000, message: 'nonce too low: next nonce 1, tx nonce 0' } } },
  ])
  expect((await runScenario(path)).status).toBe('passed')
})

test('behavior: nothing state-changing served still leaves a valid, empty scenario', async () => {
  const path = join(dir, `r${++n}.yaml`)
  const rc = await startRingchain({ port: 0, record: path })
  await post(rc, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
  await rc.close()
  expect(parseScenario(readFileSync(path, 'utf8')).document.steps).toEqual([])
})

test('args: wrapWithRecorder answers exactly as the dispatcher it wraps', async () => {
  const path = join(dir, `r${++n}.yaml`)
  const answers = ['{"jsonrpc":"2.0","id":1,"result":"0x0"}', undefined]
  let i = 0
  const recorder = wrapWithRecorder(async () => answers[i++], path, { name: 'by hand' })
  const session = { transport: 'http', apiKey: 'k', send: () => {}, onClose: () => {}, closed: false } as const
  expect(await recorder.dispatch('{"jsonrpc":"2.0","id":1,"method":"evm_mine"}', session)).toBe(answers[0])
  expect(await recorder.dispatch('not json', session)).toBeUndefined()
  await recorder.close()
  await recorder.close()
  const doc = parseScenario(readFileSync(path, 'utf8')).document
  expect(doc.name).toBe('by hand')
  expect(doc.steps).toEqual([{ rpc: { method: 'evm_mine', params: [] }, expect: { result: '0x0' } }])
})
