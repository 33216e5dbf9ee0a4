/**
 * `ringchain serve`: the banner or the `--json` ready line, logs on stderr, and the process
 * lifecycle: signals, the parent's death, stdin's end. Everything else is the library's; flags and
 * their help are `serveFlags.ts`'s (checked, and files read, before anything starts).
 */
import { fstatSync, writeFileSync } from 'node:fs'
import type { RingchainLogger, RunningRingchain, StartOptions } from '../simulator.js'
import { fail } from './fail.js'
import { LOG_LEVELS, logLevelOf, parseFlags, serveHelp, stateFiles, toOptions, type LogLevel } from './serveFlags.js'

/** `ringchain serve [options]`. */
export async function serve(rest: string[]): Promise<void> {
  const values = parseFlags(rest)
  if (values.help === true) {
    const { DEFAULT_HARDFORK, HARDFORKS } = await import('../chain/genesis.js')
    process.stdout.write(serveHelp(DEFAULT_HARDFORK, HARDFORKS))
    return
  }
  const logger = stderrLogger(logLevelOf(values))
  const options = toOptions(values, logger)
  const dumpTo = stateFiles(values, options)
  // Only what the options need checking with: the chain's modules load once the server listens.
  if (options.hardfork !== undefined) {
    const { normalizeHardfork } = await import('../chain/genesis.js')
    try {
      options.hardfork = normalizeHardfork(options.hardfork)
    } catch (e) {
      fail(`--hardfork: ${(e as Error).message}`)
    }
  }
  const [{ startRingchain, parseProviderProfile }, { normalizeMnemonic }, { ChainError }] = await Promise.all([
    import('../simulator.js'),
    import('../chain/accounts.js'),
    import('../chain/errors.js'),
  ])
  try {
    if (options.mnemonic !== undefined) normalizeMnemonic(options.mnemonic)
  } catch (e) {
    fail(`--mnemonic: ${(e as Error).message}`)
  }
  try {
    if (options.providerProfile !== undefined) parseProviderProfile(options.providerProfile)
  } catch (e) {
    fail(`--provider-profile: ${values['provider-profile']}: ${(e as Error).message}`)
  }
  if (options.apiKeys === undefined && !isLoopback(options.host ?? '127.0.0.1')) {
    logger.warn(`warning: listening on ${options.host} without --api-key: anyone who can reach this port can use the chain and its dev accounts`)
  }

  // Signals first: one that arrives while starting, or right as the ready line goes out, is not lost.
  const ends = handleEnds(values['exit-with-parent'] === true, logger)
  // With --json, the ready line goes out as soon as the port listens when the options fix the
  // chain's id and accounts (a dev chain); requests wait for the chain meanwhile (StartupGate).
  let readyLine = false
  const printReady = (ready: ReadyLine) => {
    readyLine = true
    ends.announced()
    process.stdout.write(JSON.stringify(ready) + '\n')
  }
  let running: RunningRingchain
  try {
    running = await startRingchain(values.json === true ? { ...options, onListening: (l) => printReady({ httpUrl: l.httpUrl, wsUrl: l.wsUrl, port: l.port, chainId: Number(l.chainId), accounts: l.accounts }) } : options)
  } catch (e) {
    const error = e as NodeJS.ErrnoException
    if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
      process.stderr.write(`ringchain: cannot listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 8545}: ${error.code}\n`)
      process.exit(1)
    }
    // Options the chain refuses (a bad mnemonic, an import that does not verify) are bad input too.
    if (e instanceof ChainError || e instanceof RangeError) fail(error.message)
    process.stderr.write(`ringchain: failed to start: ${error.message}\n`)
    process.exit(1)
  }

  if (values.json === true) {
    if (!readyLine) printReady({ httpUrl: running.httpUrl, wsUrl: running.wsUrl, port: running.port, chainId: Number(running.chain.common.chainId()), accounts: running.accounts })
  } else if (values.quiet !== true) {
    process.stdout.write(await banner(running, options))
  }
  ends.serving(running, dumpTo === undefined ? undefined : () => writeState(running, dumpTo, logger))
}

/** The `--json` ready line (test/cli/serve.test.ts holds its keys and their order). */
interface ReadyLine {
  readonly httpUrl: string
  readonly wsUrl: string
  readonly port: number
  readonly chainId: number
  readonly accounts: RunningRingchain['accounts']
}

/** Writes the state dump to `path` (before the chain closes). */
async function writeState(running: RunningRingchain, path: string, logger: RingchainLogger): Promise<void> {
  const dump = await running.dumpState()
  writeFileSync(path, JSON.stringify(dump))
  logger.info?.(`state written to ${path}`)
}

