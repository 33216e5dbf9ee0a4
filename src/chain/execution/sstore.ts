/**
 * SSTORE for the fast opcode table (see `fastOpcodes.ts`): ethereumjs's gas handler for the forks a
 * dev chain runs (Istanbul on, EIP-2200 and EIP-2929 rules) and its opcode handler, with words made
 * by `word.ts`.
 *
 * Owns: copies of ethereumjs 10.1.3's SSTORE gas handler (`opcodes/gas.js`, its Istanbul branch),
 * `updateSstoreGasEIP2200` (`opcodes/EIP2200.js`), `adjustSstoreGasEIP2929` (`opcodes/EIP2929.js`)
 * and `setLengthLeftStorage` (`opcodes/util.js`), and of its SSTORE handler (`opcodes/functions.js`,
 * without EIP-8037), line for line but for the padding. A test pins those sources and runs both
 * step by step.
 * Leaves to ethereumjs: every other fork rule (Constantinople's EIP-1283, before Istanbul, EIP-8038,
 * EIP-7928, EIP-6800/7864, EIP-8037's state gas): with any of those the stock handler runs.
 *
 * Why: ethereumjs pads the key and the three values it compares with `setLengthLeft`, which builds
 * each padded array from two spread arrays (the state manager keeps values unpadded, so every
 * value is padded), and turns the key through a hex string: about a fifth of a storage-write
 * transaction's EVM time.
 */
import { Hardfork, type Common } from '@ethereumjs/common'
import { EVMError } from '@ethereumjs/evm'
import { equalsBytes, setLengthLeft } from '@ethereumjs/util'
import { unpadded } from '../encoding.js'
import { wordBytes } from './word.js'

/** The parts of ethereumjs's `RunState` SSTORE's gas reads. */
export interface SstoreRunState {
  readonly stack: { peek(n?: number): bigint[]; popN(n: number): bigint[] }
  readonly interpreter: {
    storageStore(key: Uint8Array, value: Uint8Array): Promise<void>
    isStatic(): boolean
    getGasLeft(): bigint
    getAddress(): { readonly bytes: Uint8Array }
    storageLoad(key: Uint8Array, original: boolean, trackBAL: boolean): Promise<Uint8Array>
    refundGas(amount: bigint, context?: string): void
    subRefund(amount: bigint, context?: string): void
    readonly journal: { isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean; addWarmedStorage(address: Uint8Array, slot: Uint8Array): void }
  }
}
type AsyncGasHandler = (runState: SstoreRunState, gas: bigint, common: Common) => Promise<bigint>

const EMPTY = new Uint8Array(0)

/** The forks of a `Common` (by its hardfork's name) the copy serves: Istanbul on, without the EIPs it leaves to ethereumjs. */
const served = new WeakMap<Common, { hardfork: string; served: boolean }>()

function serves(common: Common): boolean {
  const hardfork = common.hardfork()
  let known = served.get(common)
  if (known?.hardfork !== hardfork) {
    const copied = hardfork !== Hardfork.Constantinople && common.gteHardfork(Hardfork.Istanbul)
    known = { hardfork, served: copied }
    served.set(common, known)
  }
  return known.served && !common.isActivatedEIP(8038) && !common.isActivatedEIP(7928) && !common.isActivatedEIP(6800) && !common.isActivatedEIP(7864)
}

/** `setLengthLeftStorage`: empty when all zeros, else left-padded to 32 bytes (a 32-byte value as it is). */
function storageWord(value: Uint8Array): Uint8Array {
  let zero = true
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== 0) {
      zero = false
      break
    }
  }
  if (zero) return new Uint8Array(0)
  if (value.length === 32) return value
  // Longer than a word: ethereumjs's own error.
  if (value.length > 32) return setLengthLeft(value, 32)
  const padded = new Uint8Array(32)
  padded.set(value, 32 - value.length)
  return padded
}

/** `adjustSstoreGasEIP2929`: the cheaper costs of a slot already warm. */
function adjustSstoreGasEIP2929(runState: SstoreRunState, key: Uint8Array, defaultCost: bigint, costName: 'noop' | 'initRefund' | 'cleanRefund', common: Common): bigint {
  if (!common.isActivatedEIP(2929)) return defaultCost
  const address = runState.interpreter.getAddress().bytes
  const warmRead = common.param('warmstoragereadGas')
  const coldSload = common.param('coldsloadGas')
  if (runState.interpreter.journal.isWarmedStorage(address, key)) {
    switch (costName) {
      case 'noop':
        return warmRead
      case 'initRefund':
        return common.param('sstoreInitEIP2200Gas') - warmRead
      case 'cleanRefund':
        return common.param('sstoreResetGas') - coldSload - warmRead
    }
  }
  return defaultCost
}

