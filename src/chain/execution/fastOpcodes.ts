/**
 * The opcode table the fast interpreter reads (see `fastInterpreter.ts`): ethereumjs's own, with
 * copies of its hottest handlers that skip the hex strings ethereumjs turns words through, and
 * synchronous copies of the gas handlers of memory and log opcodes (ethereumjs's are async
 * functions, a promise each step).
 * Owns: those copies (ethereumjs 10.1.3 `opcodes/functions.js`, `opcodes/gas.js`,
 * `opcodes/util.js#subMemUsage`, `opcodes/EIP2929.js#accessStorageEIP2929`, line for line but for
 * the word conversions, `async`, and the state-tree EIPs the fast loop leaves to ethereumjs), and the
 * rule that swaps one in only where the table still holds ethereumjs's own: a custom opcode keeps
 * its handler. A test pins the sources copied.
 * Leaves everything else to ethereumjs's table.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, getOpcodesForHF } from '@ethereumjs/evm'
import { bytesToBigInt } from '@ethereumjs/util'
import { sstoreGas, sstoreHandler, type SstoreRunState } from './sstore.js'
import { readWord, wordBytes, writeWord } from './word.js'
import { keccakOf } from '../crypto.js'

/** The parts of ethereumjs's `RunState` the handlers below use. */
export interface OpcodeRunState {
  readonly stack: { pop(): bigint; popN(n: number): bigint[]; peek(n?: number): bigint[]; push(value: bigint): void }
  readonly memory: { _store: Uint8Array; extend(offset: number, size: number): void; read(offset: number, size: number, avoidCopy?: boolean): Uint8Array }
  readonly interpreter: {
    readonly _result: { returnValue?: Uint8Array }
    getCallData(): Uint8Array
    getCallDataSize(): bigint
    storageLoad(key: Uint8Array): Promise<Uint8Array>
    getAddress(): { readonly bytes: Uint8Array }
    readonly journal: { isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean; addWarmedStorage(address: Uint8Array, slot: Uint8Array): void }
    isStatic(): boolean
    log(data: Uint8Array, numberOfTopics: number, topics: Uint8Array[]): void
  }
  readonly opCode: number
  memoryWordCount: bigint
  highestMemCost: bigint
}
type OpHandler = (runState: OpcodeRunState, common: Common) => unknown
/** A gas handler that answers at once: the gas of the step, `gas` its static part. */
export type SyncGasHandler = (runState: OpcodeRunState, gas: bigint, common: Common) => bigint

/** What the interpreter reads of an opcode: ethereumjs's `OpcodeMapEntry`, and the fast table's synchronous gas. */
export interface OpcodeEntry {
  readonly opcodeInfo: { readonly code: number; readonly feeBigInt: bigint; readonly dynamicGas: boolean; readonly isAsync: boolean; readonly isInvalid: boolean }
  readonly opHandler: OpHandler
  readonly gasHandler?: unknown
  readonly syncGas?: SyncGasHandler
  /**
   * STOP and RETURN without the STOP trap ethereumjs's handlers throw to end the run: the fast
   * loop runs this and ends the run itself. `opHandler` stays ethereumjs's, for its own loop.
   */
  readonly halt?: OpHandler
}
export type OpcodeTable = readonly OpcodeEntry[]

/** LOG0 to LOG4. */
const LOGS = [0xa0, 0xa1, 0xa2, 0xa3, 0xa4] as const
const LOG0 = 0xa0

/** LOG0-4: ethereumjs pads each topic through a hex string and two spread arrays (`setLengthLeft`). */
const logHandler: OpHandler = (runState) => {
  const [memOffset, memLength] = runState.stack.popN(2) as [bigint, bigint]
  const topicsCount = runState.opCode - LOG0
  const topics = runState.stack.popN(topicsCount)
  const topicsBuf = topics.map((topic) => wordBytes(topic))
  let mem: Uint8Array = new Uint8Array(0)
  if (memLength !== 0n) {
    mem = runState.memory.read(Number(memOffset), Number(memLength))
  }
  runState.interpreter.log(mem, topicsCount, topicsBuf)
}

/** LOG0-4's gas, synchronous (ethereumjs's is an async function: a promise a step). */
const logGas: SyncGasHandler = (runState, gas, common) => {
  if (runState.interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE)
  const [memOffset, memLength] = runState.stack.peek(2) as [bigint, bigint]
  const topicsCount = runState.opCode - LOG0
  if (topicsCount < 0 || topicsCount > 4) throw new EVMError(EVMError.errorMessages.OUT_OF_RANGE)
  gas += subMemUsage(runState, memOffset, memLength, common)
  gas += common.param('logTopicGas') * BigInt(topicsCount) + memLength * common.param('logDataGas')
  return gas
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
      runState.stack.push(readWord(keccakOf(common)(data)))
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
  ...LOGS.map((op): [number, OpHandler] => [op, logHandler]),
])

