/**
 * When to try an upstream call again, and how long to wait first: bounded attempts, exponential
 * backoff with full jitter, and a 429's Retry-After honoured up to a cap (a provider asking for a
 * minute would otherwise look like a hang).
 */
import type { RpcResponse } from './transport.js'

export interface RetryPolicy {
  /** Tries after the first. */
  readonly retries: number
  /** The first backoff; doubled on each attempt. */
  readonly backoffMs: number
  /** The longest wait between two attempts, Retry-After included. */
  readonly maxBackoffMs: number
}

/** The JSON-RPC code providers answer when they throttle ("limit exceeded"): worth another try. */
export const LIMIT_EXCEEDED = -32005

/** Whether an answer's error is the provider's throttling rather than a definitive answer. */
export function isRetryableAnswer(answer: RpcResponse): boolean {
  return answer.error?.code === LIMIT_EXCEEDED
}

/** How long to wait before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxBackoffMs)
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (attempt - 1))
  // Half fixed, half jitter: spreads clients that failed together without ever waiting nothing.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
