// `ringchain trace`: the call tree of a transaction, rendered from callTracer, against a running
// ringchain (and anvil when it is installed), and the rendering itself on a hand-made frame.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { expect, onTestFinished, test } from 'vitest'
import { renderCallTree, type CallFrame } from '../../src/cli/trace.js'
import { startRingchain } from '../../src/index.js'
import { deployment, scenarioTransactions } from '../trace/contracts.js'
import { startAnvil, skipWithoutAnvil } from '../helpers/anvil.js'
import { runCli } from './helpers.js'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0')

test('default: functions, values, logs and results by the built-in names; a custom error by a user ABI', () => {
  const frame: CallFrame = {
    type: 'CALL',
    from: ALICE,
    to: TOKEN,
    value: '0xde0b6b3a7640000',
    gasUsed: '0xa410',
    // transfer(0x7099…, 100)
    input: `0xa9059cbb${word('70997970c51812dc3a010c7d01b50e0d17dc79c8')}${word('64')}`,
    output: `0x${word('1')}`,
    logs: [{ address: TOKEN, topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `0x${word(ALICE)}`, `0x${word('70997970c51812dc3a010c7d01b50e0d17dc79c8')}`], data: `0x${word('64')}`, position: '0x1' }],
    calls: [
      {
        type: 'STATICCALL',
        from: TOKEN,
        to: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
        gasUsed: '0x1f4',
        input: `0x70a08231${word(ALICE)}`,
        output: `0x${word('3e8')}`,
      },
      {
        type: 'CALL',
        from: TOKEN,
        to: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
        gasUsed: '0x64',
        input: '0xdeadbeef00',
        // TooLow(7)
        output: `0x172b0984${word('7')}`,
        error: 'execution reverted',
      },
    ],
  }
  const abi = [{ type: 'error', name: 'TooLow', inputs: [{ name: 'amount', type: 'uint256' }] }]
  expect(renderCallTree(frame, abi)).toBe(
    [
      `CALL ${ALICE} → ${TOKEN}  transfer(0x70997970c51812dc3a010c7d01b50e0d17dc79c8, 100)  value 1 ETH  gas 42,000`,
      `  STATICCALL ${TOKEN} → 0xe7f1725e7734ce288f8367e1bb143e90bb3f0512  balanceOf(${ALICE})  gas 500`,
      '    ← 1000',
      `  emit Transfer(${ALICE}, 0x70997970c51812dc3a010c7d01b50e0d17dc79c8, 100)  from ${TOKEN}`,
      `  CALL ${TOKEN} → 0xe7f1725e7734ce288f8367e1bb143e90bb3f0512  0xdeadbeef(…1 bytes)  gas 100`,
      '    ← reverted: TooLow(7)',
      '  ← true',
      '',
    ].join('\n'),
  )
})


/** Sends the tracer tests' four transactions (deploy B, C, A; call A) to `url`; returns the last hash. */
async function sendScenario(url: string, rc: Awaited<ReturnType<typeof startRingchain>>): Promise<string> {
  const key = rc.chain.accounts[0]!.privateKey
  let last = ''
  for (const data of scenarioTransactions(rc.chain.accounts[0]!.address)) {
    const raw = createTx({ ...data, chainId: 31337n } as TypedTxData, { common: rc.chain.common }).sign(key).serialize()
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [bytesToHex(raw)] })
    const answer = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as { result: string }
    last = answer.result
  }
  return last
}

test('behavior: against a running ringchain, the tree of a call that calls, fails a static call and panics', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const hash = await sendScenario(rc.httpUrl, rc)
  const cli = runCli(['trace', hash, '--rpc', rc.httpUrl])
  expect(await cli.exit(30_000)).toBe(0)
  const { a, b, c } = deployment(rc.chain.accounts[0]!.address)
  const [A, B, C] = [a, b, c].map((x) => bytesToHex(x))
  const lines = cli.stdout().split('\n')
  expect(lines[0]).toMatch(new RegExp(`^CALL ${rc.accounts[0]!.address.toLowerCase()} → ${A}  gas [\\d,]+$`))
  expect(lines.slice(1).map((l) => l.replace(/gas [\d,]+/, 'gas N'))).toEqual([
    `  CALL ${A} → ${B}  0x12345678(…32 bytes)  gas N`,
    // B logs and returns the first calldata word: the selector, then the argument's first bytes.
    `    log ${B} topics [] data 0x12345678${'0'.repeat(56)}`,
    `    ← 0x12345678${'0'.repeat(56)}`,
    `  STATICCALL ${A} → ${B}  0x12345678(…32 bytes)  gas N`,
    '    ← failed: write protection',
    `  CALL ${A} → ${C}  0x12345678(…32 bytes)  gas N`,
    '    ← reverted: arithmetic underflow or overflow',
    '  ← ok',
    '',
  ])
}, 60_000)

test('error: an unknown transaction says what the node answered, exit code 1', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const cli = runCli(['trace', `0x${'ab'.repeat(32)}`, '--rpc', rc.httpUrl])
  expect(await cli.exit(30_000)).toBe(1)
  expect(cli.stderr()).toMatch(/transaction .* not found|not found/i)
}, 60_000)

test('behavior: against anvil, the same tree (anvil names the static-call failure as revm does)', async (ctx) => {
  skipWithoutAnvil(ctx)
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const anvilUrl = await startAnvil()
  const [mine, theirs] = [await sendScenario(rc.httpUrl, rc), await sendScenario(anvilUrl, rc)]
  expect(mine).toBe(theirs)
  const outputs = []
  for (const url of [rc.httpUrl, anvilUrl]) {
    const cli = runCli(['trace', mine, '--rpc', url])
    expect(await cli.exit(30_000)).toBe(0)
    // The top frame's gas differs (anvil counts it after the intrinsic gas; see test/trace/anvil.test.ts).
    outputs.push(cli.stdout().replace('failed: StateChangeDuringStaticCall', 'failed: write protection').split('\n').slice(1))
  }
  expect(outputs[1]).toEqual(outputs[0])
}, 120_000)

const dir = mkdtempSync(join(tmpdir(), 'ringchain-trace-'))
test('error: a bad hash or an unreadable ABI is a usage error (exit code 2)', async () => {
  writeFileSync(join(dir, 'bad.json'), '{"nothing": 1}')
  const bad = runCli(['trace', '0x1234'])
  expect(await bad.exit()).toBe(2)
  expect(bad.stderr()).toContain('is not a transaction hash')
  const abi = runCli(['trace', `0x${'ab'.repeat(32)}`, '--abi', join(dir, 'bad.json')])
  expect(await abi.exit()).toBe(2)
  expect(abi.stderr()).toContain('neither an ABI list nor an artifact')
})
