// ethers v6 against a real ringchain: JsonRpcProvider (HTTP, batched, filters polled) and
// WebSocketProvider (eth_subscribe), each with a Wallet. A fresh server per test on 127.0.0.1,
// port 0. Storage slots are computed with ethers, independently of ringchain.

import {
  AbiCoder,
  Contract,
  ContractFactory,
  JsonRpcProvider,
  Network,
  Wallet,
  WebSocketProvider,
  getAddress,
  isError,
  keccak256,
  parseEther,
  toBeHex,
  zeroPadValue,
  type ContractEventPayload,
  type InterfaceAbi,
  type JsonRpcApiProviderOptions,
} from 'ethers'
import { describe, expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { Store, slotOf } from '../fixtures/contracts/artifacts.js'
import { deferred, within } from './helpers.js'

const KINDS = ['JsonRpcProvider', 'WebSocketProvider'] as const
type Kind = (typeof KINDS)[number]

const OTHER = '0x000000000000000000000000000000000000bEEF'
const NETWORK = Network.from(31337)
/** The artifact's ABI (typed for viem) is plain solc JSON, which is what ethers takes. */
const STORE_ABI = Store.abi as InterfaceAbi
/** Milliseconds a tx.wait() may take before the test fails. */
const WAIT_MS = 5_000

/**
 * Tells when an answer to a method has reached a provider: a listener that installs a filter or
 * subscription only hears events from then on.
 */
class Answers {
  readonly #waiting = new Map<string, (() => void)[]>()

  /** Resolves when the next answer to `method` arrives. */
  next(method: string): Promise<void> {
    return new Promise((resolve) => this.#waiting.set(method, [...(this.#waiting.get(method) ?? []), resolve]))
  }

  settle(method: string): void {
    const resolvers = this.#waiting.get(method) ?? []
    this.#waiting.delete(method)
    for (const resolve of resolvers) resolve()
  }
}

class ObservedJsonRpcProvider extends JsonRpcProvider {
  readonly answers = new Answers()
  override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<any> {
    const result: unknown = await super.send(method, params)
    this.answers.settle(method)
    return result
  }
}

class ObservedWebSocketProvider extends WebSocketProvider {
  readonly answers = new Answers()
  override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<any> {
    const result: unknown = await super.send(method, params)
    this.answers.settle(method)
    return result
  }
}

/** A fresh ringchain, a provider of `kind` and a Wallet on it; all closed when the test finishes. */
async function setup(kind: Kind) {
  const rc = await startRingchain({ port: 0 })
  // pollingInterval: filters and block polling every 50 ms; cacheTimeout -1: no stale block numbers.
  const options: JsonRpcApiProviderOptions = { staticNetwork: NETWORK, pollingInterval: 50, cacheTimeout: -1 }
  const provider =
    kind === 'JsonRpcProvider' ? new ObservedJsonRpcProvider(rc.httpUrl, NETWORK, options) : new ObservedWebSocketProvider(rc.wsUrl, NETWORK, options)
  onTestFinished(async () => {
    await provider.destroy()
    await rc.close()
  })
  const wallet = new Wallet(rc.accounts[0]!.privateKey, provider)
  return {
    rc,
    provider,
    wallet,
    /** Deploys Store with a ContractFactory from the wallet. */
    async deployStore(): Promise<Contract> {
      const deployed = await new ContractFactory(STORE_ABI, Store.bytecode, wallet).deploy()
      const receipt = await deployed.deploymentTransaction()!.wait(1, WAIT_MS)
      expect(receipt?.status).toBe(1)
      return new Contract(await deployed.getAddress(), STORE_ABI, wallet)
    },
  }
}

/** The slot of `balances[who]` in Store: keccak256(abi.encode(who, slotOf(balances))). */
function balancesSlot(who: string): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [who, slotOf(Store, 'balances')]))
}

const word = (value: bigint): string => zeroPadValue(toBeHex(value), 32)

