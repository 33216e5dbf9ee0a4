/**
 * A frame of the fast interpreter built without ethereumjs's `Interpreter` constructor (10.1.3),
 * whose `new Memory()` allocates an 8 KB store for every frame, used or not: a storage write
 * never touches memory, a Solidity frame seldom passes a few hundred bytes. Here the frame's memory
 * starts empty and grows to what it uses (`GrowingMemory`).
 *
 * Owns: the constructor's body, copied line for line but for the memory (a test pins the source),
 * and the memory's growth. Where a step listener, the debug log or the profiler watch the run,
 * ethereumjs's own constructor and memory stay: a step's trace copies the memory's store.
 * Leaves to ethereumjs: `Memory`'s reads and writes, `Stack`, everything the frame does.
 */

/** What the copy reads of the EVM. */
export interface FrameEVM {
  readonly common: { consensusType(): string }
  readonly _optsCached: { cliqueSigner?: unknown }
  readonly DEBUG: boolean
  readonly events: { listenerCount(event: string): number }
}

/** ethereumjs's `Memory` (not exported: found through a run, like the `Interpreter`). */
export interface MemoryLike {
  _store: Uint8Array
  extend(offset: number, size: number): void
}
export type MemoryClass = new () => MemoryLike
export type StackClass = new (maxHeight?: number) => unknown

/** The interpreter classes the frame is made of. */
export interface FrameClasses {
  readonly Interpreter: abstract new (...args: never[]) => object
  readonly Memory: MemoryClass
  readonly Stack: StackClass
}

/** A memory's first store: small stores are cheap, and most frames stay under this. */
const FIRST_STORE = 1024
const EMPTY = new Uint8Array(0)
const CLIQUE = 'poa'
/** `Memory.prototype` with `extend` swapped for the growing one, per `Memory` class. */
const growingPrototypes = new WeakMap<MemoryClass, object>()

/**
 * ethereumjs's `Memory.extend` for a store that starts empty and doubles (at least to
 * `FIRST_STORE`) instead of growing by 8 KB containers. The store is always at least the highest
 * word touched, zero past what was written: reads and writes see what ethereumjs's would.
 */
function extend(this: MemoryLike, offset: number, size: number): void {
  if (size === 0) return
  const needed = Math.ceil((offset + size) / 32) * 32
  const store = this._store
  if (needed <= store.length) return
  const grown = new Uint8Array(Math.max(needed, store.length * 2, FIRST_STORE))
  grown.set(store)
  this._store = grown
}

/** A `Memory` of class `Memory` whose store starts empty. */
export function growingMemory(Memory: MemoryClass): MemoryLike {
  let prototype = growingPrototypes.get(Memory)
  if (prototype === undefined) growingPrototypes.set(Memory, (prototype = Object.create(Memory.prototype, { extend: { value: extend } }) as object))
  const memory = Object.create(prototype) as MemoryLike
  memory._store = EMPTY
  return memory
}

/**
 * `new Interpreter(...)` of `classes.Interpreter` (a subclass of ethereumjs's), its memory a
 * growing one; ethereumjs's own constructor where a run is watched or clique signs.
 */
export function newFrame(
  classes: FrameClasses,
  evm: FrameEVM,
  stateManager: unknown,
  blockchain: unknown,
  env: { gasRefund?: bigint; initialLogs?: unknown[] | undefined },
  gasLeft: bigint,
  journal: unknown,
  performanceLogs: unknown,
  profilerOpts: { enabled?: boolean } | undefined,
): object {
  const Interpreter = classes.Interpreter as unknown as new (...args: unknown[]) => object
  if (evm.DEBUG || profilerOpts?.enabled === true || evm.events.listenerCount('step') > 0 || evm.common.consensusType() === CLIQUE) {
    return new Interpreter(evm, stateManager, blockchain, env, gasLeft, journal, performanceLogs, profilerOpts)
  }
  const frame = Object.create(Interpreter.prototype as object) as Record<string, unknown>
  // ethereumjs's constructor from here.
  frame.opDebuggers = {}
  frame._evm = evm
  frame._stateManager = stateManager
  frame.common = evm.common
  frame._runState = {
    programCounter: 0,
    opCode: 0xfe, // INVALID opcode
    memory: growingMemory(classes.Memory),
    memoryWordCount: 0n,
    highestMemCost: 0n,
    stack: new classes.Stack(),
    code: EMPTY,
    validJumps: Uint8Array.from([]),
    cachedPushes: {},
    stateManager,
    blockchain,
    env,
    shouldDoJumpAnalysis: true,
    interpreter: frame,
    gasRefund: env.gasRefund,
    gasLeft,
    stateGasSpilled: 0n,
    returnBytes: new Uint8Array(0),
  }
  frame.journal = journal
  frame._env = env
  frame._result = {
    logs: env.initialLogs ? [...env.initialLogs] : [],
    returnValue: undefined,
    selfdestruct: new Map(),
  }
  frame.profilerOpts = profilerOpts
  frame.performanceLogger = performanceLogs
  return frame
}
