#!/usr/bin/env node
// Startup: the time from spawning `dist/cli/main.js serve --port 0 --json` (the bin, executed as
// npx or node_modules/.bin runs it, so that its #! line applies) to the first answered eth_chainId
// (the ready line, then one request), median of N runs (default 5), and the same for anvil in the same run when it can be had: the `@foundry-rs/anvil-<platform>` npm
// package, installed on demand into a cache directory outside this project's dependencies.
//
//   npm run build && node bench/startup.mjs [runs]
//
// anvil prints no machine-readable ready line; its "Listening on HOST:PORT" line is taken as the
// same signal (it is printed once the socket is bound), then one eth_chainId is sent, as for ringchain.

import { spawn, spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { threadsCpuMs } from './proc-cpu.mjs'

const cli = process.env.RINGCHAIN_BENCH_CLI ?? new URL('../dist/cli/main.js', import.meta.url).pathname
const cacheDir = process.env.RINGCHAIN_BENCH_CACHE ?? join(homedir(), '.cache', 'ringchain-bench')
const TIMEOUT_MS = 30_000

/** POSTs eth_chainId; resolves with the result. node:http, not fetch: fetch's first use loads undici, which would be counted. */
function chainId(url) {
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => {
        try {
          resolve(JSON.parse(text).result)
        } catch (e) {
          reject(e)
        }
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Spawns `command`, waits for the first stdout line `readyUrl` recognises, answers one
 * eth_chainId, and returns the elapsed milliseconds and the CPU milliseconds the process used so far
 * (Linux); then stops the process and waits for its exit.
 */
async function measure(command, args, readyUrl) {
  const started = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
      let buffer = ''
      child.stdout.on('data', (d) => {
        buffer += d
        for (const line of buffer.split('\n')) {
          const found = readyUrl(line)
          if (found !== undefined) {
            clearTimeout(timer)
            resolve(found)
            return
          }
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`exited with ${code} before ready: ${stderr.trim()}`))
      })
    })
    const id = await chainId(url)
    const elapsed = performance.now() - started
    if (typeof id !== 'string') throw new Error(`eth_chainId answered ${id}`)
    return { elapsed, cpu: process.platform === 'linux' ? threadsCpuMs(child.pid) : undefined }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export const ringchainReady = (line) => {
  if (!line.startsWith('{')) return undefined
  try {
    return JSON.parse(line).httpUrl
  } catch {
    return undefined
  }
}

export const anvilReady = (line) => {
  const match = /Listening on (\S+)/.exec(line)
  return match === null ? undefined : `http://${match[1]}`
}

/**
 * A file of an npm package in the cache directory, the package installed there first if need be
 * (outside this project's dependencies); a reason string when it cannot be had.
 */
export function installedFile(spec, name, file) {
  const path = join(cacheDir, 'node_modules', name, file)
  if (!existsSync(path)) {
    console.error(`installing ${spec} into ${cacheDir} (outside this project's dependencies)...`)
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const result = spawnSync(npm, ['install', '--prefix', cacheDir, '--no-audit', '--no-fund', '--loglevel=error', spec], { encoding: 'utf8', timeout: 300_000 })
    if (result.status !== 0 || !existsSync(path)) {
      return { reason: `could not install ${spec}: ${(result.error?.message ?? result.stderr ?? '').trim().split('\n').pop()}` }
    }
  }
  return { path }
}

/** The anvil binary, installed into the cache directory if need be; a reason string when it cannot be had. */
export function findAnvil() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform]
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch]
  if (platform === undefined || arch === undefined) return { reason: `no anvil npm package for ${process.platform}/${process.arch}` }
  const name = `@foundry-rs/anvil-${platform}-${arch}`
  const found = installedFile(name, name, join('bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil'))
  return found.path === undefined ? found : { binary: found.path }
}

/**
 * A section's script mode: when `moduleUrl` is the file Node was started with, runs `section` (with
 * anvil when it can be had, `--quick` honoured, progress on stderr) and prints `table` of it;
 * resolves with the section, or undefined when the file was imported instead.
 */
export async function runAsScript(moduleUrl, section, table) {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return undefined
  const anvil = findAnvil()
  if (anvil.binary === undefined) console.error(`anvil: not measured (${anvil.reason})`)
  const result = await section({ quick: process.argv.includes('--quick'), anvilBinary: anvil.binary, log: (m) => console.error(m) })
  console.log(table(result))
  return result
}

