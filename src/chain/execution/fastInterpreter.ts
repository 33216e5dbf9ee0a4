/**
 * Faster hot paths of ethereumjs's interpreter (10.1.3), installed on the EVMs the chain runs on
 * beside the lean methods of `leanEvm.ts`. A CPU profile of an `eth_call` of a Solidity view
 * spent a fifth of its time in three places this module takes over:
 * - the jump analysis (`Interpreter._getValidJumpDestinations`), redone by every frame that runs
 *   the same code: here kept per code array and opcode table;
 * - `Common.isActivatedEIP`, an array scan asked several times an opcode: here a Set;
 * - 32-byte words turned into bigints and back through hex strings by MSTORE, MLOAD, SLOAD,
 *   CALLDATALOAD and KECCAK256: here through 64-bit lanes (`word.ts`).
 * Owns: a subclass of ethereumjs's `Interpreter` the lean `runInterpreter` builds frames of, the
 * opcode table it reads (ethereumjs's, those five handlers swapped where the table still holds
 * ethereumjs's own: custom opcodes stay), and the EVM's `Common.isActivatedEIP`.
 * Leaves everything else to ethereumjs: all of it is own properties of each EVM and its Common.
 * A test pins the ethereumjs source of each replaced handler and compares runs with and without.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, getOpcodesForHF, type EVM } from '@ethereumjs/evm'
import { bytesToBigInt, EthereumJSErrorWithoutCode } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { installLeanEvm, interpreterClass, leanRunInterpreter, type InterpreterClass } from './leanEvm.js'
import { readWord, wordBytes, writeWord } from './word.js'

/** What the interpreter reads of an opcode: ethereumjs's `OpcodeMapEntry`. */
interface OpcodeEntry {
  readonly opcodeInfo: { readonly code: number; readonly feeBigInt: bigint; readonly dynamicGas: boolean; readonly isAsync: boolean; readonly isInvalid: boolean }
  readonly opHandler: OpHandler
  readonly gasHandler?: unknown
}
type OpcodeMap = readonly OpcodeEntry[]

/** The parts of ethereumjs's `RunState` the handlers below use. */
interface RunState {
  readonly stack: { pop(): bigint; popN(n: number): bigint[]; push(value: bigint): void }
  readonly memory: { _store: Uint8Array; extend(offset: number, size: number): void; read(offset: number, size: number, avoidCopy?: boolean): Uint8Array }
  readonly interpreter: { getCallData(): Uint8Array; getCallDataSize(): bigint; storageLoad(key: Uint8Array): Promise<Uint8Array> }
}
type OpHandler = (runState: RunState, common: Common) => unknown

/** What a jump analysis hands the interpreter (it only reads it). */
interface JumpAnalysis {
  readonly jumps: Uint8Array
  readonly pushes: Record<number, bigint>
  readonly opcodesCached: OpcodeEntry[]
}

/** The parts of an `Interpreter` the subclass touches. */
interface InterpreterInternals {
  readonly _evm: { readonly _opcodeMap: OpcodeMap; readonly DEBUG: boolean; readonly events: { listenerCount(event: string): number } }
  readonly common: Common
  readonly profilerOpts?: { enabled?: boolean }
  readonly _runState: LoopState
  lookupOpInfo(op: number): OpcodeEntry
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis
  run(code: Uint8Array, opts?: { pc?: number }): Promise<{ runState: LoopState; exceptionError: unknown }>
  runStep(entry?: OpcodeEntry): Promise<void>
  useGas(amount: bigint, context?: unknown): void
}

/** What the run loop reads and writes of ethereumjs's `RunState`. */
interface LoopState {
  programCounter: number
  opCode: number
  code: Uint8Array
  validJumps: Uint8Array
  cachedPushes: Record<number, bigint>
  shouldDoJumpAnalysis: boolean
  gasLeft: bigint
  eip7928PostTargetCallOog?: unknown
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean
  readonly env: { readonly accessWitness?: { commit(): void; revert(): void } }
}

