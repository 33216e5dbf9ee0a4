// The state root is computed incrementally (stateRoot.ts re-hashes only the paths of what a block
// changed, on persistent tries): it must be the root of the whole state computed from scratch
// (@ethereumjs/mpt over the flat head state), through random account writes and deletions, slot
// writes, zeroings and wipes, snapshots put back and rollbacks (a reorg's).
import { createMPT } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL, bytesToHex } from '@ethereumjs/util'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test } from 'vitest'
import { WorldState, emptyChanges, type StateChanges } from '../../src/chain/state.js'

/** A deterministic stream of numbers (xorshift), so a failure replays. */
function random(seed: number): (n: number) => number {
  let x = seed
  return (n) => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) % n
  }
}

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')

/** The root of `world`'s head state built from nothing. */
async function rootFromScratch(world: WorldState): Promise<string> {
  const accounts = await createMPT({ useKeyHashing: true })
  for (const address of world.addresses()) {
    const record = world.head.account(address)!
    const storage = await createMPT({ useKeyHashing: true })
    for (const [slot, value] of world.slots(address)) await storage.put(Buffer.from(slot, 'hex'), RLP.encode(value))
    const account = new Account(record.nonce, record.balance, storage.root(), record.codeHash)
    await accounts.put(Buffer.from(address, 'hex'), account.serialize())
  }
  return bytesToHex(accounts.root())
}

/** Random changes over a small key space, so that keys come back: overwrites, deletions, wipes. */
function randomChanges(next: (n: number) => number, addresses = 24): StateChanges {
  const changes = emptyChanges()
  for (let i = 0, n = 1 + next(6); i < n; i++) {
    const address = hex(next(addresses), 20)
    const roll = next(10)
    if (roll === 0) {
      changes.accounts.set(address, null)
      continue
    }
    if (roll === 1) changes.cleared.add(address)
    changes.accounts.set(address, { nonce: BigInt(next(3)), balance: BigInt(next(1000)) * 10n ** BigInt(next(20)), storageRoot: new Uint8Array(32), codeHash: KECCAK256_NULL, codeSize: 0 })
    const slots = new Map<string, Uint8Array>()
    for (let j = 0, m = next(5); j < m; j++) {
      // A third of the writes zero the slot (empty value): a deletion from its trie.
      const value = next(3) === 0 ? new Uint8Array(0) : Uint8Array.of(1 + next(255), next(256))
      slots.set(hex(next(40), 32), value)
    }
    if (slots.size > 0) changes.storage.set(address, slots)
  }
  return changes
}

const common = () => createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague', customCrypto: { keccak256: keccak_256 } })

test('behavior: the incremental state root is the root of the whole state, through writes, deletions, snapshots and rollbacks', async () => {
  const world = new WorldState(common())
  const next = random(0x5eed)
  let block = 0n
  let snapshot: { at: bigint; state: ReturnType<WorldState['snapshot']>; root: string } | undefined
  let compared = 0
  for (let step = 0; step < 240; step++) {
    const changes = randomChanges(next)
    await world.commit(changes, await world.computeRoot(changes), ++block)
    if (step % 40 === 10) snapshot = { at: block, state: world.snapshot(), root: bytesToHex(world.root) }
    if (step % 40 === 30 && snapshot !== undefined) {
      world.restore(snapshot.state)
      block = snapshot.at
      expect(bytesToHex(world.root)).toBe(snapshot.root)
    }
    if (step % 40 === 20) {
      // A reorg's rollback: the blocks after `block - 3` are undone.
      block -= 3n
      world.rollback(block)
    }
    if (step % 5 === 0) {
      expect(bytesToHex(world.root), `step ${step}`).toBe(await rootFromScratch(world))
      compared++
    }
  }
  expect(compared).toBe(48)
})

// The storage tries of a block are its changes layered over those of earlier blocks, folded into
// one map once many addresses changed (here: hundreds) or the layer is old (over 128 blocks).
test('behavior: the root stays the whole state\'s across the storage tries\' layers and folds, snapshots and rollbacks', async () => {
  const world = new WorldState(common())
  const next = random(0xf01d)
  let block = 0n
  let snapshot: { at: bigint; state: ReturnType<WorldState['snapshot']>; root: string } | undefined
  let compared = 0
  for (let step = 0; step < 400; step++) {
    const changes = randomChanges(next, 300)
    await world.commit(changes, await world.computeRoot(changes), ++block)
    if (step === 100) snapshot = { at: block, state: world.snapshot(), root: bytesToHex(world.root) }
    if (step === 250 && snapshot !== undefined) {
      world.restore(snapshot.state)
      block = snapshot.at
      expect(bytesToHex(world.root)).toBe(snapshot.root)
    }
    if (step % 60 === 45) {
      block -= 2n
      world.rollback(block)
    }
    if (step % 20 === 19) {
      expect(bytesToHex(world.root), `step ${step}`).toBe(await rootFromScratch(world))
      compared++
    }
  }
  expect(compared).toBe(20)
})
