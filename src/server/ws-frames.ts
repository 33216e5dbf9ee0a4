// Server-to-client WebSocket text frames (RFC 6455 §5.2), built here instead of by `ws`'s Sender:
// the answers of one turn of the event loop go out as one buffer, frames back to back, in one
// socket write. `ws`'s Sender makes a header buffer and two writes per message (through option
// objects and a cork of its own), which cost more than the JSON-RPC work of a cheap read. Only
// complete, unmasked, uncompressed text frames are made here: what a server sends to a client
// when permessage-deflate is off (websocket.ts turns it off). Control frames stay `ws`'s.

/** FIN set, opcode 1 (text). */
const FIN_TEXT = 0x81
/** Payload lengths up to 125 fit in the second byte; 126 and 127 announce 2- and 8-byte lengths (ws-reader.ts reads them too). */
const SHORT_LIMIT = 125
export const LENGTH_16 = 126
export const LENGTH_64 = 127
const MAX_16 = 0xffff
/** An 8-byte length is written and read as two 32-bit halves. */
export const TWO_POW_32 = 2 ** 32

function headerSize(payloadBytes: number): number {
  if (payloadBytes <= SHORT_LIMIT) return 2
  return payloadBytes <= MAX_16 ? 4 : 10
}

/** Writes the header of a frame of `payloadBytes` at `at`; returns the offset past it. */
function writeHeader(out: Buffer, at: number, payloadBytes: number): number {
  out[at] = FIN_TEXT
  if (payloadBytes <= SHORT_LIMIT) {
    out[at + 1] = payloadBytes
    return at + 2
  }
  if (payloadBytes <= MAX_16) {
    out[at + 1] = LENGTH_16
    out.writeUInt16BE(payloadBytes, at + 2)
    return at + 4
  }
  out[at + 1] = LENGTH_64
  out.writeUInt32BE(Math.floor(payloadBytes / TWO_POW_32), at + 2)
  out.writeUInt32BE(payloadBytes % TWO_POW_32, at + 6)
  return at + 10
}

/**
 * The text frames of `messages`, in order, in one buffer.
 * @example textFrames(['hi']) // <Buffer 81 02 68 69>
 */
export function textFrames(messages: readonly string[]): Buffer {
  const sizes = new Array<number>(messages.length)
  let total = 0
  for (let i = 0; i < messages.length; i++) {
    const bytes = Buffer.byteLength(messages[i]!)
    sizes[i] = bytes
    total += headerSize(bytes) + bytes
  }
  // allocUnsafe: every byte is written below. Small answers come from Node's shared pool.
  const out = Buffer.allocUnsafe(total)
  let at = 0
  for (let i = 0; i < messages.length; i++) {
    at = writeHeader(out, at, sizes[i]!)
    at += out.write(messages[i]!, at, sizes[i]!, 'utf8')
  }
  return out
}
