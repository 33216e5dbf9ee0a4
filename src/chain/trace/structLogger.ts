/**
 * geth's default tracer, the struct logger (eth/tracers/logger/logger.go): one entry per executed
 * opcode with pc, op, gas left, gas cost, depth, refund, and on request the stack, memory, return
 * data and the storage the contract has read or written so far.
 * Owns: recording those entries as geth does (the gas a CALL hands on counts in its cost; the
 * storage map appears on SLOAD and SSTORE only; an opcode that fails before it runs carries the
 * error). Leaves `limit` (a size in JSON bytes) to the formatter, which writes the JSON.
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { keyOf } from '../encoding.js'
import type { Tracer, TxEnd, TxStart } from './tracer.js'
import { gethErrorMessage, gethOpName, isRevert } from './vmErrors.js'
import type { RingStateManager } from '../stateManager.js'

export interface StructLoggerConfig {
  readonly disableStack?: boolean
  readonly disableStorage?: boolean
  readonly enableMemory?: boolean
  readonly enableReturnData?: boolean
}

export interface StructLog {
  readonly pc: number
  readonly op: string
  readonly gas: bigint
  gasCost: bigint
  /** 1 for the transaction's own frame, as geth counts. */
  readonly depth: number
  readonly stack: readonly bigint[] | undefined
  readonly memory: Uint8Array | undefined
  readonly returnData: Uint8Array | undefined
  /** The contract's slots read or written so far (slot → value), on SLOAD and SSTORE. */
  readonly storage: ReadonlyMap<bigint, bigint> | undefined
  readonly refund: bigint
  error: string | undefined
}

export interface StructLoggerResult {
  readonly gas: bigint
  readonly failed: boolean
  readonly returnValue: Uint8Array
  readonly structLogs: readonly StructLog[]
}

const SLOAD = 0x54
const SSTORE = 0x55
const CALL = 0xf1
const CALLCODE = 0xf2
const DELEGATECALL = 0xf4
const STATICCALL = 0xfa
const EMPTY = new Uint8Array(0)
const CALL_STIPEND = 2300n
/** STOP, RETURN, REVERT, INVALID, SELFDESTRUCT: opcodes that end a frame themselves. */
const HALTS = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff])
/** Errors geth raises before it logs the opcode, so its entry carries them. */
const BEFORE_LOGGING = new Set(['out of gas', 'stack underflow', 'stack overflow'])

