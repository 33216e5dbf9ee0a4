// The startup gate: what a server that listens before its chain is built answers meanwhile.
// eth_chainId and net_version at once from the options; everything else held, in order, until
// the chain's dispatcher is handed over (or building it failed).

import { describe, expect, test } from 'vitest'
import type { RpcSession } from '../../src/rpc/dispatcher.js'
import { StartupGate } from '../../src/rpc/startupGate.js'

const session: RpcSession = { transport: 'http', apiKey: 'k', send: () => {}, onClose: () => {}, closed: false }
const call = (id: number, method: string, params?: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })

/** A dispatcher that records the bodies it got and answers each with its own method name. */
function recording() {
  const seen: string[] = []
  const dispatch = async (body: string) => {
    const { id, method } = JSON.parse(body) as { id: number; method: string }
    seen.push(method)
    return JSON.stringify({ jsonrpc: '2.0', id, result: `from chain: ${method}` })
  }
  return { seen, dispatch }
}

describe('StartupGate', () => {
  test('default: eth_chainId and net_version are answered from the chain id before the chain exists', async () => {
    const gate = new StartupGate(31337n)
    expect(await gate.dispatch(call(1, 'eth_chainId'), session)).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
    expect(await gate.dispatch(call('a' as unknown as number, 'net_version', []), session)).toBe('{"jsonrpc":"2.0","id":"a","result":"31337"}')
  })

  test('behavior: an early method is checked as the dispatcher checks it', async () => {
    const gate = new StartupGate(5n)
    expect(JSON.parse((await gate.dispatch(call(2, 'eth_chainId', ['extra']), session)) as string)).toMatchObject({ id: 2, error: { code: -32602 } })
    expect(JSON.parse((await gate.dispatch('{"jsonrpc":"1.0","id":3,"method":"eth_chainId"}', session)) as string)).toMatchObject({ id: 3, error: { code: -32600 } })
  })

  test('behavior: other requests wait, and are dispatched in the order they came once the gate opens', async () => {
    const gate = new StartupGate(31337n)
    const chain = recording()
    const answers: string[] = []
    const pending = [call(1, 'eth_blockNumber'), call(2, 'eth_chainId'), '[' + call(3, 'eth_chainId') + ']', call(4, 'eth_getBalance')].map((body) =>
      gate.dispatch(body, session).then((answer) => answers.push(answer as string)),
    )
    await new Promise((resolve) => setImmediate(resolve))
    // Nothing answered: eth_chainId does not overtake the request held before it.
    expect(answers).toEqual([])
    gate.open(chain.dispatch)
    await Promise.all(pending)
    expect(chain.seen).toEqual(['eth_blockNumber', 'eth_chainId', undefined, 'eth_getBalance'])
    expect(answers[1]).toBe('{"jsonrpc":"2.0","id":2,"result":"from chain: eth_chainId"}')
    // Once open, everything goes straight to the chain's dispatcher.
    expect(await gate.dispatch(call(5, 'net_version'), session)).toBe('{"jsonrpc":"2.0","id":5,"result":"from chain: net_version"}')
  })

  test('args: without a chain id every request waits', async () => {
    const gate = new StartupGate(undefined)
    const chain = recording()
    const answer = gate.dispatch(call(1, 'eth_chainId'), session)
    gate.open(chain.dispatch)
    expect(await answer).toBe('{"jsonrpc":"2.0","id":1,"result":"from chain: eth_chainId"}')
  })

  test('behavior: a batch waits for the chain, even of early methods', async () => {
    const gate = new StartupGate(31337n)
    const chain = recording()
    const answer = gate.dispatch('[' + call(1, 'eth_chainId') + ']', session)
    gate.open(chain.dispatch)
    await answer
    expect(chain.seen).toEqual([undefined])
  })

  test('error: when building the chain failed, held and later requests are refused with its error', async () => {
    const gate = new StartupGate(31337n)
    const held = gate.dispatch(call(1, 'eth_blockNumber'), session)
    const failure = new Error('no chain')
    gate.fail(failure)
    await expect(held).rejects.toBe(failure)
    await expect(gate.dispatch(call(2, 'eth_chainId'), session)).rejects.toBe(failure)
  })

  test('behavior: firstRequest resolves once a request came', async () => {
    const gate = new StartupGate(31337n)
    let first = false
    void gate.firstRequest.then(() => (first = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(first).toBe(false)
    await gate.dispatch(call(1, 'eth_chainId'), session)
    await gate.firstRequest
    expect(first).toBe(true)
  })
})
