import { parseArgs, type ParseArgsConfig } from 'node:util'

/** A usage or input error on the command line: one line on stderr, exit code 2, nothing started. */
export function fail(message: string): never {
  process.stderr.write(`ringchain: ${message}\n`)
  process.exit(2)
}

/** node:util's `parseArgs`, its errors being usage errors (`fail`). */
export function parseArgsOrFail<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (e) {
    fail((e as Error).message)
  }
}
