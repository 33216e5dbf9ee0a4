/**
 * EVM words (256-bit unsigned bigints) to and from 32 big-endian bytes through four 64-bit lanes.
 * ethereumjs goes through a hex string each way (`setLengthLeft(bigIntToBytes(v), 32)`,
 * `bytesToBigInt`): some 20 times slower to write and 3 times slower to read, on opcodes that
 * run every few steps (see `fastInterpreter.ts`).
 */
import { bytesToBigInt } from '@ethereumjs/util'

const scratch = new Uint8Array(32)
const lanes = new DataView(scratch.buffer)
const LANE = 64n

/** Puts `value` (below 2^256) in `scratch`. */
function fill(value: bigint): void {
  lanes.setBigUint64(24, BigInt.asUintN(64, value))
  lanes.setBigUint64(16, BigInt.asUintN(64, value >> LANE))
  lanes.setBigUint64(8, BigInt.asUintN(64, value >> 128n))
  lanes.setBigUint64(0, value >> 192n)
}

/** `value` (below 2^256) as 32 big-endian bytes, in a new array. */
export function wordBytes(value: bigint): Uint8Array {
  fill(value)
  return scratch.slice()
}

/** Writes `value` (below 2^256) as 32 big-endian bytes into `target` at `offset`. */
export function writeWord(target: Uint8Array, offset: number, value: bigint): void {
  fill(value)
  target.set(scratch, offset)
}

/** The unsigned big-endian number `bytes` holds (any length; 32 bytes take the fast path). */
export function readWord(bytes: Uint8Array): bigint {
  if (bytes.length !== 32) return bytesToBigInt(bytes)
  scratch.set(bytes)
  return (((((lanes.getBigUint64(0) << LANE) | lanes.getBigUint64(8)) << LANE) | lanes.getBigUint64(16)) << LANE) | lanes.getBigUint64(24)
}
