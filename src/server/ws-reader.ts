// The read side of a WebSocket connection in the common case. Nearly every message a JSON-RPC
// client sends is one complete frame: FIN set, masked, text (or binary), not over the size limit.
// Those are read here straight from the socket's chunks and handed over as text, instead of going
// through `ws`'s Receiver: a Writable stream, a dozen calls and two events per message, which a
// test suite's first few hundred requests run as cold code (bench/flow-replay.mjs: ~25 µs of the
// server's CPU per request).
//
// Everything else goes to `ws`'s own 'data' listener, which stays the one judge of it, as
// fast-lane.ts leaves odd HTTP to node:http: control frames (ping, pong: handed over one by one,
// then reading goes on here), fragmented messages and frames not yet whole (handed over up to
// their last byte, which this file counts), and for good from the first close frame, protocol
// error (unmasked, reserved bits, unknown opcode), frame over the limit or invalid UTF-8 on.

import { isUtf8 } from 'node:buffer'
import type { Duplex } from 'node:stream'
import { LENGTH_16, LENGTH_64, TWO_POW_32 } from './ws-frames.js'

/** What the reader needs from its connection. */
export interface FrameReaderOptions {
  /** Largest message, in bytes: a larger frame goes to `ws`, which closes with 1009. */
  readonly maxPayload: number
  /** A message read here, as text. */
  readonly onMessage: (text: string) => void
  /** Whether `ws` still counts the connection open; once not, what is read goes to `ws`. */
  readonly isOpen: () => boolean
}

const FIN = 0x80
const RESERVED_BITS = 0x70
const MASKED = 0x80
const CONTINUATION = 0x0
const TEXT = 0x1
const BINARY = 0x2
const PING = 0x9
const PONG = 0xa

/** `#frame`'s answers besides an offset. */
const INCOMPLETE_HEADER = -1
const FOR_GOOD = -2

/**
 * Takes the socket's 'data' events over from `ws` (just after its handshake). Returns false, and
 * leaves the socket as it was, should `ws` not have exactly one 'data' listener there.
 */
export function installFrameReader(socket: Duplex, options: FrameReaderOptions): boolean {
  const listeners = socket.listeners('data')
  if (listeners.length !== 1) return false
  const wsListener = listeners[0] as (chunk: Buffer) => void
  const reader = new FrameReader(socket, wsListener, options)
  socket.removeListener('data', wsListener)
  socket.on('data', reader.onData)
  return true
}

class FrameReader {
  readonly #socket: Duplex
  readonly #ws: (chunk: Buffer) => void
  readonly #options: FrameReaderOptions
  /** The start of a frame whose header has not all arrived (at most 13 bytes). */
  #head: Buffer | undefined
  /** Bytes still owed to `ws` of a frame handed to it before all of it arrived. */
  #owed = 0
  /** `ws` holds the first frames of a fragmented message: its data frames go to `ws` until the last. */
  #fragmented = false

  constructor(socket: Duplex, wsListener: (chunk: Buffer) => void, options: FrameReaderOptions) {
    this.#socket = socket
    this.#ws = wsListener
    this.#options = options
  }

