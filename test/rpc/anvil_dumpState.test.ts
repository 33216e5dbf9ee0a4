/**
 * `anvil_dumpState` / `anvil_loadState` through viem's test actions, and the in-process
 * `dumpState()` / `createRingchain({ loadState })`: a dump restores every account (balance, nonce,
 * code, storage) and the head's number, time and base fee; the window starts at the loaded head;
 * a bad dump is refused with -32602 and the chain is left as it was.
 */
import { gzipSync } from 'node:zlib'
import { createPublicClient, createTestClient, createWalletClient, http, type Hex } from 'viem'
import { expect, test } from 'vitest'
import { createRingchain, RingchainRpcError, type RunningRingchain, type StateDump } from '../../src/index.js'
import { rpcError, start } from '../helpers/rpc.js'

/** Runtime: slot 1 += 1 on every call. */
const RUNTIME = '60015460010160015500'
/** Init: slot 1 = 0x2a, then return RUNTIME (10 bytes at offset 0x11). */
const INIT: Hex = `0x602a600155600a6011600039600a6000f3${RUNTIME}`

function clients(rc: RunningRingchain) {
  const transport = http(rc.httpUrl)
  return {
    test: createTestClient({ mode: 'anvil', transport }),
    public: createPublicClient({ transport }),
    wallet: createWalletClient({ transport, account: rc.accounts[0]!.address }),
  }
}

/** A chain with a contract (storage written by its constructor and by calls) after a few blocks; returns the contract. */
async function busyChain(rc: RunningRingchain): Promise<Hex> {
  const c = clients(rc)
  const deploy = await c.wallet.sendTransaction({ data: INIT, chain: null })
  const contract = (await c.public.getTransactionReceipt({ hash: deploy })).contractAddress!
  await c.wallet.sendTransaction({ to: rc.accounts[1]!.address, value: 12345n, chain: null })
  await c.test.mine({ blocks: 3 })
  // The head holds a transaction: the next base fee is not the one an empty head gives.
  await c.wallet.sendTransaction({ to: contract, chain: null })
  return contract
}

test('default: a dump loaded into a fresh chain restores every account and the head, and takes transactions', async () => {
  const source = await start()
  const contract = await busyChain(source)
  const from = clients(source)
  const dumped = await from.test.dumpState()
  expect(dumped).toMatch(/^0x1f8b/)
  const head = await from.public.getBlock()
  const pending = await from.public.getBlock({ blockTag: 'pending' })
  const original = await source.dumpState()

  const target = await start()
  const to = clients(target)
  await to.test.loadState({ state: dumped })
  const loaded = await to.public.getBlock()
  expect({ number: loaded.number, timestamp: loaded.timestamp, baseFee: loaded.baseFeePerGas, gasLimit: loaded.gasLimit }).toEqual({
    number: head.number,
    timestamp: head.timestamp,
    baseFee: head.baseFeePerGas,
    gasLimit: head.gasLimit,
  })
  expect((await to.public.getBlock({ blockTag: 'pending' })).baseFeePerGas).toBe(pending.baseFeePerGas)

  // Every account field, over the wire, against the source chain.
  for (const [address, account] of Object.entries(original.accounts) as [Hex, StateDump['accounts'][string]][]) {
    expect(await to.public.getBalance({ address }), address).toBe(await from.public.getBalance({ address }))
    expect(await to.public.getTransactionCount({ address }), address).toBe(await from.public.getTransactionCount({ address }))
    expect((await to.public.getCode({ address })) ?? '0x', address).toBe((await from.public.getCode({ address })) ?? '0x')
    for (const slot of Object.keys(account.storage) as Hex[]) {
      expect(await to.public.getStorageAt({ address, slot }), `${address} ${slot}`).toBe(await from.public.getStorageAt({ address, slot }))
    }
  }
  expect(await to.public.getStorageAt({ address: contract, slot: '0x1' })).toBe(`0x${'00'.repeat(31)}2b`)
  // And as a whole: the loaded chain dumps the same state.
  expect(await target.dumpState()).toEqual(original)

  // The chain goes on: a call to the contract is mined on the loaded head.
  const hash = await to.wallet.sendTransaction({ to: contract, chain: null })
  const receipt = await to.public.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.blockNumber).toBe(head.number + 1n)
  expect((await to.public.getBlock()).baseFeePerGas).toBe(pending.baseFeePerGas)
  expect(await to.public.getStorageAt({ address: contract, slot: '0x1' })).toBe(`0x${'00'.repeat(31)}2c`)
})

