/**
 * The address a contract is created at, hashed with the chain's keccak: CREATE's from the creator
 * and its nonce, CREATE2's from the creator, the salt and the init code's hash (EIP-1014).
 * `installCreatedAddress` puts ethereumjs's `EVM._generateAddress` (10.1.3) on the EVMs the chain
 * runs on (see `fastInterpreter.ts`), copied but for the hash.
 *
 * Why: ethereumjs's `generateAddress` and `generateAddress2` hash with @noble/hashes' JavaScript
 * keccak, not the Common's. A deployment asks it twice when mined (the address, then again to warm
 * it) and again in each estimate, and the receipt once more. In a served chain between a client's
 * requests that was 2-3% of the server's CPU for a test that deploys one contract: called a few
 * times per test, the JavaScript keccak never gets hot. The WebAssembly one costs about a
 * microsecond.
 *
 * Owns: those two hashes and the method. Leaves everything else to ethereumjs; a test pins the
 * method copied and compares the addresses with ethereumjs's.
 */
import type { EVM } from '@ethereumjs/evm'
import { Account, Address } from '@ethereumjs/util'
import { keccakOf } from '../crypto.js'
import { encodeFlatList, unpadded } from '../encoding.js'

type Keccak = (data: Uint8Array) => Uint8Array

/**
 * CREATE: the last 20 bytes of keccak(rlp([creator, nonce])), a zero nonce as the empty string.
 * Encoded by `encoding.ts` in one pass: @ethereumjs/rlp's `encode` and `bigIntToUnpaddedBytes`
 * go through hex strings, and cost more than the hash.
 */
export function createdAddress(creator: Uint8Array, nonce: bigint, keccak: Keccak): Uint8Array {
  return keccak(encodeFlatList([creator, unpadded(nonce)])).subarray(12)
}

/** CREATE2: the last 20 bytes of keccak(0xff ++ creator ++ salt ++ keccak(initCode)). */
export function create2Address(creator: Uint8Array, salt: Uint8Array, initCode: Uint8Array, keccak: Keccak): Uint8Array {
  const preimage = new Uint8Array(85)
  preimage[0] = 0xff
  preimage.set(creator, 1)
  preimage.set(salt, 21)
  preimage.set(keccak(initCode), 53)
  return keccak(preimage).subarray(12)
}

/** What `_generateAddress` reads of its message (ethereumjs's `Message`). */
interface CreateMessage {
  readonly caller: Address
  readonly salt?: Uint8Array
  readonly code?: unknown
}

interface EVMInternals {
  readonly common: EVM['common']
  readonly stateManager: EVM['stateManager']
  _generateAddress(message: CreateMessage): Promise<Address>
}

/** Puts `_generateAddress` with the Common's keccak on `evm` (an own property; other EVMs keep ethereumjs's). */
export function installCreatedAddress(evm: EVM): void {
  const internals = evm as unknown as EVMInternals
  const ethereumjs = internals._generateAddress
  const keccak = keccakOf(internals.common)
  internals._generateAddress = async function (this: EVMInternals, message: CreateMessage): Promise<Address> {
    const salt = message.salt
    if (salt) {
      // ethereumjs's own checks and their errors for anything but a 20-byte creator, a 32-byte salt and bytes of code.
      if (message.caller.bytes.length !== 20 || salt.length !== 32 || !(message.code instanceof Uint8Array)) return ethereumjs.call(this, message)
      return new Address(create2Address(message.caller.bytes, salt, message.code, keccak))
    }
    const account = (await this.stateManager.getAccount(message.caller)) ?? new Account()
    const nonce = account.nonce - 1n
    // Never below zero for a creation that runs (its creator's nonce went up first); ethereumjs says what it says then.
    if (nonce < 0n) return ethereumjs.call(this, message)
    return new Address(createdAddress(message.caller.bytes, nonce, keccak))
  }
}
