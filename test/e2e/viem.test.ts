// viem against a real ringchain: public, wallet and test clients over HTTP, over WebSocket and
// through the in-process EIP-1193 `request` (custom transport). A fresh chain per test; the server
// listens on 127.0.0.1, port 0. Storage slots are computed with viem, independently of ringchain.

import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  http,
  keccak256,
  pad,
  parseAbiItem,
  parseEther,
  toHex,
  webSocket,
  type Address,
  type Block,
  type Hash,
  type Log,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createRingchain, startRingchain, type AccountInfo } from '../../src/index.js'
import { Store, Token, slotOf } from '../fixtures/contracts/artifacts.js'
import { deferred, ringchainChain, within } from './helpers.js'

const KINDS = ['http', 'webSocket', 'custom'] as const
type Kind = (typeof KINDS)[number]

/** Short enough that polling watchers and receipt waits finish in tens of milliseconds. */
const POLL_MS = 50
const WAIT = { timeout: 5_000 } as const
/** Store's event, typed for viem (the artifact's ABI is loaded untyped from JSON). */
const STORED = parseAbiItem('event Stored(address indexed who, uint256 value)')
const OTHER: Address = '0x000000000000000000000000000000000000beef'

/**
 * Wraps a transport so a test can wait until a watcher is live on the node: the answer to its
 * `eth_newFilter` (polling) or `eth_subscribe` (WebSocket) has reached the client.
 */
function observed(inner: Transport): { transport: Transport; answered(method: string): Promise<void> } {
  const waiting = new Map<string, (() => void)[]>()
  const settle = (method: string): void => {
    const resolvers = waiting.get(method) ?? []
    waiting.delete(method)
    for (const resolve of resolvers) resolve()
  }
  const transport: Transport = (options) => {
    const t = inner(options)
    const value = t.value as Record<string, unknown> | undefined
    const subscribe = value?.subscribe as ((args: unknown) => Promise<unknown>) | undefined
    return {
      ...t,
      request: (async (args: { method: string }, opts: unknown) => {
        const result = await (t.request as (a: unknown, o: unknown) => Promise<unknown>)(args, opts)
        settle(args.method)
        return result
      }) as typeof t.request,
      value:
        subscribe === undefined
          ? value
          : {
              ...value,
              subscribe: async (args: unknown) => {
                const subscription = (await subscribe(args)) as { unsubscribe: () => Promise<unknown> }
                settle('eth_subscribe')
                return {
                  ...subscription,
                  unsubscribe: async () => {
                    const result = await subscription.unsubscribe()
                    settle('eth_unsubscribe')
                    return result
                  },
                }
              },
            },
    }
  }
  return {
    transport,
    /** Resolves once the next answer to `method` has reached the client. */
    answered: (method) => new Promise((resolve) => waiting.set(method, [...(waiting.get(method) ?? []), resolve])),
  }
}

