/**
 * `traceTransfers`: the logs a simulated call leaves, with an ERC-7528 `Transfer` log (emitted by
 * 0xeeee…eeee) for every call frame that moves ether, in execution order, a reverted frame taking
 * its logs with it (geth's simulation tracer).
 *
 * Owns: the frame stack of one call's logs. Leaves running the call to `simulator.ts`.
 */
import type { EVM } from '@ethereumjs/evm'
import { bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util'

/** A log as the EVM emits it: address, topics, data. */
export type RawLog = readonly [Uint8Array, readonly Uint8Array[], Uint8Array]

/** ERC-7528's pseudo-address of ether. */
const ETHER = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
/** keccak256('Transfer(address,address,uint256)'). */
const TRANSFER = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
const LOG0 = 0xa0

interface Message {
  readonly caller: { readonly bytes: Uint8Array }
  readonly to?: { readonly bytes: Uint8Array }
  readonly value: bigint
  readonly delegatecall: boolean
}
interface Step {
  readonly opcode: { readonly code: number }
  readonly stack: readonly bigint[]
  readonly memory: Uint8Array
  readonly address: { readonly bytes: Uint8Array }
}
interface MessageResult {
  readonly execResult: { readonly exceptionError?: unknown }
}

/** Collects the logs of the calls run while attached, frame by frame. */
export class TransferTracer {
  readonly #evm: EVM
  #frames: RawLog[][] = []
  #done: RawLog[] = []

  constructor(evm: EVM) {
    this.#evm = evm
    const events = evm.events!
    events.on('beforeMessage', this.#enter)
    events.on('afterMessage', this.#exit)
    events.on('step', this.#step)
  }

  /** The logs of the call run since the last `take`, and a fresh start for the next. */
  take(): RawLog[] {
    const logs = this.#done
    this.#done = []
    this.#frames = []
    return logs
  }

  detach(): void {
    const events = this.#evm.events!
    events.off('beforeMessage', this.#enter)
    events.off('afterMessage', this.#exit)
    events.off('step', this.#step)
  }

  #enter = (message: Message) => {
    const frame: RawLog[] = []
    if (message.value > 0n && !message.delegatecall && message.to !== undefined) {
      frame.push([ETHER, [TRANSFER, setLengthLeft(message.caller.bytes, 32), setLengthLeft(message.to.bytes, 32)], setLengthLeft(bigIntToBytes(message.value), 32)])
    }
    this.#frames.push(frame)
  }

  #exit = (result: MessageResult) => {
    const frame = this.#frames.pop() ?? []
    if (result.execResult.exceptionError !== undefined) return
    const parent = this.#frames.at(-1)
    if (parent === undefined) this.#done = frame
    else parent.push(...frame)
  }

  #step = (step: Step) => {
    const op = step.opcode.code
    if (op < LOG0 || op > LOG0 + 4) return
    const stack = step.stack
    const top = stack.length - 1
    const offset = Number(stack[top]!)
    const size = Number(stack[top - 1]!)
    const topics: Uint8Array[] = []
    for (let i = 0; i < op - LOG0; i++) topics.push(setLengthLeft(bigIntToBytes(stack[top - 2 - i]!), 32))
    const data = new Uint8Array(size)
    data.set(step.memory.subarray(offset, offset + size))
    this.#frames.at(-1)?.push([step.address.bytes, topics, data])
  }
}