/** `updateSstoreGasEIP2200`: the write's gas, refunds given or taken back. */
function updateSstoreGasEIP2200(runState: SstoreRunState, currentStorage: Uint8Array, originalStorage: Uint8Array, value: Uint8Array, key: Uint8Array, common: Common): bigint {
  // Fail if not enough gas is left
  if (runState.interpreter.getGasLeft() <= common.param('sstoreSentryEIP2200Gas')) throw new EVMError(EVMError.errorMessages.OUT_OF_GAS)
  // Noop
  if (equalsBytes(currentStorage, value)) {
    const sstoreNoopCost = common.param('sstoreNoopEIP2200Gas')
    return adjustSstoreGasEIP2929(runState, key, sstoreNoopCost, 'noop', common)
  }
  if (equalsBytes(originalStorage, currentStorage)) {
    // Create slot
    if (originalStorage.length === 0) return common.param('sstoreInitEIP2200Gas')
    // Delete slot
    if (value.length === 0) runState.interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
    // Write existing slot
    return common.param('sstoreCleanEIP2200Gas')
  }
  if (originalStorage.length > 0) {
    if (currentStorage.length === 0) {
      // Recreate slot
      runState.interpreter.subRefund(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
    } else if (value.length === 0) {
      // Delete slot
      runState.interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
    }
  }
  if (equalsBytes(originalStorage, value)) {
    if (originalStorage.length === 0) {
      // Reset to original non-existent slot
      const sstoreInitRefund = common.param('sstoreInitRefundEIP2200Gas')
      runState.interpreter.refundGas(adjustSstoreGasEIP2929(runState, key, sstoreInitRefund, 'initRefund', common), 'EIP-2200 -> initRefund')
    } else {
      // Reset to original existing slot
      const sstoreCleanRefund = common.param('sstoreCleanRefundEIP2200Gas')
      runState.interpreter.refundGas(BigInt(adjustSstoreGasEIP2929(runState, key, sstoreCleanRefund, 'cleanRefund', common)), 'EIP-2200 -> cleanRefund')
    }
  }
  // Dirty update
  return common.param('sstoreDirtyEIP2200Gas')
}

/**
 * SSTORE's gas: ethereumjs's handler (`stock`) where the copy does not serve the fork, else its
 * Istanbul branch, then EIP-2929's access (`accessStorageEIP2929` with `isSstore`: a warm slot costs nothing more).
 */
export function sstoreGas(stock: AsyncGasHandler): AsyncGasHandler {
  return async (runState, gas, common) => {
    if (!serves(common)) return stock(runState, gas, common)
    if (runState.interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE)
    const [key, val] = runState.stack.peek(2) as [bigint, bigint]
    const keyBytes = wordBytes(key)
    const currentStorage = storageWord(await runState.interpreter.storageLoad(keyBytes, false, false))
    const originalStorage = storageWord(await runState.interpreter.storageLoad(keyBytes, true, false))
    gas += updateSstoreGasEIP2200(runState, currentStorage, originalStorage, val === 0n ? EMPTY : wordBytes(val), keyBytes, common)
    if (common.isActivatedEIP(2929)) {
      const address = runState.interpreter.getAddress().bytes
      if (!runState.interpreter.journal.isWarmedStorage(address, keyBytes)) {
        runState.interpreter.journal.addWarmedStorage(address, keyBytes)
        gas += common.param('coldsloadGas')
      }
    }
    return gas
  }
}

type OpHandler = (runState: SstoreRunState, common: Common) => Promise<void>

/**
 * SSTORE itself: ethereumjs's handler (`stock`) under EIP-8037 (state gas), else its store of the
 * value without leading zeros (`bigIntToBytes`) under the key as a word.
 */
export function sstoreHandler(stock: OpHandler): OpHandler {
  return async (runState, common) => {
    if (common.isActivatedEIP(8037)) return stock(runState, common)
    const [key, val] = runState.stack.popN(2) as [bigint, bigint]
    await runState.interpreter.storageStore(wordBytes(key), val === 0n ? new Uint8Array(0) : unpadded(val))
  }
}
