// The warm-up's client (src/warmup/loopback.ts): JSON-RPC over HTTP and WebSocket whose sockets
// live on a worker thread, so that the server's isolate compiles node:net only for its own sockets.

import { createServer, Socket, type AddressInfo } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { LoopbackRpcError, LoopbackThread } from '../../src/warmup/loopback.js'
import { within } from '../e2e/helpers.js'

async function served() {
  const rc = await startRingchain({ port: 0, warmup: false })
  onTestFinished(() => rc.close())
  return rc
}

function thread(): LoopbackThread {
  const t = new LoopbackThread()
  onTestFinished(() => t.close())
  return t
}

/** This thread's sockets connected to `port` (a client's; the server's own have it as their local port). */
function clientSocketsTo(port: number): Socket[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles()
  return handles.filter((h): h is Socket => h instanceof Socket && h.remotePort === port)
}

describe('the warm-up client', () => {
  test('behavior: it asks over HTTP and WebSocket and gets the results; a JSON-RPC error rejects with its code', async () => {
    const rc = await served()
    const t = thread()
    for (const client of [await t.open('http', rc.httpUrl), await t.open('ws', rc.wsUrl)]) {
      expect(await client('eth_chainId')).toBe('0x7a69')
      expect(await client('eth_getBalance', ['0x' + '00'.repeat(20), 'latest'], 'ethers')).toBe('0x0')
      const refused = await client('eth_getBalance', ['not an address', 'latest']).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(LoopbackRpcError)
      expect((refused as LoopbackRpcError).code).toBe(-32602)
    }
  })

  test('behavior: its sockets are not in the calling thread', async () => {
    const rc = await served()
    const port = Number(new URL(rc.httpUrl).port)
    const client = await thread().open('http', rc.httpUrl)
    await client('eth_chainId')
    // The server's end of the connection is here (it accepted it); the client's end is not.
    expect(clientSocketsTo(port)).toEqual([])
    const sameThread = new Socket()
    await new Promise<void>((resolve) => sameThread.connect(port, '127.0.0.1', resolve))
    onTestFinished(() => void sameThread.destroy())
    expect(clientSocketsTo(port)).toHaveLength(1)
  })

  test('behavior: close() ends a request under way and refuses later ones', async () => {
    // A server that accepts connections and never answers.
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => void silent.close())
    const t = thread()
    const client = await t.open('http', `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v3/k`)
    const pending = client('eth_chainId').then(
      () => 'answered',
      (e: unknown) => (e as Error).message,
    )
    await t.close()
    expect(await within(pending, 5_000, 'the pending request')).toBe('connection closed')
    await expect(client('eth_chainId')).rejects.toThrow('connection closed')
  })
})
