/**
 * ethereumjs's `EVM._executeCall` and `EVM.runInterpreter` (10.1.3) without their object spreads,
 * installed on the EVMs the chain runs on (mining, calls, the pending block).
 *
 * Why: each frame the EVM runs passes through `{ ...{ codeAddress }, ...message, gasLimit }` and
 * ends in `{ ...runState, ...result, ...env }`. On Node 20 (V8 11.3) an object literal with more
 * than one spread copies the later sources through a slow runtime path, about 1.5 µs a property:
 * some 100 µs a frame, where `Object.assign` makes the same object in about 1 µs. That was half
 * of an `eth_call`. Here the interpreter reads the message itself (the copy only renamed
 * nothing: `gasLimit` is the message's own unless an EIP below charges the frame first) and the
 * frame's result holds the same, its `runState` merged when first read (`FrameResult`).
 *
 * Owns: those two methods, copied line for line but for the spreads; `_executeCall` without the
 * branches of the experimental EIPs (binary trees, block access lists, EIP-2780's frame charges,
 * EIP-7708 transfer logs) and of the profiler and debug logs: where one of those is on, ethereumjs's
 * own `_executeCall` stays. A test pins the ethereumjs source they were copied from (an upgrade
 * fails it: copy the new one) and compares runs with and without them.
 * Leaves everything else to ethereumjs: the overrides are own properties of each EVM, never a
 * change to the class.
 */
import { EVMError, type EVM, type ExecResult } from '@ethereumjs/evm'
import { Account, BIGINT_0, createZeroAddress, type Address } from '@ethereumjs/util'

/** The parts of `EVM` the method reads (protected in its typings). */
interface EVMInternals {
  readonly common: EVM['common']
  readonly DEBUG: boolean
  readonly stateManager: EVM['stateManager']
  readonly blockchain: EVM['blockchain']
  readonly journal: EVM['journal']
  readonly performanceLogger: unknown
  readonly _optsCached: { profiler?: unknown }
  readonly _tx: { gasPrice: bigint; origin?: Address }
  readonly _block: unknown
  runInterpreter(message: InterpretedMessage, opts?: InterpreterOpts): Promise<ExecResult>
  _executeCall(message: CalledMessage): Promise<{ execResult: ExecResult }>
  _reduceSenderBalance(account: Account, message: CalledMessage): Promise<void>
  _addToBalance(account: Account, message: CalledMessage): Promise<void>
  _loadCode(message: CalledMessage): Promise<void>
  runPrecompile(code: unknown, data: Uint8Array, gasLimit: bigint): Promise<ExecResult> | ExecResult
  postMessageCleanup(): void
}

/** What `_executeCall` reads of its message (ethereumjs's `Message` with a recipient). */
interface CalledMessage extends InterpretedMessage {
  readonly to: Address
  readonly caller: Address
  readonly data: Uint8Array
  readonly delegatecall: boolean
  readonly isCompiled?: boolean
}

/** What `runInterpreter` reads of a message (ethereumjs's `Message`, or the copy `_executeCall` hands it). */
interface InterpretedMessage {
  readonly to?: Address
  readonly caller?: Address
  readonly data?: Uint8Array
  readonly value?: bigint
  readonly code?: unknown
  readonly isStatic?: boolean
  readonly isCreate?: boolean
  readonly depth?: number
  readonly codeAddress?: Address
  readonly gasRefund?: bigint
  readonly chargeCodeAccesses?: boolean
  readonly blobVersionedHashes?: Uint8Array[]
  readonly accessWitness?: { commit(): void }
  readonly createdAddresses?: Set<string>
  readonly selfdestruct?: Map<string, Uint8Array>
  readonly gasLimit: bigint
}

interface InterpreterOpts {
  pc?: number
  initialLogs?: unknown[] | undefined
}

/** ethereumjs's `Interpreter` (not exported: found through a run, see `interpreterClass`). */
interface InterpreterInstance {
  _result: { logs: unknown[]; returnValue?: Uint8Array; selfdestruct: Map<string, Uint8Array>; createdAddresses?: Set<string> }
  _env: Record<string, unknown>
  run(code: unknown, opts: InterpreterOpts): Promise<{ runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint }; exceptionError?: EVMError }>
}
export type InterpreterClass = new (
  evm: unknown,
  stateManager: unknown,
  blockchain: unknown,
  env: Record<string, unknown>,
  gasLeft: bigint,
  journal: unknown,
  performanceLogger: unknown,
  profiler: unknown,
) => InterpreterInstance

