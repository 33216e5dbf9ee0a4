/** A usage or input error on the command line: one line on stderr, exit code 2, nothing started. */
export function fail(message: string): never {
  process.stderr.write(`ringchain: ${message}\n`)
  process.exit(2)
}
