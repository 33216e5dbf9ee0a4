/**
 * Bytes kept as latin1 strings (one char per byte): the compact form that long-lived small values
 * of the state take (trie nodes in `trie.ts`, head slot values and their history in `state.ts`).
 *
 * Why: a small Uint8Array costs about 184 bytes of heap with its ArrayBuffer, the same bytes as a
 * string about 48, and the state keeps one or more such values alive per storage slot. Values are
 * converted here, at the edges: the rest of the chain speaks Uint8Array.
 */

/** Bytes as a latin1 string, one char per byte. */
export type Latin1 = string

type Latin1Slice = (this: Uint8Array, start: number, end: number) => string
// Node's native latin1 decoder, which Buffer#toString('latin1') calls: it takes any Uint8Array.
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: Latin1Slice }).latin1Slice

/** Some bytes in the compact form. */
export const toLatin1: (bytes: Uint8Array) => Latin1 =
  typeof latin1Slice === 'function'
    ? (bytes) => latin1Slice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')

/** Bytes `start` to `end` of `bytes` in the compact form, natively (no copy of the bytes first). */
export const sliceLatin1: (bytes: Uint8Array, start: number, end: number) => Latin1 =
  typeof latin1Slice === 'function'
    ? (bytes, start, end) => latin1Slice.call(bytes, start, end)
    : (bytes, start, end) => Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')

/**
 * The compact form back as a new Uint8Array of its own: not a slice of Buffer's shared pool, which a
 * value kept for long would pin whole.
 */
export function fromLatin1(bytes: Latin1): Uint8Array {
  const out = new Uint8Array(bytes.length)
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i)
  return out
}

type Latin1Write = (this: Uint8Array, text: string, offset: number, length: number) => number
// Node's native latin1 encoder, which Buffer#write(text, 'latin1') calls: it takes any Uint8Array.
const latin1Write = (Buffer.prototype as unknown as { latin1Write?: Latin1Write }).latin1Write

/**
 * Writes `bytes` into `out` at `at`; answers the offset after them. From 16 bytes on natively (a
 * trie node's encoding into the keccak module's memory): mining empty blocks measured some 5% less CPU so.
 */
export function writeLatin1(out: Uint8Array, at: number, bytes: Latin1): number {
  if (bytes.length >= 16 && latin1Write !== undefined) return at + latin1Write.call(out, bytes, at, bytes.length)
  for (let i = 0; i < bytes.length; i++) out[at++] = bytes.charCodeAt(i)
  return at
}