const STOP = Uint8Array.of(0)
/** EIPs whose frame charges and logs only ethereumjs's `_executeCall` has (6800 and 7864: state trees; 7928: block access lists). */
const OWN_CALL_EIPS = [2780, 6800, 7708, 7864, 7928] as const
/** Each EVM that runs the lean method already, and ethereumjs's `Interpreter` class it found. */
const installed = new WeakMap<object, InterpreterClass>()
/** The `Memory` and `Stack` classes each `Interpreter` class's frames hold. */
const parts = new WeakMap<InterpreterClass, { readonly Memory: unknown; readonly Stack: unknown }>()

/**
 * The `Interpreter` class of `evm`'s ethereumjs. Its package exports no such name, but every run's
 * state names the interpreter that ran it: one run of STOP hands the class over.
 */
export async function interpreterClass(evm: EVM): Promise<InterpreterClass> {
  const result = await evm.runCode({ code: STOP, gasLimit: 0n })
  const runState = result.runState as unknown as { interpreter: { constructor: InterpreterClass }; memory: { constructor: unknown }; stack: { constructor: unknown } }
  const Interpreter = runState.interpreter.constructor
  if (!parts.has(Interpreter)) parts.set(Interpreter, { Memory: runState.memory.constructor, Stack: runState.stack.constructor })
  return Interpreter
}

/** The `Memory` and `Stack` classes of the frames of `Interpreter` (found by `interpreterClass`, like it). */
export function interpreterParts(Interpreter: InterpreterClass): { readonly Memory: unknown; readonly Stack: unknown } {
  const found = parts.get(Interpreter)
  if (found === undefined) throw new Error('interpreterParts: the class was not found by interpreterClass')
  return found
}

/**
 * Installs the lean methods on `evm` (its own properties; other EVMs keep ethereumjs's), and
 * hands back ethereumjs's `Interpreter` class (see `interpreterClass`).
 */
export async function installLeanEvm(evm: EVM): Promise<InterpreterClass> {
  const internals = evm as unknown as EVMInternals
  const known = installed.get(evm)
  if (known !== undefined) return known
  const Interpreter = await interpreterClass(evm)
  installed.set(evm, Interpreter)
  internals.runInterpreter = leanRunInterpreter(Interpreter)
  const common = internals.common
  const profiled = (internals._optsCached.profiler as { enabled?: boolean } | undefined)?.enabled === true
  if (!profiled && !internals.DEBUG && !OWN_CALL_EIPS.some((eip) => common.isActivatedEIP(eip))) internals._executeCall = leanExecuteCall
  return Interpreter
}

/** `EVM._executeCall` for a message to an address, the EIPs of `OWN_CALL_EIPS` off. */
async function leanExecuteCall(this: EVMInternals, message: CalledMessage): Promise<{ execResult: ExecResult }> {
  const gasLimit = message.gasLimit
  const fromAddress = message.caller
  let account = await this.stateManager.getAccount(fromAddress)
  if (!account) {
    account = new Account()
  }
  let errorMessage: unknown
  // Reduce tx value from sender
  if (!message.delegatecall) {
    try {
      await this._reduceSenderBalance(account, message)
    } catch (e) {
      errorMessage = e
    }
  }
  // Load `to` account
  let toAccount = await this.stateManager.getAccount(message.to)
  if (!toAccount) {
    toAccount = new Account()
  }
  // Add tx value to the `to` account
  if (!message.delegatecall) {
    try {
      await this._addToBalance(toAccount, message)
    } catch (e) {
      errorMessage = e
    }
  }
  // Load code
  await this._loadCode(message)
  const code = message.code as Uint8Array | ((...args: unknown[]) => unknown) | undefined
  let exit = false
  if (!code || (typeof code !== 'function' && code.length === 0)) {
    exit = true
  }
  if (errorMessage !== undefined) {
    exit = true
  }
  if (exit) {
    const earlyResult = {
      gasRefund: message.gasRefund,
      executionGasUsed: message.gasLimit - gasLimit,
      exceptionError: errorMessage,
      returnValue: new Uint8Array(0),
      logs: undefined,
    }
    return { execResult: earlyResult as unknown as ExecResult }
  }
  let result: ExecResult
  if (message.isCompiled) {
    result = await this.runPrecompile(message.code, message.data, gasLimit)
    result.gasRefund = message.gasRefund!
  } else {
    // ethereumjs hands a copy, `{ ...{ codeAddress }, ...message, gasLimit }`: the same fields.
    result = await this.runInterpreter(message, { initialLogs: undefined })
  }
  if (message.depth === 0) {
    this.postMessageCleanup()
  }
  result.executionGasUsed += message.gasLimit - gasLimit
  return {
    execResult: result,
  }
}

