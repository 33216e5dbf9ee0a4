/**
 * `ringchain serve`'s flags: the table node:util parses, the help text, and the flags checked and
 * turned into `startRingchain` options (files read here too). A bad flag or file is one line and
 * exit code 2 before anything starts. Running the server is `serve.ts`'s.
 */
import { readFileSync, statSync } from 'node:fs'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { ImportSource, RingchainLogger, StartOptions } from '../simulator.js'
import { fail } from './fail.js'

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Every flag `ringchain serve` takes (node:util `parseArgs` options). */
const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  isolate: { type: 'boolean' },
  'max-chains': { type: 'string' },
  'idle-timeout': { type: 'string' },
  'chain-id': { type: 'string' },
  hardfork: { type: 'string' },
  mnemonic: { type: 'string' },
  accounts: { type: 'string' },
  balance: { type: 'string' },
  'base-fee': { type: 'string' },
  'block-gas-limit': { type: 'string' },
  coinbase: { type: 'string' },
  window: { type: 'string' },
  'safe-lag': { type: 'string' },
  'finalized-lag': { type: 'string' },
  mining: { type: 'string' },
  'block-time': { type: 'string' },
  'no-mining': { type: 'boolean' },
  deterministic: { type: 'boolean' },
  'genesis-timestamp': { type: 'string' },
  'slot-time': { type: 'string' },
  'reorg-every': { type: 'string' },
  'reorg-depth': { type: 'string' },
  'reorg-seed': { type: 'string' },
  genesis: { type: 'string' },
  import: { type: 'string' },
  blocks: { type: 'string' },
  'fork-url': { type: 'string' },
  'fork-block-number': { type: 'string' },
  record: { type: 'string' },
  'provider-profile': { type: 'string' },
  'load-state': { type: 'string' },
  'dump-state': { type: 'string' },
  state: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'log-level': { type: 'string' },
  'exit-with-parent': { type: 'boolean' },
  'no-inspector': { type: 'boolean' },
  'no-warmup': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The help text; the hardfork names come from the chain, so they are passed in. */
export function serveHelp(defaultHardfork: string, hardforks: readonly string[]): string {
  return `Usage: ringchain serve [options]

Serves an in-memory proof-of-stake EVM chain over JSON-RPC: HTTP POST /v3/<KEY> and
WebSocket /ws/v3/<KEY> on one port; without --api-key, / too (the default key, ringchain).
A browser page shows the chain live at /inspector/<KEY> (see --no-inspector).
Ready means answering: the banner (or the --json line) is printed once the server accepts
requests.

Server
  --port <n>               port; 0 picks a free one                  (default 8545)
  --host <address>         address to bind                           (default 127.0.0.1)
  --api-key <key>          accepted API key; repeat for more         (default: any key is accepted)
  --isolate                one chain per API key, created on its first request from these same
                           options: parallel test workers share a port, not nonces or blocks
  --max-chains <n>         with --isolate: most chains at once, the first key's (made at start,
                           the one in the printed URL) included, so n-1 more keys; a new key
                           past it gets JSON-RPC error -32005        (default 64)
  --idle-timeout <s>       with --isolate: drop a chain unused for this long (its key gets a
                           fresh one next time)                      (default: never)
  --no-inspector           do not serve the inspector page at /inspector/<KEY> (404 instead)
  --no-warmup              do not warm up while idle after the start (a scratch chain of its
                           own runs a typical test 100 times so V8 compiles the code real
                           tests take; never the chain served). RINGCHAIN_WARMUP=off does the same

Chain
  --chain-id <n>           chain id                                  (default 31337)
  --hardfork <name>        fork rules, active from genesis           (default ${defaultHardfork})
                           ${wrap(`one of: ${hardforks.join(', ')}`, 27, 95)}
  --mnemonic <words>       BIP-39 mnemonic of the dev accounts       (default "test test ... junk")
  --accounts <n>           number of dev accounts                    (default 10)
  --balance <ether>        balance of each dev account, in ether     (default 10000)
  --base-fee <wei>         base fee of the genesis block             (default 1000000000)
  --block-gas-limit <n>    gas limit of every block                  (default 30000000)
  --coinbase <address>     fee recipient of mined blocks             (default the zero address)
  --window <n>             blocks kept; older ones are pruned        (default 128)
  --safe-lag <n>           blocks "safe" lags the head               (default 32)
  --finalized-lag <n>      blocks "finalized" lags the head          (default 64)

Mining and time
  --mining <mode>          auto (a block per transaction), interval, or manual
                                                                     (default auto)
  --block-time <s>         interval mining: a block every <s> seconds, decimals allowed
                           (implies --mining interval)
  --no-mining              same as --mining manual (blocks only on evm_mine)
  --deterministic          fixed genesis time and 12 s between blocks, so the same inputs give
                           the same block hashes                     (default: wall clock)
  --genesis-timestamp <s>  with --deterministic: genesis timestamp (implies it)
                                                                     (default 1735689600)
  --slot-time <s>          with --deterministic: seconds between blocks (implies it)
                                                                     (default 12)

Reorgs (as a hosted provider's chain has them; also at runtime: ringchain_setReorgSchedule)
  --reorg-every <n>        a reorg after every <n> blocks mined      (default: never)
  --reorg-depth <n>        with --reorg-every: blocks each reorg replaces (default 1)
  --reorg-seed <n>         with --reorg-every: which dropped transactions the new blocks take
                           again (about half; the rest go back to the pool) (default 0)

Import (start from a recorded chain instead of a dev genesis)
  --genesis <file>         geth genesis JSON (chain id, forks and alloc come from it)
  --import <file>          blocks after genesis, RLP as \`geth export\` writes them (needs --genesis;
                           --blocks is the same flag)

Fork (start from a live chain's block instead of a dev genesis)
  --fork-url <url>         JSON-RPC node to fork (http(s) or ws(s)): chain id, hardfork, gas limit
                           and base fee follow its block unless set; its state is read lazily
  --fork-block-number <n>  the block to fork at                      (default: its latest)

State files (anvil's format: accounts, storage, code and the head's number, time and base fee)
  --load-state <file>      start from this state dump; the window starts at its head
  --dump-state <file>      write the state to this file when stopping
  --state <file>           both: load it if it exists, write it when stopping (a directory
                           means <dir>/state.json, as in anvil)

Recording
  --record <file>          write the state-changing requests served as a scenario that replays
                           them, with their results as expectations (see scenarios/README.md)

Provider simulation
  --provider-profile <file> answer as a hosted provider: rate limits (429), latency, lagging
                           backends, transient failures, WebSocket drops and limits, per API
                           key, seeded (JSON; see scenarios/profiles/ and the README)

Output and lifecycle
  --json                   print one JSON line on stdout when ready:
                           {"httpUrl","wsUrl","port","chainId","accounts":[{"address","privateKey"}]}
                           (logs go to stderr)
  -q, --quiet              no banner; log level warn unless --log-level says otherwise
  --log-level <level>      error, warn, info or debug (debug logs every request)
                                                                     (default info)
  --exit-with-parent       stop when the process that started this one exits
  -h, --help               this help

SIGINT and SIGTERM close the server and exit 0. When stdin is a pipe, its end (the parent
closing it or dying) stops the server too. Bad flags and unreadable files exit 2.
`
}

