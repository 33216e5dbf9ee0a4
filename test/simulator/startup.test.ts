// A served dev chain listens before its chain is built: `onListening` hands out the URL, the chain
// id and the accounts first; requests sent at that moment are answered correctly and in order.

import { describe, expect, onTestFinished, test } from 'vitest'
import WebSocket from 'ws'
import { createRingchain, startRingchain, type ListeningRingchain } from '../../src/simulator.js'

describe('startRingchain: onListening', () => {
  test('behavior: requests sent before the chain is built are answered in order', async () => {
    const answers: { id: number; result?: unknown }[] = []
    let told: ListeningRingchain | undefined
    let socketDone: Promise<void> | undefined
    let resolved = false
    let firstAnsweredBeforeStart: boolean | undefined
    const started = startRingchain({
      port: 0,
      accounts: 2,
      chainId: 5n,
      onListening: (listening) => {
        told = listening
        const socket = new WebSocket(listening.wsUrl)
        onTestFinished(() => socket.terminate())
        socketDone = new Promise((resolve, reject) => {
          socket.once('error', reject)
          socket.on('message', (data) => {
            answers.push(JSON.parse(String(data)) as { id: number; result?: unknown })
            firstAnsweredBeforeStart ??= !resolved
            if (answers.length === 4) resolve()
          })
          socket.once('open', () => {
            const send = (id: number, method: string, params: unknown[] = []) => socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
            send(1, 'eth_chainId')
            send(2, 'eth_getBalance', [listening.accounts[1]!.address, 'latest'])
            send(3, 'eth_chainId')
            send(4, 'net_version')
          })
        })
      },
    })
    void started.then(() => (resolved = true))
    const rc = await started
    onTestFinished(() => rc.close())
    await socketDone
    // eth_chainId did not wait for the chain: it was answered before startRingchain resolved.
    expect(firstAnsweredBeforeStart).toBe(true)
    expect(told).toEqual({ httpUrl: rc.httpUrl, wsUrl: rc.wsUrl, port: rc.port, chainId: 5n, accounts: rc.accounts })
    // The first, answered from the options, comes back first; the held ones are dispatched in
    // order once the chain exists, and a socket's answers go out as each is ready.
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 1, result: '0x5' })
    expect(answers.toSorted((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x5' },
      { jsonrpc: '2.0', id: 2, result: '0x21e19e0c9bab2400000' },
      { jsonrpc: '2.0', id: 3, result: '0x5' },
      { jsonrpc: '2.0', id: 4, result: '5' },
    ])
  })

  test('args: a chain the options do not fix (one from a state dump) is not announced early', async () => {
    const source = await createRingchain()
    const dump = await source.dumpState()
    await source.close()
    let called = false
    const rc = await startRingchain({ port: 0, loadState: dump, onListening: () => (called = true) })
    onTestFinished(() => rc.close())
    expect(called).toBe(false)
  })

  test('error: a bad mnemonic is refused before anything listens', async () => {
    let called = false
    await expect(startRingchain({ port: 0, mnemonic: 'not a mnemonic', onListening: () => (called = true) })).rejects.toThrow(/invalid mnemonic/)
    expect(called).toBe(false)
  })
})
