// Holds each of the two test files at a step until the other file reaches it too, so that their
// writes overlap in time: had the two workers shared a chain, each would see the other's write.
// A file that is loaded in this same process (a serial run) is not waited for: it runs later.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const loaded = new Set()
const dir = join(tmpdir(), `ringchain-example-${process.ppid}`) // the runner's process: one per run

export function joinPair(me, other) {
  loaded.add(me)
  return async function meet(step) {
    if (loaded.has(other)) return
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${step}-${me}`), String(process.pid))
    for (const started = Date.now(); !existsSync(join(dir, `${step}-${other}`)); ) {
      if (Date.now() - started > 15_000) throw new Error(`${other} never reached "${step}": the two files did not run in two workers at once`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
}