test('behavior: the window starts at the loaded head', async () => {
  const source = await start()
  await clients(source).test.mine({ blocks: 5 })
  const target = await start()
  await clients(target).test.loadState({ state: await clients(source).test.dumpState() })
  const error = await rpcError(target.httpUrl, 'eth_getBlockByNumber', ['0x4', false])
  expect(error.code).toBe(4444)
  expect(await clients(target).public.getBlockNumber()).toBe(5n)
  expect((await clients(target).public.getBlock({ blockTag: 'earliest' })).number).toBe(5n)
})

test('behavior: plain JSON is loaded too, as anvil takes it', async () => {
  const source = await start()
  await clients(source).test.setBalance({ address: source.accounts[3]!.address, value: 7n })
  const json = JSON.stringify(await source.dumpState())
  const target = await start()
  await clients(target).test.loadState({ state: `0x${Buffer.from(json).toString('hex')}` })
  expect(await clients(target).public.getBalance({ address: source.accounts[3]!.address })).toBe(7n)
})

test('args: in-process createRingchain({ loadState }) and dumpState()', async () => {
  const source = await createRingchain()
  await source.request({ method: 'anvil_setStorageAt', params: [source.accounts[0]!.address, '0x5', `0x${'00'.repeat(31)}09`] })
  await source.request({ method: 'evm_mine', params: [] })
  const dump = await source.dumpState()
  await source.close()
  const target = await createRingchain({ loadState: JSON.parse(JSON.stringify(dump)) as StateDump })
  expect(await target.request({ method: 'eth_getStorageAt', params: [source.accounts[0]!.address, '0x5', 'latest'] })).toBe(`0x${'00'.repeat(31)}09`)
  expect(target.chain.head.number).toBe(BigInt(dump.best_block_number))
  await target.close()
})

test('error: a bad dump in createRingchain names the field', async () => {
  const source = await createRingchain()
  const dump = await source.dumpState()
  await source.close()
  const address = Object.keys(dump.accounts)[0]!
  dump.accounts[address]!.nonce = 'many'
  await expect(createRingchain({ loadState: dump })).rejects.toThrow(`invalid state dump: accounts.${address}.nonce: expected a non-negative integer, got "many"`)
})

/** Loads `state` (hex) and expects -32602 with `message`, then the chain exactly as before. */
async function refused(state: Hex, message: string | RegExp): Promise<void> {
  const rc = await start()
  const c = clients(rc)
  await c.test.mine({ blocks: 2 })
  const before = await rc.dumpState()
  const error = await c.test.loadState({ state }).catch((e: unknown) => e)
  const cause = (error as { cause?: { code?: number; details?: string } }).cause
  expect(cause?.code).toBe(-32602)
  expect(cause?.details).toMatch(message)
  expect(await rc.dumpState()).toEqual(before)
  expect(await c.public.getBlockNumber()).toBe(2n)
}

test('error: a truncated gzip dump is refused, the chain untouched', async () => {
  const source = await start()
  const dumped = await clients(source).test.dumpState()
  await refused(dumped.slice(0, dumped.length / 2) as Hex, /^invalid state dump: not valid gzip \(unexpected end of file\)$/)
})

test('error: truncated JSON is refused, the chain untouched', async () => {
  const json = JSON.stringify(await (await start()).dumpState())
  await refused(`0x${gzipSync(json.slice(0, json.length - 20)).toString('hex')}`, /^invalid state dump: not JSON \(/)
})

test('error: a dump with a bad field is refused, naming it, the chain untouched', async () => {
  const dump = await (await start()).dumpState()
  dump.block.timestamp = '-1'
  await refused(`0x${gzipSync(JSON.stringify(dump)).toString('hex')}`, /^invalid state dump: block.timestamp: expected a non-negative integer, got "-1"$/)
})

test('error: an argument that is not hex bytes is refused', async () => {
  const rc = await start()
  const error = await rpcError(rc.httpUrl, 'anvil_loadState', ['zz'])
  expect(error.code).toBe(-32602)
  expect(error.message).toMatch(/^invalid argument 0: /)
  expect(await rpcError(rc.httpUrl, 'anvil_loadState', [])).toMatchObject({ code: -32602 })
})

test('error: in-process, a bad dump is a RingchainRpcError -32602', async () => {
  const rc = await createRingchain()
  const error = await rc.request({ method: 'anvil_loadState', params: ['0x7b7d'] }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(RingchainRpcError)
  expect(error).toMatchObject({ code: -32602, message: 'invalid state dump: block: expected an object' })
  await rc.close()
})
