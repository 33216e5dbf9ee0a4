/**
 * Spawning the built `ringchain` command (dist/cli/main.js, which `npm test` builds first) and
 * waiting on it, every wait bounded. Every process a test starts is killed when the test ends.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'
import { within } from '../e2e/helpers.js'

export const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname

/** The `--json` ready line. */
export interface ReadyLine {
  httpUrl: string
  wsUrl: string
  port: number
  chainId: number
  accounts: { address: string; privateKey: string }[]
}

/** A spawned CLI: its process and what it has written so far. */
export interface Cli {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code (a signal's name if killed by one); rejects after `ms`. */
  exit(ms?: number): Promise<number | string>
  /** Resolves once stdout contains `text` (or matches it); rejects after `ms` or on exit. */
  waitFor(text: string | RegExp, ms?: number): Promise<string>
}

/** Spawns `node dist/cli/main.js ...args`; the process is killed when the test finishes. */
export function runCli(args: readonly string[], options: SpawnOptions = {}): Cli {
  return watched(process.execPath, [CLI, ...args], options)
}

/**
 * Spawns `dist/cli/main.js ...args` as a program, as npx and node_modules/.bin run the bin (its #!
 * line applies); or, given `shell`, as that shell runs it (`dash dist/cli/main.js ...`).
 */
export function runBin(args: readonly string[], options: SpawnOptions = {}, shell?: string): Cli {
  return shell === undefined ? watched(CLI, args, options) : watched(shell, [CLI, ...args], options)
}

function watched(command: string, args: readonly string[], options: SpawnOptions): Cli {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does it first)')
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
  let out = ''
  let err = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit: (ms = 10_000) => within(exited, ms, `exit of ringchain ${args.join(' ')}; stderr: ${err}`),
    waitFor: (text, ms = 15_000) =>
      within(
        new Promise<string>((resolve, reject) => {
          const check = () => {
            const found = typeof text === 'string' ? out.includes(text) : text.test(out)
            if (found) {
              child.stdout?.off('data', check)
              resolve(out)
            }
          }
          child.stdout?.on('data', check)
          check()
          void exited.then((code) => reject(new Error(`ringchain exited (${code}) before printing ${text}; stderr: ${err}`)))
        }),
        ms,
        `${text} on stdout; stderr so far: ${err}`,
      ),
  }
}

/** Spawns `serve --port 0 --json ...args` (through Node, or through the bin's #! line: `run`) and resolves with the parsed ready line. */
export async function serveJson(args: readonly string[] = [], options: SpawnOptions = {}, run: typeof runCli = runCli): Promise<{ cli: Cli; ready: ReadyLine }> {
  const cli = run(['serve', '--port', '0', '--json', ...args], options)
  const out = await cli.waitFor('\n')
  return { cli, ready: JSON.parse(out.split('\n')[0]!) as ReadyLine }
}

/** A JSON-RPC call over HTTP; resolves with the whole answer object. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
}

/** Whether a process id is alive: exists, and (on Linux) is not a zombie nobody has reaped yet. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    // "pid (comm) S ...": the state follows the command name's closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}

/** A port that was free a moment ago, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resolves once `predicate()` holds, checking every 20 ms; rejects after `ms`. */
export async function until(predicate: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