/** A port free on 127.0.0.1 a moment ago (for anvil, which prints no port when --silent). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

export const SERVE_ARGS = ['serve', '--port', '0', '--json', '--log-level', 'warn']

/**
 * ringchain's serve command as users run it (npx, node_modules/.bin): the bin executed as a
 * program, so that its #! line applies. A bin that is not executable (a build from before
 * scripts/bundle-cli.mjs made it so, e.g. RINGCHAIN_BENCH_CLI pointing at an older dist) is run
 * through its #! line's interpreter, as the kernel would; on Windows, through Node.
 */
export const ringchainCommand = binCommand(cli, SERVE_ARGS)

/** The same server started by Node itself, for runs that need Node flags (bench/run.mjs's memory probe). */
export const ringchainNodeCommand = { command: process.execPath, args: [cli, ...SERVE_ARGS] }

export function binCommand(file, args) {
  if (process.platform === 'win32' || !existsSync(file)) return { command: process.execPath, args: [file, ...args] }
  try {
    accessSync(file, constants.X_OK)
    return { command: file, args }
  } catch {
    // `#!/usr/bin/env node` runs `/usr/bin/env node <file> <args>`: the interpreter, its one argument, the file.
    const [interpreter, argument] = /^#!\s*(\S+)(?:\s+(.*?))?\s*$/m.exec(readFileSync(file, 'utf8').split('\n', 1)[0]).slice(1)
    return { command: interpreter, args: [...(argument === undefined ? [] : [argument]), file, ...args] }
  }
}

/** Median startup of `command` over `runs` starts, after one unmeasured start. */
export async function series(label, command, args, readyUrl, runs = 5) {
  // One unmeasured start first: the disk cache, not ringchain, is what the very first start measures.
  await measure(command, args, readyUrl)
  const times = []
  const cpus = []
  for (let i = 0; i < runs; i++) {
    const { elapsed, cpu } = await measure(command, args, readyUrl)
    times.push(elapsed)
    if (cpu !== undefined) cpus.push(cpu)
  }
  // CPU: every thread's, until the answer (the shell and env before Node's exec included): steadier than wall time on a busy machine.
  return { label, median: median(times), times, cpuMedian: cpus.length === 0 ? undefined : median(cpus) }
}

async function main() {
  if (!existsSync(cli)) {
    console.error('dist/cli/main.js is missing: run `npm run build` first')
    process.exit(1)
  }
  const runs = Number(process.argv[2] ?? 5)
  const results = [await series('ringchain', ringchainCommand.command, ringchainCommand.args, ringchainReady, runs)]
  const anvil = findAnvil()
  if (anvil.binary !== undefined) {
    results.push(await series('anvil', anvil.binary, ['--port', '0'], anvilReady, runs))
  } else {
    console.error(`anvil: not measured (${anvil.reason}); ringchain alone`)
  }

  console.log(`startup: spawn → first answered eth_chainId, median of ${runs} (node ${process.version}, ${process.platform}/${process.arch})`)
  // Node 20 reads these certificates at every start, before any JavaScript runs (anvil does not):
  // tens of ms on a small VM. The bin's shell lines defer them for `serve`; `node <bin>` does not.
  if (process.env.NODE_EXTRA_CA_CERTS) {
    const shellLines = ringchainCommand.command !== process.execPath && readFileSync(cli, 'utf8').split('\n', 2).join('\n').includes('RINGCHAIN_EXTRA_CA_CERTS')
    const deferred = shellLines ? "the bin's shell lines defer them for serve" : 'this bin loads them at start'
    console.log(`  note: NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}; ${deferred}); \`env -u NODE_EXTRA_CA_CERTS\` measures without`)
  }
  for (const r of results) {
    const cpu = r.cpuMedian === undefined ? '' : `   CPU ${r.cpuMedian.toFixed(0).padStart(4)} ms`
    console.log(`  ${r.label.padEnd(10)} ${r.median.toFixed(0).padStart(5)} ms${cpu}   (runs: ${r.times.map((t) => t.toFixed(0)).join(', ')} ms)`)
  }
}

// Run as a script; bench/run.mjs imports the pieces above instead.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
