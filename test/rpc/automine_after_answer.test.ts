// A send over the wire is answered before its automined block is built (the client prepares its
// next request meanwhile, as anvil's clients do), yet no answer after it shows the transaction
// pending: every request waits for that block first. In process the block is mined before the
// send resolves, as Hardhat mines it.
import { bytesToHex } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import { Chain } from '../../src/chain/chain.js'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { signed1559 } from '../helpers/chain.js'
import { nextMessage, openWs, post, result, start, type Hex } from '../helpers/rpc.js'

const chains: Chain[] = []
const inProcess: Ringchain[] = []
afterEach(async () => {
  await Promise.all([...chains.splice(0).map((c) => c.close()), ...inProcess.splice(0).map((rc) => rc.close())])
})

/** A signed transfer of 1 wei from dev account 0, as wire hex. */
function transfer(chain: Chain, nonce: bigint): Hex {
  return bytesToHex(signed1559(chain, 0, { nonce, to: chain.accounts[1]!.address, value: 1n }).serialize()) as Hex
}

/** Its hash. */
function transferHash(chain: Chain, nonce: bigint): Hex {
  return bytesToHex(signed1559(chain, 0, { nonce, to: chain.accounts[1]!.address, value: 1n }).hash()) as Hex
}

describe('the chain', () => {
  test("behavior: with automine 'next-turn' a send resolves while its transaction is pending; settled() mines it at once", async () => {
    const chain = await Chain.create({ deterministic: true })
    chains.push(chain)
    const raw = signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address, value: 1n }).serialize()
    const hash = await chain.sendRawTransaction(raw, undefined, { automine: 'next-turn' })
    expect(chain.head.number).toBe(0n)
    expect(chain.lookupTransaction(hash)?.status).toBe('pending')
    const settling = chain.settled()
    expect(settling).toBeInstanceOf(Promise)
    await settling
    expect(chain.head.number).toBe(1n)
    expect(chain.lookupTransaction(hash)?.status).toBe('included')
    expect(chain.settled()).toBeUndefined()
  })

  test("behavior: with automine 'next-turn' and no one asking, the block is mined on the event loop's next turn", async () => {
    const chain = await Chain.create({ deterministic: true })
    chains.push(chain)
    await chain.sendRawTransaction(signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address, value: 1n }).serialize(), undefined, { automine: 'next-turn' })
    expect(chain.head.number).toBe(0n)
    // Nothing asks for it: the event loop's turns alone get it mined (bounded: 100 turns).
    for (let turn = 0; turn < 100 && chain.head.number === 0n; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(chain.head.number).toBe(1n)
    expect(chain.settled()).toBeUndefined()
  })

  test('behavior: by default a send resolves once its block is mined', async () => {
    const chain = await Chain.create({ deterministic: true })
    chains.push(chain)
    const hash = await chain.sendRawTransaction(signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address, value: 1n }).serialize())
    expect(chain.head.number).toBe(1n)
    expect(chain.lookupTransaction(hash)?.status).toBe('included')
    expect(chain.settled()).toBeUndefined()
  })

  test("behavior: in manual mining mode 'next-turn' mines nothing: the transaction stays pending", async () => {
    const chain = await Chain.create({ deterministic: true, mining: { mode: 'manual' } })
    chains.push(chain)
    const hash = await chain.sendRawTransaction(signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address, value: 1n }).serialize(), undefined, { automine: 'next-turn' })
    expect(chain.settled()).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(chain.head.number).toBe(0n)
    expect(chain.lookupTransaction(hash)?.status).toBe('pending')
  })
})

describe('over the wire', () => {
  test('behavior: over WebSocket the send is answered before its block is announced, and the receipt asked at once on its answer is there', async () => {
    const rc = await start()
    const ws = await openWs(rc.wsUrl)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    await nextMessage(ws)
    const hash = transferHash(rc.chain, 0n)
    const received: { id?: number; method?: string; result?: unknown }[] = []
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as (typeof received)[number]
      received.push(message)
      // Asked the moment the send's answer lands, as a client waiting for its receipt does.
      if (message.id === 2) ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_getTransactionReceipt', params: [hash] }))
    })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [transfer(rc.chain, 0n)] }))
    const deadline = Date.now() + 4_000
    while (received.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(received.map((m) => m.id ?? m.method)).toEqual([2, 'eth_subscription', 3])
    expect(received[0]!.result).toBe(hash)
    expect(received[2]!.result).toMatchObject({ transactionHash: hash, blockNumber: '0x1', status: '0x1' })
  })

  test('behavior: over HTTP, a batch [send, receipt, block number] sees the block the send made', async () => {
    const rc = await start()
    const raw = transfer(rc.chain, 0n)
    const answer = await post(rc.httpUrl, [
      { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] },
      { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [transferHash(rc.chain, 0n)] },
      { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber', params: [] },
    ])
    const [sent, receipt, number] = JSON.parse(answer.text) as { result: unknown }[]
    expect(receipt!.result).toMatchObject({ transactionHash: sent!.result, blockNumber: '0x1' })
    expect(number!.result).toBe('0x1')
  })

  test('behavior: twenty sends each followed at once by its receipt, on one HTTP connection after another: never a null receipt', async () => {
    const rc = await start()
    for (let nonce = 0n; nonce < 20n; nonce++) {
      const hash = await result<Hex>(rc.httpUrl, 'eth_sendRawTransaction', [transfer(rc.chain, nonce)])
      const receipt = await result<{ transactionHash: string; blockNumber: string } | null>(rc.httpUrl, 'eth_getTransactionReceipt', [hash])
      expect(receipt).toMatchObject({ transactionHash: hash, blockNumber: `0x${(nonce + 1n).toString(16)}` })
    }
  })

  test('behavior: eth_sendTransaction (a dev key signs) is answered first too, and its block is there for the next request', async () => {
    const rc = await start()
    const [from, to] = rc.accounts.map((a) => a.address)
    const hash = await result<Hex>(rc.httpUrl, 'eth_sendTransaction', [{ from, to, value: '0x1' }])
    expect(await result(rc.httpUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({ transactionHash: hash, status: '0x1' })
  })
})

test('behavior: in process a send resolves once its block is mined (nothing runs beside it to gain from answering first)', async () => {
  const rc = await createRingchain({ deterministic: true })
  inProcess.push(rc)
  const hash = (await rc.request({ method: 'eth_sendRawTransaction', params: [transfer(rc.chain, 0n)] })) as Hex
  // Read synchronously after the answer: no request in between to wait for a deferred block.
  expect(rc.chain.head.number).toBe(1n)
  expect(rc.chain.settled()).toBeUndefined()
  expect(bytesToHex(rc.chain.head.transactions[0]!.hash)).toBe(hash)
})
