/** Shared bits of the end-to-end tests: the dev chain as clients see it, and a bounded wait. */
import { defineChain } from 'viem'

/** ringchain's default chain (id 31337) for viem. The URL is a placeholder: tests pass theirs. */
export const ringchainChain = defineChain({
  id: 31337,
  name: 'ringchain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545/v3/ringchain'] } },
})

/** Rejects with a message naming `what` if `promise` has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** A promise with its resolve and reject, for callbacks (event listeners) a test awaits. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
