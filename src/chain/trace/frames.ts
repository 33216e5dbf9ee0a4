/**
 * Call frames as geth's tracers see them (`OnEnter`/`OnExit`), recovered from ethereumjs's
 * `beforeMessage`/`afterMessage`: the call type, who calls whom (a DELEGATECALL is from the
 * running contract to the code's address), the value (none for STATICCALL).
 * Owns: that translation. Used by the call and 4byte tracers.
 */
import type { Message } from '@ethereumjs/evm'

export type CallType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2'

/** A frame being entered, in geth's terms. */
export interface FrameEnter {
  readonly type: CallType
  readonly from: Uint8Array
  /** Undefined for a creation until its address is known. */
  readonly to: Uint8Array | undefined
  readonly input: Uint8Array
  readonly gas: bigint
  /** Undefined for STATICCALL (geth passes no value). */
  readonly value: bigint | undefined
}

/**
 * The frame a message opens. ethereumjs builds CALLCODE and DELEGATECALL messages with the
 * code's address apart (`codeAddress`), DELEGATECALL flagged, STATICCALL static; a call inside a
 * static frame is static too, and is reported as STATICCALL (what Solidity emits there).
 */
export function frameOf(message: Message): FrameEnter {
  // ethereumjs hands the caller's memory as the callee's input: copied before the caller reuses it.
  const input = message.data.slice()
  const codeAddress = (message as unknown as { _codeAddress?: { bytes: Uint8Array } })._codeAddress
  if (message.to === undefined) {
    const type = message.salt === undefined ? 'CREATE' : 'CREATE2'
    return { type, from: message.caller.bytes, to: undefined, input, gas: message.gasLimit, value: message.value }
  }
  if (message.delegatecall) {
    return { type: 'DELEGATECALL', from: message.to.bytes, to: codeAddress?.bytes ?? message.to.bytes, input, gas: message.gasLimit, value: message.value }
  }
  if (codeAddress !== undefined) {
    return { type: 'CALLCODE', from: message.caller.bytes, to: codeAddress.bytes, input, gas: message.gasLimit, value: message.value }
  }
  if (message.isStatic && message.depth > 0) {
    return { type: 'STATICCALL', from: message.caller.bytes, to: message.to.bytes, input, gas: message.gasLimit, value: undefined }
  }
  return { type: 'CALL', from: message.caller.bytes, to: message.to.bytes, input, gas: message.gasLimit, value: message.value }
}
