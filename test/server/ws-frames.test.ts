// The server's own WebSocket text frames (src/server/ws-frames.ts), read back by `ws`'s Receiver
// (an independent implementation of RFC 6455) and by a real client through the server.

import { createRequire } from 'node:module'
import { describe, expect, onTestFinished, test } from 'vitest'
import { startServer } from '../../src/server/server.js'
import { textFrames } from '../../src/server/ws-frames.js'
import { openCollectingClient } from '../helpers/ws.js'

// `ws` exports its Receiver at run time but its types do not declare it.
interface FrameReader {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void
  on(event: 'error', listener: (error: Error) => void): void
  write(chunk: Buffer, encoding: string, callback: (error?: Error | null) => void): void
}
const { Receiver } = createRequire(import.meta.url)('ws') as { Receiver: new (options: { isServer: boolean }) => FrameReader }

/** The text messages `ws`, as a client, reads from `bytes`. */
async function readFrames(bytes: Buffer): Promise<string[]> {
  const receiver = new Receiver({ isServer: false })
  const messages: string[] = []
  receiver.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false)
    messages.push(data.toString('utf8'))
  })
  await new Promise<void>((resolve, reject) => {
    receiver.on('error', reject)
    receiver.write(bytes, 'buffer', (error) => (error ? reject(error) : resolve()))
  })
  return messages
}

/** A text of exactly `bytes` UTF-8 bytes, with two-byte characters in it. */
function textOf(bytes: number): string {
  const pairs = Math.floor(bytes / 4)
  return 'é'.repeat(pairs) + 'x'.repeat(bytes - pairs * 2)
}

describe('textFrames', () => {
  test('behavior: each length class of RFC 6455 (7-bit, 16-bit, 64-bit) reads back as sent', async () => {
    const messages = [0, 1, 125, 126, 127, 65_535, 65_536, 70_001].map(textOf)
    expect(messages.map((m) => Buffer.byteLength(m))).toEqual([0, 1, 125, 126, 127, 65_535, 65_536, 70_001])
    expect(await readFrames(textFrames(messages))).toEqual(messages)
  })

  test('behavior: the header is FIN + text, unmasked, with the shortest length encoding', () => {
    expect([...textFrames(['hi'])]).toEqual([0x81, 2, 0x68, 0x69])
    expect([...textFrames([textOf(126)]).subarray(0, 4)]).toEqual([0x81, 126, 0, 126])
    expect([...textFrames([textOf(65_536)]).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
  })
})

describe('websocket answers', { timeout: 5_000 }, () => {
  test('behavior: many answers of one turn, small and large, reach the client whole and in order', async () => {
    const sizes = [10, 200, 70_000, 3, 126, 65_535, 1, 2, 5, 4_000, 9, 100]
    const server = await startServer(async (body) => textOf(sizes[Number(body)]!))
    onTestFinished(() => server.close())
    const { ws, received } = await openCollectingClient(server.urls('key').wsUrl)
    // Sent together, so the server reads them in one chunk and answers them in one turn (more than
    // one write batch of answers).
    sizes.forEach((_, i) => ws.send(String(i)))
    await expect.poll(() => received.length).toBe(sizes.length)
    expect(received.map((m) => Buffer.byteLength(m))).toEqual(sizes)
    expect(received).toEqual(sizes.map(textOf))
  })
})
