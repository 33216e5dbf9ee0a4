import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createBlock, type Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex, bytesToUnprefixedHex, generateAddress, hexToBytes } from '@ethereumjs/util'
import { createVM, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { describe, expect, test } from 'vitest'
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../src/chain/accounts.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { installFastInterpreter } from '../../src/chain/execution/fastInterpreter.js'
import { runTransaction, runsLean } from '../../src/chain/execution/leanRunTx.js'
import { newAccount } from '../../src/chain/encoding.js'
import { createDevCommon, devAlloc } from '../../src/chain/genesis.js'
import { WorldState } from '../../src/chain/state.js'
import { RingStateManager } from '../../src/chain/stateManager.js'
import { STORE_INITCODE, initcode, storeCalldata } from '../helpers/chain.js'

// The lean runTx (src/chain/execution/leanRunTx.ts) is a copy of ethereumjs's for legacy, EIP-2930
// and EIP-1559 transactions: it must follow the ethereumjs it was copied from, and every
// transaction must leave the same results, receipts, events and state as ethereumjs's runTx.

test('pin: ethereumjs still has the runTx the lean copy follows', () => {
  // On an ethereumjs upgrade this fails: compare the new runTx with leanRunTx.ts, copy, then update the hash.
  const source = readFileSync(new URL('../../node_modules/@ethereumjs/vm/dist/esm/runTx.js', import.meta.url), 'utf8')
  expect(createHash('sha256').update(source).digest('hex').slice(0, 16)).toBe('e64717c0ff4046a6')
})

const ZERO32 = new Uint8Array(32)
const COINBASE = new Address(hexToBytes('0x00000000000000000000000000000000000c0ffe'))
const REVERTER_INITCODE = initcode('0x60006000fd') // revert(0, 0)
const LOGGER_INITCODE = initcode('0x602a600052600760206000a1602a600860206000a200') // log1(0, 32, 7); log2(0, 32, 8, 42)
const DESTRUCT_INITCODE = initcode('0x33ff') // runtime: selfdestruct(caller)
const DIES_AT_BIRTH = '0x33ff' // initcode that self-destructs (EIP-6780: removed)
const NOBODY = new Address(hexToBytes('0x00000000000000000000000000000000000b0d1e'))

interface Run {
  readonly vm: VM
  readonly sm: RingStateManager
  readonly events: unknown[]
}

async function miningVm(common: Common, world: WorldState): Promise<Run> {
  const sm = new RingStateManager(world.head, { keccak: common.customCrypto.keccak256!, computeRoot: (c) => world.computeRoot(c) })
  const blockchain = { getBlock: async () => ({ hash: () => ZERO32 }), putBlock: async () => {}, shallowCopy: () => blockchain }
  const vm = await createVM({ common, stateManager: sm, blockchain: blockchain as never })
  await installFastInterpreter(vm.evm as EVM)
  const events: unknown[] = []
  vm.events.on('beforeTx', (tx) => events.push(['beforeTx', bytesToHex(tx.hash())]))
  vm.events.on('afterTx', (event) => events.push(['afterTx', Object.keys(event).sort(), bytesToHex(event.transaction.hash()), event.totalGasSpent]))
  // The block builder runs every transaction inside its block's checkpoint.
  await vm.evm.journal.checkpoint()
  return { vm, sm, events }
}

/** What a run leaves: every field of the result that a receipt, a block or a caller reads, or its error. */
async function outcome(run: Run, tx: TypedTransaction, block: Block, blockGasUsed: bigint, lean: boolean) {
  let result: RunTxResult
  try {
    result = lean ? await runTransaction(run.vm, { tx, block, blockGasUsed }) : await runTx(run.vm, { tx, block, blockGasUsed })
  } catch (e) {
    return { thrown: (e as Error).message, stateRoot: bytesToHex(await run.sm.getStateRoot()) }
  }
  const { execResult } = result
  return {
    keys: Object.keys(result).sort(),
    receipt: bytesToHex(encodeReceipt(result.receipt, tx.type)),
    receiptKeys: Object.keys(result.receipt),
    totalGasSpent: result.totalGasSpent,
    blockGasSpent: result.blockGasSpent,
    amountSpent: result.amountSpent,
    minerValue: result.minerValue,
    gasRefund: result.gasRefund,
    bloom: bytesToHex(result.bloom.bitvector),
    createdAddress: result.createdAddress?.toString(),
    error: execResult.exceptionError?.error,
    executionGasUsed: execResult.executionGasUsed,
    returnValue: bytesToHex(execResult.returnValue),
    logs: execResult.logs?.length,
    stateRoot: bytesToHex(await run.sm.getStateRoot()),
  }
}

for (const hardfork of ['prague', 'cancun', 'london']) {
  describe(`lean runTx (${hardfork})`, () => {
    test('behavior: varied transactions leave the results, receipts, events and state roots of ethereumjs runTx', async () => {
      const common = createDevCommon({ chainId: 31337n, hardfork, customCrypto: createCustomCrypto() })
      const accounts = deriveAccounts(DEFAULT_MNEMONIC, 4)
      const world = new WorldState(common)
      const alloc = devAlloc(accounts.slice(0, 3), 10n ** 22n)
      // Account 3 can pay for 21,000 gas at the base fee and no more.
      alloc.accounts.set(bytesToUnprefixedHex(accounts[3]!.address), newAccount({ balance: 21_000n * 10n ** 9n }))
      await world.commit(alloc, await world.computeRoot(alloc), 0n)
      const block = createBlock({ header: { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 10n ** 9n, timestamp: 1_735_689_600n, coinbase: COINBASE } }, { common })

      const nonces = [0n, 0n, 0n, 0n]
      const key = (from: number) => accounts[from]!.privateKey
      const fee = { maxFeePerGas: 3n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }
      const dynamic = (from: number, fields: { to?: Uint8Array; data?: Uint8Array; value?: bigint; gasLimit?: bigint; nonce?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }) =>
        createFeeMarket1559Tx({ chainId: 31337n, nonce: fields.nonce ?? nonces[from]!++, gasLimit: 100_000n, ...fee, ...fields }, { common }).sign(key(from))
      const legacy = (from: number, fields: { to?: Uint8Array; data?: Uint8Array; value?: bigint; gasLimit?: bigint }) =>
        createLegacyTx({ nonce: nonces[from]!++, gasPrice: 2n * 10n ** 9n, gasLimit: 100_000n, ...fields }, { common }).sign(key(from))
      const created = (from: number, nonce: bigint) => generateAddress(accounts[from]!.address, nonce === 0n ? new Uint8Array() : Uint8Array.of(Number(nonce)))

      const store = created(0, 0n)
      const reverter = created(0, 1n)
      const logger = created(0, 2n)
      const destruct = created(0, 3n)
      const txs: [string, TypedTransaction][] = [
        ['deploy', dynamic(0, { data: hexToBytes(STORE_INITCODE), gasLimit: 200_000n })],
        ['deploy a reverter', dynamic(0, { data: hexToBytes(REVERTER_INITCODE), gasLimit: 200_000n })],
        ['deploy a logger', dynamic(0, { data: hexToBytes(LOGGER_INITCODE), gasLimit: 200_000n })],
        ['deploy a self-destructing contract', dynamic(0, { data: hexToBytes(DESTRUCT_INITCODE), gasLimit: 200_000n })],
        ['transfer', dynamic(1, { to: accounts[2]!.address, value: 7n, gasLimit: 21_000n })],
        ['zero-value transfer to a new address (EIP-161)', dynamic(1, { to: NOBODY.bytes, gasLimit: 21_000n })],
        ['storage write with a log', dynamic(1, { to: store, data: storeCalldata(1n, 42n) })],
        ['storage cleared (SSTORE refund)', dynamic(1, { to: store, data: storeCalldata(1n, 0n) })],
        ['legacy transfer', legacy(2, { to: accounts[0]!.address, value: 5n, gasLimit: 21_000n })],
        ['legacy call', legacy(2, { to: store, data: storeCalldata(2n, 9n) })],
        ['legacy deploy', legacy(2, { data: hexToBytes(STORE_INITCODE), gasLimit: 200_000n })],
        [
          'EIP-2930 call with an access list',
          createAccessList2930Tx({ chainId: 31337n, nonce: nonces[2]!++, gasPrice: 2n * 10n ** 9n, gasLimit: 100_000n, to: store, data: storeCalldata(3n, 1n), accessList: [{ address: bytesToHex(store), storageKeys: [bytesToHex(storeCalldata(3n, 0n).subarray(0, 32))] }] }, { common }).sign(key(2)),
        ],
        [
          // A slot of a precompile warmed by the list: the journal's own set, not the precompiles' prebuilt one.
          'EIP-2930 call with an access list naming a precompile',
          createAccessList2930Tx({ chainId: 31337n, nonce: nonces[2]!++, gasPrice: 2n * 10n ** 9n, gasLimit: 100_000n, to: store, data: storeCalldata(3n, 2n), accessList: [{ address: `0x${'00'.repeat(19)}01`, storageKeys: [`0x${'00'.repeat(31)}07`] }] }, { common }).sign(key(2)),
        ],
        ['storage write after a precompile was listed', dynamic(1, { to: store, data: storeCalldata(3n, 3n) })],
        ['two logs', dynamic(1, { to: logger })],
        ['revert', dynamic(1, { to: reverter })],
        ['out of gas', dynamic(1, { to: store, data: storeCalldata(4n, 4n), gasLimit: 23_000n })],
        ['self-destruct', dynamic(1, { to: destruct })],
        ['dies at birth (EIP-6780)', dynamic(1, { data: hexToBytes(DIES_AT_BIRTH), gasLimit: 100_000n })],
        ['calldata to an account without code (EIP-7623 floor)', dynamic(1, { to: accounts[0]!.address, data: new Uint8Array(2_000).fill(1), gasLimit: 200_000n })],
        ['exact balance spent', dynamic(3, { to: accounts[0]!.address, gasLimit: 21_000n, maxFeePerGas: 10n ** 9n })],
        ['error: nonce too high', dynamic(1, { to: accounts[0]!.address, nonce: 99n })],
        ['error: balance too low', dynamic(3, { to: accounts[0]!.address, gasLimit: 21_000n })],
        ['error: fee cap below the base fee', dynamic(1, { to: accounts[0]!.address, maxFeePerGas: 10n ** 8n, maxPriorityFeePerGas: 1n, nonce: nonces[1]! })],
        ['error: intrinsic gas too low', dynamic(1, { to: accounts[0]!.address, data: new Uint8Array(100).fill(1), gasLimit: 21_000n, nonce: nonces[1]! })],
        ['error: sender with code (EIP-3607)', createFeeMarket1559Tx({ chainId: 31337n, nonce: 0n, gasLimit: 21_000n, ...fee, to: accounts[0]!.address }, { common }).sign(key(0))],
      ]

      const upstream = await miningVm(common, world)
      const lean = await miningVm(common, world)
      // EIP-3607's case: account 0's address given code in both (only that transaction is sent from it after).
      let gasUsed = 0n
      const outcomes = new Map<string, Awaited<ReturnType<typeof outcome>>>()
      for (const [name, tx] of txs) {
        if (name.includes('EIP-3607')) for (const run of [upstream, lean]) await run.sm.putCode(new Address(accounts[0]!.address), hexToBytes('0x00'))
        expect(runsLean(lean.vm, { tx, block, blockGasUsed: gasUsed }), name).toBe(true)
        const ref = await outcome(upstream, tx, block, gasUsed, false)
        const got = await outcome(lean, tx, block, gasUsed, true)
        expect(got, name).toEqual(ref)
        outcomes.set(name, got)
        if ('blockGasSpent' in got) gasUsed += got.blockGasSpent
      }
      expect(lean.events).toEqual(upstream.events)
      expect(lean.events.length).toBe(2 * txs.length - 5)

      // The runs did what their names say (so that equal outcomes are not equal nothings).
      const field = (name: string, key: string) => (outcomes.get(name) as Record<string, unknown>)[key]
      for (const [name] of txs) expect(field(name, 'thrown') !== undefined, name).toBe(name.startsWith('error'))
      expect(field('error: sender with code (EIP-3607)', 'thrown')).toMatch(/EIP-3607/)
      expect(field('error: intrinsic gas too low', 'thrown')).toMatch(/INTRINSIC_GAS_TOO_LOW/)
      expect(field('deploy', 'createdAddress')).toBe(bytesToHex(store))
      expect(field('revert', 'error')).toBe('revert')
      expect(field('out of gas', 'error')).toBe('out of gas')
      expect(field('storage cleared (SSTORE refund)', 'gasRefund')).toBeGreaterThan(0n)
      expect(field('two logs', 'logs')).toBe(2)
      expect(field('storage write with a log', 'logs')).toBe(1)
      const floor = 21_000n + 10n * 4n * 2_000n
      expect(field('calldata to an account without code (EIP-7623 floor)', 'totalGasSpent') === floor).toBe(hardfork === 'prague')
      // Before Cancun a SELFDESTRUCT removes the contract; from Cancun (EIP-6780) only one made in the same transaction.
      expect((await lean.sm.getCode(new Address(destruct))).length > 0).toBe(hardfork !== 'london')
      // A touched account left empty is removed (EIP-161), by both.
      expect(await lean.sm.getAccount(NOBODY)).toBeUndefined()
      const born = field('dies at birth (EIP-6780)', 'createdAddress') as string
      expect(await lean.sm.getAccount(new Address(hexToBytes(born as `0x${string}`)))).toBeUndefined()
    })
  })
}

test('behavior: blob, EIP-7702 and system-less runs go to ethereumjs runTx', async () => {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'prague', customCrypto: createCustomCrypto() })
  const vm = await createVM({ common })
  const block = createBlock({ header: { number: 1n, baseFeePerGas: 1n } }, { common })
  const tx = createFeeMarket1559Tx({ chainId: 31337n, gasLimit: 21_000n, maxFeePerGas: 1n }, { common })
  expect(runsLean(vm, { tx, block })).toBe(true)
  expect(runsLean(vm, { tx: Object.create(tx, { type: { value: 3 } }) as TypedTransaction, block })).toBe(false)
  expect(runsLean(vm, { tx: Object.create(tx, { type: { value: 4 } }) as TypedTransaction, block })).toBe(false)
  expect(runsLean(vm, { tx })).toBe(false)
  expect(runsLean(vm, { tx, block, skipBalance: true })).toBe(false)
  expect(runsLean(vm, { tx, block, reportAccessList: true })).toBe(false)
})
