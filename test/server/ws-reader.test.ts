// The read side of WebSocket connections (src/server/ws-reader.ts): frames written by hand on a
// `ws` client's socket, whole, split at every kind of boundary, fragmented, interleaved with
// control frames, or broken, reach the handler (or close the connection) as `ws` alone would have.

import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { describe, expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { startServer } from '../../src/server/server.js'
import { installFrameReader } from '../../src/server/ws-reader.js'
import { openCollectingClient } from '../helpers/ws.js'

const TEXT = 0x1
const BINARY = 0x2
const CONTINUATION = 0x0
const PING = 0x9

/** A client frame as RFC 6455 has it: masked with a random key. */
function frame(opcode: number, payload: Buffer | string, { fin = true, masked = true } = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload
  const length = data.length
  const lengthBytes = length < 126 ? Buffer.from([length | (masked ? 0x80 : 0)]) : length <= 0xffff ? Buffer.from([126 | (masked ? 0x80 : 0), length >> 8, length & 0xff]) : Buffer.concat([Buffer.from([127 | (masked ? 0x80 : 0), 0, 0, 0, 0]), uint32(length)])
  const first = Buffer.from([(fin ? 0x80 : 0) | opcode])
  if (!masked) return Buffer.concat([first, lengthBytes, data])
  const mask = randomBytes(4)
  const body = Buffer.from(data.map((byte, i) => byte ^ mask[i % 4]!))
  return Buffer.concat([first, lengthBytes, mask, body])
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(value)
  return out
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A server echoing every message as `got:<message>`, and a connected client with its raw socket.
 * `handled`: the messages the handler got (answers made after the client's close frame are not sent).
 */
async function connected(options: { maxWsMessageBytes?: number } = {}) {
  const handled: string[] = []
  const server = await startServer(async (body) => {
    handled.push(body)
    return `got:${body}`
  }, options)
  onTestFinished(() => server.close())
  const { ws, received } = await openCollectingClient(server.urls('key').wsUrl)
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  // `ws`'s client socket: bytes written here reach the server as they are.
  const socket = (ws as unknown as { _socket: Socket })._socket
  return { ws, socket, received, handled, closed }
}

describe('frames read on the socket', { timeout: 10_000 }, () => {
  test('behavior: frames of each length class, several in one write, are each answered in order', async () => {
    const { socket, received } = await connected()
    const messages = ['a', 'x'.repeat(125), 'y'.repeat(126), 'é'.repeat(40_000), 'z'.repeat(70_000), '']
    socket.write(Buffer.concat(messages.map((m) => frame(TEXT, m))))
    await expect.poll(() => received.length).toBe(messages.length)
    expect(received).toEqual(messages.map((m) => `got:${m}`))
  })

  test('behavior: a frame split inside its header, its mask or its payload is read whole', async () => {
    const { socket, received } = await connected()
    const messages = ['{"id":1}', 'p'.repeat(300), 'q'.repeat(70_000)]
    const expected: string[] = []
    for (const message of messages) {
      const bytes = frame(TEXT, message)
      for (const cut of [1, 2, 3, 5, 9, 11, 13, bytes.length - 1]) {
        socket.write(bytes.subarray(0, cut))
        // Apart in time, so that the server reads two chunks.
        await pause(5)
        socket.write(bytes.subarray(cut))
        expected.push(`got:${message}`)
      }
    }
    await expect.poll(() => received.length).toBe(expected.length)
    expect(received).toEqual(expected)
  })

  test('behavior: a fragmented message, with a ping between its fragments, is read whole and the ping answered', async () => {
    const { ws, socket, received } = await connected()
    const pong = new Promise<string>((resolve) => ws.once('pong', (data) => resolve(String(data))))
    socket.write(Buffer.concat([frame(TEXT, '{"part":', { fin: false }), frame(PING, 'hello'), frame(CONTINUATION, '1', { fin: false })]))
    await pause(5)
    socket.write(Buffer.concat([frame(CONTINUATION, '}'), frame(TEXT, 'after')]))
    expect(await pong).toBe('hello')
    await expect.poll(() => received.length).toBe(2)
    expect(received).toEqual(['got:{"part":1}', 'got:after'])
  })

  test('behavior: a binary frame is read as UTF-8 text', async () => {
    const { socket, received } = await connected()
    socket.write(frame(BINARY, Buffer.from('{"id":"é"}')))
    await expect.poll(() => received.length).toBe(1)
    expect(received).toEqual(['got:{"id":"é"}'])
  })

  test('error: an unmasked frame closes the connection with 1002, unhandled', async () => {
    const { socket, handled, closed } = await connected()
    socket.write(frame(TEXT, '{"id":1}', { masked: false }))
    expect(await closed).toBe(1002)
    expect(handled).toEqual([])
  })

  test('error: a text frame of invalid UTF-8 closes the connection with 1007, unhandled', async () => {
    const { socket, handled, closed } = await connected()
    socket.write(Buffer.concat([frame(TEXT, 'ok'), frame(TEXT, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), frame(TEXT, 'later')]))
    expect(await closed).toBe(1007)
    expect(handled).toEqual(['ok'])
  })

  test('error: a frame over the limit closes the connection with 1009 even when it arrives in parts', async () => {
    const { socket, handled, closed } = await connected({ maxWsMessageBytes: 1_024 })
    const bytes = frame(TEXT, 'x'.repeat(1_025))
    socket.write(Buffer.concat([frame(TEXT, 'y'.repeat(1_024)), bytes.subarray(0, 3)]))
    await pause(5)
    socket.write(bytes.subarray(3))
    expect(await closed).toBe(1009)
    expect(handled).toEqual(['y'.repeat(1_024)])
  })

  test('behavior: frames the client sent before its close frame are handled, none after', async () => {
    const { ws, socket, handled, closed } = await connected()
    const close = Buffer.concat([Buffer.from([0x88, 0x82]), randomBytes(4), Buffer.alloc(2)])
    // A close frame with code 1000, masked by hand: the 2-byte payload XORed with the key.
    close[6] = 0x03 ^ close[2]!
    close[7] = 0xe8 ^ close[3]!
    socket.write(Buffer.concat([frame(TEXT, 'before'), close, frame(TEXT, 'after')]))
    expect(await closed).toBe(1000)
    expect(ws.readyState).toBe(WebSocket.CLOSED)
    await pause(20)
    expect(handled).toEqual(['before'])
  })
})

describe('answers written at once', { timeout: 10_000 }, () => {
  test('behavior: a push made before an answer still reaches the client first', async () => {
    const server = await startServer(async (body, session) => {
      // Pushed from a promise callback: held for the tick queue, which runs after the answer is made.
      await null
      session.send(`push before ${body}`)
      return `answer to ${body}`
    })
    onTestFinished(() => server.close())
    const ws = new WebSocket(server.urls('key').wsUrl)
    onTestFinished(() => ws.terminate())
    await new Promise((resolve) => ws.once('open', resolve))
    const received: string[] = []
    ws.on('message', (data) => received.push(String(data)))
    ws.send('a')
    await expect.poll(() => received.length).toBe(2)
    ws.send('b')
    ws.send('c')
    await expect.poll(() => received.length).toBe(6)
    expect(received.slice(0, 2)).toEqual(['push before a', 'answer to a'])
    // Two in flight: each push comes before its own answer.
    for (const id of ['b', 'c']) expect(received.indexOf(`push before ${id}`)).toBeLessThan(received.indexOf(`answer to ${id}`))
  })
})

describe('installFrameReader', () => {
  test('behavior: whole data frames are read without `ws`; control frames reach `ws` alone, byte for byte', () => {
    const socket = new PassThrough()
    const toWs: Buffer[] = []
    socket.on('data', (chunk: Buffer) => toWs.push(Buffer.from(chunk)))
    const messages: string[] = []
    expect(installFrameReader(socket, { maxPayload: 1_000, onMessage: (text) => messages.push(text), isOpen: () => true })).toBe(true)
    const ping = frame(PING, 'hi')
    socket.write(Buffer.concat([frame(TEXT, 'one'), ping, frame(BINARY, 'two')]))
    expect(messages).toEqual(['one', 'two'])
    expect(toWs).toEqual([ping])
  })

  test('behavior: once the connection is closing, every byte goes to `ws`, which then reads the socket itself', () => {
    const socket = new PassThrough()
    const toWs: Buffer[] = []
    const wsListener = (chunk: Buffer) => toWs.push(Buffer.from(chunk))
    socket.on('data', wsListener)
    let open = true
    const messages: string[] = []
    installFrameReader(socket, { maxPayload: 1_000, onMessage: (text) => messages.push(text), isOpen: () => open })
    socket.write(frame(TEXT, 'one'))
    open = false
    const later = frame(TEXT, 'two')
    socket.write(later)
    expect(messages).toEqual(['one'])
    expect(toWs).toEqual([later])
    expect(socket.listeners('data')).toEqual([wsListener])
  })

  test('behavior: a socket with other data listeners is left as it was', () => {
    const socket = new PassThrough()
    socket.on('data', () => {})
    socket.on('data', () => {})
    const before = socket.listeners('data')
    expect(installFrameReader(socket, { maxPayload: 1_000, onMessage: () => {}, isOpen: () => true })).toBe(false)
    expect(socket.listeners('data')).toEqual(before)
  })
})
