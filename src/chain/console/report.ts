/**
 * What the chain says about an execution once it ran: the console.log lines it printed, for the
 * in-process listener and the server log, and a mined transaction's failure with its reason.
 * Owns: the entries handed to `onConsole` and the wording of those log lines. Leaves catching
 * the calls to `attach.ts` and revert decoding to `../revert.ts`.
 */
import { bytesToHex } from '@ethereumjs/util'
import type { EVMResult } from '@ethereumjs/evm'
import { describeRevert } from '../revert.js'
import type { ConsoleCall } from './attach.js'

/** Where a console.log came from: a mined transaction (its hash), an `eth_call` or an `eth_estimateGas`. */
export type ConsoleSource = Uint8Array | 'call' | 'estimateGas'

/** One console.log, with the execution it came from. */
export interface ConsoleEntry extends ConsoleCall {
  readonly source: ConsoleSource
}

/** Where an execution's report goes: the listener and the info log; either may be absent. */
export interface ExecutionReporter {
  readonly onConsole?: ((entry: ConsoleEntry) => void) | undefined
  readonly info?: ((message: string) => void) | undefined
}

/** True when someone listens: without a listener the console hook is not attached at all. */
export function wantsConsole(reporter: ExecutionReporter): boolean {
  return reporter.onConsole !== undefined || reporter.info !== undefined
}

/**
 * Reports one execution: its console lines to the listener, and to the info log under a heading
 * (the transaction, or the RPC method) when it printed something or, mined, when it failed.
 */
export function reportExecution(reporter: ExecutionReporter, source: ConsoleSource, calls: readonly ConsoleCall[], outcome?: { blockNumber: bigint; result: EVMResult }): void {
  if (reporter.onConsole !== undefined) for (const call of calls) reporter.onConsole({ ...call, source })
  if (reporter.info === undefined) return
  const failure = outcome === undefined ? undefined : failureOf(outcome.result)
  if (calls.length === 0 && failure === undefined) return
  const what = typeof source === 'string' ? `eth_${source}` : `transaction ${bytesToHex(source)}`
  const heading = outcome === undefined ? what : `${what} in block ${outcome.blockNumber}${failure === undefined ? '' : ` ${failure}`}`
  reporter.info([heading, ...calls.map((call) => `  console.log: ${call.message}`)].join('\n'))
}

/** `reverted: <reason>` or `failed: <EVM error>`, or undefined for a success. */
function failureOf(result: EVMResult): string | undefined {
  const error = result.execResult.exceptionError
  if (error === undefined) return undefined
  if (error.error !== 'revert') return `failed: ${error.error}`
  const reason = describeRevert(result.execResult.returnValue)
  const data = result.execResult.returnValue
  return `reverted: ${reason ?? (data.length === 0 ? 'without a reason' : `with data ${bytesToHex(data)}`)}`
}
