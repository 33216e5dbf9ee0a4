/**
 * The tracers against anvil's (which implements geth's): the same signed transactions sent to
 * both, and callTracer, prestateTracer and 4byteTracer answers compared field for field.
 */
import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { startAnvil, skipWithoutAnvil } from '../helpers/anvil.js'
import { deployment, scenarioTransactions } from './contracts.js'

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result?: unknown; error?: unknown }
  if (response.error !== undefined) throw new Error(`${method}: ${JSON.stringify(response.error)}`)
  return response.result
}

test('behavior: callTracer, prestateTracer and 4byteTracer answer as anvil does for the same transactions', async (ctx) => {
  skipWithoutAnvil(ctx)
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const anvilUrl = await startAnvil()
  const chainId = BigInt((await rpc(anvilUrl, 'eth_chainId', [])) as string)
  expect(chainId).toBe(rc.chain.common.chainId())
  const key = rc.chain.accounts[0]!.privateKey
  const from = rc.chain.accounts[0]!.address
  const raws = scenarioTransactions(from).map((data) => createTx({ ...data, chainId } as TypedTxData, { common: rc.chain.common }).sign(key).serialize())
  const hashes: string[] = []
  for (const raw of raws) {
    const mine = await rpc(rc.httpUrl, 'eth_sendRawTransaction', [bytesToHex(raw)])
    const theirs = await rpc(anvilUrl, 'eth_sendRawTransaction', [bytesToHex(raw)])
    expect(mine).toBe(theirs)
    hashes.push(mine as string)
  }
  const { a } = deployment(from)
  expect(await rpc(rc.httpUrl, 'eth_getCode', [bytesToHex(a), 'latest'])).toBe(await rpc(anvilUrl, 'eth_getCode', [bytesToHex(a), 'latest']))
  const configs = [
    { tracer: 'callTracer' },
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
    { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } },
    { tracer: '4byteTracer' },
    { tracer: 'prestateTracer' },
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  ]
  for (const hash of hashes) {
    for (const config of configs) {
      const mine = await rpc(rc.httpUrl, 'debug_traceTransaction', [hash, config])
      const theirs = await rpc(anvilUrl, 'debug_traceTransaction', [hash, config])
      expect(normalize(mine), `${hash} ${JSON.stringify(config)}`).toEqual(normalize(theirs))
    }
  }
}, 120_000)

/**
 * Known differences, left out of the comparison:
 * - anvil (revm-inspectors) gives the top call frame the gas left after the intrinsic gas, where
 *   geth (and ringchain) give the transaction's limit;
 * - anvil's prestate keeps accounts that were empty before (balance 0, no nonce, no code), which
 *   geth drops unless `includeEmpty`;
 * - anvil 1.7.1 writes no `codeHash` (geth's prestate tracer has since added it);
 * - anvil names halts as revm does (`StateChangeDuringStaticCall` for geth's `write protection`);
 * - the coinbase (the zero address on both) is paid tips over different base fees: the two
 *   chains' base fees differ, not their tracers.
 */
const COINBASE = '0x0000000000000000000000000000000000000000'
const REVM_HALTS: Readonly<Record<string, string>> = { StateChangeDuringStaticCall: 'write protection', OutOfGas: 'out of gas', InvalidFEOpcode: 'invalid opcode: INVALID' }

function normalize(answer: unknown): unknown {
  const value = strip(answer)
  if (typeof value !== 'object' || value === null || !('type' in value)) return value
  const { gas: _topGas, ...rest } = value as Record<string, unknown>
  return rest
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value as Record<string, unknown>)
  const accounts = entries.length > 0 && entries.every(([k]) => /^0x[0-9a-f]{40}$/.test(k))
  return Object.fromEntries(
    entries
      .filter(([k, v]) => !(accounts && (k === COINBASE || JSON.stringify(v) === '{"balance":"0x0"}')) && k !== 'codeHash')
      .map(([k, v]) => [k, k === 'error' && typeof v === 'string' ? (REVM_HALTS[v] ?? v) : strip(v)] as const),
  )
}