describe.each(KINDS)('ethers %s', (kind) => {
  test('behavior: a Wallet sends ether and tx.wait() gives the receipt', async () => {
    const { provider, wallet } = await setup(kind)
    expect((await provider.getNetwork()).chainId).toBe(31337n)
    const tx = await wallet.sendTransaction({ to: OTHER, value: parseEther('1') })
    const receipt = await tx.wait(1, WAIT_MS)
    expect(receipt).toMatchObject({ status: 1, hash: tx.hash, from: wallet.address, to: OTHER, gasUsed: 21_000n })
    expect(await provider.getBalance(OTHER)).toBe(parseEther('1'))
    expect(await provider.getTransactionCount(wallet.address)).toBe(1)
  })

  test('behavior: ContractFactory deploys Store; store() writes the value slot and a mapping slot', async () => {
    const { provider, wallet, deployStore } = await setup(kind)
    const store = await deployStore()
    const address = await store.getAddress()
    expect(await provider.getCode(address)).toBe(Store.deployedBytecode)

    const tx = await store.getFunction('store')(42n)
    const receipt = await tx.wait(1, WAIT_MS)
    expect(receipt).toMatchObject({ status: 1, to: address })
    expect(receipt!.logs).toHaveLength(1)

    expect(await provider.getStorage(address, slotOf(Store, 'value'))).toBe(word(42n))
    expect(await provider.getStorage(address, balancesSlot(wallet.address))).toBe(word(42n))
    expect(await provider.getStorage(address, balancesSlot(OTHER))).toBe(word(0n))
    expect(await provider.getStorage(address, balancesSlot(wallet.address), receipt!.blockNumber - 1)).toBe(word(0n))
    expect(await store.getFunction('get')()).toBe(42n)
    expect(await store.getFunction('balances')(wallet.address)).toBe(42n)
  })

  test('behavior: contract.on("Stored") receives the event', async () => {
    const { provider, wallet, deployStore } = await setup(kind)
    const store = await deployStore()
    const got = deferred<{ who: string; value: bigint; payload: ContractEventPayload }>()
    // WebSocketProvider subscribes (eth_subscribe logs); JsonRpcProvider polls a filter (eth_newFilter).
    const live = provider.answers.next(kind === 'WebSocketProvider' ? 'eth_subscribe' : 'eth_newFilter')
    await store.on('Stored', (who: string, value: bigint, payload: ContractEventPayload) => got.resolve({ who, value, payload }))
    try {
      await within(live, 5_000, 'the listener to be installed')
      const tx = await store.getFunction('store')(5n)
      const { who, value, payload } = await within(got.promise, 5_000, 'the Stored event')
      expect(who).toBe(wallet.address)
      expect(value).toBe(5n)
      expect(payload.log.transactionHash).toBe(tx.hash)
    } finally {
      // Removing the listener uninstalls the filter (unsubscribes) in the background; let that
      // finish before the provider is destroyed, or ethers rejects it unhandled.
      const removed = provider.answers.next(kind === 'WebSocketProvider' ? 'eth_unsubscribe' : 'eth_uninstallFilter')
      await store.removeAllListeners()
      await within(removed, 5_000, 'the listener to be removed')
    }
  })

  test('behavior: provider.on("block") hears a block mined with evm_mine', async () => {
    const { provider } = await setup(kind)
    const head = await provider.getBlockNumber()
    const got = deferred<number>()
    // WebSocketProvider subscribes to newHeads; JsonRpcProvider polls eth_blockNumber, live once
    // its first poll (which records the head) has come back.
    const live = provider.answers.next(kind === 'WebSocketProvider' ? 'eth_subscribe' : 'eth_blockNumber')
    await provider.on('block', (n: number) => {
      if (n === head + 1) got.resolve(n)
    })
    try {
      await within(live, 5_000, 'the listener to be installed')
      await provider.send('evm_mine', [])
      expect(await within(got.promise, 5_000, 'the block event')).toBe(head + 1)
    } finally {
      const removed = kind === 'WebSocketProvider' ? provider.answers.next('eth_unsubscribe') : Promise.resolve()
      await provider.removeAllListeners('block')
      await within(removed, 5_000, 'the listener to be removed')
    }
  })

  test('error: a revert gives CALL_EXCEPTION with the reason', async () => {
    const { deployStore } = await setup(kind)
    const store = await deployStore()
    const fail = store.getFunction('fail')

    const callError = await fail.staticCall().then(() => undefined, (e: unknown) => e)
    expect(isError(callError, 'CALL_EXCEPTION')).toBe(true)
    expect(callError).toMatchObject({ reason: 'nope', revert: { name: 'Error', args: ['nope'] } })

    const estimateError = await fail.estimateGas().then(() => undefined, (e: unknown) => e)
    expect(isError(estimateError, 'CALL_EXCEPTION')).toBe(true)
    expect(estimateError).toMatchObject({ reason: 'nope' })

    // Sent anyway with a gas limit (nothing estimates): mined, status 0, and wait() throws.
    const tx = await fail.send({ gasLimit: 100_000n })
    const waitError = await tx.wait(1, WAIT_MS).then(() => undefined, (e: unknown) => e)
    expect(isError(waitError, 'CALL_EXCEPTION')).toBe(true)
    expect(waitError).toMatchObject({ receipt: { status: 0, hash: tx.hash } })
  })

  test('behavior: in manual mode a sent transaction is pending until evm_mine', async () => {
    const { provider, wallet } = await setup(kind)
    await provider.send('evm_setAutomine', [false])
    const head = await provider.getBlockNumber()

    const tx = await wallet.sendTransaction({ to: OTHER, value: 1n })
    const pending = await provider.getTransaction(tx.hash)
    expect(pending).not.toBeNull()
    expect(pending!.blockNumber).toBeNull()
    expect(pending!.blockHash).toBeNull()
    expect(await provider.getTransactionReceipt(tx.hash)).toBeNull()
    expect(await provider.getBlockNumber()).toBe(head)

    // tx.wait() is already polling when the block comes.
    const waiting = tx.wait(1, WAIT_MS)
    await provider.send('evm_mine', [])
    expect((await waiting)!.blockNumber).toBe(head + 1)
    const receipt = await provider.getTransactionReceipt(tx.hash)
    expect(receipt).toMatchObject({ status: 1, blockNumber: head + 1, index: 0 })
    expect((await provider.getTransaction(tx.hash))!.blockNumber).toBe(head + 1)
  })

  test('behavior: a JsonRpcSigner sends through eth_sendTransaction', async () => {
    const { rc, provider } = await setup(kind)
    expect(await provider.listAccounts().then((list) => list.map((s) => s.address))).toEqual(rc.accounts.map((a) => getAddress(a.address)))
    const signer = await provider.getSigner(1)
    const tx = await signer.sendTransaction({ to: OTHER, value: 7n })
    const receipt = await tx.wait(1, WAIT_MS)
    expect(receipt).toMatchObject({ status: 1, from: getAddress(rc.accounts[1]!.address) })
    expect(await provider.getBalance(OTHER)).toBe(7n)
  })

  test('behavior: blocks, logs and fee data of a mined write', async () => {
    const { provider, wallet, deployStore } = await setup(kind)
    const store = await deployStore()
    const tx = await store.getFunction('store')(3n)
    const receipt = (await tx.wait(1, WAIT_MS))!

    const block = await provider.getBlock('latest')
    expect(block).toMatchObject({ hash: receipt.blockHash, number: receipt.blockNumber, transactions: [tx.hash] })
    const full = await provider.getBlock(receipt.blockNumber, true)
    expect(full!.prefetchedTransactions[0]).toMatchObject({ hash: tx.hash, from: wallet.address })

    const logs = await provider.getLogs({ address: await store.getAddress(), fromBlock: 0, toBlock: 'latest' })
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ transactionHash: tx.hash, blockNumber: receipt.blockNumber })
    const events = await store.queryFilter(store.filters.Stored!(wallet.address))
    expect(events.map((e) => e.transactionHash)).toEqual([tx.hash])

    const fees = await provider.getFeeData()
    expect(fees.maxFeePerGas).toBeGreaterThan(0n)
    expect(fees.maxPriorityFeePerGas).toBeGreaterThan(0n)
    expect(fees.gasPrice).toBeGreaterThan(0n)
  })
})
