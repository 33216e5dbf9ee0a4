/**
 * Proven and bulk state reads: `eth_getProof` (EIP-1186 account and storage proofs) and
 * `eth_getStorageValues` (many slots of many accounts in one request), as geth answers them.
 *
 * Owns: their params, limits and wire shapes (geth's key echo, zero hashes for a missing
 * account). Leaves the tries and the history of the window to `src/chain/` (`Chain.proof`,
 * `WorldState.prove`).
 */
import { bytesToBigInt, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { AccountProof } from '../../chain/proofs.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec } from '../dispatcher.js'
import { ClientLimitExceededError, InvalidParamsError } from '../errors.js'
import { toData, toPaddedData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { optional } from '../params/decode.js'
import { address, storageKey, storageKeyList, storageRequests } from '../params/values.js'

/** geth's cap on the slots of one `eth_getStorageValues` request. */
export const MAX_STORAGE_VALUES = 1024

const ZERO_HASH = new Uint8Array(32)

/**
 * `eth_getProof(address, storageKeys, block = latest)`: the account's fields with the account-trie
 * nodes that prove them, and each slot's value with its storage-trie nodes. Any block of the
 * window can be proven, and `pending`.
 *
 * @example
 * // → { address, accountProof: ['0xf90211…', …], balance, codeHash, nonce, storageHash,
 * //     storageProof: [{ key: '0x0', value: '0x38', proof: [ … ] }] }
 */
export function getProofMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([address, storageKeyList, optional(blockParam, LATEST)], async ([owner, texts, block], ctx) => {
    // As geth: the keys are read once every argument is decoded, and before any state is.
    const keys = texts.map(storageKey)
    const chain = await chainFor(ctx)
    const proof = await chain.proof(owner, keys.map((k) => k.slot), block)
    return proofJson(proof, keys.map((k) => k.length))
  })
}

/**
 * geth's AccountResult. A missing account has zero balance and nonce and, as geth answers, zero
 * (not empty-trie) code and storage hashes. A slot key given as 32 bytes is echoed as it came,
 * a shorter one as a quantity (`0x00` → `0x0`), as geth does for older clients' sake.
 */
function proofJson(proof: AccountProof, keyLengths: readonly number[]) {
  const account = proof.account
  return {
    address: toData(proof.address),
    accountProof: proof.accountProof.map(toData),
    balance: toQuantity(account?.balance ?? 0n),
    codeHash: toData(account?.codeHash ?? ZERO_HASH),
    nonce: toQuantity(account?.nonce ?? 0n),
    storageHash: toData(account?.storageRoot ?? ZERO_HASH),
    storageProof: proof.storageProof.map((slot, i) => ({
      key: keyLengths[i] === 32 ? toData(slot.slot) : toQuantity(bytesToBigInt(slot.slot)),
      value: toQuantity(slot.value),
      proof: slot.proof.map(toData),
    })),
  }
}

/**
 * `eth_getStorageValues({ address: [slot, …], … }, block = latest)`: each slot's 32-byte value,
 * keyed and ordered as the request. At most 1024 slots in all (-38026); none at all is
 * `empty request` (-32602).
 *
 * @example
 * // { '0x7dcd…': ['0x00…00'] } → { '0x7dcd…': ['0x00…0038'] }
 */
export function getStorageValuesMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([storageRequests, optional(blockParam, LATEST)], async ([requests, block], ctx) => {
    let total = 0
    for (const request of requests) {
      total += request.slots.length
      if (total > MAX_STORAGE_VALUES) throw new ClientLimitExceededError(`too many slots (max ${MAX_STORAGE_VALUES})`)
    }
    if (total === 0) throw new InvalidParamsError('empty request')
    const chain = await chainFor(ctx)
    // A forked chain fetches every slot not held yet at once, rather than one per rerun.
    await Promise.all(requests.map((request) => chain.load(request.address, request.slots)))
    const state = await chain.stateAt(block)
    const result: Record<string, string[]> = {}
    for (const request of requests) {
      const owner = bytesToUnprefixedHex(request.address)
      result[toData(request.address)] = request.slots.map((slot) => toPaddedData(state.storage(owner, bytesToUnprefixedHex(slot)), 32))
    }
    return result
  })
}
