import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex, bytesToUnprefixedHex, generateAddress, hexToBytes } from '@ethereumjs/util'
import { BlockBuilder, buildBlock, createVM, type VM } from '@ethereumjs/vm'
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, test } from 'vitest'
import type { EVM } from '@ethereumjs/evm'
import { startBlock } from '../../src/chain/builder.js'
import { installLeanEvm } from '../../src/chain/execution/leanEvm.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../src/chain/accounts.js'
import { createDevCommon, devAlloc, devGenesisBlock } from '../../src/chain/genesis.js'
import { newAccount } from '../../src/chain/encoding.js'
import { WorldState } from '../../src/chain/state.js'
import { RingStateManager } from '../../src/chain/stateManager.js'
import { SYSTEM_CONTRACTS, answerIdleRequestCalls, requestQueuesIdle } from '../../src/chain/systemContracts.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'

// The same block, built from the same state by ethereumjs's BlockBuilder (stock VM) and by
// ringchain's (lean builder, idle request-queue calls answered without the EVM, the lean EVM
// methods of execution/leanEvm.ts): same hash.

const ZERO32 = new Uint8Array(32)
const REVERTER_INITCODE = '0x6005600c60003960056000f360006000fd' // runtime: revert(0, 0)

/** `systemCode` gives each system contract's code in place of its standard one (undefined: no account). */
async function genesis(hardfork: string, systemCode: (standard: Uint8Array) => Uint8Array | undefined = (standard) => standard) {
  const common = createDevCommon({ chainId: 31337n, hardfork, customCrypto: createCustomCrypto() })
  const keccak = common.customCrypto.keccak256!
  const accounts = deriveAccounts(DEFAULT_MNEMONIC, 3)
  const world = new WorldState(common)
  const alloc = devAlloc(accounts, 10n ** 22n)
  for (const contract of SYSTEM_CONTRACTS) {
    if (!common.gteHardfork(contract.fork)) continue
    const code = systemCode(hexToBytes(contract.code as `0x${string}`))
    if (code === undefined) continue
    const codeHash = keccak(code)
    alloc.code.set(bytesToUnprefixedHex(codeHash), code)
    alloc.accounts.set(contract.address.slice(2), { ...newAccount({ nonce: 1n }), codeHash, codeSize: code.length })
  }
  await world.commit(alloc, await world.computeRoot(alloc), 0n)
  const block = devGenesisBlock(common, { stateRoot: world.root, gasLimit: 30_000_000n, baseFee: 1_000_000_000n, timestamp: 1_735_689_600n })
  return { common, keccak, accounts, world, block }
}

async function miningVm(common: Common, world: WorldState, lean: boolean): Promise<{ vm: VM; sm: RingStateManager }> {
  const keccak = common.customCrypto.keccak256!
  const sm = new RingStateManager(world.head, { keccak, computeRoot: (c) => world.computeRoot(c) })
  const blockchain = { getBlock: async () => ({ hash: () => ZERO32 }), putBlock: async () => {}, shallowCopy: () => blockchain }
  const vm = await createVM({ common, stateManager: sm, blockchain: blockchain as never })
  if (lean) {
    answerIdleRequestCalls(vm.evm, sm, keccak)
    await installLeanEvm(vm.evm as EVM)
  }
  return { vm, sm }
}

async function buildWith(lean: boolean, common: Common, world: WorldState, parent: Block, txs: readonly TypedTransaction[]) {
  const { vm, sm } = await miningVm(common, world, lean)
  const headerData: Record<string, unknown> = { number: parent.header.number + 1n, timestamp: parent.header.timestamp + 12n, gasLimit: 30_000_000n, coinbase: new Address(new Uint8Array(20)) }
  if (common.consensusType() === 'pos') headerData.mixHash = common.customCrypto.keccak256!(parent.hash())
  else headerData.difficulty = parent.header.difficulty
  if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = ZERO32
  const opts = { parentBlock: parent, headerData, ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}), blockOpts: { putBlockIntoBlockchain: false, common } }
  const builder = lean ? await startBlock(vm, opts, requestQueuesIdle(sm, common.customCrypto.keccak256!)) : await buildBlock(vm, opts)
  const statuses: string[] = []
  for (const tx of txs) {
    const result = await builder.addTransaction(tx, { skipHardForkValidation: true })
    statuses.push(result.execResult.exceptionError?.error ?? 'ok')
  }
  const { block } = await builder.build()
  return { block, sm, statuses, leanBuilder: Object.getPrototypeOf(builder) !== BlockBuilder.prototype }
}

