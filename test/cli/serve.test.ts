// `ringchain serve` as a test suite spawns it: the built command (dist/cli/main.js) on 127.0.0.1,
// port 0. Ready line, flags, exit codes, and the ways it ends: signals, stdin's end, the parent's death.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import WebSocket from 'ws'
import { within } from '../e2e/helpers.js'
import { CLI, alive, freePort, rpc, runCli, serveJson, until } from './helpers.js'

describe('ready line', () => {
  test('default: --json prints exactly one JSON line once the URL answers', async () => {
    const { cli, ready } = await serveJson()
    expect(Object.keys(ready)).toEqual(['httpUrl', 'wsUrl', 'port', 'chainId', 'accounts'])
    expect(ready.httpUrl).toBe(`http://127.0.0.1:${ready.port}/v3/ringchain`)
    expect(ready.wsUrl).toBe(`ws://127.0.0.1:${ready.port}/ws/v3/ringchain`)
    expect(ready.chainId).toBe(31337)
    expect(ready.accounts).toHaveLength(10)
    expect(ready.accounts[0]).toEqual({
      address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    expect(await rpc(ready.httpUrl, 'eth_chainId')).toMatchObject({ result: '0x7a69' })
    expect(cli.stdout().split('\n')).toEqual([expect.stringMatching(/^\{.*\}$/), ''])
  })

  test('behavior: the WebSocket URL answers too', async () => {
    const { ready } = await serveJson()
    const socket = new WebSocket(ready.wsUrl)
    onTestFinished(() => socket.terminate())
    await within(new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject)), 5_000, 'WebSocket open')
    const answer = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_blockNumber' }))
    expect(JSON.parse(await within(answer, 5_000, 'WebSocket answer'))).toEqual({ jsonrpc: '2.0', id: 7, result: '0x0' })
  })

  test('args: chain options reach the chain', async () => {
    const { ready } = await serveJson(['--chain-id', '5', '--accounts', '2', '--balance', '1.5', '--window', '4', '--no-mining', '--deterministic'])
    expect(ready.chainId).toBe(5)
    expect(ready.accounts).toHaveLength(2)
    expect(await rpc(ready.httpUrl, 'eth_getBalance', [ready.accounts[1]!.address, 'latest'])).toMatchObject({ result: '0x14d1120d7b160000' })
    expect(await rpc(ready.httpUrl, 'anvil_getAutomine')).toMatchObject({ result: false })
    await rpc(ready.httpUrl, 'anvil_mine', ['0x6'])
    // The window of 4 keeps blocks 3..6; the deterministic clock spaces them 12 s from 2025-01-01.
    expect(await rpc(ready.httpUrl, 'eth_getBalance', [ready.accounts[0]!.address, '0x2'])).toMatchObject({ error: { code: 4444 } })
    const genesis = (await rpc(ready.httpUrl, 'eth_getBlockByNumber', ['earliest', false])).result as { number: string; timestamp: string }
    expect(genesis).toMatchObject({ number: '0x3', timestamp: '0x' + (1_735_689_600 + 36).toString(16) })
  })

  test('args: --reorg-every reorgs on a schedule, reported by ringchain_setReorgSchedule', async () => {
    const { ready } = await serveJson(['--reorg-every', '2', '--reorg-depth', '1', '--reorg-seed', '5', '--deterministic'])
    await rpc(ready.httpUrl, 'evm_mine')
    await rpc(ready.httpUrl, 'evm_mine')
    // Runs after the operations queued before it: the scheduled reorg that followed block 2.
    await rpc(ready.httpUrl, 'evm_snapshot')
    const now = (await rpc(ready.httpUrl, 'eth_getBlockByNumber', ['0x2', false])).result as { hash: string; extraData: string }
    expect(now.extraData).toBe('0x' + Buffer.from('ringchain reorg 1').toString('hex'))
    expect(await rpc(ready.httpUrl, 'ringchain_setReorgSchedule', [{ every: 2, depth: 1, seed: 5 }])).toMatchObject({ result: { every: 2, depth: 1, seed: 5 } })
  })

  test('args: --block-time mines on an interval', async () => {
    const { ready } = await serveJson(['--block-time', '0.05'])
    const deadline = Date.now() + 5_000
    let number = 0
    while (number < 2 && Date.now() < deadline) {
      number = Number((await rpc(ready.httpUrl, 'eth_blockNumber')).result)
      await new Promise((r) => setTimeout(r, 30))
    }
    expect(number).toBeGreaterThanOrEqual(2)
  })

  test('args: --api-key puts the first key in the URLs and refuses others', async () => {
    const { ready } = await serveJson(['--api-key', 'k1', '--api-key', 'k2'])
    expect(ready.httpUrl).toBe(`http://127.0.0.1:${ready.port}/v3/k1`)
    expect(await rpc(`http://127.0.0.1:${ready.port}/v3/k2`, 'eth_chainId')).toMatchObject({ result: '0x7a69' })
    const refused = await fetch(`http://127.0.0.1:${ready.port}/v3/other`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(refused.status).toBe(401)
  })

  test('args: --isolate gives each key its own chain, up to --max-chains', async () => {
    const { ready } = await serveJson(['--isolate', '--max-chains', '2'])
    const base = `http://127.0.0.1:${ready.port}/v3/`
    await rpc(base + 'a', 'evm_mine')
    expect(await rpc(base + 'a', 'eth_blockNumber')).toMatchObject({ result: '0x1' })
    expect(await rpc(ready.httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
    const refused = await rpc(base + 'b', 'eth_blockNumber')
    expect(refused.error).toMatchObject({ code: -32005, data: { maxChains: 2 } })
    expect(refused.error!.message).toMatch(/^isolated chain limit reached: 2 chains exist/)
  })

  test('behavior: without --json, a banner for people', async () => {
    const cli = runCli(['serve', '--port', '0'])
    const out = await cli.waitFor('Ctrl-C')
    expect(out).toMatch(/HTTP {7}http:\/\/127\.0\.0\.1:\d+\/v3\/ringchain/)
    expect(out).toMatch(/WebSocket {2}ws:\/\/127\.0\.0\.1:\d+\/ws\/v3\/ringchain/)
    expect(out).toContain('chain id 31337')
    expect(out).toContain('window 128 blocks')
    expect(out).toContain('mining auto')
    expect(out).toContain('private keys are public')
    expect(out).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  })

  test('behavior: --log-level debug logs each request on stderr, never the key', async () => {
    const { cli, ready } = await serveJson(['--log-level', 'debug'])
    await rpc(ready.httpUrl, 'eth_chainId')
    await until(() => cli.stderr().includes('ringchain: http eth_chainId'), 5_000, 'the debug line')
    expect(cli.stderr()).not.toContain('/v3/ringchain')
  })

  test('behavior: --log-level debug logs refused requests, never the key', async () => {
    const { cli, ready } = await serveJson(['--log-level', 'debug', '--api-key', 'goodkey'])
    const base = `http://127.0.0.1:${ready.port}`
    expect((await fetch(`${base}/v3/wrongkey`, { method: 'POST', body: '{}' })).status).toBe(401)
    expect((await fetch(`${base}/v3`, { method: 'POST', body: '{}' })).status).toBe(403)
    await until(() => cli.stderr().includes('ringchain: http POST refused: 403 API key required'), 5_000, 'the refusal lines')
    expect(cli.stderr()).toContain('ringchain: http POST refused: 401 invalid API key\n')
    expect(cli.stderr()).not.toMatch(/wrongkey|goodkey/)
  })

  test('behavior: with --api-key the banner names the key without showing it; --json keeps the real URL', async () => {
    const cli = runCli(['serve', '--port', '0', '--api-key', 's3cret-key'])
    const out = await cli.waitFor('Ctrl-C')
    expect(out).toMatch(/HTTP {7}http:\/\/127\.0\.0\.1:\d+\/v3\/<API key> {3}\(one of the --api-key values\)/)
    expect(out).toMatch(/WebSocket {2}ws:\/\/127\.0\.0\.1:\d+\/ws\/v3\/<API key>\n/)
    expect(out).not.toContain('s3cret')
    const { ready } = await serveJson(['--api-key', 's3cret-key'])
    expect(ready.httpUrl).toBe(`http://127.0.0.1:${ready.port}/v3/s3cret-key`)
  })

  test('behavior: --quiet prints nothing once serving', async () => {
    const port = await freePort()
    const cli = runCli(['serve', '--port', String(port), '--quiet'])
    const url = `http://127.0.0.1:${port}/v3/ringchain`
    const deadline = Date.now() + 15_000
    for (;;) {
      const answer = await rpc(url, 'eth_chainId').catch(() => undefined)
      if (answer !== undefined) break
      if (Date.now() > deadline || cli.child.exitCode !== null) throw new Error(`no answer on ${url}; stderr: ${cli.stderr()}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(cli.stdout()).toBe('')
    expect(cli.stderr()).toBe('')
  })
})

describe('import and recording', () => {
  const tests = new URL('../../../shared/conformance/execution-apis/tests/', import.meta.url).pathname

  test('args: --genesis with --import serves the recorded chain, its last block as head', async () => {
    const { ready } = await serveJson(['--genesis', join(tests, 'genesis.json'), '--import', join(tests, 'chain.rlp')])
    expect((await rpc(ready.httpUrl, 'eth_blockNumber')).result).toBe('0x36')
    expect((await rpc(ready.httpUrl, 'eth_chainId')).result).toBe('0xc72dd9d5e883e')
    const finalized = (await rpc(ready.httpUrl, 'eth_getBlockByNumber', ['finalized', false])).result as { number: string }
    expect(finalized.number).toBe('0x36')
    // As the README says: no dev accounts, and nothing mined until evm_mine.
    expect(ready.accounts).toEqual([])
    expect((await rpc(ready.httpUrl, 'eth_accounts')).result).toEqual([])
    expect((await rpc(ready.httpUrl, 'anvil_getAutomine')).result).toBe(false)
  })

  test('args: --record writes the state-changing requests as a scenario', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ringchain-record-')), 'session.yaml')
    const { cli, ready } = await serveJson(['--record', file])
    expect((await rpc(ready.httpUrl, 'evm_mine')).result).toBe('0x0')
    cli.child.kill('SIGTERM')
    expect(await cli.exit()).toBe(0)
    expect(readFileSync(file, 'utf8')).toMatch(/evm_mine/)
  })
})

describe('errors: one line on stderr, exit code 2, nothing started', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown flag', ['serve', '--bogus'], /^ringchain: unknown option --bogus/],
    ['missing value', ['serve', '--port'], /^ringchain: --port needs a value$/],
    ['bad number', ['serve', '--port', 'eighty'], /^ringchain: --port must be a whole number from 0 to 65535, got "eighty"$/],
    ['negative count after a space', ['serve', '--accounts', '-1'], /^ringchain: --accounts must be a whole number from 0 to 10000, got "-1"$/],
    ['negative amount after a space', ['serve', '--balance', '-5'], /^ringchain: --balance must be an amount of ether \(up to 18 decimals\), got "-5"$/],
    ['negative chain id after a space', ['serve', '--chain-id', '-3'], /^ringchain: --chain-id must be a whole number of at least 1, got "-3"$/],
    ['a flag where a value belongs', ['serve', '--accounts', '--json'], /^ringchain: --accounts needs a value$/],
    ['positional argument', ['serve', 'now'], /^ringchain: unexpected argument now/],
    ['unknown hardfork', ['serve', '--hardfork', 'atlantis'], /^ringchain: --hardfork: unknown hardfork "atlantis"/],
    ['bad mnemonic', ['serve', '--mnemonic', 'not a real mnemonic at all'], /^ringchain: --mnemonic: invalid mnemonic/],
    ['bad mining mode', ['serve', '--mining', 'sometimes'], /^ringchain: --mining must be auto, interval or manual/],
    ['flag needing --isolate', ['serve', '--max-chains', '3'], /^ringchain: --max-chains needs --isolate$/],
    ['flag needing --reorg-every', ['serve', '--reorg-depth', '3'], /^ringchain: --reorg-depth needs --reorg-every$/],
    ['reorg every 0 blocks', ['serve', '--reorg-every', '0'], /^ringchain: --reorg-every must be a whole number of at least 1, got "0"$/],
    ['unreadable genesis file', ['serve', '--genesis', '/nonexistent/genesis.json'], /^ringchain: --genesis: cannot read \/nonexistent\/genesis\.json: no such file or directory$/],
    ['unknown command', ['serv'], /^ringchain: unknown command "serv"/],
  ]
  test.each(cases)('error: %s', async (_name, args, message) => {
    const cli = runCli(args)
    expect(await cli.exit()).toBe(2)
    expect(cli.stderr().split('\n')).toEqual([expect.stringMatching(message), ''])
    expect(cli.stdout()).toBe('')
  })

  test('args: --provider-profile answers as the profile\'s provider', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringchain-cli-'))
    const file = join(dir, 'limited.json')
    writeFileSync(file, JSON.stringify({ default: { rateLimit: { perDay: 1 } } }))
    const { ready: limited } = await serveJson(['--provider-profile', file])
    const ask = () => fetch(limited.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }) })
    expect((await ask()).status).toBe(200)
    const refused = await ask()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect(await refused.json()).toMatchObject({ error: { code: -32005 } })
  })

  test('error: an invalid provider profile exits 2 naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringchain-cli-'))
    const file = join(dir, 'profile.json')
    writeFileSync(file, JSON.stringify({ default: { failures: { share: 0.5 } } }))
    const cli = runCli(['serve', '--port', '0', '--provider-profile', file])
    expect(await cli.exit()).toBe(2)
    expect(cli.stderr()).toBe(`ringchain: --provider-profile: ${file}: default.failures.status: required\n`)
  })

  test('error: a genesis file that is not JSON is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringchain-cli-'))
    const file = join(dir, 'genesis.json')
    writeFileSync(file, 'not json')
    const cli = runCli(['serve', '--port', '0', '--genesis', file])
    expect(await cli.exit()).toBe(2)
    expect(cli.stderr()).toMatch(new RegExp(`^ringchain: --genesis: ${file.replaceAll('.', '\\.')} is not a geth genesis: .+\\n$`))
  })

  test('error: a port in use exits 1 naming the address', async () => {
    const { ready } = await serveJson()
    const cli = runCli(['serve', '--port', String(ready.port)])
    expect(await cli.exit()).toBe(1)
    expect(cli.stderr()).toBe(`ringchain: cannot listen on 127.0.0.1:${ready.port}: EADDRINUSE\n`)
  })
})

describe('ends', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('behavior: %s closes the server and exits 0', async (signal) => {
    const { cli, ready } = await serveJson()
    cli.child.kill(signal)
    expect(await cli.exit(5_000)).toBe(0)
    await expect(rpc(ready.httpUrl, 'eth_chainId')).rejects.toThrow()
  })

  test('behavior: SIGTERM exits 0 promptly with interval mining and an open WebSocket', async () => {
    const { cli, ready } = await serveJson(['--block-time', '0.01'])
    const socket = new WebSocket(ready.wsUrl)
    onTestFinished(() => socket.terminate())
    await within(new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject)), 5_000, 'WebSocket open')
    const started = Date.now()
    cli.child.kill('SIGTERM')
    expect(await cli.exit(5_000)).toBe(0)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  test('behavior: stdin reaching EOF (a pipe) stops the server', async () => {
    const { cli } = await serveJson([], { stdio: ['pipe', 'pipe', 'pipe'] })
    cli.child.stdin!.end()
    expect(await cli.exit(5_000)).toBe(0)
    expect(cli.stderr()).toContain('stopping (stdin closed)')
  })

  // An intermediate parent spawns the server and reports its pid; the test then kills the parent.
  async function orphan(flags: string[], stdin: 'pipe' | 'ignore'): Promise<number> {
    const script = `
      const { spawn } = require('node:child_process')
      const child = spawn(process.execPath, ${JSON.stringify([CLI, 'serve', '--port', '0', '--json', ...flags])}, { stdio: ['${stdin}', 'pipe', 'inherit'] })
      child.stdout.once('data', () => process.stdout.write(child.pid + '\\n'))
      setInterval(() => {}, 1000)
    `
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    onTestFinished(() => {
      parent.kill('SIGKILL')
    })
    const pid = await within(
      new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())))),
      15_000,
      'the server pid',
    )
    onTestFinished(() => {
      if (alive(pid)) process.kill(pid, 'SIGKILL')
    })
    expect(alive(pid)).toBe(true)
    parent.kill('SIGKILL')
    return pid
  }

  test('behavior: --exit-with-parent ends the server when its parent dies', async () => {
    const pid = await orphan(['--exit-with-parent'], 'ignore')
    await until(() => !alive(pid), 5_000, 'the orphaned server to exit')
  })

  test('behavior: the parent dying closes stdin (a pipe), which ends the server', async () => {
    const pid = await orphan([], 'pipe')
    await until(() => !alive(pid), 5_000, 'the orphaned server to exit')
  })
})
