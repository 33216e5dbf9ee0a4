/**
 * Validates results against the execution-apis OpenRPC schema with the shared conformance script
 * (`../shared/conformance/validate-schema.mjs`), run as a child process exactly as its README shows.
 * The script takes one result per run (about 70 ms), so answers are memoized per method and JSON.
 */
import { execFileSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

// Links followed: the script only runs when started by its real path (it compares import.meta.url with argv[1]).
const SCRIPT = realpathSync(fileURLToPath(new URL('../../../shared/conformance/validate-schema.mjs', import.meta.url)))

const seen = new Map<string, readonly string[]>()

/**
 * What the schema says is wrong with `result` as the result of `method`: one line per violation,
 * none when it is valid.
 */
export function schemaErrors(method: string, result: unknown): readonly string[] {
  const json = JSON.stringify(result)
  const key = `${method} ${json}`
  const cached = seen.get(key)
  if (cached !== undefined) return cached
  let errors: readonly string[]
  try {
    // The result goes through stdin: a long one would not fit in one argv string.
    execFileSync(process.execPath, [SCRIPT, method, '-', '--quiet'], { input: json, encoding: 'utf8', timeout: 10_000, stdio: 'pipe' })
    errors = []
  } catch (error) {
    const failed = error as { status?: number | null; stdout?: string; stderr?: string }
    if (failed.status !== 1) throw new Error(`validate-schema.mjs ${method} exited with ${failed.status}: ${failed.stderr ?? ''}${failed.stdout ?? ''}`)
    errors = (failed.stdout ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('result INVALID') && !line.startsWith('note:'))
  }
  seen.set(key, errors)
  return errors
}

/** Fails the test unless `result` is valid for `method` under the OpenRPC schema. */
export function expectSchemaValid(method: string, result: unknown): void {
  expect(schemaErrors(method, result), `${method} result against the OpenRPC schema: ${JSON.stringify(result)}`).toEqual([])
}
