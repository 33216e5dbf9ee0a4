/**
 * `ringchain run <file|dir>...`: plays scenario files and reports like a test runner: a line per
 * step with its timing, expected against actual with the file and line of a failed expectation,
 * progress on a terminal while a long step runs, the digest of each final chain, and the summary
 * `N passed, M failed` (exit code 1 if any failed, 2 for a usage error). `--json` prints the
 * reports instead. Playing itself is the library's (`runScenario`).
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runScenario, type RunEvent, type ScenarioReport, type StepReport } from '../scenario/run.js'
import { show } from '../scenario/values.js'

export const RUN_HELP = `Usage: ringchain run <file|dir>... [options]

Plays scenario files (YAML or JSON, see scenarios/README.md), each on a fresh embedded chain,
and reports every step. A directory stands for the .yaml, .yml and .json files directly in it.

Options:
  --rpc <url>   play against a running node (JSON-RPC over HTTP), e.g.
                http://127.0.0.1:8545/v3/key, instead of a fresh embedded chain
  --json        print a JSON report on stdout (the summary line goes to stderr)
  -h, --help    this help

Exit code: 0 if every scenario passed, 1 if any failed, 2 for a usage error.
`

/** Where the command writes; the terminal's, or a test's. */
export interface RunIO {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean }
  readonly stderr: { write(text: string): unknown }
  /** Colors and live progress. Default: stdout is a TTY and NO_COLOR is unset. */
  readonly terminal?: boolean
}

/** The subcommand, as the dispatcher calls it: sets the exit code. */
export async function run(args: string[]): Promise<void> {
  process.exitCode = await runCommand(args, { stdout: process.stdout, stderr: process.stderr })
}

/** Runs `ringchain run` with `args`; resolves to the exit code. */
export async function runCommand(args: string[], io: RunIO): Promise<number> {
  let values: { rpc?: string | undefined; json?: boolean | undefined; help?: boolean | undefined }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args,
      options: { rpc: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }))
  } catch (e) {
    return usage(io, (e as Error).message)
  }
  if (values.help === true) {
    io.stdout.write(RUN_HELP)
    return 0
  }
  if (positionals.length === 0) return usage(io, 'give at least one scenario file or directory (try --help)')
  if (values.rpc !== undefined && !/^https?:\/\//.test(values.rpc)) return usage(io, `--rpc takes an http(s) URL, got "${values.rpc}"`)
  let files: string[]
  try {
    files = await scenarioFiles(positionals)
  } catch (e) {
    return usage(io, (e as Error).message)
  }

  const terminal = io.terminal ?? (io.stdout.isTTY === true && process.env.NO_COLOR === undefined)
  const json = values.json === true
  const printer = json ? undefined : new Printer(io.stdout, terminal)
  const reports: ScenarioReport[] = []
  for (const file of files) {
    const report = await runScenario(file, {
      ...(values.rpc === undefined ? {} : { rpc: values.rpc }),
      ...(printer === undefined ? {} : { onEvent: (event: RunEvent) => printer.event(event) }),
    })
    reports.push(report)
  }
  const failed = reports.filter((r) => r.status === 'failed').length
  const summary = `${reports.length - failed} passed, ${failed} failed\n`
  if (json) {
    io.stdout.write(JSON.stringify({ passed: reports.length - failed, failed, scenarios: reports }, null, 2) + '\n')
    io.stderr.write(summary)
  } else io.stdout.write(`\n${summary}`)
  return failed > 0 ? 1 : 0
}

function usage(io: RunIO, message: string): number {
  io.stderr.write(`ringchain run: ${message}\n`)
  return 2
}

