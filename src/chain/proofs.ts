/**
 * EIP-1186 proofs (`eth_getProof`): the account trie and one account's storage trie as of a block,
 * and the trie nodes that prove an account and some of its slots, as geth's `trie.Prove` lists them.
 *
 * Owns: turning a captured picture of the state (`ProofSource`, taken by `WorldState`) into tries
 * over a scratch node layer, and reading the proofs and proven values out of them.
 * Leaves to others: which state a block had and how history is kept (`state.ts` captures it),
 * block references (`chain.ts`), hex and wire shapes (`src/rpc/`).
 *
 * Why a scratch layer over the shared nodes: `WorldState` only guarantees the head's trie nodes
 * (older ones are garbage-collected). An older block's tries are the head's with that block's
 * later changes put back, so the puts go to a private overlay map and the shared node map is only
 * read: nothing the chain holds changes, and the overlay is dropped with the answer.
 */
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie, createMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import {
  Account,
  KECCAK256_RLP,
  MapDB,
  ValueEncoding,
  bytesToBigInt,
  bytesToUnprefixedHex,
  createAccountFromRLP,
  equalsBytes,
  unprefixedHexToBytes,
} from '@ethereumjs/util'
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
 * the tries are walked cannot change it. Keys are unprefixed lowercase hex.
 */
export interface ProofSource {
  readonly common: Common
  /** The shared trie nodes (only read). */
  readonly nodes: ReadonlyMap<string, Uint8Array>
  /** An account-trie root whose nodes `nodes` holds (the head's, or the pending block's). */
  readonly root: Uint8Array
  /** Accounts to put back as they were at the block asked for (undefined: did not exist). */
  readonly accounts: ReadonlyArray<readonly [address: string, record: AccountRecord | undefined]>
  /** The account proven. */
  readonly address: string
  /** Its storage root under `root` (undefined: read it from its leaf there). */
  readonly storageRoot: Uint8Array | undefined
  /** Its slots to put back as they were at the block asked for (empty value: zero). */
  readonly slots: ReadonlyArray<readonly [slot: string, value: Uint8Array]>
}

/**
 * Builds the account trie and the account's storage trie of `source` over a scratch layer and
 * proves `address` and each of `slots` (32-byte keys, unprefixed hex). Throws if the storage
 * trie it rebuilt does not hash to the storage root its account leaf names (a broken history).
 */
export async function buildProof(source: ProofSource, slots: readonly string[]): Promise<AccountProof> {
  const overlay = new OverlayMap(source.nodes)
  const trie = (root: Uint8Array) =>
    new MerklePatriciaTrie({ db: new MapDB(overlay), valueEncoding: ValueEncoding.Bytes, useKeyHashing: true, common: source.common, root })

  const accountTrie = trie(source.root)
  for (const [address, record] of source.accounts) {
    const key = unprefixedHexToBytes(address)
    if (record === undefined) await accountTrie.del(key)
    else await accountTrie.put(key, encodeRecord(record))
  }
  const addressBytes = unprefixedHexToBytes(source.address)
  const leaf = await accountTrie.get(addressBytes)
  const account = leaf === null ? undefined : decodeAccount(leaf)
  const accountProof = await proofOf(accountTrie, addressBytes)

  const storageProof: SlotProof[] = []
  const storageRoot = account?.storageRoot ?? KECCAK256_RLP
  if (equalsBytes(storageRoot, KECCAK256_RLP)) {
    // No storage (or no account): geth proves nothing and answers zero.
    for (const slot of slots) storageProof.push({ slot: unprefixedHexToBytes(slot), value: 0n, proof: [] })
  } else {
    const storageTrie = trie(source.storageRoot ?? storageRoot)
    for (const [slot, value] of source.slots) {
      if (value.length === 0) await storageTrie.del(unprefixedHexToBytes(slot))
      else await storageTrie.put(unprefixedHexToBytes(slot), RLP.encode(value))
    }
    if (!equalsBytes(storageTrie.root(), storageRoot)) {
      throw new Error(`storage trie of 0x${source.address} does not hash to its account's storage root`)
    }
    for (const slot of slots) {
      const key = unprefixedHexToBytes(slot)
      const stored = await storageTrie.get(key)
      const value = stored === null ? 0n : bytesToBigInt(RLP.decode(stored) as Uint8Array)
      storageProof.push({ slot: key, value, proof: await proofOf(storageTrie, key) })
    }
  }
  return { address: addressBytes, account, accountProof, storageProof }
}

/**
 * The nodes on the path to `key`, root first, as geth's `Prove` lists them: a node embedded in its
 * parent (RLP shorter than 32 bytes) is not a proof element of its own, except the root.
 */
async function proofOf(trie: MerklePatriciaTrie, key: Uint8Array): Promise<Uint8Array[]> {
  const nodes = await createMerkleProof(trie, key)
  return nodes.filter((node, i) => i === 0 || node.length >= 32)
}

function encodeRecord(record: AccountRecord): Uint8Array {
  return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash).serialize()
}

function decodeAccount(leaf: Uint8Array): ProvenAccount {
  const account = createAccountFromRLP(leaf)
  return { nonce: account.nonce, balance: account.balance, storageRoot: account.storageRoot, codeHash: account.codeHash }
}

/** A node map whose writes stay local and whose reads fall through to `base`. */
class OverlayMap extends Map<string, Uint8Array> {
  readonly #base: ReadonlyMap<string, Uint8Array>

  constructor(base: ReadonlyMap<string, Uint8Array>) {
    super()
    this.#base = base
  }

  override get(key: string): Uint8Array | undefined {
    return super.get(key) ?? this.#base.get(key)
  }

  override has(key: string): boolean {
    return super.has(key) || this.#base.has(key)
  }
}

/** Whether `nodes` holds the root node of a trie (the empty trie needs none). */
export function holdsRoot(nodes: ReadonlyMap<string, Uint8Array>, root: Uint8Array): boolean {
  return equalsBytes(root, KECCAK256_RLP) || nodes.has(bytesToUnprefixedHex(root))
}
