/**
 * ringchain's storage-inspection methods: `ringchain_storageLayout` (an account's non-zero slots at a
 * block, each with the path that computed it when the recorded keccak preimages tell) and
 * `ringchain_storageDiff` (the storage changes a transaction or a block made).
 *
 * Owns: their params and wire shapes, and the textual path of a slot (`1[0xf39f…][0x7099…]`,
 * `keccak(2)+5`). Leaves the recording and the state history to `src/chain/`, and what a path means
 * for a given contract (its solc storage layout) to `src/inspect/`.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { StorageChange, StorageSlot } from '../../chain/chain.js'
import type { SlotDerivation, SlotStep } from '../../chain/preimages.js'
import type { BlockRecord } from '../../chain/types.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toData, toPaddedData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { optional } from '../params/decode.js'
import { address } from '../params/values.js'

/** The storage-inspection methods over `chainFor`. */
export function storageMethods(chainFor: ChainFor) {
  return {
    ringchain_storageLayout: storageLayoutMethod(chainFor),
    ringchain_storageDiff: storageDiffMethod(chainFor),
  } satisfies Registry
}

/**
 * `ringchain_storageLayout(address, block = latest)`: every non-zero slot of the account at the block.
 *
 * @example
 * // → { address, blockNumber, blockHash, slots: [{ slot, value, path: '0[0xf39f…]', derivation }] }
 */
function storageLayoutMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([address, optional(blockParam, LATEST)], async ([owner, block], ctx) => {
    const chain = await chainFor(ctx)
    if (block.kind === 'tag' && block.tag === 'pending') throw new InvalidParamsError('invalid argument 1: the pending block has no storage history; use latest')
    const record = chain.resolveBlock(block)
    return {
      address: toData(owner),
      ...blockFields(record),
      slots: chain.storageSlots(owner, record).map(slotJson),
    }
  })
}

/**
 * `ringchain_storageDiff(target, address?)`: the storage changes of a transaction (by hash) or of a
 * block (number, tag or hash), optionally of one account only.
 */
function storageDiffMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([blockParam, optional(address)], async ([target, only], ctx) => {
    const chain = await chainFor(ctx)
    const keep = (changes: readonly StorageChange[]) => {
      const account = only === undefined ? undefined : bytesToUnprefixedHex(only)
      return (account === undefined ? changes : changes.filter((c) => c.address === account)).map(changeJson)
    }
    if (target.kind === 'hash') {
      const found = chain.lookupTransaction(target.hash)
      if (found?.status === 'pending') throw new ServerError(`transaction ${toData(target.hash)} is pending: it has changed nothing yet`)
      if (found?.status === 'included') {
        const included = found.included
        const changes = chain.transactionStorageChanges(included)
        if (changes === undefined) {
          throw new ServerError(`the storage changes of transaction ${toData(target.hash)} were not recorded (its block was imported): ask for block ${included.blockNumber}`)
        }
        return { ...blockFields(chain.blockByNumber(included.blockNumber)!), transactionHash: toData(included.hash), transactionIndex: toQuantity(included.index), changes: keep(changes) }
      }
      const record = chain.blockByHash(target.hash)
      if (record === undefined) throw new ServerError(`no transaction or block ${toData(target.hash)} in the window`)
      return { ...blockFields(record), changes: keep(chain.blockStorageChanges(record)) }
    }
    if (target.kind === 'tag' && target.tag === 'pending') throw new InvalidParamsError('invalid argument 0: the pending block has changed nothing yet')
    const record = chain.resolveBlock(target)
    return { ...blockFields(record), changes: keep(chain.blockStorageChanges(record)) }
  })
}

function blockFields(record: BlockRecord) {
  return { blockNumber: toQuantity(record.number), blockHash: toData(record.hash) }
}

function slotJson(s: StorageSlot) {
  return { slot: '0x' + s.slot, value: toPaddedData(s.value, 32), ...derivationFields(s.derivation) }
}

function changeJson(c: StorageChange) {
  return {
    address: '0x' + c.address,
    slot: '0x' + c.slot,
    before: toPaddedData(c.before, 32),
    after: toPaddedData(c.after, 32),
    ...derivationFields(c.derivation),
  }
}

function derivationFields(d: SlotDerivation | undefined) {
  if (d === undefined) return { path: null, derivation: null }
  return { path: formatPath(d), derivation: { root: toQuantity(d.root), steps: d.steps.map(stepJson) } }
}

function stepJson(step: SlotStep) {
  switch (step.kind) {
    case 'mapping':
      return { kind: 'mapping', key: toData(step.key) }
    case 'keccak':
      return { kind: 'keccak' }
    case 'offset':
      return { kind: 'offset', by: toQuantity(step.by) }
  }
}

/**
 * A derivation as text: the root slot (decimal; hex when large), `[key]` per mapping entry (a 32-byte key as a
 * number in hex; a string/bytes key as a quoted string when printable, else `hex"…"`),
 * `keccak(…)` for the data of a dynamic value, `+n` for an offset.
 *
 * @example formatPath({ root: 1n, steps: [{ kind: 'mapping', key: owner }, { kind: 'mapping', key: spender }] }) // '1[0xf39f…][0x7099…]'
 */
export function formatPath(d: SlotDerivation): string {
  // A state variable's slot in decimal; a large root (a constant such as an ERC-7201 namespace) in hex.
  let out = d.root < 1n << 64n ? d.root.toString() : toQuantity(d.root)
  for (const step of d.steps) {
    if (step.kind === 'keccak') out = `keccak(${out})`
    else if (step.kind === 'offset') out += `+${step.by}`
    else out += `[${formatKey(step.key)}]`
  }
  return out
}

function formatKey(key: Uint8Array): string {
  if (key.length === 32) return toQuantity(BigInt(toData(key)))
  const text = new TextDecoder('utf-8', { fatal: false }).decode(key)
  return key.length > 0 && /^[\x20-\x7e]*$/.test(text) ? JSON.stringify(text) : `hex"${bytesToUnprefixedHex(key)}"`
}
