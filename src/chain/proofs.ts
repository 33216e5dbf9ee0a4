/**
 * EIP-1186 proofs (`eth_getProof`): the account trie and one account's storage trie as of a block,
 * and the trie nodes that prove an account and some of its slots, as geth's `trie.Prove` lists them.
 *
 * Owns: turning a captured picture of the state (`ProofSource`, taken by `WorldState`) into the
 * tries of that block, and reading the proofs and proven values out of them.
 * Leaves to others: which state a block had and how history is kept (`state.ts` captures it),
 * block references (`chain.ts`), hex and wire shapes (`src/rpc/`).
 *
 * Why from the head's tries: `WorldState` only keeps the head's tries. An older block's tries are
 * the head's with that block's later changes put back; the tries are persistent, so putting them
 * back makes new nodes beside the head's and changes nothing the chain holds.
 */
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToBigInt, createAccountFromRLP, equalsBytes, unprefixedHexToBytes } from '@ethereumjs/util'
import { encodeAccount, keyOf } from './encoding.js'
import { trieDelete, trieGet, trieProof, trieRoot, trieSet, type NibblePath, type Tries } from './trie.js'
import type { AccountRecord } from './types.js'

/** An account's fields as its trie leaf holds them. */
export interface ProvenAccount {
  readonly nonce: bigint
  readonly balance: bigint
  readonly storageRoot: Uint8Array
  readonly codeHash: Uint8Array
}

/** One slot's value and the storage-trie nodes that prove it (empty when the account has no storage). */
export interface SlotProof {
  /** The 32-byte slot. */
  readonly slot: Uint8Array
  readonly value: bigint
  readonly proof: readonly Uint8Array[]
}

/** An account (undefined: none at that block) with its account-trie proof and the proofs of the slots asked for. */
export interface AccountProof {
  readonly address: Uint8Array
  readonly account: ProvenAccount | undefined
  readonly accountProof: readonly Uint8Array[]
  readonly storageProof: readonly SlotProof[]
}

/**
 * What a proof is built from, captured synchronously by `WorldState` so that blocks mined while
 * the proof is built cannot change it. Keys are unprefixed lowercase hex.
 */
export interface ProofSource {
  readonly keccak: (data: Uint8Array) => Uint8Array
  /** The head's tries (or the pending block's). */
  readonly tries: Tries
  /** Accounts to put back as they were at the block asked for (undefined: did not exist). */
  readonly accounts: ReadonlyArray<readonly [address: string, record: AccountRecord | undefined]>
  /** The account proven. */
  readonly address: string
  /** Its slots to put back as they were at the block asked for (empty value: zero). */
  readonly slots: ReadonlyArray<readonly [slot: string, value: Uint8Array]>
}

/**
 * Puts `source`'s accounts and slots back into its tries and proves `address` and each of
 * `slots` (32-byte keys, unprefixed hex). Throws if the storage trie it rebuilt does not hash to
 * the storage root its account leaf names (a broken history).
 */
export async function buildProof(source: ProofSource, slots: readonly string[]): Promise<AccountProof> {
  const { keccak } = source
  const path = (key: string): NibblePath => keyOf(keccak(Buffer.from(key, 'hex')))

  let accountTrie = source.tries.accounts
  for (const [address, record] of source.accounts) {
    accountTrie = record === undefined ? trieDelete(accountTrie, path(address)) : trieSet(accountTrie, path(address), encodeAccount(record))
  }
  const addressPath = path(source.address)
  const leaf = trieGet(accountTrie, addressPath)
  const account = leaf === undefined ? undefined : decodeAccount(leaf)
  const accountProof = trieProof(accountTrie, addressPath, keccak)

  const storageProof: SlotProof[] = []
  const storageRoot = account?.storageRoot ?? KECCAK256_RLP
  if (equalsBytes(storageRoot, KECCAK256_RLP)) {
    // No storage (or no account): geth proves nothing and answers zero.
    for (const slot of slots) storageProof.push({ slot: unprefixedHexToBytes(slot), value: 0n, proof: [] })
  } else {
    let storageTrie = source.tries.storage.get(source.address)
    for (const [slot, value] of source.slots) {
      storageTrie = value.length === 0 ? trieDelete(storageTrie, path(slot)) : trieSet(storageTrie, path(slot), RLP.encode(value))
    }
    if (!equalsBytes(trieRoot(storageTrie, keccak), storageRoot)) {
      throw new Error(`storage trie of 0x${source.address} does not hash to its account's storage root`)
    }
    for (const slot of slots) {
      const slotPath = path(slot)
      const stored = trieGet(storageTrie, slotPath)
      const value = stored === undefined ? 0n : bytesToBigInt(RLP.decode(stored) as Uint8Array)
      storageProof.push({ slot: unprefixedHexToBytes(slot), value, proof: trieProof(storageTrie, slotPath, keccak) })
    }
  }
  return { address: unprefixedHexToBytes(source.address), account, accountProof, storageProof }
}

function decodeAccount(leaf: Uint8Array): ProvenAccount {
  const account = createAccountFromRLP(leaf)
  return { nonce: account.nonce, balance: account.balance, storageRoot: account.storageRoot, codeHash: account.codeHash }
}
