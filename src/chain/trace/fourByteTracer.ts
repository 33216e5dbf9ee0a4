/**
 * geth's `4byteTracer` (eth/tracers/native/4byte.go): how often each function selector was called,
 * keyed by selector and calldata size (`0x…-size`); creations and precompiles are left out.
 */
import type { Message } from '@ethereumjs/evm'
import { keyOf } from '../encoding.js'
import { frameOf } from './frames.js'
import type { Tracer, TxStart } from './tracer.js'

/** Calls per `selector-size` (selector as 8 hex digits, size of the arguments in bytes). */
export type FourByteResult = Map<string, number>

export function fourByteTracer(): Tracer<FourByteResult> {
  const ids: FourByteResult = new Map()
  let precompiles: ReadonlySet<string> = new Set()
  const beforeMessage = (message: Message): void => {
    if (message.data.length < 4) return
    const frame = frameOf(message)
    if (frame.type === 'CREATE' || frame.type === 'CREATE2' || frame.to === undefined) return
    if (precompiles.has(keyOf(frame.to))) return
    const key = `${keyOf(message.data.subarray(0, 4))}-${message.data.length - 4}`
    ids.set(key, (ids.get(key) ?? 0) + 1)
  }
  return {
    hooks: { beforeMessage },
    start(tx: TxStart) {
      precompiles = tx.precompiles
    },
    finish: () => ids,
  }
}
