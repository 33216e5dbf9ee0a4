// The benchmarks' child processes: a server's ready line, waiting for an RPC port to answer, and
// stopping. One place for what bench/run.mjs, suite.mjs, fork.mjs and flow-replay.mjs each spawn.

import { ringchainReady } from './startup.mjs'

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** The first line `child` prints on stdout; rejects with `exitMessage(code)` if it exits first. */
export function firstLine(child, exitMessage) {
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (d) => {
      buffer += d
      const end = buffer.indexOf('\n')
      if (end !== -1) resolve(buffer.slice(0, end))
    })
    child.once('exit', (code) => reject(new Error(exitMessage(code))))
  })
}

/** The ready line of `ringchain serve --json` (or the ceiling, which prints the same), parsed: `{ httpUrl, wsUrl, … }`. */
export async function readyLine(child, name, exitMessage = (code) => `${name} exited with ${code} before it was ready`) {
  const line = await firstLine(child, exitMessage)
  if (ringchainReady(line) === undefined) throw new Error(`${name}: unexpected ready line ${line}`)
  return JSON.parse(line)
}

/** Resolves once `httpUrl` answers eth_chainId (anvil prints no machine-readable ready line); polls every 10 ms, at most `attempts` times. */
export async function waitForRpc(httpUrl, child, name, attempts = 3_000) {
  for (let i = 0; ; i++) {
    let reason
    try {
      const answer = await fetch(httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
      if (answer.ok) return
      reason = `HTTP ${answer.status}`
    } catch (e) {
      reason = e.message
    }
    if (i >= attempts || child.exitCode !== null) throw new Error(`${name} did not start: ${reason}`)
    await sleep(10)
  }
}

/** SIGTERM, then SIGKILL if the process is still there after 3 s. */
export async function stopProcess(child) {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(3_000)])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

/**
 * Resolves with a ringchain server's warm-up report once its warm-up has ended (polled every
 * 500 ms, at most `timeoutMs`); `{ state: 'unknown' }` from a build without `ringchain_warmup`.
 * The suite waits for it so that the warm-up's CPU never lands in a peer's measured test. (The
 * warm-up begins only after 200 ms without a request: asked more often, it would never begin.)
 */
export async function warmupEnded(httpUrl, timeoutMs = 60_000) {
  const started = performance.now()
  for (;;) {
    const answer = await (await fetch(httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ringchain_warmup","params":[]}' })).json()
    if (answer.error !== undefined) return { state: 'unknown' }
    if (!['waiting', 'running'].includes(answer.result.state)) return { ...answer.result, endedAfterMs: Math.round(performance.now() - started) }
    if (performance.now() - started > timeoutMs) throw new Error(`the warm-up has not ended after ${timeoutMs} ms (${JSON.stringify(answer.result)})`)
    await sleep(500)
  }
}