  readonly onData = (chunk: Buffer): void => {
    let data = chunk
    if (this.#head !== undefined) {
      data = Buffer.concat([this.#head, chunk])
      this.#head = undefined
    }
    // Closing (the server's close frame is out, or a handler cut the connection): `ws` reads the
    // rest, the client's close frame included, as it would have.
    if (!this.#options.isOpen()) return this.#giveUp(data)
    let at = 0
    if (this.#owed > 0) {
      at = Math.min(this.#owed, data.length)
      this.#owed -= at
      if (!this.#toWs(data.subarray(0, at))) return
    }
    while (at < data.length) {
      if (!this.#options.isOpen()) return this.#giveUp(data.subarray(at))
      const next = this.#frame(data, at)
      if (next === INCOMPLETE_HEADER) {
        this.#head = Buffer.from(data.subarray(at))
        return
      }
      if (next === FOR_GOOD) return this.#giveUp(data.subarray(at))
      if (next === undefined) return // `ws` closed the connection on a frame handed to it
      at = next
    }
  }

  /** Reads or hands over the frame at `at`; gives the offset past it (or past `data`). */
  #frame(data: Buffer, at: number): number | undefined {
    const available = data.length - at
    if (available < 2) return INCOMPLETE_HEADER
    const first = data[at]!
    const second = data[at + 1]!
    const opcode = first & 0x0f
    const short = second & 0x7f
    const lengthBytes = short === LENGTH_16 ? 2 : short === LENGTH_64 ? 8 : 0
    const headerBytes = 2 + lengthBytes + 4
    if ((second & MASKED) === 0 || (first & RESERVED_BITS) !== 0) return FOR_GOOD // `ws` answers 1002
    if (available < headerBytes) return INCOMPLETE_HEADER
    let length = short
    if (short === LENGTH_16) length = data.readUInt16BE(at + 2)
    else if (short === LENGTH_64) length = data.readUInt32BE(at + 2) * TWO_POW_32 + data.readUInt32BE(at + 6)
    const end = at + headerBytes + length
    const fin = (first & FIN) !== 0
    if (opcode === TEXT || opcode === BINARY) {
      if (this.#fragmented || length > this.#options.maxPayload) return FOR_GOOD
      if (!fin) {
        this.#fragmented = true
        return this.#handOver(data, at, end)
      }
      if (end > data.length) return this.#handOver(data, at, end)
      const message = this.#unmask(data, at + headerBytes - 4, end)
      if (opcode === TEXT && !isUtf8(message)) {
        // Masked again (XOR undoes itself), so that `ws` reads the frame as it came; it answers 1007.
        this.#unmask(data, at + headerBytes - 4, end)
        return FOR_GOOD
      }
      this.#options.onMessage(message.toString('utf8'))
      return end
    }
    if (opcode === CONTINUATION) {
      if (!this.#fragmented) return FOR_GOOD
      if (fin) this.#fragmented = false
      return this.#handOver(data, at, end)
    }
    if (opcode === PING || opcode === PONG) return this.#handOver(data, at, end)
    // A close frame (after it `ws` reads nothing more: CLOSE) or an opcode RFC 6455 does not define.
    return FOR_GOOD
  }

  /** The payload of the frame whose masking key starts at `maskAt`, unmasked in place. */
  #unmask(data: Buffer, maskAt: number, end: number): Buffer {
    const m0 = data[maskAt]!
    const m1 = data[maskAt + 1]!
    const m2 = data[maskAt + 2]!
    const m3 = data[maskAt + 3]!
    const start = maskAt + 4
    let i = start
    for (; i + 3 < end; i += 4) {
      data[i] = data[i]! ^ m0
      data[i + 1] = data[i + 1]! ^ m1
      data[i + 2] = data[i + 2]! ^ m2
      data[i + 3] = data[i + 3]! ^ m3
    }
    const mask = [m0, m1, m2, m3]
    for (let k = 0; i < end; i++, k++) data[i] = data[i]! ^ mask[k]!
    return data.subarray(start, end)
  }

  /** Hands `ws` the frame from `at` to `end`, or what of it has arrived (the rest is owed). */
  #handOver(data: Buffer, at: number, end: number): number | undefined {
    const upTo = Math.min(end, data.length)
    this.#owed = end - upTo
    return this.#toWs(data.subarray(at, upTo)) ? upTo : undefined
  }

  /**
   * Hands bytes to `ws` while the connection is open. False when it is no longer open after them:
   * `ws` closed it on them (a protocol error) and reads nothing more, nor does this.
   */
  #toWs(bytes: Buffer): boolean {
    this.#ws.call(this.#socket, bytes)
    if (this.#options.isOpen()) return true
    this.#stop()
    return false
  }

  /** From now on `ws` reads the connection itself, starting with `rest`. */
  #giveUp(rest: Buffer): void {
    this.#stop()
    this.#socket.on('data', this.#ws)
    if (rest.length > 0) this.#ws.call(this.#socket, rest)
  }

  #stop(): void {
    this.#socket.removeListener('data', this.onData)
  }
}
