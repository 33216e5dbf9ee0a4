/**
 * The `ringchain` command: picks the subcommand. Each subcommand owns its flags and output in a
 * file of its own beside this one.
 */
import { fail } from './fail.js'

// Each subcommand's module is imported when it runs, so that `ringchain serve`, which CI waits for,
// loads nothing the others need (their schema validators, YAML parser, …).
const COMMANDS: Record<string, { summary: string; run: (args: string[]) => Promise<void> }> = {
  run: { summary: 'play scenario files (YAML/JSON) and check what the chain answers', run: async (args) => (await import('./run.js')).run(args) },
  serve: { summary: 'serve a dev chain over JSON-RPC (HTTP and WebSocket)', run: async (args) => (await import('./serve.js')).serve(args) },
  slot: { summary: 'compute a storage slot: mapping entry, array element, ERC-7201 namespace, layout path', run: async (args) => (await import('./slot.js')).slot(args) },
  storage: { summary: 'read and decode contract storage from a node: slots, variables, diffs', run: async (args) => (await import('./storage.js')).storage(args) },
  trace: { summary: 'print a transaction’s call tree (calls, functions, values, gas, reverts, logs) from a node', run: async (args) => (await import('./trace.js')).trace(args) },
}

const HELP = `Usage: ringchain <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run \`ringchain <command> --help\` for a command's options.
`

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(HELP)
    return
  }
  const found = COMMANDS[command]
  if (found === undefined) fail(`unknown command "${command}" (try --help)`)
  await found.run(rest)
}

main(process.argv.slice(2)).catch((e: unknown) => fail((e as Error).message))
