/**
 * geth's `callTracer` (eth/tracers/native/call.go): the tree of calls of a transaction, with gas,
 * input, output, error and revert reason per frame; `onlyTopCall` keeps the top frame only,
 * `withLog` adds each frame's logs (with their position among the frame's subcalls).
 * Owns: building that tree from the EVM's message events (and LOG steps when logs are asked for).
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { gethRevertReason } from '../revert.js'
import { frameOf, type CallType } from './frames.js'
import type { Tracer, TxEnd, TxStart } from './tracer.js'
import { gethErrorMessage, isRevert } from './vmErrors.js'

export interface CallTracerConfig {
  readonly onlyTopCall?: boolean
  readonly withLog?: boolean
}

export interface CallLog {
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
  /** Block-wide log index, as geth's state numbers logs. */
  readonly index: number
  /** How many subcalls of the frame came before the log. */
  readonly position: number
}

export interface CallFrame {
  readonly type: CallType
  readonly from: Uint8Array
  gas: bigint
  gasUsed: bigint
  to: Uint8Array | undefined
  readonly input: Uint8Array
  output: Uint8Array | undefined
  error: string | undefined
  revertReason: string | undefined
  readonly calls: CallFrame[]
  logs: CallLog[]
  readonly value: bigint | undefined
  /** Whether the frame's changes were undone (its logs then never happened). */
  reverted: boolean
}

const LOG0 = 0xa0
const LOG4 = 0xa4

export function callTracer(config: CallTracerConfig = {}): Tracer<CallFrame> {
  const onlyTop = config.onlyTopCall === true
  const stack: CallFrame[] = []
  let root: CallFrame | undefined
  let depth = 0
  /** The block-wide index of the next log, as geth's StateDB counts it: a failed frame gives its logs' indexes back. */
  let logIndex = 0
  /** `logIndex` as each open frame (at every depth, also with `onlyTopCall`) found it. */
  const logIndexAtEntry: number[] = []
  // The top frame's gas is the transaction's limit, as in geth.
  let gasLimit = 0n

  const beforeMessage = (message: Message): void => {
    depth = message.depth
    logIndexAtEntry.push(logIndex)
    if (onlyTop && message.depth > 0) return
    stack.push({ ...frameOf(message), gasUsed: 0n, output: undefined, error: undefined, revertReason: undefined, calls: [], logs: [], reverted: false })
  }

  const afterMessage = (result: EVMResult): void => {
    const frameDepth = depth
    depth = Math.max(0, depth - 1)
    const entryIndex = logIndexAtEntry.pop()
    if (result.execResult.exceptionError !== undefined && entryIndex !== undefined) logIndex = entryIndex
    if (onlyTop && frameDepth > 0) return
    const frame = stack.pop()
    if (frame === undefined) return
    const exec = result.execResult
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = result.createdAddress?.bytes ?? frame.to
    frame.gasUsed = exec.executionGasUsed
    processOutput(frame, exec.returnValue, exec.exceptionError)
    const parent = stack[stack.length - 1]
    if (parent === undefined) root = frame
    else parent.calls.push(frame)
  }

  const step = (step: InterpreterStep): void => {
    const op = step.opcode.code
    if (op < LOG0 || op > LOG4) return
    // Logs of inner calls take block-wide indexes even when only the top frame is shown.
    const index = logIndex++
    if (onlyTop && step.depth > 0) return
    const frame = stack[stack.length - 1]
    if (frame === undefined) return
    const s = step.stack
    const top = s.length - 1
    const offset = Number(s[top]!)
    const size = Number(s[top - 1]!)
    const topics: Uint8Array[] = []
    for (let i = 0; i < op - LOG0; i++) topics.push(word(s[top - 2 - i]!))
    const data = new Uint8Array(size)
    data.set(step.memory.subarray(offset, offset + size))
    frame.logs.push({ address: step.address.bytes, topics, data, index, position: frame.calls.length })
  }

  return {
    hooks: config.withLog === true ? { beforeMessage, afterMessage, step } : { beforeMessage, afterMessage },
    start(tx: TxStart) {
      logIndex = tx.logIndexBase
      gasLimit = tx.gasLimit
    },
    finish(tx: TxEnd): CallFrame {
      if (root === undefined) throw new Error('the call tracer saw no top-level call')
      root.gas = gasLimit
      root.gasUsed = tx.gasUsed
      if (config.withLog === true) clearFailedLogs(root, false)
      return root
    },
  }
}

/** geth's `processOutput`: output on success, error and (for a revert) its data and reason otherwise. */
function processOutput(frame: CallFrame, returned: Uint8Array, error: EVMResult['execResult']['exceptionError']): void {
  const output = returned.slice()
  if (error === undefined) {
    frame.output = output
    return
  }
  frame.error = gethErrorMessage(error)
  frame.reverted = true
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined
  if (!isRevert(error) || output.length === 0) return
  frame.output = output
  if (output.length >= 4) frame.revertReason = gethRevertReason(output)
}

function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = (frame.error !== undefined && frame.reverted) || parentFailed
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}

function word(value: bigint): Uint8Array {
  const bytes = new Uint8Array(32)
  let v = value
  for (let i = 31; i >= 0 && v > 0n; i--) {
    bytes[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return bytes
}