/** The flags as node:util parsed them. */
export type Flags = ReturnType<typeof parseFlags>

/** `rest` parsed against `OPTIONS`; a bad flag is one line and exit code 2. */
export function parseFlags(rest: string[]) {
  try {
    return parseArgs({ args: joinNegativeValues(rest), options: OPTIONS, strict: true, allowPositionals: false }).values
  } catch (e) {
    fail(flagError(e as Error & { code?: string }))
  }
}

/**
 * `--accounts -1` as `--accounts=-1`: node:util reads a value starting with a dash as the next
 * flag, and the user would be told the flag has no value instead of why -1 is out of range.
 */
function joinNegativeValues(args: string[]): string[] {
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const next = args[i + 1]
    const name = arg.slice(2)
    const takesValue = arg.startsWith('--') && Object.hasOwn(OPTIONS, name) && OPTIONS[name as keyof typeof OPTIONS].type === 'string'
    if (takesValue && next !== undefined && /^-\.?\d/.test(next)) {
      joined.push(`${arg}=${next}`)
      i++
    } else {
      joined.push(arg)
    }
  }
  return joined
}

/** node:util's parse errors, as one short line naming the flag. */
function flagError(e: Error & { code?: string }): string {
  const name = /'(-[^' ]+)/.exec(e.message)?.[1]
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${name ?? e.message} (see ringchain serve --help)`
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return name === undefined ? e.message : `${name.replace(/^(-\w), /, '')} ${/argument missing|argument is ambiguous/.test(e.message) ? 'needs a value' : 'takes no value'}`
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(e.message)?.[1] ?? ''} (options start with --; see ringchain serve --help)`
    default:
      return e.message.split('\n')[0]!
  }
}

