// The chain's preimage store (src/chain/preimages.ts): what mining records, how slots are derived
// from it, that calls record nothing, that it survives snapshots, and that it stays bounded.
import { describe, expect, test } from 'vitest'
import { PreimageStore, type LivenessProbe } from '../../src/chain/preimages.js'
import { mappingSlot, nestedMappingSlot, toWord } from '../../src/inspect/slots.js'
import { ALICE, BOB, DEPLOYER, Layouts, Token, call, deploy, ringchain, tokenChain, write } from './helpers.js'

const hex = (v: bigint) => v.toString(16).padStart(64, '0')
const addr = (a: string) => a.slice(2).toLowerCase()

describe('chain', () => {
  test('default: a balance written by a transfer derives from its mapping key', async () => {
    const { rc, address } = await tokenChain()
    const slots = rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head)
    const balance = slots.find((s) => s.slot === hex(mappingSlot(0n, BigInt(ALICE))))!
    expect(balance.derivation).toEqual({ root: 0n, steps: [{ kind: 'mapping', key: toWord(BigInt(ALICE)) }] })
    expect(slots.find((s) => s.slot === hex(2n))!.derivation).toEqual({ root: 2n, steps: [] })
  })

  test('behavior: nested mappings derive outer key first', async () => {
    const { rc, address } = await tokenChain()
    await write(rc, address, Token, 'approve', [BOB, 7n])
    const slot = hex(nestedMappingSlot(1n, [BigInt(DEPLOYER), BigInt(BOB)]))
    const found = rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head).find((s) => s.slot === slot)!
    expect(found.derivation?.steps).toEqual([
      { kind: 'mapping', key: toWord(BigInt(DEPLOYER)) },
      { kind: 'mapping', key: toWord(BigInt(BOB)) },
    ])
  })

  test('behavior: calls record nothing', async () => {
    const { rc, address } = await tokenChain()
    const before = JSON.stringify(rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    // balanceOf hashes BOB's key, but in a call: BOB's slot does not exist and nothing is named.
    expect(await call(rc, address, Token, 'balanceOf', [BOB])).toBe(0n)
    const after = JSON.stringify(rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    expect(after).toBe(before)
  })

  test('behavior: names last while the slot is non-zero, long after the block left the window', async () => {
    const { rc, address } = await tokenChain({ window: 4 })
    await rc.chain.mine(20n)
    const balance = rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head).find((s) => s.slot === hex(mappingSlot(0n, BigInt(ALICE))))!
    expect(balance.derivation?.root).toBe(0n)
  })

  test('behavior: after a revert, the slots of the reverted state are listed with their names', async () => {
    const rc = await ringchain()
    const address = await deploy(rc, Layouts)
    const id = await rc.chain.snapshot()
    await write(rc, address, Layouts, 'setBalance', [BOB, 5n])
    await rc.chain.revert(id)
    await write(rc, address, Layouts, 'setBalance', [ALICE, 6n])
    const slots = rc.chain.storageSlots(Buffer.from(addr(address), 'hex'), rc.chain.head).filter((s) => (s.derivation?.steps.length ?? 0) > 0)
    expect(slots.map((s) => s.derivation?.steps[0])).toEqual([{ kind: 'mapping', key: toWord(BigInt(ALICE)) }])
  })
})

describe('store', () => {
  const probe = (oldest: bigint, live: Set<string> = new Set()): LivenessProbe => ({
    oldest,
    head: (a, s) => (live.has(a + s) ? Uint8Array.of(1) : new Uint8Array(0)),
    atOldest: () => new Uint8Array(0),
  })
  const A = '00'.repeat(19) + 'aa'
  const preimage = (key: bigint, slot: bigint) => Uint8Array.from([...toWord(key), ...toWord(slot)])

  test('default: names a written slot, struct members at an offset, and nothing else', () => {
    const store = new PreimageStore()
    const entry = mappingSlot(3n, 7n)
    store.record(hex(entry), preimage(7n, 3n))
    store.record(hex(mappingSlot(3n, 8n)), preimage(8n, 3n)) // hashed, never written
    store.commit(1n, [[A, hex(entry)], [A, hex(entry + 2n)], [A, hex(5n)]])
    expect(store.derivation(A, hex(entry + 2n))).toEqual({ root: 3n, steps: [{ kind: 'mapping', key: toWord(7n) }, { kind: 'offset', by: 2n }] })
    expect(store.derivation(A, hex(5n))).toEqual({ root: 5n, steps: [] })
    expect(store.derivation(A, hex(mappingSlot(3n, 8n)))).toBeUndefined()
    expect(store.size).toEqual({ preimages: 1, slots: 2 })
  })

  test('behavior: dead names are swept once they outnumber the live ones', () => {
    const store = new PreimageStore({ sweepSlack: 10 })
    const live = new Set<string>()
    for (let i = 0n; i < 1000n; i++) {
      const slot = mappingSlot(0n, i)
      store.record(hex(slot), preimage(i, 0n))
      store.commit(i, [[A, hex(slot)]])
      if (i % 100n === 0n) live.add(A + hex(slot)) // one in a hundred stays non-zero
      store.sweep(probe(i - 3n, live)) // a window of 4 blocks
    }
    expect(store.size.slots).toBeLessThan(10 + 2 * 10 + 4)
    expect(store.size.preimages).toBe(store.size.slots)
    expect(store.derivation(A, hex(mappingSlot(0n, 500n)))?.steps).toEqual([{ kind: 'mapping', key: toWord(500n) }])
  })

  test('behavior: a nested entry keeps its parent, and releases it with the last child', () => {
    const store = new PreimageStore({ sweepSlack: 0 })
    const outer = mappingSlot(1n, 9n)
    const inner = mappingSlot(outer, 4n)
    store.record(hex(outer), preimage(9n, 1n))
    store.record(hex(inner), preimage(4n, outer))
    store.commit(1n, [[A, hex(inner)]])
    expect(store.size).toEqual({ preimages: 2, slots: 1 })
    store.sweep(probe(5n))
    expect(store.size).toEqual({ preimages: 0, slots: 0 })
  })
})
