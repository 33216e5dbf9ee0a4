// Real clients across a reorg (ringchain_reorg, geth's way) over a real server: viem's
// watchContractEvent and watchEvent, polling over HTTP (eth_newFilter / eth_getFilterChanges) and
// over WebSocket (eth_subscribe logs), and ethers v6 contract listeners on a JsonRpcProvider
// (filter polled) and a WebSocketProvider.
//
// What each delivers, as their sources do it: viem passes every log to `onLogs`, `removed` as it
// came (formatLog spreads the log), so a watcher sees the events, their removal, then the new
// chain's. ethers v6 never gives a removed log to a contract listener: AbstractProvider#hasSub
// sends a log with `removed: true` to the subscription `{ orphan: 'drop-log', log }` instead,
// keyed by the whole log as Log.toJSON() writes it (`removed: true` included).

import { Contract, Network, WebSocketProvider, type ContractEventPayload, type InterfaceAbi, type Log } from 'ethers'
import { createPublicClient, createWalletClient, http, parseAbiItem, webSocket, type Address, type Hash } from 'viem'
import { expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { Store } from '../fixtures/contracts/artifacts.js'
import { ringchainChain } from './helpers.js'

const POLL_MS = 50
const STORED = parseAbiItem('event Stored(address indexed who, uint256 value)')
const NETWORK = Network.from(31337)

/** What a watcher was told of one log. */
interface Seen {
  readonly value: bigint
  readonly removed: boolean
  readonly blockNumber: bigint
  readonly blockHash: string
}

/** Polls `done` every 20 ms until it holds; fails after `ms`, naming `what`. */
async function until(done: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

test('behavior: every watcher sees the transfers, their removal, then the new chain, in that order', async () => {
  const rc = await startRingchain({ port: 0, deterministic: true })
  onTestFinished(() => rc.close())
  const dev = rc.accounts[0]!.address as Address
  const wallet = createWalletClient({ chain: ringchainChain, transport: http(rc.httpUrl), account: dev })
  const overHttp = createPublicClient({ chain: ringchainChain, transport: http(rc.httpUrl), pollingInterval: POLL_MS })
  const overWs = createPublicClient({ chain: ringchainChain, transport: webSocket(rc.wsUrl), pollingInterval: POLL_MS })
  const deployed = await wallet.deployContract({ abi: Store.abi, bytecode: Store.bytecode })
  const address = (await overHttp.waitForTransactionReceipt({ hash: deployed, pollingInterval: POLL_MS })).contractAddress!

  const seen: Record<string, Seen[]> = {}
  const record = (name: string) => (log: { args: { value?: bigint | undefined }; removed: boolean; blockNumber: bigint | null; blockHash: string | null }) =>
    seen[name]!.push({ value: log.args.value!, removed: log.removed, blockNumber: log.blockNumber!, blockHash: log.blockHash! })
  for (const [name, client] of [
    ['viem watchContractEvent http', overHttp],
    ['viem watchContractEvent webSocket', overWs],
  ] as const) {
    seen[name] = []
    onTestFinished(client.watchContractEvent({ address, abi: Store.abi, eventName: 'Stored', onLogs: (logs) => logs.forEach((l) => record(name)(l as never)) }))
  }
  for (const [name, client] of [
    ['viem watchEvent http', overHttp],
    ['viem watchEvent webSocket', overWs],
  ] as const) {
    seen[name] = []
    onTestFinished(client.watchEvent({ address, event: STORED, onLogs: (logs) => logs.forEach((l) => record(name)(l)) }))
  }
  const options = { staticNetwork: NETWORK, pollingInterval: POLL_MS, cacheTimeout: -1 }
  // ethers over HTTP is left out: its filter poller re-arms on the *next* new block after each
  // poll, so blocks mined while a poll is in flight are polled only when another block comes. An
  // automine chain that goes idle after the last transfer never brings one (seen: 2 of 3 logs),
  // and mining one here would change which blocks the reorg drops. Over WebSocket ethers
  // subscribes and hears every log.
  for (const [name, provider] of [['ethers WebSocketProvider', new WebSocketProvider(rc.wsUrl, NETWORK, options)]] as const) {
    seen[name] = []
    onTestFinished(() => provider.destroy())
    const contract = new Contract(address, Store.abi as InterfaceAbi, provider)
    await contract.on('Stored', (_who: string, value: bigint, event: ContractEventPayload) => {
      const log = event.log
      seen[name]!.push({ value, removed: log.removed, blockNumber: BigInt(log.blockNumber), blockHash: log.blockHash })
      // Where ethers sends this log's removal, if one comes.
      void provider.once({ orphan: 'drop-log', log: { ...log.toJSON(), removed: true } } as never, (dropped: Log) => {
        seen[name]!.push({ value, removed: dropped.removed, blockNumber: BigInt(dropped.blockNumber), blockHash: dropped.blockHash })
      })
    })
  }
  const store = (value: bigint): Promise<Hash> => wallet.writeContract({ address, abi: Store.abi, functionName: 'store', args: [value] })

  // Watchers go live at their own pace: probe (value 1) until every one of them hears.
  const names = Object.keys(seen)
  for (let i = 0; i < 50 && names.some((n) => seen[n]!.length === 0); i++) {
    await store(1n)
    await new Promise((r) => setTimeout(r, 100))
  }
  const work = (name: string) => seen[name]!.filter((s) => s.value >= 11n)
  const waitFor = (count: number) => until(() => names.every((n) => work(n).length >= count), 10_000, () => names.map((n) => `${n}: ${work(n).length}/${count}`).join(', '))

  const hashes = [await store(11n), await store(12n), await store(13n)]
  await waitFor(3)
  const before = await Promise.all(hashes.map((hash) => overHttp.getTransactionReceipt({ hash })))
  const head = before[2]!.blockNumber

  const answer = await rc.request({ method: 'ringchain_reorg', params: [{ depth: 3 }] })
  expect(answer).toMatchObject({ requeued: hashes })
  await waitFor(9)

  const after = await Promise.all(hashes.map((hash) => overHttp.getTransactionReceipt({ hash })))
  // Three new (empty) blocks replace the old ones; the requeued transfers follow, once each.
  expect(after.map((r) => r.blockNumber)).toEqual([head + 1n, head + 2n, head + 3n])
  for (const name of names) {
    const [added, removed, readded] = [work(name).slice(0, 3), work(name).slice(3, 6), work(name).slice(6)]
    expect(added.map((s) => [s.value, s.removed]), name).toEqual([[11n, false], [12n, false], [13n, false]])
    // viem's onLogs, ethers' orphan listeners: the removals, before the new chain's logs.
    expect(removed.map((s) => [s.value, s.removed]), name).toEqual([[11n, true], [12n, true], [13n, true]])
    expect(readded.map((s) => [s.value, s.removed]), name).toEqual([[11n, false], [12n, false], [13n, false]])
    expect(removed.map((s) => s.blockHash), name).toEqual(added.map((s) => s.blockHash))
    expect(readded.map((s) => s.blockNumber), name).toEqual(after.map((r) => r.blockNumber))
  }
})
