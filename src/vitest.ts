/**
 * ringchain for vitest, the test side (`ringchain/vitest`): each worker's own chain on the server
 * that the global setup (`ringchain/vitest/setup`, in `vitest-setup.ts`) started, and a
 * `ringchain` fixture that snapshots that chain before a test and reverts it after.
 *
 * Owns: the worker's key (`VITEST_POOL_ID`), its URLs, the fixture. Workers never load the chain:
 * they talk to the one server over HTTP. (Two entry points because vitest forbids `test.extend`
 * in the global setup's process.)
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['ringchain/vitest/setup'] } })
 * // a test file
 * import { test } from 'ringchain/vitest'
 * test('sends', async ({ ringchain }) => {
 *   const wallet = createWalletClient({ transport: http(ringchain.httpUrl), ... })
 * })
 */
import { inject, test as baseTest } from 'vitest'
import { RingchainRpcError, type RequestArguments } from './eip1193.js'
import type { AccountInfo } from './simulator.js'

/** What the global setup hands to every worker. */
export interface RingchainProvided {
  /** `http://127.0.0.1:PORT/v3/`: append an API key. */
  readonly httpBase: string
  /** `ws://127.0.0.1:PORT/ws/v3/`: append an API key. */
  readonly wsBase: string
  readonly chainId: number
  readonly accounts: readonly AccountInfo[]
}

declare module 'vitest' {
  export interface ProvidedContext {
    ringchain: RingchainProvided
  }
}

/** A worker's own chain: its key, its URLs, and an EIP-1193 `request` over HTTP. */
export interface WorkerChain {
  /** `vitest-<VITEST_POOL_ID>`: the chain is this worker's alone. */
  readonly apiKey: string
  readonly httpUrl: string
  readonly wsUrl: string
  readonly chainId: number
  readonly accounts: readonly AccountInfo[]
  /** EIP-1193 request (viem's `custom` transport takes it); rejects with `RingchainRpcError`. */
  request(args: RequestArguments): Promise<unknown>
}

/** This worker's chain (call it inside a test or hook). */
export function workerChain(): WorkerChain {
  const provided = inject('ringchain') as RingchainProvided | undefined
  if (provided === undefined) throw new Error("ringchain/vitest: no server; add 'ringchain/vitest/setup' (or a setup file of yours) to test.globalSetup")
  const apiKey = `vitest-${process.env.VITEST_POOL_ID ?? '1'}`
  const httpUrl = provided.httpBase + apiKey
  return {
    apiKey,
    httpUrl,
    wsUrl: provided.wsBase + apiKey,
    chainId: provided.chainId,
    accounts: provided.accounts,
    request: (args) => httpRequest(httpUrl, args),
  }
}

/** vitest's `test` with a `ringchain` fixture: the worker's chain, snapshotted before the test and reverted after it. */
export const test = baseTest.extend<{ ringchain: WorkerChain }>({
  // vitest reads the fixtures a function uses from its first parameter: it must be a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  ringchain: async ({}, use) => {
    const chain = workerChain()
    const snapshot = await chain.request({ method: 'evm_snapshot' })
    try {
      await use(chain)
    } finally {
      await chain.request({ method: 'evm_revert', params: [snapshot] })
    }
  },
})

let nextId = 1

async function httpRequest(url: string, args: RequestArguments): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] }),
  })
  if (!response.ok) throw new Error(`ringchain: HTTP ${response.status} from ${url}: ${await response.text()}`)
  const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (answer.error !== undefined) throw new RingchainRpcError(answer.error.code, answer.error.message, answer.error.data)
  return answer.result
}
