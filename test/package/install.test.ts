// ringchain installed as a user installs it: the packed tarball in a clean app, beside ethers 6 and
// viem 2, and beside each alone (each hoists its own, older @noble/* copies). Every entry point
// loads, from ES modules and from CommonJS (`require(esm)`), every package dist/ loads resolves
// from where dist/ loads it, and the `ringchain` bin serves and warms up.

import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { execFile } from 'node:child_process'
import { afterAll, expect, test } from 'vitest'
import { distImports } from '../helpers/dist-imports.js'
import { installOrSkip, npmInstall, packedTarball, tempDir } from '../helpers/packed.js'

const INSTALL_TIMEOUT = 240_000
const apps: string[] = []
afterAll(() => Promise.all(apps.map((dir) => rm(dir, { recursive: true, force: true }))), 120_000)

// Run by `node check.mjs` inside the app: what a user's ES module and CommonJS code do.
const CHECK = `
import * as esm from 'ringchain'
import * as setup from 'ringchain/vitest/setup'
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const cjs = require('ringchain')
const cjsSetup = require('ringchain/vitest/setup')
const rc = await esm.startRingchain({ port: 0 })
const response = await fetch(rc.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })
const { result } = await response.json()
await rc.close()
console.log(JSON.stringify({
  esm: typeof esm.startRingchain, cjs: typeof cjs.startRingchain,
  setup: typeof setup.default, cjsSetup: typeof cjsSetup.default,
  vitestEntry: import.meta.resolve('ringchain/vitest').endsWith('/dist/vitest.js'),
  blockNumber: result,
}))
`

const exec = promisify(execFile)

async function installApp(skip: (note: string) => never, clients: readonly string[]): Promise<string> {
  const app = tempDir('app')
  apps.push(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  const tarball = await packedTarball()
  await installOrSkip(skip, () => npmInstall(app, [tarball, ...clients]))
  return app
}

/** Packages that dist/ loads and that cannot be resolved from the dist/ file that loads them. */
function unresolvable(app: string): string[] {
  const dist = join(app, 'node_modules/ringchain/dist')
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules/ringchain/package.json'), 'utf8')) as { name: string; peerDependencies: Record<string, string> }
  const missing: string[] = []
  for (const [specifier, files] of distImports(dist)) {
    if (specifier.startsWith(`${manifest.name}/`) || specifier in manifest.peerDependencies) continue
    for (const file of files) {
      try {
        createRequire(join(dist, file)).resolve(specifier)
      } catch (e) {
        missing.push(`${specifier} from ${file}: ${(e as Error).message.split('\n')[0]}`)
      }
    }
  }
  return missing
}

/** `ringchain serve --port 0 --json` from the app's .bin: the line, `eth_chainId`, the warm-up's end, stop. */
async function serveOnce(app: string): Promise<unknown> {
  const server = spawn(join(app, 'node_modules/.bin/ringchain'), ['serve', '--port', '0', '--json', '--quiet'], { cwd: app, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, RINGCHAIN_WARMUP: '4' } })
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string]
    const { httpUrl } = JSON.parse(line) as { httpUrl: string }
    const ask = async (method: string) => ((await (await fetch(httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) })).json()) as { result: unknown }).result
    const chainId = await ask('eth_chainId')
    // The warm-up (4 tests here; the suite turns it off elsewhere) runs its client on a worker
    // thread whose file the installed package must hold.
    let warmup = (await ask('ringchain_warmup')) as { state: string; reason?: string }
    for (let i = 0; i < 120 && ['waiting', 'running'].includes(warmup.state); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      warmup = (await ask('ringchain_warmup')) as { state: string; reason?: string }
    }
    return { chainId, warmup: warmup.state, ...(warmup.reason === undefined ? {} : { reason: warmup.reason }) }
  } finally {
    server.kill()
    if (server.exitCode === null) await once(server, 'exit')
  }
}

for (const clients of [['ethers@6', 'viem@2'], ['ethers@6'], ['viem@2']]) {
  test.concurrent(`behavior: installed beside ${clients.join(' and ')}, every entry point loads and the bin serves`, { timeout: INSTALL_TIMEOUT }, async ({ skip }) => {
    const app = await installApp(skip, clients)
    expect(unresolvable(app)).toEqual([])
    writeFileSync(join(app, 'check.mjs'), CHECK)
    const { stdout } = await exec('node', ['check.mjs'], { cwd: app })
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      esm: 'function',
      cjs: 'function',
      setup: 'function',
      cjsSetup: 'function',
      vitestEntry: true,
      blockNumber: '0x0',
    })
    expect(await serveOnce(app)).toEqual({ chainId: '0x7a69', warmup: 'done' })
  })
}
