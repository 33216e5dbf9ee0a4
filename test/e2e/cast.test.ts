// Foundry's `cast` 1.7.1 against `ringchain serve` (this repository's build): the root URL that
// cast, forge and Hardhat default to, and geth's answers where cast shows them. cast comes from
// its npm package, installed on demand (test/helpers/foundry.ts); without it the tests skip, saying why.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli, serveJson, type ReadyLine } from '../cli/helpers.js'
import { findFoundryTool } from '../helpers/foundry.js'

const POOR = '0x00000000000000000000000000000000000000aa'
const DEV_ACCOUNT_1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('cast', () => {
  let cast = ''
  let skip: string | undefined
  // An empty directory: no foundry.toml of this repository (or above it) changes cast's defaults.
  const dir = mkdtempSync(join(tmpdir(), 'ringchain-cast-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  beforeAll(() => {
    const found = findFoundryTool('cast')
    if ('reason' in found) skip = found.reason
    else cast = found.binary
  }, 300_000)

  /** Runs cast with no ETH_RPC_URL from the environment; resolves with its exit status and output. */
  const castRun = (args: string[]) => {
    const { ETH_RPC_URL: _ignored, ...inherited } = process.env
    const env = { ...inherited, FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' }
    const result = spawnSync(cast, args, { cwd: dir, env, encoding: 'utf8', timeout: 60_000 })
    return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() }
  }

  test('behavior: cast chain-id with no --rpc-url reaches ringchain serve on its default port', { timeout: 60_000 }, async (context) => {
    if (skip !== undefined) {
      console.warn(`cast tests skipped: ${skip}`)
      return context.skip(skip)
    }
    // cast's default is http://localhost:8545. Only when this test's own server holds port 8545
    // is the default tried; otherwise the root URL of a server on another port, with no path.
    const own = runCli(['serve', '--json'])
    let ready: ReadyLine | undefined
    try {
      ready = JSON.parse((await own.waitFor('\n')).split('\n')[0]!) as ReadyLine
    } catch {
      console.warn('port 8545 is taken: testing `cast chain-id --rpc-url http://127.0.0.1:<port>` (no path) instead of no --rpc-url')
    }
    if (ready !== undefined) {
      expect(ready.port).toBe(8545)
      expect(castRun(['chain-id'])).toMatchObject({ status: 0, stdout: '31337' })
    } else {
      const other = (await serveJson()).ready
      expect(castRun(['chain-id', '--rpc-url', `http://127.0.0.1:${other.port}`])).toMatchObject({ status: 0, stdout: '31337' })
    }
  })

  test('error: cast call with value from an account that cannot pay: geth\'s insufficient funds', { timeout: 60_000 }, async (context) => {
    if (skip !== undefined) return context.skip(skip)
    const { ready } = await serveJson()
    const root = `http://127.0.0.1:${ready.port}`
    expect(castRun(['rpc', '--rpc-url', root, 'anvil_setBalance', POOR, '0x1']).status).toBe(0)
    const call = castRun(['call', '--rpc-url', root, '--from', POOR, DEV_ACCOUNT_1, '--value', '2'])
    expect(call.status).not.toBe(0)
    expect(call.stderr).toContain('error code -32000: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000AA have 1 want 2')
  })

  test('error: cast estimate of a call that runs out of gas at the cap: gas required exceeds allowance', { timeout: 60_000 }, async (context) => {
    if (skip !== undefined) return context.skip(skip)
    // A small block gas limit keeps the endless loop short.
    const { ready } = await serveJson(['--block-gas-limit', '1000000'])
    const estimate = castRun(['estimate', '--rpc-url', ready.httpUrl, '--create', '0x5b600056'])
    expect(estimate.status).not.toBe(0)
    expect(estimate.stderr).toContain('error code -32000: gas required exceeds allowance (1000000)')
  })
})