/** The handlers swapped in, by opcode; each does what ethereumjs's does, without hex strings. */
const FAST_HANDLERS: ReadonlyMap<number, OpHandler> = new Map<number, OpHandler>([
  // KECCAK256
  [
    0x20,
    (runState, common) => {
      const [offset, length] = runState.stack.popN(2) as [bigint, bigint]
      let data: Uint8Array = new Uint8Array(0)
      if (length !== 0n) data = runState.memory.read(Number(offset), Number(length))
      runState.stack.push(readWord((common.customCrypto.keccak256 ?? keccak_256)(data)))
    },
  ],
  // CALLDATALOAD
  [
    0x35,
    (runState) => {
      const pos = runState.stack.pop()
      if (pos > runState.interpreter.getCallDataSize()) {
        runState.stack.push(0n)
        return
      }
      const i = Number(pos)
      let loaded = runState.interpreter.getCallData().subarray(i, i + 32)
      if (loaded.length === 32) {
        runState.stack.push(readWord(loaded))
        return
      }
      loaded = loaded.length ? loaded : Uint8Array.from([0])
      let r = bytesToBigInt(loaded)
      if (loaded.length < 32) r = r << (8n * BigInt(32 - loaded.length))
      runState.stack.push(r)
    },
  ],
  // MLOAD
  [
    0x51,
    (runState) => {
      const pos = runState.stack.pop()
      runState.stack.push(readWord(runState.memory.read(Number(pos), 32, true)))
    },
  ],
  // MSTORE: ethereumjs's `memory.write(offset, 32, word)` is this extend and copy.
  [
    0x52,
    (runState) => {
      const [offset, word] = runState.stack.popN(2) as [bigint, bigint]
      const at = Number(offset)
      runState.memory.extend(at, 32)
      writeWord(runState.memory._store, at, word)
    },
  ],
  // SLOAD
  [
    0x54,
    async (runState) => {
      const key = runState.stack.pop()
      const value = await runState.interpreter.storageLoad(wordBytes(key))
      runState.stack.push(value.length === 0 ? 0n : value.length === 32 ? readWord(value) : bytesToBigInt(value))
    },
  ],
])

/** ethereumjs's own handlers of those opcodes (a table entry holding another is a custom opcode). */
let stockHandlers: ReadonlyMap<number, unknown> | undefined
/** Each ethereumjs opcode table with the fast handlers swapped in (a hardfork change builds a new table). */
const fastTables = new WeakMap<OpcodeMap, OpcodeMap>()
/** Jump analyses per opcode table, then per code array (code is never written to once run). */
const analyses = new WeakMap<OpcodeMap, WeakMap<Uint8Array, JumpAnalysis>>()
/** The subclass made of each `Interpreter` class. */
const subclasses = new WeakMap<InterpreterClass, InterpreterClass>()
const installed = new WeakSet<object>()
/** The first byte of EOF code (EIP-3540). */
const EOF_FORMAT = 0xef
/** How ethereumjs tells its errors (`EVMErrorTypeString`, not exported) from others. */
const EVM_ERROR_TYPE = new EVMError(EVMError.errorMessages.STOP).errorType

function fastTable(table: OpcodeMap): OpcodeMap {
  let fast = fastTables.get(table)
  if (fast === undefined) {
    fast = table.map((entry, op) => {
      const handler = FAST_HANDLERS.get(op)
      return handler !== undefined && entry.opHandler === stockHandlers?.get(op) ? { ...entry, opHandler: handler } : entry
    })
    fastTables.set(table, fast)
  }
  return fast
}

function analysesOf(table: OpcodeMap): WeakMap<Uint8Array, JumpAnalysis> {
  let byCode = analyses.get(table)
  if (byCode === undefined) analyses.set(table, (byCode = new WeakMap()))
  return byCode
}

