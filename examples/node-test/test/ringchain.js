// This process's chain (a key of its own) and a snapshot around every test.
import { afterEach, beforeEach } from 'node:test'

export const url = `${process.env.RINGCHAIN_HTTP_BASE}node-test-${process.pid}`

export async function call(method, params = []) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const { result, error } = await response.json()
  if (error) throw new Error(`${method}: ${error.message}`)
  return result
}

let snapshot
beforeEach(async () => { snapshot = await call('evm_snapshot') })
afterEach(async () => { await call('evm_revert', [snapshot]) })
