// Loaded with `require` in .mocharc.json: in the main process and, with --parallel, in every worker.
import { startRingchain } from 'ringchain'

let rc
export async function mochaGlobalSetup() {                              // once, in the main process
  rc = await startRingchain({ port: 0, isolate: true })
  process.env.RINGCHAIN_HTTP_BASE = `${new URL(rc.httpUrl).origin}/v3/` // the workers inherit it
}
export async function mochaGlobalTeardown() {
  await rc.close()
}

export async function call(method, params = []) {
  const url = `${process.env.RINGCHAIN_HTTP_BASE}mocha-${process.pid}`  // this process's chain
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const { result, error } = await response.json()
  if (error) throw new Error(`${method}: ${error.message}`)
  return result
}

let snapshot
export const mochaHooks = {                                             // a snapshot around every test
  async beforeEach() { snapshot = await call('evm_snapshot') },
  async afterEach() { await call('evm_revert', [snapshot]) },
}
