#!/usr/bin/env node
/**
 * The `ringchain` command: picks the subcommand. Each subcommand owns its flags and output in a
 * file of its own beside this one.
 */
import { fail } from './fail.js'
import { serve } from './serve.js'

const COMMANDS: Record<string, { summary: string; run: (args: string[]) => Promise<void> }> = {
  serve: { summary: 'serve a dev chain over JSON-RPC (HTTP and WebSocket)', run: serve },
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
