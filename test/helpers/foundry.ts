/**
 * Foundry's binaries (cast, forge, anvil 1.7.1) from their npm packages, installed on demand into
 * ~/.cache/ringchain-bench, outside this project's dependencies, as bench/startup.mjs installs
 * anvil. A test that needs one and cannot have it skips, printing the reason given here.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

const CACHE = join(homedir(), '.cache', 'ringchain-bench')

/** The binary of a Foundry tool, installed into the cache if need be; a reason when it cannot be had. */
export function findFoundryTool(tool: 'cast' | 'forge' | 'anvil'): { binary: string } | { reason: string } {
  const platform = ({ linux: 'linux', darwin: 'darwin' } as Record<string, string>)[process.platform]
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch]
  if (platform === undefined || arch === undefined) return { reason: `no ${tool} npm package for ${process.platform}/${process.arch}` }
  const name = `@foundry-rs/${tool}-${platform}-${arch}`
  const binary = join(CACHE, 'node_modules', name, 'bin', tool)
  if (!existsSync(binary)) {
    console.warn(`installing ${name} into ${CACHE} (outside this project's dependencies)...`)
    const result = spawnSync('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--loglevel=error', name], { encoding: 'utf8', timeout: 300_000 })
    if (result.status !== 0 || !existsSync(binary)) return { reason: `could not install ${name}: ${(result.error?.message ?? result.stderr ?? '').trim().split('\n').pop()}` }
  }
  return { binary }
}
