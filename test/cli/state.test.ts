// `ringchain serve --state / --load-state / --dump-state`: the state written at exit and read at
// start (anvil's flags and file format), a bad file refused before anything starts, and the file
// exchanged with anvil itself when it is installed (as bench/ installs it).

import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { findFoundryTool } from '../helpers/foundry.js'
import { freePort, rpc, runCli, serveJson, until } from './helpers.js'

const ACCOUNT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const CONTRACT = '0x00000000000000000000000000000000000c0de0'

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'ringchain-state-')), name)
}

/** Gives the chain at `url` a balance, code and a slot to remember, and two blocks. */
async function changeState(url: string): Promise<void> {
  expect((await rpc(url, 'anvil_setBalance', [ACCOUNT, '0x1234'])).error).toBeUndefined()
  expect((await rpc(url, 'anvil_setCode', [CONTRACT, '0x600054'])).error).toBeUndefined()
  expect((await rpc(url, 'anvil_setStorageAt', [CONTRACT, '0x7', `0x${'00'.repeat(31)}63`])).error).toBeUndefined()
  expect((await rpc(url, 'anvil_mine', ['0x2'])).error).toBeUndefined()
}

async function expectChangedState(url: string, blockNumber: string): Promise<void> {
  expect((await rpc(url, 'eth_getBalance', [ACCOUNT, 'latest'])).result).toBe('0x1234')
  expect((await rpc(url, 'eth_getCode', [CONTRACT, 'latest'])).result).toBe('0x600054')
  expect((await rpc(url, 'eth_getStorageAt', [CONTRACT, '0x7', 'latest'])).result).toBe(`0x${'00'.repeat(31)}63`)
  expect((await rpc(url, 'eth_blockNumber', [])).result).toBe(blockNumber)
}

test('args: --state writes the state at exit and loads it at the next start', async () => {
  const file = tempFile('state.json')
  const first = await serveJson(['--state', file])
  await changeState(first.ready.httpUrl)
  first.cli.child.kill('SIGTERM')
  expect(await first.cli.exit()).toBe(0)
  expect(existsSync(file)).toBe(true)

  const second = await serveJson(['--state', file])
  await expectChangedState(second.ready.httpUrl, '0x2')
  expect((await rpc(second.ready.httpUrl, 'eth_getBlockByNumber', ['0x1', false])).error?.code).toBe(4444)
  await rpc(second.ready.httpUrl, 'evm_mine', [])
  second.cli.child.kill('SIGTERM')
  expect(await second.cli.exit()).toBe(0)
  expect((JSON.parse(readFileSync(file, 'utf8')) as { best_block_number: number }).best_block_number).toBe(3)
})

test('args: --dump-state writes at exit, --load-state reads at start', async () => {
  const file = tempFile('dump.json')
  const first = await serveJson(['--dump-state', file])
  await changeState(first.ready.httpUrl)
  first.cli.child.kill('SIGINT')
  expect(await first.cli.exit()).toBe(0)
  const second = await serveJson(['--load-state', file])
  await expectChangedState(second.ready.httpUrl, '0x2')
})

test('error: a truncated --load-state file exits 2 naming the file and the problem', async () => {
  const file = tempFile('truncated.json')
  const first = await serveJson(['--dump-state', file])
  first.cli.child.kill('SIGTERM')
  expect(await first.cli.exit()).toBe(0)
  writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100))
  const cli = runCli(['serve', '--port', '0', '--json', '--load-state', file])
  expect(await cli.exit()).toBe(2)
  expect(cli.stderr()).toContain(`invalid state dump: ${file}: not JSON (`)
})

test('error: a missing --load-state file exits 2', async () => {
  const cli = runCli(['serve', '--port', '0', '--load-state', tempFile('absent.json')])
  expect(await cli.exit()).toBe(2)
  expect(cli.stderr()).toMatch(/--load-state: cannot read .*absent\.json/)
})

/** anvil's binary (installed on demand by test/helpers/foundry.ts); undefined with the reason printed. */
async function anvilBinary(): Promise<string | undefined> {
  const found = findFoundryTool('anvil')
  if ('reason' in found) {
    console.warn(`skipped: anvil is not available (${found.reason})`)
    return undefined
  }
  return found.binary
}

/** anvil on a free port with `args`; resolves once it answers (at most 15 s). Killed when the test ends. */
async function anvilOn(binary: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(binary, ['--port', String(port), '--silent', ...args], { stdio: 'ignore' })
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    const answered = await rpc(url, 'eth_chainId').then(
      () => true,
      () => false,
    )
    if (answered) return { url, child }
    if (Date.now() > deadline) throw new Error('anvil did not answer within 15 s')
    await new Promise((r) => setTimeout(r, 100))
  }
}

test('behavior: anvil loads ringchain\'s file, and ringchain loads anvil\'s', async (ctx) => {
  const binary = await anvilBinary()
  if (binary === undefined) ctx.skip('anvil is not available')
  const ours = tempFile('ours.json')
  const first = await serveJson(['--dump-state', ours])
  await changeState(first.ready.httpUrl)
  first.cli.child.kill('SIGTERM')
  expect(await first.cli.exit()).toBe(0)

  const loading = await anvilOn(binary!, ['--load-state', ours])
  await expectChangedState(loading.url, '0x2')

  const theirs = tempFile('theirs.json')
  const dumping = await anvilOn(binary!, ['--dump-state', theirs])
  await changeState(dumping.url)
  dumping.child.kill('SIGINT')
  await until(() => existsSync(theirs), 15_000, 'anvil to write its state')
  const second = await serveJson(['--load-state', theirs])
  await expectChangedState(second.ready.httpUrl, '0x2')
})
