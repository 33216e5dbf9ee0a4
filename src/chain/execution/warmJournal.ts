/**
 * ethereumjs's `Journal.addAlwaysWarmAddress` (10.1.3) without a regular expression for addresses
 * given without `0x`, and its four warm-set methods of addresses and slots (`isWarmedAddress`,
 * `addWarmedAddress`, `isWarmedStorage`, `addWarmedStorage`) and `touchAddress` (each account
 * write of a transaction, five per transfer) with keys written by `keyOf`,
 * installed on the journals of the EVMs the chain runs on (see `fastInterpreter.ts`). Every call
 * and transaction warms each precompile, its sender and recipient through the first (some 20
 * addresses), and ethereumjs's `stripHexPrefix` matches each one against `/^0x[0-9A-Fa-f]*$/`
 * before it finds nothing to strip; every SLOAD and SSTORE asks and sets a slot's warmth, each
 * time writing the address and the slot as hex two digits at a time (@noble/hashes' `bytesToHex`).
 * Owns: those methods, own properties of each journal, copied line for line but for the strip and
 * the hex; and a warm set of addresses shared between runs (the precompiles', see `warmShared`),
 * which `isWarmedAddress` consults too and `cleanJournal` (copied likewise) lets go.
 * Leaves everything else to ethereumjs's journal. A test pins the sources copied.
 */
import { EthereumJSErrorWithoutCode } from '@ethereumjs/util'
import { keyOf } from '../encoding.js'

/** The parts of ethereumjs's `Journal` the method uses. */
export interface WarmJournal {
  alwaysWarmJournal: Map<string, Set<string>>
  /** Always-warm addresses shared with other runs, their slot sets empty and never written (see `warmShared`). */
  sharedWarm?: ReadonlyMap<string, ReadonlySet<string>> | undefined
  journalHeight: number
  touched: Set<string>
  journal: Map<string, Set<string>>
  readonly accessList?: Map<string, Set<string>>
  /** Per checkpoint: the addresses and the slots (by address) warmed since. */
  journalDiff: [number, [Set<string>, Map<string, Set<string>>, Set<string>]][]
  addAlwaysWarmAddress(addressStr: string, addToAccessList?: boolean): void
  isWarmedAddress(address: Uint8Array): boolean
  addWarmedAddress(address: Uint8Array): void
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void
  touchAccount(address: string): void
  touchAddress(address: { readonly bytes: Uint8Array }): void
  cleanJournal(): void
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

/** `Journal.isWarmedAddress`, the shared warm set consulted too. */
function isWarmedAddress(this: WarmJournal, address: Uint8Array): boolean {
  const addressHex = keyOf(address)
  return this.journal.has(addressHex) || this.alwaysWarmJournal.has(addressHex) || this.sharedWarm?.has(addressHex) === true
}

/** `Journal.cleanJournal`, letting the shared warm set go. */
function cleanJournal(this: WarmJournal): void {
  this.journalHeight = 0
  this.journal = new Map()
  this.alwaysWarmJournal = new Map()
  this.touched = new Set()
  this.journalDiff = [[0, [new Set(), new Map(), new Set()]]]
  this.sharedWarm = undefined
}

/**
 * Makes the addresses of `warm` always warm in `journal` until its next \`cleanJournal\`, as
 * \`addAlwaysWarmAddress\` on each would, without copying them into its own set: for a journal
 * these methods are installed on (false for another, which must be given them one by one).
 * \`warm\`'s slot sets must stay empty: \`isWarmedStorage\` does not look there (nothing warm to find).
 */
export function warmShared(journal: WarmJournal, warm: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  if (journal.isWarmedAddress !== isWarmedAddress) return false
  journal.sharedWarm = warm
  return true
}

/** `Journal.addWarmedAddress`. */
function addWarmedAddress(this: WarmJournal, addressArr: Uint8Array): void {
  const address = keyOf(addressArr)
  if (!this.journal.has(address)) {
    this.journal.set(address, new Set())
    const diffArr = this.journalDiff[this.journalDiff.length - 1]![1]
    diffArr[0].add(address)
  }
  if (this.accessList !== undefined) {
    if (!this.accessList.has(address)) {
      this.accessList.set(address, new Set())
    }
  }
}

/** `Journal.isWarmedStorage`. */
function isWarmedStorage(this: WarmJournal, address: Uint8Array, slot: Uint8Array): boolean {
  const addressHex = keyOf(address)
  const slots = this.journal.get(addressHex)
  if (slots === undefined) {
    if (this.alwaysWarmJournal.has(addressHex)) return this.alwaysWarmJournal.get(addressHex)!.has(keyOf(slot))
    return false
  }
  if (slots.has(keyOf(slot))) return true
  else if (this.alwaysWarmJournal.has(addressHex)) return this.alwaysWarmJournal.get(addressHex)!.has(keyOf(slot))
  return false
}

/** `Journal.addWarmedStorage`. */
function addWarmedStorage(this: WarmJournal, address: Uint8Array, slot: Uint8Array): void {
  const addressHex = keyOf(address)
  let slots = this.journal.get(addressHex)
  if (slots === undefined) {
    this.addWarmedAddress(address)
    slots = this.journal.get(addressHex)!
  }
  const slotStr = keyOf(slot)
  if (!slots.has(slotStr)) {
    slots.add(slotStr)
    const diff = this.journalDiff[this.journalDiff.length - 1]![1]
    const addressSlotMap = diff[1]
    if (!addressSlotMap.has(addressHex)) addressSlotMap.set(addressHex, new Set())
    addressSlotMap.get(addressHex)!.add(slotStr)
  }
  if (this.accessList !== undefined) {
    // Note: in `addWarmedAddress` the address is added to warm addresses
    this.accessList.get(addressHex)!.add(slotStr)
  }
}

/** `Journal.touchAddress`: the key its `address.toString().slice(2)` writes, written natively. */
function touchAddress(this: WarmJournal, address: { readonly bytes: Uint8Array }): void {
  this.touchAccount(keyOf(address.bytes))
}

/** Installs the methods on `journal` (its own properties). */
export function installWarmJournal(journal: WarmJournal): void {
  journal.addAlwaysWarmAddress = addAlwaysWarmAddress
  journal.isWarmedAddress = isWarmedAddress
  journal.addWarmedAddress = addWarmedAddress
  journal.isWarmedStorage = isWarmedStorage
  journal.addWarmedStorage = addWarmedStorage
  journal.touchAddress = touchAddress
  journal.cleanJournal = cleanJournal
}
