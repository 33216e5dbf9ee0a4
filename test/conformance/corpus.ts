/**
 * The external conformance corpus (`../shared/conformance`, next to the repo): where its files are,
 * its fixture (`.io`) format, a ringchain on the chain its fixtures were recorded on, and running its
 * fixture runner against a ringchain. Nothing is copied into the project; the corpus is read where
 * it lies.
 */
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync, realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'
import { startRingchain, type RunningRingchain } from '../../src/index.js'

/**
 * `../shared/conformance`, resolved from the repo root, links followed: the runners only run when
 * started by their real path (they compare `import.meta.url` with `argv[1]`).
 */
export const CORPUS = realpathSync(fileURLToPath(new URL('../../../shared/conformance/', import.meta.url))) + '/'
export const TESTS = `${CORPUS}execution-apis/tests/`

/** The chain the fixtures were recorded against. */
export const IMPORT = { genesis: `${TESTS}genesis.json`, blocks: `${TESTS}chain.rlp` } as const

/** The fixture families that must pass exactly (with `--hive --schema`): 40 fixtures. */
export const CORE_FAMILIES = [
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_sendRawTransaction',
] as const

/** One fixture: its name (`family/test`) and its requests with the answers geth gave. */
export interface Fixture {
  readonly name: string
  readonly exchanges: readonly { readonly request: string; readonly response: string }[]
}

/** Every fixture of the corpus, in the runner's order (sorted by path, as hive runs them). */
export function fixtures(): Fixture[] {
  const files = readdirSync(TESTS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.io'))
    .sort()
  return files.map((file) => {
    const exchanges: { request: string; response: string }[] = []
    let request: string | undefined
    for (const line of readFileSync(`${TESTS}${file}`, 'utf8').split('\n')) {
      if (line.startsWith('>> ')) request = line.slice(3)
      else if (line.startsWith('<< ') && request !== undefined) {
        exchanges.push({ request, response: line.slice(3) })
        request = undefined
      }
    }
    return { name: file.replace(/\.io$/, ''), exchanges }
  })
}

/** The request and answer of fixture `family/name` (its first exchange), parsed. */
export function fixtureExchange<Response = unknown>(family: string, name: string): { request: { params: unknown[] }; response: Response } {
  const lines = readFileSync(`${TESTS}${family}/${name}.io`, 'utf8').split('\n')
  return {
    request: JSON.parse(lines.find((line) => line.startsWith('>> '))!.slice(3)) as { params: unknown[] },
    response: JSON.parse(lines.find((line) => line.startsWith('<< '))!.slice(3)) as Response,
  }
}

/** A ringchain on port 0 that imported the chain the fixtures were recorded on; closed when the test ends. */
export async function startImported(): Promise<RunningRingchain> {
  const rc = await startRingchain({ port: 0, import: IMPORT })
  onTestFinished(() => rc.close())
  return rc
}

/** What one run of `run-fixtures.mjs` printed, with its counts per family. */
export interface RunnerResult {
  readonly code: number | null
  readonly output: string
  readonly summary: string | undefined
  readonly families: Map<string, { passed: number; failed: number }>
}

/** Runs the corpus's own runner (`node run-fixtures.mjs --url … args`) in a child process. */
export async function runFixtures(url: string, args: readonly string[]): Promise<RunnerResult> {
  const child = spawn(process.execPath, [`${CORPUS}run-fixtures.mjs`, '--url', url, '--timeout', '120000', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const families = new Map<string, { passed: number; failed: number }>()
  for (const match of output.matchAll(/^(PASS|FAIL|ERROR) +([^/\s]+)\//gm)) {
    const counts = families.get(match[2]!) ?? { passed: 0, failed: 0 }
    if (match[1] === 'PASS') counts.passed++
    else counts.failed++
    families.set(match[2]!, counts)
  }
  const summary = /^\d+ passed, \d+ failed$/m.exec(output)?.[0]
  return { code, output, summary, families }
}
