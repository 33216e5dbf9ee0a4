import { bytesToHex, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterEach, describe, expect, test } from 'vitest'
import { Chain, type ReorgSpec } from '../../src/chain/chain.js'
import { OrphanedBlockError } from '../../src/chain/errors.js'
import type { BlockRecord } from '../../src/chain/types.js'
import { deployStore, send, signed1559, storeCalldata, word } from '../helpers/chain.js'

const chains: Chain[] = []
async function newChain(): Promise<Chain> {
  const chain = await Chain.create({ deterministic: true })
  chains.push(chain)
  return chain
}
afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.close()))
})

const reorg = (depth: bigint, more: Partial<ReorgSpec> = {}): ReorgSpec => ({ depth, kind: 'reorg', transactions: [], dropped: 'requeue', resetClock: false, ...more })
const key = (bytes: Uint8Array) => bytesToUnprefixedHex(bytes)

/** The state root the world state proves now: the hash of the account proof's root node. */
async function provenRoot(chain: Chain): Promise<string> {
  const proof = await chain.proof(chain.accounts[0]!.address, [], { kind: 'tag', tag: 'latest' })
  return bytesToHex(keccak_256(proof.accountProof[0]!))
}

/** A chain with a store contract and three blocks each writing slot 1 (values 1, 2, 3) from account 0. */
async function chainWithWrites(): Promise<{ chain: Chain; store: Uint8Array; writes: Uint8Array[] }> {
  const chain = await newChain()
  const store = await deployStore(chain)
  const writes: Uint8Array[] = []
  for (const value of [1n, 2n, 3n]) writes.push(await send(chain, signed1559(chain, 0, { nonce: value, to: store, data: storeCalldata(1n, value), gasLimit: 100_000n })))
  return { chain, store, writes }
}

describe('reorg', () => {
  test('default: the last blocks are replaced by as many new ones with other hashes; state follows the new chain', async () => {
    const { chain, store, writes } = await chainWithWrites()
    const before = [chain.blockByNumber(3n)!, chain.blockByNumber(4n)!]
    await chain.setMiningMode({ mode: 'manual' })
    const outcome = await chain.reorg(reorg(2n))
    expect(chain.head.number).toBe(4n)
    expect(outcome.removed.map((r) => r.number)).toEqual([3n, 4n])
    expect(outcome.added.map((r) => r.number)).toEqual([3n, 4n])
    for (const old of before) {
      expect(chain.blockByHash(old.hash)).toBeUndefined()
      expect(equalsBytes(chain.blockByNumber(old.number)!.hash, old.hash)).toBe(false)
    }
    // The writes of values 2 and 3 are pending again; slot 1 holds value 1, as after block 2.
    expect(outcome.requeued.map((t) => key(t.hash))).toEqual([key(writes[1]!), key(writes[2]!)])
    expect(chain.lookupTransaction(writes[1]!)?.status).toBe('pending')
    expect(chain.lookupTransaction(writes[0]!)?.status).toBe('included')
    expect(chain.stateAtBlock(chain.head).storage(key(store), key(word(1n)))).toEqual(Uint8Array.of(1))
    expect(await provenRoot(chain)).toBe(bytesToHex(chain.head.block.header.stateRoot))
    // Mined again, they land once each.
    await chain.mine(1n)
    expect(chain.head.transactions.map((t) => key(t.hash))).toEqual([key(writes[1]!), key(writes[2]!)])
    expect(chain.stateAtBlock(chain.head).storage(key(store), key(word(1n)))).toEqual(Uint8Array.of(3))
  })

  test('behavior: in automine mode the requeued transactions are mined right after the new blocks', async () => {
    const { chain, writes } = await chainWithWrites()
    await chain.reorg(reorg(1n))
    expect(chain.head.number).toBe(5n)
    expect(chain.lookupTransaction(writes[2]!)).toMatchObject({ status: 'included', included: { blockNumber: 5n } })
  })

  test('behavior: a rollback leaves the state exactly as the common block left it', async () => {
    const { chain, store } = await chainWithWrites()
    const common = chain.blockByNumber(1n)!
    await chain.reorg(reorg(3n, { kind: 'rollback', dropped: 'discard' }))
    expect(chain.head.hash).toEqual(common.hash)
    expect(await provenRoot(chain)).toBe(bytesToHex(common.block.header.stateRoot))
    expect(chain.stateAtBlock(chain.head).storage(key(store), key(word(1n)))).toEqual(new Uint8Array(0))
    expect(chain.poolContent().executable.size).toBe(0)
    // The next block is built on that state: its root is what the proof walk gives.
    await chain.mine(1n)
    expect(await provenRoot(chain)).toBe(bytesToHex(chain.head.block.header.stateRoot))
  })

  test('behavior: transactions placed by hash are re-included at their offset, the rest discarded', async () => {
    const { chain, writes } = await chainWithWrites()
    const outcome = await chain.reorg(reorg(3n, { dropped: 'discard', transactions: [{ kind: 'hash', hash: writes[0]!, offset: 2 }] }))
    expect(chain.lookupTransaction(writes[0]!)).toMatchObject({ status: 'included', included: { blockNumber: 4n } })
    expect(outcome.discarded.map((t) => key(t.hash))).toEqual([key(writes[1]!), key(writes[2]!)])
    expect(chain.lookupTransaction(writes[1]!)).toBeUndefined()
  })

  test('behavior: listeners hear of the removed blocks before the new ones', async () => {
    const { chain } = await chainWithWrites()
    const heard: string[] = []
    chain.on('reorg', (removed: readonly BlockRecord[]) => heard.push(`removed ${removed.map((r) => r.number).join(',')}`))
    chain.on('block', (record) => heard.push(`block ${record.number}`))
    await chain.reorg(reorg(2n, { dropped: 'discard' }))
    expect(heard).toEqual(['removed 3,4', 'block 3', 'block 4'])
  })

  test('behavior: an orphaned hash is refused for state reads', async () => {
    const { chain } = await chainWithWrites()
    const old = chain.head
    await chain.reorg(reorg(1n, { dropped: 'discard' }))
    expect(() => chain.resolveBlock({ kind: 'hash', hash: old.hash })).toThrow(OrphanedBlockError)
  })

  test('behavior: a snapshot taken before a reorg brings the old chain back', async () => {
    const { chain } = await chainWithWrites()
    const old = chain.head
    const id = await chain.snapshot()
    await chain.reorg(reorg(2n))
    expect(await chain.revert(id)).toBe(true)
    expect(chain.head.hash).toEqual(old.hash)
    expect(await provenRoot(chain)).toBe(bytesToHex(old.block.header.stateRoot))
  })

  test.each([
    [0n, [], /Reorg depth must be at least 1: depth 0/],
    [5n, [], /Reorg depth must not exceed current chain height: current height 4, depth 5/],
    [2n, [2], /Block number 2 must not exceed \(depth-1\) 1/],
  ] as const)('error: depth %s, offsets %j', async (depth, offsets, message) => {
    const { chain, writes } = await chainWithWrites()
    const head = chain.head
    const transactions = offsets.map((offset) => ({ kind: 'hash' as const, hash: writes[2]!, offset }))
    await expect(chain.reorg(reorg(depth, { transactions }))).rejects.toThrow(message)
    expect(chain.head).toBe(head)
  })

  test('error: deeper than the window', async () => {
    const chain = await Chain.create({ deterministic: true, window: 4 })
    chains.push(chain)
    await chain.mine(6n)
    await expect(chain.reorg(reorg(4n))).rejects.toThrow('Reorg depth must not reach past the window: oldest block 3, current height 6, depth 4')
    await chain.reorg(reorg(3n))
    expect(chain.head.number).toBe(6n)
  })
})