/** `--log-level`, or what `--quiet` implies. */
export function logLevelOf(values: Flags): LogLevel {
  const level = values['log-level']
  if (level === undefined) return values.quiet === true ? 'warn' : 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(level)) fail(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`)
  return level as LogLevel
}

/** The flags as `startRingchain` options; every value is checked here, files are read here. */
export function toOptions(values: Flags, logger: RingchainLogger): StartOptions {
  const options: StartOptions = { logger }
  const port = integer('port', values.port, 0, 65_535)
  if (port !== undefined) options.port = port
  if (values.host !== undefined) {
    if (values.host === '' || (isIP(values.host) === 0 && !/^[a-z0-9.-]+$/i.test(values.host))) fail(`--host must be an IP address or a host name, got "${values.host}"`)
    options.host = values.host
  }
  const keys = values['api-key']
  if (keys !== undefined) {
    if (keys.some((k) => k === '')) fail('--api-key cannot be empty')
    options.apiKeys = keys
  }

  const maxChains = integer('max-chains', values['max-chains'], 1)
  const idle = seconds('idle-timeout', values['idle-timeout'])
  if (values.isolate === true) options.isolate = { ...(maxChains === undefined ? {} : { maxChains }), ...(idle === undefined ? {} : { idleTimeoutMs: idle * 1000 }) }
  else if (maxChains !== undefined || idle !== undefined) fail(`--${maxChains !== undefined ? 'max-chains' : 'idle-timeout'} needs --isolate`)

  const chainId = integer('chain-id', values['chain-id'], 1)
  if (chainId !== undefined) options.chainId = BigInt(chainId)
  if (values.hardfork !== undefined) options.hardfork = values.hardfork
  if (values.mnemonic !== undefined) options.mnemonic = values.mnemonic
  const accounts = integer('accounts', values.accounts, 0, 10_000)
  if (accounts !== undefined) options.accounts = accounts
  const balance = ether('balance', values.balance)
  if (balance !== undefined) options.balance = balance
  const baseFee = wei('base-fee', values['base-fee'])
  if (baseFee !== undefined) options.baseFee = baseFee
  const gasLimit = wei('block-gas-limit', values['block-gas-limit'])
  if (gasLimit !== undefined) {
    if (gasLimit < 5000n) fail(`--block-gas-limit must be at least 5000, got ${gasLimit}`)
    options.blockGasLimit = gasLimit
  }
  if (values.coinbase !== undefined) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(values.coinbase)) fail(`--coinbase must be a 20-byte hex address, got "${values.coinbase}"`)
    options.coinbase = Uint8Array.from(Buffer.from(values.coinbase.slice(2), 'hex'))
  }
  const window = integer('window', values.window, 1)
  if (window !== undefined) options.window = window
  const safeLag = integer('safe-lag', values['safe-lag'], 0)
  if (safeLag !== undefined) options.safeLag = safeLag
  const finalizedLag = integer('finalized-lag', values['finalized-lag'], 0)
  if (finalizedLag !== undefined) options.finalizedLag = finalizedLag

  const mining = miningOf(values)
  if (mining !== undefined) options.mining = mining
  const genesisTimestamp = integer('genesis-timestamp', values['genesis-timestamp'], 0)
  const slotTime = integer('slot-time', values['slot-time'], 1)
  if (genesisTimestamp !== undefined || slotTime !== undefined) {
    options.deterministic = {
      ...(genesisTimestamp === undefined ? {} : { genesisTimestamp: BigInt(genesisTimestamp) }),
      ...(slotTime === undefined ? {} : { blockTime: BigInt(slotTime) }),
    }
  } else if (values.deterministic === true) options.deterministic = true

  const reorgEvery = integer('reorg-every', values['reorg-every'], 1)
  const reorgDepth = integer('reorg-depth', values['reorg-depth'], 1)
  const reorgSeed = integer('reorg-seed', values['reorg-seed'], 0)
  if (reorgEvery !== undefined) options.reorgs = { every: reorgEvery, depth: reorgDepth ?? 1, seed: reorgSeed ?? 0 }
  else if (reorgDepth !== undefined || reorgSeed !== undefined) fail(`--${reorgDepth !== undefined ? 'reorg-depth' : 'reorg-seed'} needs --reorg-every`)

  const blocksFile = values.import ?? values.blocks
  if (values.import !== undefined && values.blocks !== undefined) fail('--import and --blocks are the same flag: give one')
  if (blocksFile !== undefined && values.genesis === undefined) fail('--import needs --genesis')
  if (values.genesis !== undefined) {
    for (const flag of ['chain-id', 'hardfork', 'base-fee', 'balance'] as const) {
      if (values[flag] !== undefined) fail(`--${flag} cannot be combined with --genesis: the genesis file sets it`)
    }
    const genesis = readJsonFile('genesis', values.genesis)
    const blocks = blocksFile === undefined ? undefined : readBinaryFile('import', blocksFile)
    options.import = blocks === undefined ? { genesis } : { genesis, blocks }
  }
  const forkUrl = values['fork-url']
  const forkBlock = integer('fork-block-number', values['fork-block-number'], 0)
  if (forkBlock !== undefined && forkUrl === undefined) fail('--fork-block-number needs --fork-url')
  if (forkUrl !== undefined) {
    if (values.genesis !== undefined) fail('--fork-url cannot be combined with --genesis: the fork sets the chain')
    if (!/^(https?|wss?):\/\//.test(forkUrl)) fail('--fork-url: expected an http(s) or ws(s) URL')
    options.fork = { url: forkUrl, ...(forkBlock === undefined ? {} : { blockNumber: BigInt(forkBlock) }) }
  }
  if (values.record !== undefined) options.record = values.record
  if (values['provider-profile'] !== undefined) options.providerProfile = readProfileFile(values['provider-profile'])
  if (values['no-inspector'] === true) options.inspector = false
  if (values['no-warmup'] === true) options.warmup = false
  return options
}

/** The JSON of `--provider-profile`; its fields are checked once the simulator is loaded (serve.ts). */
function readProfileFile(path: string): NonNullable<StartOptions['providerProfile']> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    fail(`--provider-profile: cannot read ${path}: ${(e as Error).message.replace(/^[A-Z]+: /, '').split(',')[0]}`)
  }
  try {
    return JSON.parse(text) as NonNullable<StartOptions['providerProfile']>
  } catch (e) {
    fail(`--provider-profile: ${path} is not JSON: ${(e as Error).message.split('\n')[0]}`)
  }
}

function miningOf(values: Flags): StartOptions['mining'] {
  const mode = values.mining
  if (mode !== undefined && mode !== 'auto' && mode !== 'interval' && mode !== 'manual') fail(`--mining must be auto, interval or manual, got "${mode}"`)
  const blockTime = seconds('block-time', values['block-time'])
  if (values['no-mining'] === true) {
    if ((mode !== undefined && mode !== 'manual') || blockTime !== undefined) fail('--no-mining contradicts --mining/--block-time')
    return { mode: 'manual' }
  }
  if (blockTime !== undefined) {
    if (mode !== undefined && mode !== 'interval') fail(`--block-time needs interval mining, but --mining is ${mode}`)
    return { mode: 'interval', blockTimeMs: blockTime * 1000 }
  }
  if (mode === 'interval') fail('--mining interval needs --block-time <s>')
  return mode === undefined ? undefined : { mode }
}

function integer(flag: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    fail(`--${flag} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, got "${text}"`)
  }
  return value
}

function seconds(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN
  if (!(value > 0) || !Number.isFinite(value)) fail(`--${flag} must be a positive number of seconds, got "${text}"`)
  return value
}

function wei(flag: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text)) fail(`--${flag} must be a whole number, got "${text}"`)
  return BigInt(text)
}

function ether(flag: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text)
  if (match === null) fail(`--${flag} must be an amount of ether (up to 18 decimals), got "${text}"`)
  return BigInt(match[1]!) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'))
}

function readJsonFile(flag: string, path: string): ImportSource['genesis'] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    fail(`--${flag}: cannot read ${path}: ${(e as Error).message.replace(/^[A-Z]+: /, '').split(',')[0]}`)
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object')
    return parsed as ImportSource['genesis']
  } catch (e) {
    fail(`--${flag}: ${path} is not a geth genesis: ${(e as Error).message.split('\n')[0]}`)
  }
}

function readBinaryFile(flag: string, path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path))
  } catch (e) {
    fail(`--${flag}: cannot read ${path}: ${(e as Error).message.replace(/^[A-Z]+: /, '').split(',')[0]}`)
  }
}

function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + word.length + 1 > width) {
      lines.push(line.trimEnd())
      line = ''
    }
    line += word + ' '
  }
  lines.push(line.trimEnd())
  return lines.join('\n' + ' '.repeat(indent))
}

/**
 * `--load-state`, `--dump-state` and `--state`: sets `options.loadState` (a file that must be
 * readable; with `--state`, only if it exists) and returns where to write the state at exit.
 */
export function stateFiles(values: Flags, options: StartOptions): string | undefined {
  const state = values.state === undefined ? undefined : isDirectory(values.state) ? join(values.state, 'state.json') : values.state
  if (state !== undefined && (values['load-state'] !== undefined || values['dump-state'] !== undefined)) fail('--state cannot be combined with --load-state or --dump-state')
  const load = values['load-state'] ?? (state !== undefined && isFile(state) ? state : undefined)
  if (load !== undefined) {
    try {
      readFileSync(load)
    } catch (e) {
      fail(`--load-state: cannot read ${load}: ${(e as Error).message.replace(/^[A-Z]+: /, '').split(',')[0]}`)
    }
    options.loadState = load
  }
  return values['dump-state'] ?? state
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true
}
