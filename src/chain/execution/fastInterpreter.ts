/**
 * Faster hot paths of ethereumjs's interpreter (10.1.3), installed on the EVMs the chain runs on
 * beside the lean methods of `leanEvm.ts`. A CPU profile of an `eth_call` of a Solidity view
 * spent over a third of its time where this module and its helpers take over:
 * - the jump analysis (`Interpreter._getValidJumpDestinations`), redone by every frame that runs
 *   the same code: here faster, and kept per opcode table and code (`jumpAnalysis.ts`);
 * - `Interpreter.run` awaiting `runStep`, an async function, for every step: here the steps run
 *   in the loop itself (twice as fast a step), their gas and handler awaited only when async;
 * - words turned through hex strings, async gas handlers of memory opcodes (`fastOpcodes.ts`);
 * - `Common.isActivatedEIP`, an array scan asked several times a step (`eipLookup.ts`);
 * - `Journal.addAlwaysWarmAddress`'s regular expression, some 20 times a call (`warmJournal.ts`);
 * - the 8 KB memory each frame allocated (`frame.ts`), and the throw STOP and RETURN end a run with.
 * Owns: a subclass of ethereumjs's `Interpreter` the lean `runInterpreter` builds frames of.
 * Leaves everything else to ethereumjs: all of it is own properties of each EVM, its Common and
 * journal. A test pins the ethereumjs sources copied and compares runs step by step.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, type EVM } from '@ethereumjs/evm'
import { EthereumJSErrorWithoutCode } from '@ethereumjs/util'
import { installCreatedAddress } from './createdAddress.js'
import { installFastEIPLookup } from './eipLookup.js'
import { fastTable, type OpcodeEntry, type OpcodeRunState, type OpcodeTable } from './fastOpcodes.js'
import { analyseJumps, JumpAnalyses, type JumpAnalysis } from './jumpAnalysis.js'
import { newFrame, type MemoryClass, type StackClass } from './frame.js'
import { installLeanEvm, interpreterParts, leanRunInterpreter, type FrameBuilder, type InterpreterClass } from './leanEvm.js'
import { installWarmJournal, type WarmJournal } from './warmJournal.js'

/** The parts of an `Interpreter` the subclass touches. */
interface InterpreterInternals {
  readonly _evm: { readonly _opcodeMap: OpcodeTable; readonly DEBUG: boolean; readonly events: { listenerCount(event: string): number } }
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

/** Jump analyses per opcode table (see `jumpAnalysis.ts`). */
const analyses = new WeakMap<OpcodeTable, JumpAnalyses>()
/** The subclass made of each `Interpreter` class. */
const subclasses = new WeakMap<InterpreterClass, InterpreterClass>()
const installed = new WeakSet<object>()
/** The first byte of EOF code (EIP-3540). */
const EOF_FORMAT = 0xef
/** How ethereumjs tells its errors (`EVMErrorTypeString`, not exported) from others. */
const EVM_ERROR_TYPE = new EVMError(EVMError.errorMessages.STOP).errorType

function analysesOf(table: OpcodeTable): JumpAnalyses {
  let kept = analyses.get(table)
  if (kept === undefined) analyses.set(table, (kept = new JumpAnalyses()))
  return kept
}
/** ethereumjs's gas handlers of the opcodes `fastOpcodes.ts` has no synchronous copy of. */
type AsyncGasHandler = (runState: LoopState, gas: bigint, common: Common) => Promise<bigint> | bigint
/** EIP-7928: block access lists. */
const BLOCK_ACCESS_LISTS = 7928
/** EIP-8024's immediates, which only ethereumjs's own analysis knows to skip. */
const EIP_IMMEDIATES = 8024

/** `Interpreter` reading the fast opcode table and keeping its jump analyses. */
function fastSubclass(Interpreter: InterpreterClass): InterpreterClass {
  let Fast = subclasses.get(Interpreter)
  if (Fast !== undefined) return Fast
  const Base = Interpreter as unknown as new (...args: unknown[]) => InterpreterInternals
  class FastInterpreter extends Base {
    override lookupOpInfo(op: number): OpcodeEntry {
      return fastTable(this._evm._opcodeMap, this.common)[op]!
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
      // `lookupOpInfo`'s table, looked up once a frame.
      const table = fastTable(this._evm._opcodeMap, common)
      let cachedOpcodes: OpcodeEntry[] | undefined
      let doJumpAnalysis = true
      const evm = this._evm
      // EIP-7928's post-call charge is consumed inside ethereumjs's `runStep`: with it on, steps of async gas stay there.
      const inlineAsyncGas = !common.isActivatedEIP(BLOCK_ACCESS_LISTS)
      // A step listener or debug logging takes ethereumjs's `runStep`. Asked once a frame, as
      // `newFrame` asks whether the frame is watched (a listener count was a call every step).
      const watched = evm.events.listenerCount('step') > 0 || evm.DEBUG
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
          const entry = opCodeObj ?? table[opCode]!
          const info = entry.opcodeInfo
          const syncGas = entry.syncGas
          if ((info.dynamicGas && syncGas === undefined && !inlineAsyncGas) || runState.eip7928PostTargetCallOog !== undefined || watched) {
            await this.runStep(entry)
          } else {
            // ethereumjs's `runStep`, its gas and handler awaited only when they are async (SSTORE, calls: a promise less a step).
            let gas = info.feeBigInt
            if (info.dynamicGas) {
              gas = syncGas !== undefined ? syncGas(runState as unknown as OpcodeRunState, gas, common) : await (entry.gasHandler as AsyncGasHandler)(runState, gas, common)
            }
            if (info.isInvalid) {
              throw new EVMError(EVMError.errorMessages.INVALID_OPCODE)
            }
            this.useGas(gas, info)
            runState.programCounter++
            const halt = entry.halt
            if (halt !== undefined) {
              // ethereumjs's handler ends the run with a STOP trap, caught below: the same without the throw.
              halt(runState as unknown as OpcodeRunState, common)
              runState.env.accessWitness?.revert()
              break
            }
            const opFn = entry.opHandler
            const done = opFn(runState as unknown as OpcodeRunState, common)
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
      return analysesOf(this._evm._opcodeMap).of(code, (c) =>
        this.common.isActivatedEIP(EIP_IMMEDIATES) ? super._getValidJumpDestinations(c) : analyseJumps(c, fastTable(this._evm._opcodeMap, this.common)),
      )
    }
  }
  Fast = FastInterpreter as unknown as InterpreterClass
  subclasses.set(Interpreter, Fast)
  return Fast
}

/** Installs the fast interpreter on `evm` (and the lean methods, see `leanEvm.ts`), the EIP lookup on its Common, the warm-address journal, the contract addresses' hash (`createdAddress.ts`). */
export async function installFastInterpreter(evm: EVM): Promise<void> {
  if (installed.has(evm)) return
  const Interpreter = await installLeanEvm(evm)
  const internals = evm as unknown as { common: Common; journal: WarmJournal; runInterpreter: unknown }
  installed.add(evm)
  const Fast = fastSubclass(Interpreter)
  const { Memory, Stack } = interpreterParts(Interpreter)
  const classes = { Interpreter: Fast, Memory: Memory as MemoryClass, Stack: Stack as StackClass }
  const build = newFrame.bind(undefined, classes) as unknown as FrameBuilder
  internals.runInterpreter = leanRunInterpreter(Fast, build)
  installFastEIPLookup(internals.common)
  installWarmJournal(internals.journal)
  installCreatedAddress(evm)
}