/** The halting handlers, by opcode: ethereumjs's but for the trap (`Interpreter.finish` is the return value and the trap). */
const HALTS: ReadonlyMap<number, OpHandler> = new Map<number, OpHandler>([
  // STOP
  [0x00, () => {}],
  // RETURN
  [
    0xf3,
    (runState) => {
      const [offset, length] = runState.stack.popN(2) as [bigint, bigint]
      let returnData: Uint8Array = new Uint8Array(0)
      if (length !== 0n) {
        returnData = runState.memory.read(Number(offset), Number(length))
      }
      runState.interpreter._result.returnValue = returnData
    },
  ],
])

/** ethereumjs's `mod` (`opcodes/util.js`). */
function mod(a: bigint, b: bigint): bigint {
  let r = a % b
  if (r < 0n) r = b + r
  return r
}

/** ethereumjs's `divCeil` (`opcodes/util.js`). */
function divCeil(a: bigint, b: bigint): bigint {
  const div = a / b
  const modulus = mod(a, b)
  // Fast case - exact division
  if (modulus === 0n) return div
  // Round up
  return div < 0n ? div - 1n : div + 1n
}

/** ethereumjs's `subMemUsage` (`opcodes/util.js`): the gas of growing memory to cover `offset + length`. */
function subMemUsage(runState: OpcodeRunState, offset: bigint, length: bigint, common: Common): bigint {
  // YP (225): access with zero length will not extend the memory
  if (length === 0n) return 0n
  const newMemoryWordCount = divCeil(offset + length, 32n)
  if (newMemoryWordCount <= runState.memoryWordCount) return 0n
  const words = newMemoryWordCount
  const fee = common.param('memoryGas')
  const quadCoefficient = common.param('quadCoefficientDivGas')
  // words * 3 + words ^2 / 512
  let cost = words * fee + (words * words) / quadCoefficient
  if (cost > runState.highestMemCost) {
    const currentHighestMemCost = runState.highestMemCost
    runState.highestMemCost = cost
    cost -= currentHighestMemCost
  }
  runState.memoryWordCount = newMemoryWordCount
  return cost
}

/** Memory growth of the range the top two stack words name (offset, length). */
const rangeGas: SyncGasHandler = (runState, gas, common) => {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint]
  return gas + subMemUsage(runState, offset, length, common)
}

/**
 * ethereumjs's `accessStorageEIP2929` (`opcodes/EIP2929.js`) for SLOAD: warms the slot, answers its
 * cost. Its EIP-6800/7864 branches are left out: the fast loop never runs with those on.
 */
function sloadAccessGas(runState: OpcodeRunState, key: Uint8Array, common: Common): bigint {
  if (!common.isActivatedEIP(2929)) return 0n
  const address = runState.interpreter.getAddress().bytes
  const slotIsCold = !runState.interpreter.journal.isWarmedStorage(address, key)
  // Cold (SLOAD and SSTORE)
  if (slotIsCold) {
    runState.interpreter.journal.addWarmedStorage(address, key)
    return common.param('coldsloadGas')
  }
  return common.param('warmstoragereadGas')
}

/** Synchronous copies of ethereumjs's gas handlers, by opcode. */
const SYNC_GAS: ReadonlyMap<number, SyncGasHandler> = new Map<number, SyncGasHandler>([
  // KECCAK256
  [
    0x20,
    (runState, gas, common) => {
      const [offset, length] = runState.stack.peek(2) as [bigint, bigint]
      gas += subMemUsage(runState, offset, length, common)
      gas += common.param('keccak256WordGas') * divCeil(length, 32n)
      return gas
    },
  ],
  // MLOAD
  [0x51, (runState, gas, common) => gas + subMemUsage(runState, runState.stack.peek()[0]!, 32n, common)],
  // MSTORE
  [0x52, (runState, gas, common) => gas + subMemUsage(runState, runState.stack.peek()[0]!, 32n, common)],
  // MSTORE8
  [0x53, (runState, gas, common) => gas + subMemUsage(runState, runState.stack.peek()[0]!, 1n, common)],
  // SLOAD (its EIP-6800/7864 branch left out, as in `sloadAccessGas`)
  [
    0x54,
    (runState, gas, common) => {
      const key = runState.stack.peek()[0]!
      if (common.isActivatedEIP(2929)) gas += sloadAccessGas(runState, wordBytes(key), common)
      return gas
    },
  ],
  // RETURN
  [0xf3, rangeGas],
  // REVERT
  [0xfd, rangeGas],
  ...LOGS.map((op): [number, SyncGasHandler] => [op, logGas]),
])

