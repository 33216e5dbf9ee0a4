/** anvil for the tests that compare with it: where the benches install it, and starting it on a free port. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

export const ANVIL = join(homedir(), '.cache/ringchain-bench/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')

/** Skips the test, saying why, when anvil is not installed (test/helpers/peers.setup.ts printed the reason). */
export function skipWithoutAnvil(ctx: { skip(): void }): void {
  if (existsSync(ANVIL)) return
  console.log(`skipped: anvil not found at ${ANVIL} (test/helpers/peers.setup.ts printed why it could not be installed)`)
  ctx.skip()
}

/** Starts anvil on a free port (killed when the test finishes); resolves with its URL. */
export async function startAnvil(): Promise<string> {
  const child = spawn(ANVIL, ['--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => void child.kill())
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('anvil did not start within 60 s')), 60_000)
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const match = /Listening on ([\d.]+:\d+)/.exec(out)
      if (match !== null) {
        clearTimeout(timer)
        resolve(`http://${match[1]}`)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`anvil exited (${code}): ${out}`)))
  })
}