/** `Interpreter` reading the fast opcode table and keeping its jump analyses. */
function fastSubclass(Interpreter: InterpreterClass): InterpreterClass {
  let Fast = subclasses.get(Interpreter)
  if (Fast !== undefined) return Fast
  const Base = Interpreter as unknown as new (...args: unknown[]) => InterpreterInternals
  class FastInterpreter extends Base {
    override lookupOpInfo(op: number): OpcodeEntry {
      return fastTable(this._evm._opcodeMap)[op]!
    }

    /**
     * ethereumjs's `run` for legacy code, its steps of static gas taken here without the promise
     * `runStep` makes of each (some 0.5 µs a step; nothing but the order of microtasks changes).
     * ethereumjs's own `run` takes EOF code, the profiler, and state-tree code chunks.
     */
    override async run(code: Uint8Array, opts: { pc?: number } = {}) {
      const common = this.common
      if ((code[0] === EOF_FORMAT && common.isActivatedEIP(3540)) || this.profilerOpts?.enabled === true || common.isActivatedEIP(6800) || common.isActivatedEIP(7864)) {
        return super.run(code, opts)
      }
      const runState = this._runState
      runState.code = code
      runState.programCounter = opts.pc ?? runState.programCounter
      // Check that the programCounter is in range
      const pc = runState.programCounter
      if (pc !== 0 && (pc < 0 || pc >= runState.code.length)) {
        throw EthereumJSErrorWithoutCode('Internal error: program counter not in range')
      }
      let err: EVMError | undefined
      let cachedOpcodes: OpcodeEntry[] | undefined
      let doJumpAnalysis = true
      const evm = this._evm
      // Iterate through the given ops until something breaks or we hit STOP
      while (runState.programCounter < runState.code.length) {
        const programCounter = runState.programCounter
        let opCode: number
        let opCodeObj: OpcodeEntry | undefined
        if (doJumpAnalysis) {
          opCode = runState.code[programCounter]!
          // Only run the jump destination analysis if `code` actually contains a JUMP/JUMPI/JUMPSUB opcode
          if (opCode === 0x56 || opCode === 0x57 || opCode === 0x5e) {
            const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(runState.code)
            runState.validJumps = jumps
            runState.cachedPushes = pushes
            runState.shouldDoJumpAnalysis = false
            cachedOpcodes = opcodesCached
            doJumpAnalysis = false
          }
        } else {
          opCodeObj = cachedOpcodes![programCounter]!
          opCode = opCodeObj.opcodeInfo.code
        }
        runState.opCode = opCode
        try {
          const entry = opCodeObj ?? this.lookupOpInfo(opCode)
          const info = entry.opcodeInfo
          if (info.dynamicGas || runState.eip7928PostTargetCallOog !== undefined || evm.events.listenerCount('step') > 0 || evm.DEBUG) {
            await this.runStep(opCodeObj)
          } else {
            // ethereumjs's `runStep` for an opcode of static gas, its handler awaited only when it is async.
            if (info.isInvalid) {
              throw new EVMError(EVMError.errorMessages.INVALID_OPCODE)
            }
            this.useGas(info.feeBigInt, info)
            runState.programCounter++
            const opFn = entry.opHandler
            const done = opFn(runState as unknown as RunState, common)
            if (info.isAsync) await done
            runState.env.accessWitness?.commit()
          }
        } catch (e) {
          // Revert access witness changes if we revert - per EIP-4762
          runState.env.accessWitness?.revert()
          // re-throw on non-VM errors
          if (!(typeof e === 'object' && e !== null && 'errorType' in e && e.errorType === EVM_ERROR_TYPE)) {
            throw e
          }
          // STOP is not an exception
          if ((e as EVMError).error !== EVMError.errorMessages.STOP) {
            err = e as EVMError
          }
          break
        }
      }
      if (err === undefined && runState.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && runState.gasLeft > 0n) {
        // Consume leftover and exceptional-halt this frame so the CREATE nonce
        // bump is journal-reverted (fill post-state keeps the pre-create nonce)
        // while EIP-7928 BAL reads from the following SSTORE remain.
        runState.gasLeft = 0n
        err = new EVMError(EVMError.errorMessages.OUT_OF_GAS)
      }
      return {
        runState,
        exceptionError: err,
      }
    }

    override _getValidJumpDestinations(code: Uint8Array): JumpAnalysis {
      const byCode = analysesOf(this._evm._opcodeMap)
      let analysis = byCode.get(code)
      if (analysis === undefined || analysis.jumps.length !== code.length) {
        analysis = super._getValidJumpDestinations(code)
        byCode.set(code, analysis)
      }
      return analysis
    }
  }
  Fast = FastInterpreter as unknown as InterpreterClass
  subclasses.set(Interpreter, Fast)
  return Fast
}

/** Installs the fast interpreter on `evm` (and the lean methods, see `leanEvm.ts`), and the EIP lookup on its Common. */
export async function installFastInterpreter(evm: EVM): Promise<void> {
  if (installed.has(evm)) return
  await installLeanEvm(evm)
  const Interpreter = await interpreterClass(evm)
  const common = (evm as unknown as { common: Common }).common
  stockHandlers ??= getOpcodesForHF(common).handlers
  installed.add(evm)
  ;(evm as unknown as { runInterpreter: unknown }).runInterpreter = leanRunInterpreter(fastSubclass(Interpreter))
  installFastEIPLookup(common)
}

/** The Set of `_activatedEIPsCache`, built from the array it was built from. */
const EIP_SET = Symbol('activatedEIPSet')
interface CommonInternals {
  readonly _activatedEIPsCache: readonly number[]
  [EIP_SET]?: { readonly list: readonly number[]; readonly length: number; readonly set: ReadonlySet<number> }
}

/**
 * `common.isActivatedEIP` answered from a Set. Common rebuilds its array on every hardfork or
 * EIP change (`_buildActivatedEIPsCache`): the Set is rebuilt when the array is another or has
 * another length. A copy of `common` (`Common.copy`) carries the method and checks its own array.
 */
export function installFastEIPLookup(common: Common): void {
  if (Object.hasOwn(common, 'isActivatedEIP')) return
  common.isActivatedEIP = function isActivatedEIP(this: CommonInternals, eip: number): boolean {
    const list = this._activatedEIPsCache
    let cached = this[EIP_SET]
    if (cached === undefined || cached.list !== list || cached.length !== list.length) {
      cached = { list, length: list.length, set: new Set(list) }
      this[EIP_SET] = cached
    }
    return cached.set.has(eip)
  } as Common['isActivatedEIP']
}