export function structLogger(config: StructLoggerConfig = {}): Tracer<StructLoggerResult> {
  const logs: StructLog[] = []
  const storage = new Map<string, Map<bigint, bigint>>()
  /** Per depth: the return data of the frame's last call, as the RETURNDATA opcodes see it. */
  const returnData: Uint8Array[] = []
  /** Per depth: the index in `logs` of the frame's first entry. */
  const frameStart: number[] = []
  /** Per depth: the frame's message, whose code names an undefined opcode (its code is loaded after this hook). */
  const messages: Message[] = []
  /** Per depth: the frame's last opcode, to tell running off the code's end from a STOP. */
  const lastOp: number[] = []
  let state: RingStateManager | undefined
  const withStack = config.disableStack !== true
  const withStorage = config.disableStorage !== true
  const withMemory = config.enableMemory === true
  const withReturnData = config.enableReturnData === true

  const step = (step: InterpreterStep): void => {
    const op = step.opcode.code
    lastOp[step.depth] = op
    let slots: Map<bigint, bigint> | undefined
    if (withStorage && (op === SLOAD || op === SSTORE)) {
      const s = step.stack
      const address = keyOf(step.address.bytes)
      let contract = storage.get(address)
      if (contract === undefined) storage.set(address, (contract = new Map()))
      if (op === SLOAD && s.length >= 1) {
        const slot = s[s.length - 1]!
        contract.set(slot, bytesToBigInt(state!.storageValue(address, slot.toString(16).padStart(64, '0'))))
        slots = new Map(contract)
      } else if (op === SSTORE && s.length >= 2) {
        contract.set(s[s.length - 1]!, s[s.length - 2]!)
        slots = new Map(contract)
      }
    }
    const memory = withMemory && step.memory.length > 0 ? step.memory : undefined
    const data = withReturnData ? returnData[step.depth] : undefined
    logs.push({
      pc: step.pc,
      op: step.opcode.name === 'INVALID' ? gethOpName(messages[step.depth]?.code, step.pc) : step.opcode.name,
      gas: step.gasLeft,
      gasCost: step.opcode.dynamicFee ?? BigInt(step.opcode.fee),
      depth: step.depth + 1,
      stack: withStack ? step.stack : undefined,
      memory,
      returnData: data !== undefined && data.length > 0 ? data : undefined,
      storage: slots,
      refund: step.gasRefund,
      error: undefined,
    })
  }

  const beforeMessage = (message: Message): void => {
    messages[message.depth] = message
    returnData[message.depth] = EMPTY
    frameStart[message.depth] = logs.length
    lastOp[message.depth] = -1
    if (message.depth === 0) return
    // geth counts the gas a call hands on (without the stipend) in the CALL's cost.
    const caller = logs[logs.length - 1]
    if (caller === undefined) return
    const op = opcodeOf(caller.op)
    if (op === CALL || op === CALLCODE) caller.gasCost += message.gasLimit - (message.value > 0n ? CALL_STIPEND : 0n)
    else if (op === DELEGATECALL || op === STATICCALL) caller.gasCost += message.gasLimit
  }

  const afterMessage = (result: EVMResult): void => {
    const error = result.execResult.exceptionError
    const frameDepth = returnData.length - 1
    if (error !== undefined && BEFORE_LOGGING.has(error.error)) {
      const last = logs[logs.length - 1]
      if (last !== undefined && logs.length > (frameStart[frameDepth] ?? 0)) last.error = gethErrorMessage(error)
    }
    if (error === undefined) ranOffTheEnd(result, frameDepth)
    returnData.length = frameDepth
    if (frameDepth > 0) returnData[frameDepth - 1] = result.createdAddress !== undefined && error === undefined ? EMPTY : result.execResult.returnValue
  }

  /**
   * geth reads a STOP past the end of the code and logs it; ethereumjs just ends the frame. The
   * frame's final run state gives that entry.
   */
  const ranOffTheEnd = (result: EVMResult, frameDepth: number): void => {
    const runState = result.execResult.runState
    const last = lastOp[frameDepth]
    if (runState === undefined || last === undefined || last === -1 || HALTS.has(last)) return
    if (runState.code.length === 0 || runState.programCounter < runState.code.length) return
    const memory = withMemory && runState.memoryWordCount > 0n ? runState.memory._store.slice(0, Number(runState.memoryWordCount) * 32) : undefined
    const data = withReturnData ? returnData[frameDepth] : undefined
    logs.push({
      pc: runState.programCounter,
      op: 'STOP',
      gas: runState.gasLeft,
      gasCost: 0n,
      depth: frameDepth + 1,
      stack: withStack ? runState.stack.getStack() : undefined,
      memory,
      returnData: data !== undefined && data.length > 0 ? data : undefined,
      storage: undefined,
      refund: runState.gasRefund,
      error: undefined,
    })
  }

  return {
    hooks: { step, beforeMessage, afterMessage },
    start(tx: TxStart) {
      state = tx.state
    },
    finish(tx: TxEnd): StructLoggerResult {
      const error = tx.result.execResult.exceptionError
      const failed = error !== undefined
      return { gas: tx.gasUsed, failed, returnValue: failed && !isRevert(error) ? EMPTY : tx.result.execResult.returnValue, structLogs: logs }
    },
  }
}

const CALL_OPS: Readonly<Record<string, number>> = { CALL, CALLCODE, DELEGATECALL, STATICCALL }
function opcodeOf(name: string): number | undefined {
  return CALL_OPS[name]
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return value
}