/** A fresh ringchain reached through `kind`, with clients; torn down when the test finishes. */
async function setup(kind: Kind) {
  let inner: Transport
  let close: () => Promise<void>
  let accounts: readonly AccountInfo[]
  if (kind === 'custom') {
    const rc = await createRingchain()
    inner = custom(rc, { retryCount: 0 })
    accounts = rc.accounts
    close = () => rc.close()
  } else {
    const rc = await startRingchain({ port: 0 })
    accounts = rc.accounts
    if (kind === 'http') {
      inner = http(rc.httpUrl, { retryCount: 0 })
      close = () => rc.close()
    } else {
      const ws = webSocket(rc.wsUrl, { retryCount: 0, reconnect: false, keepAlive: false })
      inner = ws
      close = async () => {
        const client = createPublicClient({ transport: ws })
        ;(await client.transport.getRpcClient()).close()
        await rc.close()
      }
    }
  }
  onTestFinished(close)
  const { transport, answered } = observed(inner)
  // cacheTime 0: getBlockNumber must see a block mined a moment ago.
  const common = { chain: ringchainChain, transport, pollingInterval: POLL_MS, cacheTime: 0 } as const
  const dev = privateKeyToAccount(accounts[0]!.privateKey)
  const publicClient = createPublicClient(common)
  const wallet = createWalletClient({ ...common, account: dev })
  return {
    accounts,
    answered,
    publicClient,
    /** A wallet with a local account: signs itself, sends eth_sendRawTransaction. */
    wallet,
    /** A wallet with a json-rpc account: the node signs (eth_sendTransaction). */
    rpcWallet: createWalletClient({ ...common, account: accounts[1]!.address }),
    testClient: createTestClient({ ...common, mode: 'anvil' }),
    /** A wallet whose json-rpc account is `address` (for impersonation). */
    walletFor: (address: Address) => createWalletClient({ ...common, account: address }),
    dev,
    /**
     * Stops a watcher and waits until the node has dropped its filter or subscription, so no
     * request of it is still in flight when the server closes.
     */
    async unwatched(unwatch: () => void): Promise<void> {
      const removed = answered(kind === 'webSocket' ? 'eth_unsubscribe' : 'eth_uninstallFilter')
      unwatch()
      await within(removed, 5_000, 'the watcher to be removed')
    },
    /** Deploys Store from the local account and returns its address. */
    async deployStore(): Promise<Address> {
      const hash = await wallet.deployContract({ abi: Store.abi, bytecode: Store.bytecode })
      const receipt = await publicClient.waitForTransactionReceipt({ hash, ...WAIT })
      expect(receipt.status).toBe('success')
      return receipt.contractAddress!
    },
  }
}

const word = (value: bigint): Hash => toHex(value, { size: 32 })

/** The slot of `mapping(address => …)[key]` for a mapping at `slot`: keccak256(abi.encode(key, slot)). */
function mappingSlot(key: Address, slot: Hash): Hash {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [key, slot]))
}

/** The slot of `balances[who]` in Store. */
const balancesSlot = (who: Address): Hash => mappingSlot(who, word(slotOf(Store, 'balances')))

