/**
 * A scenario's `fork:` header: the upstream the embedded chain forks, its URL read with
 * `${env.NAME}` references (a provider's key belongs in the environment, not in the file).
 */
import type { ForkSpec } from '../simulator.js'
import { parseQuantity } from './values.js'

/** The `fork:` header as written. */
export interface ForkHeader {
  readonly url: string
  readonly blockNumber?: string | number
}

/** The fork option of the embedded chain (`createRingchain({ fork })`): an upstream URL and its block. */
export type ForkOption = Extract<ForkSpec, { readonly url: string }>

/** A reference to an environment variable that is not set. */
export class MissingEnvironmentError extends Error {
  override name = 'MissingEnvironmentError'
  constructor(readonly variable: string) {
    super(`fork.url: the environment variable ${variable} is not set`)
  }
}

const ENV_REFERENCE = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g

/** `text` with each `${env.NAME}` replaced by that variable's value. */
export function withEnvironment(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return text.replace(ENV_REFERENCE, (_whole, name: string) => {
    const value = env[name]
    if (value === undefined || value === '') throw new MissingEnvironmentError(name)
    return value
  })
}

/** The embedded chain's fork option from the header. */
export function forkOption(header: ForkHeader, env: NodeJS.ProcessEnv = process.env): ForkOption {
  const url = withEnvironment(header.url, env)
  return header.blockNumber === undefined ? { url } : { url, blockNumber: parseQuantity(header.blockNumber, 'fork.blockNumber') }
}