/** The files the arguments name, directories expanded (their scenario files, sorted; not the schema). */
async function scenarioFiles(args: readonly string[]): Promise<string[]> {
  const files: string[] = []
  for (const arg of args) {
    let info
    try {
      info = await stat(arg)
    } catch {
      throw new Error(`no such file or directory: ${arg}`)
    }
    if (!info.isDirectory()) {
      files.push(arg)
      continue
    }
    const inside = (await readdir(arg, { withFileTypes: true }))
      .filter((e) => e.isFile() && /\.(ya?ml|json)$/.test(e.name) && !e.name.endsWith('.schema.json'))
      .map((e) => join(arg, e.name))
      .sort()
    if (inside.length === 0) throw new Error(`no scenario files (.yaml, .yml, .json) in ${arg}`)
    files.push(...inside)
  }
  return files
}

/** Lines as a scenario plays, and on a terminal a live line while a step runs. */
class Printer {
  readonly #out: RunIO['stdout']
  readonly #terminal: boolean
  #file: string | undefined
  /** A scenario's header is printed and its end is not. */
  #open = false
  #live: { index: number; total: number; description: string; started: number; detail: string; timer: NodeJS.Timeout | undefined; shown: boolean } | undefined

  constructor(out: RunIO['stdout'], terminal: boolean) {
    this.#out = out
    this.#terminal = terminal
  }