/** Builds a frame: `new Interpreter(...)`, or what stands for it (see `frame.ts`). */
export type FrameBuilder = (...args: ConstructorParameters<InterpreterClass>) => InterpreterInstance

/** `EVM.runInterpreter` over ethereumjs's `Interpreter` class, or frames `build` makes. */
export function leanRunInterpreter(Interpreter: InterpreterClass, build: FrameBuilder = (...args) => new Interpreter(...args)) {
  return async function runInterpreter(this: EVMInternals, message: InterpretedMessage, opts: InterpreterOpts = {}): Promise<ExecResult> {
    let contract = await this.stateManager.getAccount(message.to ?? createZeroAddress())
    if (!contract) {
      contract = new Account()
    }
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? BIGINT_0,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      // ethereumjs falls back to a default block; every run here names its block.
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = build(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler)
    if (message.selfdestruct) {
      interpreter._result.selfdestruct = message.selfdestruct
    }
    if (message.createdAddresses) {
      interpreter._result.createdAddresses = message.createdAddresses
    }
    const interpreterRes = await interpreter.run(message.code, opts)
    let result = interpreter._result
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft
    if (interpreterRes.exceptionError) {
      if (interpreterRes.exceptionError.error !== EVMError.errorMessages.REVERT && interpreterRes.exceptionError.error !== EVMError.errorMessages.INVALID_EOF_FORMAT) {
        gasUsed = message.gasLimit
      }
      // Clear the result on error
      result = Object.assign({}, result, { logs: [], selfdestruct: new Map(), createdAddresses: new Set<string>() })
    }
    message.accessWitness?.commit()
    return new FrameResult(result, interpreterRes, interpreter._env, gasUsed) as unknown as ExecResult
  }
}

/**
 * A frame's result: what ethereumjs's literal `{ ...result, runState: { ...runState, ...result,
 * ...env }, exceptionError, gas, executionGasUsed, gasRefund, stateGasSpilled, returnValue }`
 * holds, with `runState` merged when first read (the struct logger reads it; mining and calls
 * never do, and merging some 40 properties cost more than the rest of a small frame). A spread
 * of it (ethereumjs's failed-create paths) leaves `runState` out.
 */
class FrameResult {
  logs: unknown[]
  returnValue: Uint8Array
  selfdestruct: Map<string, Uint8Array>
  createdAddresses?: Set<string>
  exceptionError: EVMError | undefined
  gas: bigint
  executionGasUsed: bigint
  gasRefund: bigint
  stateGasSpilled: bigint | undefined
  #parts: [object, object, object] | undefined
  #runState: object | undefined

  constructor(result: InterpreterInstance['_result'], run: Awaited<ReturnType<InterpreterInstance['run']>>, env: object, gasUsed: bigint) {
    this.logs = result.logs
    this.returnValue = result.returnValue ?? new Uint8Array(0)
    this.selfdestruct = result.selfdestruct
    if (result.createdAddresses !== undefined) this.createdAddresses = result.createdAddresses
    this.exceptionError = run.exceptionError
    this.gas = run.runState.gasLeft
    this.executionGasUsed = gasUsed
    this.gasRefund = run.runState.gasRefund
    this.stateGasSpilled = run.runState.stateGasSpilled
    this.#parts = [run.runState, result, env]
  }

  get runState(): object {
    if (this.#parts !== undefined) {
      this.#runState = Object.assign({}, ...this.#parts)
      this.#parts = undefined
    }
    return this.#runState!
  }

  set runState(value: object) {
    this.#runState = value
    this.#parts = undefined
  }
}