/** Gas handlers that stay async (they read storage), made from ethereumjs's own: SSTORE (`sstore.ts`). */
type AsyncGasHandler = (runState: SstoreRunState, gas: bigint, common: Common) => Promise<bigint>
const ASYNC_GAS: ReadonlyMap<number, (stock: AsyncGasHandler) => AsyncGasHandler> = new Map([[0x55, sstoreGas]])
/** Handlers made from ethereumjs's own, which they call where they do not serve the fork: SSTORE (`sstore.ts`). */
type AsyncOpHandler = (runState: SstoreRunState, common: Common) => Promise<void>
const WRAPPING_HANDLERS: ReadonlyMap<number, (stock: AsyncOpHandler) => AsyncOpHandler> = new Map([[0x55, sstoreHandler]])
const wrappedHandlers = new WeakMap<object, unknown>()

/**
 * The fast copy of ethereumjs's handler `stock` of opcode `op`, if there is one made this way (made
 * once per handler): for a custom opcode that wraps ethereumjs's (the mining VM's SSTORE, see
 * `storageChanges.ts`), which the fast table leaves as it is.
 */
export function fastStockHandler<H>(op: number, stock: H): H {
  const wrap = WRAPPING_HANDLERS.get(op)
  if (wrap === undefined) return stock
  let fast = wrappedHandlers.get(stock as object) as H | undefined
  if (fast === undefined) wrappedHandlers.set(stock as object, (fast = wrap(stock as unknown as AsyncOpHandler) as unknown as H))
  return fast
}

/** ethereumjs's own handlers (a table entry holding another belongs to a custom opcode). */
let stock: { readonly handlers: ReadonlyMap<number, unknown>; readonly gas: ReadonlyMap<number, unknown> } | undefined
const fastGasHandlers = new WeakMap<object, unknown>()

function stockHandlers(common: Common): NonNullable<typeof stock> {
  if (stock === undefined) {
    const { handlers, dynamicGasHandlers } = getOpcodesForHF(common)
    stock = { handlers, gas: dynamicGasHandlers }
  }
  return stock
}

/**
 * The fast copy of `gas`, opcode `op`'s async gas handler, when `gas` is ethereumjs's own and has
 * one (made once per handler): for a wrapper put on a table entry before the fast table is made
 * of it (the estimator's `GasObserver`), which `fastTable` would otherwise leave to ethereumjs.
 */
export function fastStockGas<H>(op: number, gas: H, common: Common): H {
  const wrap = ASYNC_GAS.get(op)
  if (wrap === undefined || gas !== stockHandlers(common).gas.get(op)) return gas
  let fast = fastGasHandlers.get(gas as object) as H | undefined
  if (fast === undefined) fastGasHandlers.set(gas as object, (fast = wrap(gas as unknown as AsyncGasHandler) as unknown as H))
  return fast
}
/** Each ethereumjs opcode table with the fast copies swapped in (a hardfork change builds a new table). */
const fastTables = new WeakMap<OpcodeTable, OpcodeTable>()

/** `table` with the fast handlers and synchronous gas where it holds ethereumjs's own. */
export function fastTable(table: OpcodeTable, common: Common): OpcodeTable {
  let fast = fastTables.get(table)
  if (fast !== undefined) return fast
  const { handlers, gas } = stockHandlers(common)
  fast = table.map((entry, op) => {
    const stockHandler = handlers.get(op)
    const handler = FAST_HANDLERS.get(op) ?? (WRAPPING_HANDLERS.has(op) ? fastStockHandler(op, stockHandler as OpHandler) : undefined)
    const syncGas = SYNC_GAS.get(op)
    const ownHandler = handler !== undefined && entry.opHandler === stockHandler
    const ownGas = syncGas !== undefined && entry.opcodeInfo.dynamicGas && entry.gasHandler === gas.get(op)
    const halt = HALTS.get(op)
    const ownHalt = halt !== undefined && entry.opHandler === handlers.get(op)
    const asyncGas = ASYNC_GAS.get(op)
    // A custom opcode (the mining VM's SSTORE) that kept ethereumjs's gas handler gets the copy too.
    const ownAsyncGas = asyncGas !== undefined && entry.opcodeInfo.dynamicGas && entry.gasHandler === gas.get(op)
    if (!ownHandler && !ownGas && !ownHalt && !ownAsyncGas) return entry
    return {
      ...entry,
      ...(ownHandler ? { opHandler: handler } : {}),
      ...(ownGas ? { syncGas } : {}),
      ...(ownHalt ? { halt } : {}),
      ...(ownAsyncGas ? { gasHandler: fastStockGas(op, entry.gasHandler, common) } : {}),
    }
  })
  fastTables.set(table, fast)
  return fast
}