describe.each(KINDS)('viem over %s', (kind) => {
  test('behavior: deploys Store, writes, and reads the value slot and a mapping slot', async () => {
    const { publicClient, wallet, dev, deployStore } = await setup(kind)
    const store = await deployStore()
    expect(await publicClient.getCode({ address: store })).toBe(Store.deployedBytecode)

    const hash = await wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [42n] })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, ...WAIT })
    expect(receipt).toMatchObject({ status: 'success', from: dev.address.toLowerCase(), to: store, transactionHash: hash })

    const valueSlot = word(slotOf(Store, 'value'))
    expect(await publicClient.getStorageAt({ address: store, slot: valueSlot })).toBe(word(42n))
    expect(await publicClient.getStorageAt({ address: store, slot: balancesSlot(dev.address) })).toBe(word(42n))
    expect(await publicClient.getStorageAt({ address: store, slot: balancesSlot(OTHER) })).toBe(word(0n))
    // The slot before the write, by block number.
    expect(await publicClient.getStorageAt({ address: store, slot: valueSlot, blockNumber: receipt.blockNumber - 1n })).toBe(word(0n))

    expect(await publicClient.readContract({ address: store, abi: Store.abi, functionName: 'get' })).toBe(42n)
    expect(await publicClient.readContract({ address: store, abi: Store.abi, functionName: 'balances', args: [dev.address] })).toBe(42n)
  })

  test('behavior: a json-rpc account deploys and writes through eth_sendTransaction', async () => {
    const { publicClient, rpcWallet, accounts } = await setup(kind)
    const from = accounts[1]!.address
    const deploy = await rpcWallet.deployContract({ abi: Store.abi, bytecode: Store.bytecode })
    const deployed = await publicClient.waitForTransactionReceipt({ hash: deploy, ...WAIT })
    expect(deployed).toMatchObject({ status: 'success', from })
    const store = deployed.contractAddress!

    const write = await rpcWallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [7n] })
    expect((await publicClient.waitForTransactionReceipt({ hash: write, ...WAIT })).status).toBe('success')
    expect(await publicClient.getStorageAt({ address: store, slot: balancesSlot(from) })).toBe(word(7n))

    const pay = await rpcWallet.sendTransaction({ to: OTHER, value: parseEther('1.5') })
    expect((await publicClient.waitForTransactionReceipt({ hash: pay, ...WAIT })).status).toBe('success')
    expect(await publicClient.getBalance({ address: OTHER })).toBe(parseEther('1.5'))
    expect(await publicClient.getTransaction({ hash: pay })).toMatchObject({ from, to: OTHER, value: parseEther('1.5') })
  })

  test('behavior: watchContractEvent receives the Stored event', async () => {
    const { publicClient, wallet, dev, deployStore, answered, unwatched } = await setup(kind)
    const store = await deployStore()
    const got = deferred<Log[]>()
    const live = answered(kind === 'webSocket' ? 'eth_subscribe' : 'eth_newFilter')
    const unwatch = publicClient.watchContractEvent({
      address: store,
      abi: Store.abi,
      eventName: 'Stored',
      onLogs: got.resolve,
      onError: got.reject,
    })
    try {
      await within(live, 5_000, 'the watcher to be installed')
      const hash = await wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [5n] })
      const [log] = await within(got.promise, 5_000, 'the Stored event')
      expect(log).toMatchObject({ address: store, transactionHash: hash, eventName: 'Stored', args: { who: dev.address, value: 5n }, removed: false })
    } finally {
      await unwatched(unwatch)
    }
  })

  test('behavior: watchEvent with an indexed-argument filter receives only the matching log', async () => {
    const { publicClient, wallet, rpcWallet, dev, deployStore, answered, unwatched } = await setup(kind)
    const store = await deployStore()
    const got = deferred<Log[]>()
    const live = answered(kind === 'webSocket' ? 'eth_subscribe' : 'eth_newFilter')
    const unwatch = publicClient.watchEvent({
      address: store,
      event: STORED,
      args: { who: dev.address },
      onLogs: (logs) => got.resolve(logs),
      onError: got.reject,
    })
    try {
      await within(live, 5_000, 'the watcher to be installed')
      // Another sender first: its log does not match the topic filter.
      const other = await rpcWallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [1n] })
      await publicClient.waitForTransactionReceipt({ hash: other, ...WAIT })
      const hash = await wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [2n] })
      const logs = await within(got.promise, 5_000, 'the Stored log')
      expect(logs).toHaveLength(1)
      expect(logs[0]).toMatchObject({ transactionHash: hash, topics: [expect.any(String), pad(dev.address).toLowerCase()] })
    } finally {
      await unwatched(unwatch)
    }
  })

  test('behavior: watchBlocks sees a block the test client mines', async () => {
    const { publicClient, testClient, answered, unwatched } = await setup(kind)
    const head = await publicClient.getBlockNumber()
    const got = deferred<Block>()
    // Over WebSocket a newHeads subscription; otherwise polling, live once its first poll (which
    // also reports the current head) has come back.
    const live = answered(kind === 'webSocket' ? 'eth_subscribe' : 'eth_getBlockByNumber')
    const unwatch = publicClient.watchBlocks({
      onBlock: (block) => {
        if (block.number === head + 1n) got.resolve(block)
      },
      onError: got.reject,
    })
    try {
      await within(live, 5_000, 'the watcher to be installed')
      await testClient.mine({ blocks: 1 })
      const block = await within(got.promise, 5_000, 'the new block')
      expect(block.number).toBe(head + 1n)
      expect(block.hash).toBe((await publicClient.getBlock({ blockNumber: head + 1n })).hash)
    } finally {
      // Polling installs nothing on the node; a subscription is dropped with eth_unsubscribe.
      if (kind === 'webSocket') await unwatched(unwatch)
      else unwatch()
    }
  })

  test('behavior: estimateGas is enough for the write it estimates', async () => {
    const { publicClient, wallet, dev, deployStore } = await setup(kind)
    const store = await deployStore()
    const gas = await publicClient.estimateContractGas({ address: store, abi: Store.abi, functionName: 'store', args: [9n], account: dev })
    expect(gas).toBeGreaterThan(21_000n + 20_000n)
    expect(gas).toBeLessThan(100_000n)

    const hash = await wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [9n], gas })
    expect((await publicClient.waitForTransactionReceipt({ hash, ...WAIT })).status).toBe('success')
    // A transfer to an account without code runs nothing: exactly 21000, as geth, anvil and Hardhat answer.
    expect(await publicClient.estimateGas({ account: dev, to: OTHER, value: 1n })).toBe(21_000n)
  })

  test('error: simulateContract of a reverting function gives the revert reason', async () => {
    const { publicClient, wallet, dev, deployStore } = await setup(kind)
    const store = await deployStore()
    const error = await publicClient
      .simulateContract({ address: store, abi: Store.abi, functionName: 'fail', account: dev })
      .then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ContractFunctionExecutionError)
    const reverted = (error as ContractFunctionExecutionError).walk((e) => e instanceof ContractFunctionRevertedError)
    expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
    expect((reverted as ContractFunctionRevertedError).reason).toBe('nope')

    await expect(publicClient.estimateContractGas({ address: store, abi: Store.abi, functionName: 'fail', account: dev })).rejects.toThrow(/nope/)

    // Sent anyway (gas given, so nothing estimates first): mined with status reverted.
    const hash = await wallet.sendTransaction({ to: store, data: encodeFunctionData({ abi: Store.abi, functionName: 'fail' }), gas: 100_000n })
    expect((await publicClient.waitForTransactionReceipt({ hash, ...WAIT })).status).toBe('reverted')
  })

  test('behavior: getBlock, getLogs and getFeeHistory see a mined write', async () => {
    const { publicClient, wallet, dev, deployStore } = await setup(kind)
    const store = await deployStore()
    const hash = await wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [3n] })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, ...WAIT })

    const latest = await publicClient.getBlock()
    expect(latest).toMatchObject({ hash: receipt.blockHash, number: receipt.blockNumber, transactions: [hash] })
    const full = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })
    expect(full.transactions[0]).toMatchObject({ hash, from: dev.address.toLowerCase(), to: store, blockNumber: receipt.blockNumber })
    const byHash = await publicClient.getBlock({ blockHash: receipt.blockHash })
    expect(byHash.parentHash).toBe((await publicClient.getBlock({ blockNumber: receipt.blockNumber - 1n })).hash)

    const logs = await publicClient.getLogs({ address: store, event: STORED, fromBlock: 0n, toBlock: 'latest' })
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ transactionHash: hash, blockNumber: receipt.blockNumber, args: { who: dev.address, value: 3n } })
    const events = await publicClient.getContractEvents({ address: store, abi: Store.abi, eventName: 'Stored', blockHash: receipt.blockHash })
    expect(events.map((e) => e.transactionHash)).toEqual([hash])

    const history = await publicClient.getFeeHistory({ blockCount: 2, rewardPercentiles: [25, 75] })
    expect(history.oldestBlock).toBe(receipt.blockNumber - 1n)
    expect(history.baseFeePerGas).toHaveLength(3)
    expect(history.gasUsedRatio).toHaveLength(2)
    expect(history.gasUsedRatio[1]).toBeGreaterThan(0)
    expect(history.reward).toHaveLength(2)
    expect(history.reward![1]).toHaveLength(2)
  })

  test('behavior: in manual mode a sent transaction is pending until mine()', async () => {
    const { publicClient, wallet, testClient } = await setup(kind)
    await testClient.setAutomine(false)
    const head = await publicClient.getBlockNumber()

    const hash = await wallet.sendTransaction({ to: OTHER, value: 1n })
    const pending = await publicClient.getTransaction({ hash })
    expect(pending).toMatchObject({ hash, blockNumber: null, blockHash: null, transactionIndex: null })
    await expect(publicClient.getTransactionReceipt({ hash })).rejects.toThrow(TransactionReceiptNotFoundError)
    expect(await publicClient.getBlockNumber()).toBe(head)

    // The client is already waiting (polling) when the block comes.
    const waiting = publicClient.waitForTransactionReceipt({ hash, ...WAIT })
    await testClient.mine({ blocks: 1 })
    const receipt = await waiting
    expect(receipt).toMatchObject({ status: 'success', blockNumber: head + 1n, transactionIndex: 0 })
    expect((await publicClient.getTransaction({ hash })).blockNumber).toBe(head + 1n)
  })

  test('behavior: the test client sets balances and storage, mines, snapshots and reverts', async () => {
    const { publicClient, testClient, deployStore } = await setup(kind)
    const store = await deployStore()

    await testClient.setBalance({ address: OTHER, value: 123n })
    expect(await publicClient.getBalance({ address: OTHER })).toBe(123n)

    const id = await testClient.snapshot()
    const head = await publicClient.getBlockNumber()
    await testClient.mine({ blocks: 3 })
    expect(await publicClient.getBlockNumber()).toBe(head + 3n)
    await testClient.setStorageAt({ address: store, index: word(slotOf(Store, 'value')), value: word(99n) })
    expect(await publicClient.readContract({ address: store, abi: Store.abi, functionName: 'get' })).toBe(99n)
    await testClient.setBalance({ address: OTHER, value: 456n })

    await testClient.revert({ id })
    expect(await publicClient.getBlockNumber()).toBe(head)
    expect(await publicClient.readContract({ address: store, abi: Store.abi, functionName: 'get' })).toBe(0n)
    expect(await publicClient.getBalance({ address: OTHER })).toBe(123n)

    await testClient.setAutomine(false)
    expect(await testClient.getAutomine()).toBe(false)
    await testClient.setAutomine(true)
    expect(await testClient.getAutomine()).toBe(true)
  })

  test('behavior: an impersonated account sends without a key', async () => {
    const { publicClient, testClient, walletFor } = await setup(kind)
    const whale: Address = '0x00000000000000000000000000000000000a11ce'
    await testClient.setBalance({ address: whale, value: parseEther('10') })
    await testClient.impersonateAccount({ address: whale })
    const impersonated = walletFor(whale)
    const hash = await impersonated.sendTransaction({ to: OTHER, value: parseEther('1') })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, ...WAIT })
    expect(receipt).toMatchObject({ status: 'success', from: whale })
    expect(await publicClient.getBalance({ address: OTHER })).toBe(parseEther('1'))

    await testClient.stopImpersonatingAccount({ address: whale })
    await expect(impersonated.sendTransaction({ to: OTHER, value: 1n })).rejects.toThrow(/unknown account/)
  })
})

