/**
 * The header a call that pays nothing runs in: the block's header seen with a base fee of 0, as
 * geth runs such calls (its NoBaseFee rule).
 *
 * Owns: that view, one class for every header. Leaves the header itself to ethereumjs and which
 * calls pay nothing to `executor.ts`.
 *
 * Why not `Object.create(header, { baseFeePerGas })`: an object made a prototype gets a map of its
 * own in V8, so after one such call every header of the window had its own shape, and each read
 * of a header field (mining the next block, the block JSON, the EVM's block opcodes) stopped
 * being a monomorphic load. It cost more than the call's own header reads.
 */
import type { BlockHeader } from '@ethereumjs/block'

/**
 * What the EVM reads of a header (ethereumjs's `defaultBlock()` lists it; the interpreter's block
 * opcodes and its gas-limit checks), each read from `header` when asked, as the header answers
 * it (`prevRandao` throws before the merge, `getBlobGasPrice` before Cancun), with `baseFeePerGas` 0.
 */
class FreeCallHeader {
  readonly #header: BlockHeader
  readonly baseFeePerGas = 0n

  constructor(header: BlockHeader) {
    this.#header = header
  }

  get number(): bigint {
    return this.#header.number
  }
  get coinbase(): BlockHeader['coinbase'] {
    return this.#header.coinbase
  }
  get timestamp(): bigint {
    return this.#header.timestamp
  }
  get difficulty(): bigint {
    return this.#header.difficulty
  }
  get prevRandao(): Uint8Array {
    return this.#header.prevRandao
  }
  get gasLimit(): bigint {
    return this.#header.gasLimit
  }
  get slotNumber(): bigint | undefined {
    return this.#header.slotNumber
  }
  getBlobGasPrice(): bigint {
    return this.#header.getBlobGasPrice()
  }
}

/** `header` with a base fee of 0, for the EVM of a call that pays nothing. */
export function freeCallHeader(header: BlockHeader): BlockHeader {
  return new FreeCallHeader(header) as unknown as BlockHeader
}
