/**
 * ethereumjs's `Journal.addAlwaysWarmAddress` (10.1.3) without a regular expression for addresses
 * given without `0x`, installed on the journals of the EVMs the chain runs on (see
 * `fastInterpreter.ts`). Every call and transaction warms each precompile, its sender and
 * recipient through it (some 20 addresses), and ethereumjs's `stripHexPrefix` matches each one
 * against `/^0x[0-9A-Fa-f]*$/` before it finds nothing to strip.
 * Owns: that method, an own property of each journal, copied line for line but for the strip.
 * Leaves everything else to ethereumjs's journal. A test pins the source copied.
 */
import { EthereumJSErrorWithoutCode } from '@ethereumjs/util'

/** The parts of ethereumjs's `Journal` the method uses. */
export interface WarmJournal {
  readonly alwaysWarmJournal: Map<string, Set<string>>
  readonly accessList?: Map<string, Set<string>>
  addAlwaysWarmAddress(addressStr: string, addToAccessList?: boolean): void
}

const HEX_PREFIXED = /^0x[0-9A-Fa-f]*$/

/** ethereumjs's `stripHexPrefix`: the regular expression only for a string that starts with `0x`. */
function stripHexPrefix(str: string): string {
  if (typeof str !== 'string') throw EthereumJSErrorWithoutCode(`[stripHexPrefix] input must be type 'string', received ${typeof str}`)
  return str.startsWith('0x') && HEX_PREFIXED.test(str) ? str.slice(2) : str
}

/** `Journal.addAlwaysWarmAddress`, its strip the one above. */
function addAlwaysWarmAddress(this: WarmJournal, addressStr: string, addToAccessList = false): void {
  const address = stripHexPrefix(addressStr)
  if (!this.alwaysWarmJournal.has(address)) {
    this.alwaysWarmJournal.set(address, new Set())
  }
  if (addToAccessList && this.accessList !== undefined) {
    if (!this.accessList.has(address)) {
      this.accessList.set(address, new Set())
    }
  }
}

/** Installs the method on `journal` (its own property). */
export function installWarmJournal(journal: WarmJournal): void {
  journal.addAlwaysWarmAddress = addAlwaysWarmAddress
}
