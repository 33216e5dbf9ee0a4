// callTracer's log indexes, as geth's StateDB numbers logs: a frame that fails gives its logs'
// indexes back (geth journals `logSize`), so the next log reuses them.
import { createLegacyTx } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, bytesToHex, generateAddress, hexToBytes } from '@ethereumjs/util'
import { expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { startAnvil, skipWithoutAnvil } from '../helpers/anvil.js'
import { initcode } from '../helpers/chain.js'

// Child: LOG0, then REVERT. Parent: CALL child, LOG0, STOP.
const CHILD = '60006000a060006000fd'
const parent = (child: Uint8Array) => `6000600060006000600073${bytesToHex(child).slice(2)}5af15060006000a000`

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const answer = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as { result?: unknown; error?: unknown }
  if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`)
  return answer.result
}

async function sendAll(url: string, rc: Awaited<ReturnType<typeof startRingchain>>): Promise<string> {
  const from = rc.chain.accounts[0]!
  const child = generateAddress(from.address, bigIntToUnpaddedBytes(0n))
  const parentAddress = generateAddress(from.address, bigIntToUnpaddedBytes(1n))
  const txs = [
    { nonce: 0n, data: initcode(CHILD) },
    { nonce: 1n, data: initcode(parent(child)) },
    { nonce: 2n, to: parentAddress, data: '0x' as const },
  ]
  let last = ''
  for (const tx of txs) {
    const raw = createLegacyTx({ ...tx, gasLimit: 200_000n, gasPrice: 10n ** 10n }, { common: rc.chain.common }).sign(from.privateKey).serialize()
    last = await rpc(url, 'eth_sendRawTransaction', [bytesToHex(raw)])
  }
  return last
}

test('behavior: a log after a reverted call takes the index the reverted log gave back', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const hash = await sendAll(rc.httpUrl, rc)
  const trace = await rpc(rc.httpUrl, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])
  expect(trace.calls[0].logs).toBeUndefined()
  expect(trace.logs.map((l: { index: string; position: string }) => [l.index, l.position])).toEqual([['0x0', '0x1']])
  const receipt = await rpc(rc.httpUrl, 'eth_getTransactionReceipt', [hash])
  expect(receipt.logs.map((l: { logIndex: string }) => l.logIndex)).toEqual(['0x0'])
})

// anvil 1.7.1 (revm-inspectors) keeps counting past a reverted log: it says 0x1 where geth says 0x0
// (geth's log.Index is StateDB.logSize, which addLogChange.revert decrements; core/state/journal.go).
test('behavior: the same logs as anvil, but for the index anvil does not give back', async (ctx) => {
  skipWithoutAnvil(ctx)
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const anvilUrl = await startAnvil()
  const [mine, theirs] = [await sendAll(rc.httpUrl, rc), await sendAll(anvilUrl, rc)]
  const config = { tracer: 'callTracer', tracerConfig: { withLog: true } }
  const logs = async (url: string) => (await rpc(url, 'debug_traceTransaction', [mine, config])).logs
  expect(theirs).toBe(mine)
  const [ours, anvils] = [await logs(rc.httpUrl), await logs(anvilUrl)]
  expect(ours.map((l: { index: string }) => l.index)).toEqual(['0x0'])
  expect(anvils.map((l: { index: string }) => l.index)).toEqual(['0x1'])
  const withoutIndex = (list: Record<string, unknown>[]) => list.map(({ index: _index, ...rest }) => rest)
  expect(withoutIndex(ours)).toEqual(withoutIndex(anvils))
}, 120_000)
