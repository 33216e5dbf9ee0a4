// Loaded before each test file (setupFilesAfterEnv). Tests require `call` from it: the same module.
const url = `${process.env.RINGCHAIN_HTTP_BASE}jest-${process.env.JEST_WORKER_ID}` // this worker's chain

async function call(method, params = []) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const { result, error } = await response.json()
  if (error) throw new Error(`${method}: ${error.message}`)
  return result
}

let snapshot
beforeEach(async () => { snapshot = await call('evm_snapshot') })
afterEach(async () => { await call('evm_revert', [snapshot]) })

module.exports = { call }
