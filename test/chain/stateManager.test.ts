import { Account, Address, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { createDevCommon } from '../../src/chain/genesis.js'
import { WorldState } from '../../src/chain/state.js'
import { RingStateManager } from '../../src/chain/stateManager.js'

const A = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'))
const B = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'))

test('behavior: the state root follows every write, in the bottom layer, in a checkpoint over an empty one, and in both', async () => {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'osaka', customCrypto: createCustomCrypto() })
  const world = new WorldState(common)
  const view = () => new RingStateManager(world.head, { keccak: common.customCrypto.keccak256!, computeRoot: (c) => world.computeRoot(c) })
  const flat = view()
  const layered = view()
  await layered.checkpoint()
  const mixed = view()
  const roots: string[][] = []
  for (const [address, balance, slot] of [[A, 1n, 0], [A, 2n, 0], [B, 3n, 7], [A, 2n, 7]] as const) {
    if (roots.length === 1) await mixed.checkpoint()
    for (const sm of [flat, layered, mixed]) {
      await sm.putAccount(address, new Account(0n, balance))
      await sm.putStorage(address, new Uint8Array(32).fill(slot), Uint8Array.of(slot + 1))
    }
    roots.push(await Promise.all([flat, layered, mixed].map(async (sm) => Buffer.from(await sm.getStateRoot()).toString('hex'))))
  }
  for (const [flatRoot, ...others] of roots) expect(others).toEqual([flatRoot, flatRoot])
  // Each write changed the root (a root computed once and kept would not).
  expect(new Set(roots.map(([root]) => root)).size).toBe(roots.length)
  await layered.commit()
  expect(await layered.getStateRoot()).toEqual(await flat.getStateRoot())
})