describe('viem over http: the Token fixture', () => {
  test('behavior: ERC-20 balances and allowances sit at the mapping slots the layout gives', async () => {
    const { publicClient, wallet, rpcWallet, dev, accounts } = await setup('http')
    const spender = accounts[1]!.address
    const deploy = await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Ring', 'RNG', parseEther('1000')] })
    const token = (await publicClient.waitForTransactionReceipt({ hash: deploy, ...WAIT })).contractAddress!
    const read = (functionName: string, args: readonly unknown[] = []) => publicClient.readContract({ address: token, abi: Token.abi, functionName, args })
    expect([await read('name'), await read('symbol'), await read('decimals'), await read('totalSupply')]).toEqual(['Ring', 'RNG', 18, parseEther('1000')])

    const succeeds = async (hash: Hash) => expect((await publicClient.waitForTransactionReceipt({ hash, ...WAIT })).status).toBe('success')
    await succeeds(await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [OTHER, parseEther('10')] }))
    await succeeds(await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'approve', args: [spender, parseEther('5')] }))
    await succeeds(await rpcWallet.writeContract({ address: token, abi: Token.abi, functionName: 'transferFrom', args: [dev.address, OTHER, parseEther('2')] }))

    const at = (slot: Hash) => publicClient.getStorageAt({ address: token, slot })
    const balances = word(slotOf(Token, '_balances'))
    expect(await at(mappingSlot(dev.address, balances))).toBe(word(parseEther('988')))
    expect(await at(mappingSlot(OTHER, balances))).toBe(word(parseEther('12')))
    // _allowances[owner][spender]: the inner mapping sits at the outer mapping's slot for owner.
    expect(await at(mappingSlot(spender, mappingSlot(dev.address, word(slotOf(Token, '_allowances')))))).toBe(word(parseEther('3')))
    expect(await at(word(slotOf(Token, '_totalSupply')))).toBe(word(parseEther('1000')))
    // A short string keeps its bytes left-aligned and length * 2 in the last byte.
    expect(await at(word(slotOf(Token, '_name')))).toBe(`0x${Buffer.from('Ring').toString('hex').padEnd(62, '0')}08`)
  })
})