describe('scheduled reorgs', () => {
  /** Ten transfers from account 1 under a schedule; what the chain holds after. */
  async function run(seed: number) {
    const chain = await Chain.create({ deterministic: true, reorgs: { every: 3, depth: 2, seed } })
    chains.push(chain)
    const reorgs: number[] = []
    chain.on('reorg', (removed) => reorgs.push(removed.length))
    const sent: Uint8Array[] = []
    for (let nonce = 0n; nonce < 10n; nonce++) sent.push(await send(chain, signed1559(chain, 1, { nonce, to: chain.accounts[2]!.address, value: 1n })))
    await chain.mine(0n) // after every reorg queued so far
    const counts = new Map<string, number>()
    for (let n = 0n; n <= chain.head.number; n++) for (const t of chain.blockByNumber(n)!.transactions) counts.set(key(t.hash), (counts.get(key(t.hash)) ?? 0) + 1)
    return { chain, reorgs, sent, counts }
  }

  test('default: a reorg of the depth after every k blocks; every transaction ends included once', async () => {
    const { chain, reorgs, sent, counts } = await run(7)
    expect(reorgs.length).toBeGreaterThanOrEqual(3)
    expect(reorgs.every((depth) => depth === 2)).toBe(true)
    for (const hash of sent) expect(counts.get(key(hash))).toBe(1)
    expect(chain.poolContent().executable.size).toBe(0)
  })

  test('behavior: the same seed gives the same chain; another seed another one', async () => {
    const [a, b, c] = [await run(7), await run(7), await run(8)]
    expect(bytesToHex(a.chain.head.hash)).toBe(bytesToHex(b.chain.head.hash))
    expect(bytesToHex(a.chain.head.hash)).not.toBe(bytesToHex(c.chain.head.hash))
  })

  test('error: a schedule that could never run', async () => {
    const chain = await newChain()
    expect(() => chain.setReorgSchedule({ every: 0, depth: 1, seed: 0 })).toThrow('reorg schedule: every must be a whole number from 1, got 0')
    expect(chain.reorgSchedule).toBeUndefined()
  })
})
