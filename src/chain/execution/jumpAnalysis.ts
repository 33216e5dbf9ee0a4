/**
 * The jump analysis of the fast interpreter (see `fastInterpreter.ts`): ethereumjs's
 * `_getValidJumpDestinations` (10.1.3) without its per-byte table lookup and hex strings, and the
 * analyses kept per opcode table, by code array and by content. Each deployment brings its init
 * code in a new array, and each contract deployed again (a test suite redeploys its fixtures
 * after every revert) its code: by content, the same code is analysed once (a 3 KB ERC-20's init
 * code took some 0.15 ms a run).
 * Owns: that analysis and its cache. Leaves running code to the interpreter.
 */
import type { OpcodeEntry } from './fastOpcodes.js'

/** What a jump analysis hands the interpreter (it only reads it). */
export interface JumpAnalysis {
  readonly jumps: Uint8Array
  readonly pushes: Record<number, bigint>
  readonly opcodesCached: OpcodeEntry[]
}

/** Code bytes kept as content keys per opcode table; past this the content cache starts over. */
const KEPT_CODE_BYTES = 512 * 1024
const JUMPDEST = 0x5b
const PUSH1 = 0x60
const PUSH32 = 0x7f

/** The analyses of one opcode table. */
export class JumpAnalyses {
  readonly #byArray = new WeakMap<Uint8Array, JumpAnalysis>()
  /** By code length: a copy of the code (the key, never written) and its analysis. */
  readonly #byContent = new Map<number, { readonly code: Uint8Array; readonly analysis: JumpAnalysis }[]>()
  #keptBytes = 0

  /** The analysis of `code`, made by `analyse` when neither this array nor its content was seen. */
  of(code: Uint8Array, analyse: (code: Uint8Array) => JumpAnalysis): JumpAnalysis {
    const known = this.#byArray.get(code)
    if (known !== undefined && known.jumps.length === code.length) return known
    const sameLength = this.#byContent.get(code.length)
    const same = sameLength?.find((entry) => Buffer.compare(entry.code, code) === 0)
    const analysis = same?.analysis ?? analyse(code)
    this.#byArray.set(code, analysis)
    if (same === undefined) {
      if (this.#keptBytes + code.length > KEPT_CODE_BYTES) {
        this.#byContent.clear()
        this.#keptBytes = 0
      }
      const entry = { code: code.slice(), analysis }
      if (sameLength === undefined || this.#byContent.size === 0) this.#byContent.set(code.length, [entry])
      else sameLength.push(entry)
      this.#keptBytes += code.length
    }
    return analysis
  }
}

/**
 * ethereumjs's analysis of legacy code (EIP-8024 off): each byte's entry of `table`, the valid
 * JUMPDESTs, and each push's value keyed by the offset of its data (a push cut short by the end
 * of the code is padded on the right with zeros, as ethereumjs's `setLengthRight` pads it).
 */
export function analyseJumps(code: Uint8Array, table: readonly OpcodeEntry[]): JumpAnalysis {
  const length = code.length
  const jumps = new Uint8Array(length)
  const pushes: Record<number, bigint> = {}
  const opcodesCached = Array<OpcodeEntry>(length)
  for (let i = 0; i < length; i++) {
    const opcode = code[i]!
    opcodesCached[i] = table[opcode]!
    if (opcode >= PUSH1 && opcode <= PUSH32) {
      const size = opcode - PUSH1 + 1
      pushes[i + 1] = pushValue(code, i + 1, size)
      i += size
    } else if (opcode === JUMPDEST) {
      jumps[i] = 1
    }
  }
  return { jumps, pushes, opcodesCached }
}

/** The `size` bytes of `code` from `start` as a big-endian number, bytes past the end as zeros. */
function pushValue(code: Uint8Array, start: number, size: number): bigint {
  // Six bytes at a time fit a double exactly.
  let value = 0n
  let chunk = 0
  let inChunk = 0
  for (let k = 0; k < size; k++) {
    chunk = chunk * 256 + (code[start + k] ?? 0)
    if (++inChunk === 6) {
      value = (value << 48n) | BigInt(chunk)
      chunk = 0
      inChunk = 0
    }
  }
  return inChunk === 0 ? value : (value << BigInt(8 * inChunk)) | BigInt(chunk)
}
