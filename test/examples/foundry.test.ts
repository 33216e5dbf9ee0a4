// examples/foundry against `ringchain serve` (this repository's build): `forge test --fork-url` and
// `forge script --broadcast`, compiled by the example's bin/solc (solcjs from npm; forge cannot
// download a native solc here). forge 1.7.1 comes from its npm package, installed on demand into
// ~/.cache/ringchain-bench as bench/startup.mjs installs anvil; without it the tests skip, saying why.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rpc, serveJson } from '../cli/helpers.js'
import { exampleProject, run, type ExampleProject } from './example-project.js'

const CACHE = join(homedir(), '.cache', 'ringchain-bench')
const DEV_KEY_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const DEV_ACCOUNT_1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** The forge binary, installed into the cache if need be; a reason when it cannot be had. */
function findForge(): { binary: string } | { reason: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { reason: `this test installs forge for linux/x64 only, not ${process.platform}/${process.arch}` }
  const name = '@foundry-rs/forge-linux-amd64'
  const binary = join(CACHE, 'node_modules', name, 'bin', 'forge')
  if (!existsSync(binary)) {
    const result = spawnSync('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--loglevel=error', name], { encoding: 'utf8', timeout: 300_000 })
    if (result.status !== 0 || !existsSync(binary)) return { reason: `could not install ${name}: ${(result.error?.message ?? result.stderr ?? '').trim().split('\n').pop()}` }
  }
  return { binary }
}

describe('examples/foundry', () => {
  let forge = ''
  let project: ExampleProject | undefined
  let skip: string | undefined

  beforeAll(async () => {
    const found = findForge()
    if ('reason' in found) {
      skip = found.reason
      return
    }
    forge = found.binary
    const made = await exampleProject('foundry')
    if ('skip' in made) skip = made.skip
    else project = made
  }, 300_000)
  afterAll(() => project?.remove(), 60_000)

  const forgeRun = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(forge, [...args, '--use', './bin/solc', '--offline'], { cwd: project!.dir, env: { ...project!.env, ...env, FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' }, timeout: 180_000 })

  test('behavior: forge test --fork-url runs the tests on a fork of ringchain', { timeout: 200_000 }, async (context) => {
    if (skip !== undefined) {
      console.warn(`examples/foundry skipped: ${skip}`)
      return context.skip(skip)
    }
    const { ready } = await serveJson()
    const { stdout } = await forgeRun(['test', '--fork-url', ready.httpUrl])
    expect(stdout).toMatch(/\[PASS\] test_forksRingchain\(\)/)
    expect(stdout).toMatch(/\[PASS\] test_increment\(\)/)
    expect(stdout).toMatch(/2 tests passed, 0 failed/)
    // A fork changes only its own copy: ringchain's chain is as it was.
    expect(await rpc(ready.httpUrl, 'eth_blockNumber')).toMatchObject({ result: '0x0' })
  })

  test('behavior: forge script --broadcast deploys and calls through ringchain', { timeout: 200_000 }, async (context) => {
    if (skip !== undefined) return context.skip(skip)
    const { ready } = await serveJson()
    const { stdout } = await forgeRun(['script', 'script/Counter.s.sol', '--rpc-url', ready.httpUrl, '--broadcast'], { PRIVATE_KEY: DEV_KEY_1 })
    expect(stdout).toMatch(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/)
    // Two transactions from dev account 1, mined: the deployment and the increment.
    expect(await rpc(ready.httpUrl, 'eth_getTransactionCount', [DEV_ACCOUNT_1, 'latest'])).toMatchObject({ result: '0x2' })
    const created = (await rpc(ready.httpUrl, 'eth_getBlockByNumber', ['0x1', true])).result as { transactions: { hash: string }[] }
    const receipt = (await rpc(ready.httpUrl, 'eth_getTransactionReceipt', [created.transactions[0]!.hash])).result as { contractAddress: string; status: string }
    expect(receipt.status).toBe('0x1')
    // count() of the deployed Counter is 1.
    expect(await rpc(ready.httpUrl, 'eth_call', [{ to: receipt.contractAddress, data: '0x06661abd' }, 'latest'])).toMatchObject({ result: `0x${'1'.padStart(64, '0')}` })
  })
})