  #color(code: number, text: string): string {
    return this.#terminal ? `\x1b[${code}m${text}\x1b[0m` : text
  }

  event(event: RunEvent): void {
    switch (event.type) {
      case 'start':
        this.#header(event.file, event.name, event.target)
        return
      case 'step':
        this.#startLive(event.index, event.total, event.description)
        return
      case 'progress':
        if (this.#live !== undefined) {
          this.#live.detail = event.detail
          // A step that keeps the event loop busy starves the timer: progress draws the line too.
          if (this.#live.shown || Date.now() - this.#live.started >= 200) {
            this.#live.shown = true
            this.#drawLive()
          }
        }
        return
      case 'stepEnd':
        this.#stopLive()
        this.#step(event.step)
        return
      case 'end':
        this.#stopLive()
        // A file that could not be played ends without having started.
        if (!this.#open) this.#header(event.report.file, event.report.name, event.report.target)
        this.#open = false
        this.#end(event.report)
        return
    }
  }

  #header(file: string | undefined, name: string, target: string): void {
    this.#open = true
    this.#file = file
    this.#out.write(`\n${this.#color(1, file ?? name)}${file === undefined || name === file ? '' : `  ${this.#color(2, name)}`}${target === 'embedded' ? '' : this.#color(2, `  (on ${target})`)}\n`)
  }

  #startLive(index: number, total: number, description: string): void {
    this.#stopLive()
    if (!this.#terminal) return
    const live = { index, total, description, started: Date.now(), detail: '', timer: undefined as NodeJS.Timeout | undefined, shown: false }
    // Only a step that takes a while gets a live line: most finish in milliseconds.
    const tick = (): void => {
      live.shown = true
      this.#drawLive()
      live.timer = setTimeout(tick, 100)
      live.timer.unref()
    }
    live.timer = setTimeout(tick, 200)
    live.timer.unref()
    this.#live = live
  }

  #drawLive(): void {
    const live = this.#live
    if (live === undefined) return
    const seconds = ((Date.now() - live.started) / 1000).toFixed(1)
    this.#out.write(`\r\x1b[2K  ${this.#color(33, '…')} ${String(live.index).padStart(2)}/${live.total} ${live.description}  ${this.#color(2, `${seconds} s${live.detail === '' ? '' : `  ${live.detail}`}`)}`)
  }

  #stopLive(): void {
    const live = this.#live
    if (live === undefined) return
    clearTimeout(live.timer)
    if (live.shown) this.#out.write('\r\x1b[2K')
    this.#live = undefined
  }

  #where(line: number | undefined): string {
    return `${this.#file ?? 'scenario'}${line === undefined ? '' : `:${line}`}`
  }

  #step(step: StepReport): void {
    if (step.status === 'skipped') return
    const mark = step.status === 'passed' ? this.#color(32, '✓') : this.#color(31, '✗')
    const time = this.#color(2, formatMs(step.durationMs))
    const description = step.description.length > 60 ? `${step.description.slice(0, 59)}…` : step.description
    this.#out.write(`  ${mark} ${String(step.index).padStart(2)} ${description.padEnd(60)} ${time}\n`)
    for (const log of step.console ?? []) this.#out.write(`       ${this.#color(2, 'console.log:')} ${log.message}\n`)
    for (const m of step.mismatches ?? []) {
      this.#out.write(`       ${this.#color(31, m.field)}  ${this.#color(2, `at ${this.#where(m.line ?? step.line)}`)}\n`)
      this.#out.write(`         expected  ${this.#color(32, display(m.expected))}\n`)
      this.#out.write(`         actual    ${this.#color(31, display(m.actual, m.expected))}\n`)
      if (m.note !== undefined) this.#out.write(`         ${this.#color(2, m.note)}\n`)
    }
    if (step.error !== undefined) {
      this.#out.write(`       ${this.#color(31, step.error)}\n`)
      this.#out.write(`       ${this.#color(2, `at ${this.#where(step.errorLine ?? step.line)}`)}\n`)
    }
  }

  #end(report: ScenarioReport): void {
    for (const p of report.problems ?? []) {
      this.#out.write(`  ${this.#color(31, '✗')} ${this.#where(p.line)}${p.path === '' ? '' : `  ${p.path}`}: ${p.message}\n`)
    }
    if (report.error !== undefined) this.#out.write(`  ${this.#color(31, '✗')} ${report.error}\n`)
    const skipped = report.steps.filter((s) => s.status === 'skipped').length
    if (skipped > 0) this.#out.write(this.#color(2, `  … ${skipped} step${skipped === 1 ? '' : 's'} not run\n`))
    for (const note of report.notes ?? []) this.#out.write(this.#color(2, `  note: ${note}\n`))
    if (report.digest !== undefined) {
      if (report.expectedDigest !== undefined && report.expectedDigest !== report.digest) {
        this.#out.write(`  ${this.#color(31, '✗')} digest of the final chain  ${this.#color(2, `at ${this.#file ?? 'scenario'}`)}\n`)
        this.#out.write(`         expected  ${this.#color(32, report.expectedDigest)}\n`)
        this.#out.write(`         actual    ${this.#color(31, report.digest)}\n`)
      } else this.#out.write(this.#color(2, `  digest ${report.digest}${report.expectedDigest === undefined ? '' : ' (as expected)'}\n`))
    }
    const verdict = report.status === 'passed' ? this.#color(32, 'passed') : this.#color(31, 'failed')
    this.#out.write(`  ${verdict} ${this.#color(2, `in ${formatMs(report.durationMs)}`)}\n`)
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${(ms / 1000).toFixed(2)} s`
}

const UNITS: Record<string, bigint> = { ether: 10n ** 18n, eth: 10n ** 18n, gwei: 10n ** 9n }

/**
 * A value in a diff. Strings as they are; a number written with a unit makes the actual number
 * shown in that unit too; short hex quantities get their decimal value beside them.
 */
function display(value: unknown, expected?: unknown): string {
  const unit = typeof expected === 'string' ? /^\s*[0-9._]+\s*(ether|eth|gwei)\s*$/.exec(expected)?.[1] : undefined
  const n = typeof value === 'string' && /^(0x[0-9a-f]+|[0-9]+)$/i.test(value) ? BigInt(value) : typeof value === 'bigint' ? value : undefined
  if (unit !== undefined && n !== undefined) return `${inUnit(n, UNITS[unit]!)} ${unit}  (${value})`
  if (typeof value === 'string' && /^0x[0-9a-f]{1,16}$/i.test(value)) return `${value} (${BigInt(value)})`
  if (typeof value === 'string') return value === '' ? '""' : value
  return show(value)
}

function inUnit(n: bigint, scale: bigint): string {
  const whole = n / scale
  const fraction = (n % scale).toString().padStart(scale.toString().length - 1, '0').replace(/0+$/, '')
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`
}
