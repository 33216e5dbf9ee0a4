/**
 * `ringchain serve`: flags to options, the banner or the `--json` ready line, and the process
 * lifecycle (signals). Everything else is the library's.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_HARDFORK } from '../chain/genesis.js'
import { startRingchain, type StartOptions } from '../simulator.js'
import { fail } from './fail.js'

export const SERVE_HELP = `Usage: ringchain serve [options]

Serves an in-memory proof-of-stake EVM chain over JSON-RPC (HTTP POST /v3/<KEY>, WebSocket /ws/v3/<KEY>).

Options:
  --port <n>            port, 0 = a free one            (default 8545)
  --host <addr>         bind address                     (default 127.0.0.1)
  --api-key <key>       accepted API key, repeatable     (default: any key)
  --chain-id <n>        chain id                         (default 31337)
  --hardfork <name>     fork rules                       (default ${DEFAULT_HARDFORK})
  --accounts <n>        dev accounts                     (default 10)
  --balance <eth>       balance of each dev account      (default 10000)
  --mnemonic <words>    BIP-39 mnemonic of the accounts  (default test test ... junk)
  --block-gas-limit <n> gas limit per block              (default 30000000)
  --window <n>          blocks kept                      (default 128)
  --block-time <ms>     interval mining every <ms>       (default: automine)
  --no-mining           manual mining only
  --deterministic       fixed genesis time, 12 s per block
  --json                print one JSON line when ready
  -h, --help            this help
`

export async function serve(rest: string[]): Promise<void> {
  let values
  try {
    ;({ values } = parseArgs({
      args: rest,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        'chain-id': { type: 'string' },
        hardfork: { type: 'string' },
        accounts: { type: 'string' },
        balance: { type: 'string' },
        mnemonic: { type: 'string' },
        'block-gas-limit': { type: 'string' },
        window: { type: 'string' },
        'block-time': { type: 'string' },
        'no-mining': { type: 'boolean' },
        deterministic: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }))
  } catch (e) {
    fail((e as Error).message)
  }
  if (values.help === true) {
    process.stdout.write(SERVE_HELP)
    return
  }
  const int = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined
    if (!/^\d+$/.test(text)) fail(`--${name} must be a whole number, got "${text}"`)
    return Number(text)
  }
  const big = (name: string, text: string | undefined): bigint | undefined => {
    if (text === undefined) return undefined
    if (!/^\d+$/.test(text)) fail(`--${name} must be a whole number, got "${text}"`)
    return BigInt(text)
  }
  const options: StartOptions = {}
  const port = int('port', values.port)
  if (port !== undefined) options.port = port
  if (values.host !== undefined) options.host = values.host
  if (values['api-key'] !== undefined) options.apiKeys = values['api-key']
  const chainId = big('chain-id', values['chain-id'])
  if (chainId !== undefined) options.chainId = chainId
  if (values.hardfork !== undefined) options.hardfork = values.hardfork
  const accounts = int('accounts', values.accounts)
  if (accounts !== undefined) options.accounts = accounts
  const balance = big('balance', values.balance)
  if (balance !== undefined) options.balance = balance * 10n ** 18n
  if (values.mnemonic !== undefined) options.mnemonic = values.mnemonic
  const gasLimit = big('block-gas-limit', values['block-gas-limit'])
  if (gasLimit !== undefined) options.blockGasLimit = gasLimit
  const window = int('window', values.window)
  if (window !== undefined) options.window = window
  const blockTime = int('block-time', values['block-time'])
  if (blockTime !== undefined) options.mining = { mode: 'interval', blockTimeMs: blockTime }
  if (values['no-mining'] === true) options.mining = { mode: 'manual' }
  if (values.deterministic === true) options.deterministic = true

  let running
  try {
    running = await startRingchain(options)
  } catch (e) {
    fail((e as Error).message)
  }
  const info = running
  if (values.json === true) {
    process.stdout.write(
      JSON.stringify({ httpUrl: info.httpUrl, wsUrl: info.wsUrl, port: info.port, chainId: Number(info.chain.common.chainId()), accounts: info.accounts }) + '\n',
    )
  } else {
    const lines = [
      'ringchain is serving',
      `  HTTP       ${info.httpUrl}`,
      `  WebSocket  ${info.wsUrl}`,
      `  chain id   ${info.chain.common.chainId()}   fork ${info.chain.common.hardfork()}   window ${info.chain.window} blocks   mining ${info.chain.miningMode.mode}`,
      '',
      'Dev accounts (their private keys are public: never use them on a real network):',
      ...info.accounts.map((a, i) => `  (${i}) ${a.address}  ${a.privateKey}`),
      '',
    ]
    process.stdout.write(lines.join('\n'))
  }
  const stop = () => {
    info.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

