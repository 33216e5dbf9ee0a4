/**
 * Catching Solidity console.log: the calls contracts make to Hardhat's console address, decoded
 * as they happen. The only hook into an EVM, behind one function, so the chain's mining and call
 * paths (and whatever runs them later) wire it the same way.
 * Owns: listening to an EVM's messages for the console address. Leaves decoding to `decode.ts`
 * and where the lines go to the sink's owner.
 */
import type { EVMInterface, Message } from '@ethereumjs/evm'
import { decodeConsoleLog } from './decode.js'

/** Hardhat's console address: `0x000000000000000000636F6e736F6c652e6c6f67` ("console.log"). */
export const CONSOLE_ADDRESS = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0x63, 0x6f, 0x6e, 0x73, 0x6f, 0x6c, 0x65, 0x2e, 0x6c, 0x6f, 0x67])

/** One console.log a contract made. */
export interface ConsoleCall {
  /** The contract that logged (the caller of the console address). */
  readonly address: Uint8Array
  /** The line it printed. */
  readonly message: string
}

/**
 * Calls `sink` with every console.log made on `evm` from now on; returns a function that stops it.
 * The console address is an empty account, so the call runs (and costs gas) as on any other node;
 * this only reads it. A message to any other address costs one byte comparison.
 * @example const detach = attachConsole(vm.evm, (call) => lines.push(call.message))
 */
export function attachConsole(evm: EVMInterface, sink: (call: ConsoleCall) => void): () => void {
  // One parameter: ethereumjs calls a one-argument listener synchronously, without a promise.
  const listener = (message: Message): void => {
    const to = message.to?.bytes
    if (to === undefined || to[19] !== 0x67 || !isConsole(to)) return
    const line = decodeConsoleLog(message.data)
    if (line !== undefined) sink({ address: message.caller.bytes, message: line })
  }
  const events = evm.events
  // ethereumjs's EVM always has its emitter; the interface leaves it optional for other EVMs.
  if (events === undefined) return () => {}
  events.on('beforeMessage', listener)
  return () => {
    events.off('beforeMessage', listener)
  }
}

function isConsole(address: Uint8Array): boolean {
  for (let i = 0; i < 20; i++) if (address[i] !== CONSOLE_ADDRESS[i]) return false
  return true
}