describe('lean block builder', () => {
  for (const hardfork of ['bpo2', 'prague', 'cancun', 'shanghai', 'london']) {
    test(`behavior: builds the block ethereumjs's BlockBuilder builds (${hardfork})`, async () => {
      const { common, accounts, world, block: first } = await genesis(hardfork)
      const sign1559 = (from: number, nonce: bigint, fields: { to?: Uint8Array; data?: Uint8Array; value?: bigint; gasLimit?: bigint }) =>
        createFeeMarket1559Tx({ chainId: 31337n, nonce, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, gasLimit: fields.gasLimit ?? 21_000n, value: fields.value ?? 0n, ...fields }, { common }).sign(accounts[from]!.privateKey)
      const legacy = (from: number, nonce: bigint, to: Uint8Array) => createLegacyTx({ nonce, to, value: 5n, gasLimit: 21_000n, gasPrice: 10n ** 10n }, { common }).sign(accounts[from]!.privateKey)
      // Block 1 deploys the store (nonce 0) and the reverter (nonce 1); block 2 is empty; then
      // transfers, a store call with a log, a legacy transaction and a reverting call per block;
      // block 6 is a store call alone.
      const storeAddress = generateAddress(accounts[2]!.address, new Uint8Array())
      const reverter = generateAddress(accounts[2]!.address, Uint8Array.of(1))
      const txsOf = (i: number): TypedTransaction[] => {
        if (i === 0) return [sign1559(2, 0n, { data: hexToBytes(STORE_INITCODE), gasLimit: 200_000n }), sign1559(2, 1n, { data: hexToBytes(REVERTER_INITCODE), gasLimit: 200_000n })]
        if (i === 1) return []
        // One transaction, as automine builds: its transaction and receipt tries are one leaf each.
        if (i === 5) return [sign1559(0, 6n, { to: storeAddress, data: storeCalldata(9n, 10n), gasLimit: 100_000n })]
        const n = BigInt(i - 2)
        return [
          sign1559(0, n * 2n, { to: accounts[1]!.address, value: 7n }),
          sign1559(0, n * 2n + 1n, { to: storeAddress, data: storeCalldata(n, n + 1n), gasLimit: 100_000n }),
          legacy(1, n, accounts[0]!.address),
          sign1559(2, 2n + n, { to: reverter, gasLimit: 50_000n }),
        ]
      }
      let parent = first
      const results: { ref: string; lean: string; statuses: string[]; leanBuilder: boolean }[] = []
      for (let i = 0; i < 6; i++) {
        const ref = await buildWith(false, common, world, parent, txsOf(i))
        const lean = await buildWith(true, common, world, parent, txsOf(i))
        results.push({ ref: bytesToHex(ref.block.hash()), lean: bytesToHex(lean.block.hash()), statuses: lean.statuses, leanBuilder: lean.leanBuilder })
        // The lean header is made from the one its transactions ran in: every field, frozen, as ethereumjs's.
        expect(lean.block.header.toJSON()).toEqual(ref.block.header.toJSON())
        expect(Object.isFrozen(lean.block.header)).toBe(true)
        await world.commit(ref.sm.changes, await ref.sm.computeRoot(), ref.block.header.number)
        parent = ref.block
      }
      for (const r of results) expect(r.lean).toBe(r.ref)
      expect(results[2]!.statuses).toEqual(['ok', 'ok', 'ok', 'revert'])
      // Proof of stake builds with the lean builder; before the merge, ethereumjs's builds (miner reward).
      expect(results[0]!.leanBuilder).toBe(common.consensusType() === 'pos')
    })
  }

  const systemCodes = {
    absent: () => undefined,
    empty: () => new Uint8Array(0),
    'replaced (anvil_setCode)': () => hexToBytes('0x60006000fd'),
  }
  for (const [name, systemCode] of Object.entries(systemCodes)) {
    test(`behavior: with the system contracts' code ${name}, the EIP-4788 and EIP-2935 writes are ethereumjs's`, async () => {
      const { common, accounts, world, block: first } = await genesis('prague', systemCode)
      const transfer = createFeeMarket1559Tx({ chainId: 31337n, nonce: 0n, to: accounts[1]!.address, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(accounts[0]!.privateKey)
      const ref = await buildWith(false, common, world, first, [transfer])
      const lean = await buildWith(true, common, world, first, [transfer])
      const written = (sm: RingStateManager) => [...sm.changes.storage].map(([address, slots]) => [address, [...slots].map(([slot, value]) => [slot, bytesToHex(value)])])
      expect(written(lean.sm)).toEqual(written(ref.sm))
      // ethereumjs writes the ring buffers wherever the address holds code, whatever the code.
      expect(written(ref.sm).length).toBe(name === 'replaced (anvil_setCode)' ? 2 : 0)
      expect(bytesToHex(lean.block.hash())).toBe(bytesToHex(ref.block.hash()))
    })
  }

  test('behavior: with a withdrawal request queued, the request calls run and the block is the one ethereumjs builds', async () => {
    const { common, accounts, world, block: first } = await genesis('prague')
    const withdrawals = hexToBytes(SYSTEM_CONTRACTS.find((c) => c.eip === 7002)!.address as `0x${string}`)
    // EIP-7002: 48 bytes of validator key and 8 of amount, with at least the fee (1 wei while the queue is empty).
    const request = createFeeMarket1559Tx(
      { chainId: 31337n, nonce: 0n, to: withdrawals, value: 1n, data: new Uint8Array(56).fill(7), gasLimit: 500_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n },
      { common },
    ).sign(accounts[0]!.privateKey)
    const ref = await buildWith(false, common, world, first, [request])
    const lean = await buildWith(true, common, world, first, [request])
    expect(ref.statuses).toEqual(['ok'])
    // The block carries a request: its requests hash is not that of no requests.
    expect(bytesToHex(ref.block.header.requestsHash!)).not.toBe(bytesToHex(sha256(new Uint8Array(0))))
    expect(bytesToHex(lean.block.hash())).toBe(bytesToHex(ref.block.hash()))
  })
})
