/**
 * What a run did that could make it end differently with a lower gas limit, recorded by wrapping
 * the few opcodes that can see the gas left (the estimator's proof that its check run would
 * succeed, see `estimate.ts`).
 *
 * A frame's outcome depends on its gas limit only where it reads the gas left: GAS, the 63/64
 * rule of the call and create opcodes, SSTORE's EIP-2200 stipend check, and running out. A call
 * also buys its gas up front, so a read of the sender's balance sees the limit too.
 * Owns: the wrappers on one EVM's opcode table (its own entries, other EVMs untouched) and the
 * record of one run. Leaves deciding what the record proves to `estimate.ts`.
 */
import type { Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { bigIntToBytes, equalsBytes, setLengthLeft } from '@ethereumjs/util'
import { fastStockGas } from './fastOpcodes.js'

/** One observed run. */
export interface GasObservation {
  /** The run reached an opcode whose effect can hang on its gas limit (SSTORE aside). */
  gasDependent: boolean
  /** The least gas left at an SSTORE's stipend check (undefined: no SSTORE ran). */
  leastGasAtSstore: bigint | undefined
}

/** A fresh record, nothing seen yet. */
export function newObservation(): GasObservation {
  return { gasDependent: false, leastGasAtSstore: undefined }
}

/**
 * EIPs that add other points where the gas left matters (EOF's calls, state gas, binary trees,
 * frame charges, block access lists): with any of them on, every run counts as gas-dependent.
 */
const UNOBSERVED_EIPS = [2780, 3540, 6800, 7692, 7864, 7928, 8037] as const

const SSTORE = 0x55
/** Opcodes whose effect can hang on the gas left: GAS, the calls and creates (63/64), EOF's calls and create. */
const GAS_READERS = [0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa, 0xf8, 0xf9, 0xfb, 0xec] as const
const BALANCE = 0x31
const SELFBALANCE = 0x47
/** Moves the executing account's balance, which is the sender's when it runs delegated code. */
const SELFDESTRUCT = 0xff

/** What the wrappers read of ethereumjs's run state (its type is internal). */
interface RunState {
  readonly interpreter: { getGasLeft(): bigint; getAddress(): { bytes: Uint8Array } }
  readonly stack: { peek(count?: number): bigint[] }
}
type Handler = (runState: RunState, second?: unknown, third?: unknown) => unknown
interface OpcodeEntry {
  readonly opcodeInfo: { readonly code: number }
  readonly opHandler: Handler
  readonly gasHandler?: Handler
}
interface EVMTable {
  _opcodeMap: OpcodeEntry[]
}

/**
 * Watches the runs of one EVM. The wrappers stay on its table (a run that is not watched pays one
 * field read on those opcodes); `watch` re-wraps a table ethereumjs rebuilt since.
 */
export class GasObserver {
  readonly #evm: EVMTable
  readonly #sound: boolean
  readonly #common: Common
  #table: OpcodeEntry[] | undefined
  #current: GasObservation | undefined
  #sender: Uint8Array = new Uint8Array(20)

  constructor(evm: EVM, common: Common) {
    this.#evm = evm as unknown as EVMTable
    this.#common = common
    this.#sound = !UNOBSERVED_EIPS.some((eip) => common.isActivatedEIP(eip))
    this.#wrap()
  }

  /** Records into `observation` what the runs until `stop()` do; `sender` is the account that bought their gas. */
  start(observation: GasObservation, sender: Uint8Array): void {
    if (this.#evm._opcodeMap !== this.#table) this.#wrap()
    if (!this.#sound) observation.gasDependent = true
    this.#current = observation
    this.#sender = sender
  }

  stop(): void {
    this.#current = undefined
  }

  #wrap(): void {
    const table = this.#evm._opcodeMap
    this.#table = table
    for (const code of GAS_READERS) this.#wrapEntry(table, code, (o) => (o.gasDependent = true))
    this.#wrapEntry(table, SELFDESTRUCT, (o) => (o.gasDependent = true))
    this.#wrapEntry(table, SELFBALANCE, (o, runState) => {
      if (equalsBytes(runState.interpreter.getAddress().bytes, this.#sender)) o.gasDependent = true
    })
    this.#wrapEntry(table, BALANCE, (o, runState) => {
      const address = setLengthLeft(bigIntToBytes(runState.stack.peek(1)[0]! & ADDRESS_MASK), 20)
      if (equalsBytes(address, this.#sender)) o.gasDependent = true
    })
    this.#wrapEntry(table, SSTORE, (o, runState) => {
      const left = runState.interpreter.getGasLeft()
      if (o.leastGasAtSstore === undefined || left < o.leastGasAtSstore) o.leastGasAtSstore = left
    })
  }

  /**
   * Puts in `table[code]` a copy of its entry that tells `note` first, from its gas handler when it
   * has one (that runs first, and holds the 63/64 rule and the stipend check), else its handler.
   */
  #wrapEntry(table: OpcodeEntry[], code: number, note: (o: GasObservation, runState: RunState) => void): void {
    const entry = table[code]
    // Opcodes the fork lacks share the INVALID entry.
    if (entry === undefined || entry.opcodeInfo.code !== code) return
    const part = entry.gasHandler === undefined ? 'opHandler' : 'gasHandler'
    // The fast table is made of this table later and keeps only ethereumjs's own handlers' fast
    // copies (`fastOpcodes.ts`): a wrapper of ethereumjs's SSTORE gas would run its slow original.
    const inner = part === 'gasHandler' ? fastStockGas(code, entry.gasHandler!, this.#common) : entry.opHandler
    const observer = this
    const wrapped: Handler = function (runState, second, third) {
      const observation = observer.#current
      if (observation !== undefined) note(observation, runState)
      return inner(runState, second, third)
    }
    table[code] = { ...entry, [part]: wrapped }
  }
}

const ADDRESS_MASK = (1n << 160n) - 1n