/** Logs as `ringchain: <message>` lines on stderr, down to `level`. */
function stderrLogger(level: LogLevel): RingchainLogger {
  const rank = LOG_LEVELS.indexOf(level)
  const line = (message: string) => process.stderr.write(`ringchain: ${message}\n`)
  const logger: RingchainLogger = {
    error: line,
    warn: rank >= 1 ? line : () => {},
  }
  if (rank >= 2) logger.info = line
  if (rank >= 3) logger.debug = line
  return logger
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** The human-readable ready banner: URLs (keys named, not shown), the chain, the dev accounts. */
async function banner(running: RunningRingchain, options: StartOptions): Promise<string> {
  const { toChecksumAddress } = await import('@ethereumjs/util')
  const chain = running.chain
  const mining = chain.miningMode
  // Configured keys are secrets: the banner (often in CI logs) names them, never shows them. Without
  // --api-key any key works, so the default one in the URL is no secret. --json shows the real URLs.
  const keyed = options.apiKeys !== undefined
  const shown = (url: string) => (keyed ? url.replace(/\/v3\/[^/]*$/, '/v3/<API key>') : url)
  const isolate = options.isolate
  const lines = [
    `ringchain is serving on ${running.httpUrl.replace(/\/v3\/.*$/, '')}`,
    `  HTTP       ${shown(running.httpUrl)}${keyed ? '   (one of the --api-key values)' : '   (any key works: /v3/<key>; / is this key)'}`,
    `  WebSocket  ${shown(running.wsUrl)}`,
    ...(running.inspectorUrl === undefined ? [] : [`  Inspector  ${keyed ? running.inspectorUrl.replace(/\/inspector\/[^/]*$/, '/inspector/<API key>') : running.inspectorUrl}`]),
    `  chain id ${chain.common.chainId()}   fork ${chain.common.hardfork()}   window ${chain.window} blocks   ` +
      `mining ${mining.mode === 'interval' ? `every ${mining.blockTimeMs / 1000} s` : mining.mode}`,
  ]
  if (chain.fork !== undefined) lines.push(`  forked     from ${chain.fork.source.label} at block ${chain.fork.blockNumber} (${chain.fork.blockHash})`)
  if (isolate !== undefined && isolate !== false) {
    const max = isolate === true ? undefined : isolate.maxChains
    lines.push(`  isolate    one chain per API key (at most ${max ?? 64}, the first key's, made at start, included)`)
  }
  if (running.accounts.length > 0) {
    lines.push('', 'Dev accounts. Their private keys are public: never use them on a real network.')
    running.accounts.forEach((a, i) => lines.push(`  (${i}) ${toChecksumAddress(a.address)}  ${a.privateKey}`))
  }
  lines.push('', 'Ctrl-C stops it.', '')
  return lines.join('\n')
}

/**
 * Closes and exits 0 on SIGINT/SIGTERM, when stdin (a pipe) ends, and with `--exit-with-parent`
 * when the parent process goes. Before `announced()` there is nothing to close: it exits at once;
 * after it (the ready line is out while the chain is built) it stops once `serving()` is called.
 * A second signal while closing exits at once.
 */
function handleEnds(withParent: boolean, logger: RingchainLogger): { announced(): void; serving(running: RunningRingchain, beforeClose?: () => Promise<void>): void } {
  let running: RunningRingchain | undefined
  let beforeClose: (() => Promise<void>) | undefined
  let announced = false
  let stopping = false
  let stopWhenServing: string | undefined
  const stop = (why: string) => {
    if (stopping || stopWhenServing !== undefined || (running === undefined && !announced)) process.exit(0)
    if (running === undefined) {
      stopWhenServing = why
      return
    }
    stopping = true
    logger.info?.(`stopping (${why})`)
    const closing = running
    // The state is dumped while the chain still runs; a failed dump still closes, but exits 1.
    // Without one, the server stops taking connections now, as the line above says.
    const before =
      beforeClose === undefined
        ? Promise.resolve(0)
        : beforeClose().then(
            () => 0,
            (e: unknown) => {
              logger.error(`could not write the state: ${(e as Error).message}`)
              return 1
            },
          )
    const closed = beforeClose === undefined ? closing.close() : before.then(() => closing.close())
    Promise.all([before, closed]).then(
      ([code]) => process.exit(code),
      (e: unknown) => {
        logger.error(`error while closing: ${(e as Error).message}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))

  if (stdinIsPipe()) {
    // The parent holds the other end: its end (closing it, or dying) means nobody needs us anymore.
    process.stdin.on('end', () => stop('stdin closed'))
    process.stdin.on('error', () => stop('stdin closed'))
    process.stdin.resume()
  }
  if (withParent) {
    const parent = process.ppid
    const timer = setInterval(() => {
      // Orphans are re-parented (to init or a subreaper): a changed ppid means the parent is gone.
      if (process.ppid !== parent || !alive(parent)) stop('parent process exited')
    }, 250)
    timer.unref()
  }
  return {
    announced: () => {
      announced = true
    },
    serving: (r, before) => {
      running = r
      beforeClose = before
      const why = stopWhenServing
      stopWhenServing = undefined
      // On a later turn of the event loop, as a signal is handled: the requests held while the
      // chain was built have just been dispatched, and go first.
      if (why !== undefined) setImmediate(() => stop(why))
    },
  }
}

function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
