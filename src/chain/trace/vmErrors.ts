/**
 * ethereumjs's EVM error messages in geth's words (core/vm/errors.go), as geth's tracers print them.
 * Owns only that table.
 */
import type { EVMError } from '@ethereumjs/evm'

const GETH_WORDS: Readonly<Record<string, string>> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024 (1023)',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'value out of range': 'return data out of bounds',
  revert: 'execution reverted',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
}

/** geth's message for an EVM error of ethereumjs (its own message when geth has no such error). */
export function gethErrorMessage(error: EVMError): string {
  return GETH_WORDS[error.error] ?? error.error
}

/**
 * geth's name of the opcode ethereumjs calls INVALID at `pc` of `code`: INVALID for 0xfe, and for an
 * undefined one `opcode 0xef not defined` (ethereumjs reports every undefined opcode as 0xfe).
 */
export function gethOpName(code: Uint8Array | unknown, pc: number): string {
  const byte = code instanceof Uint8Array ? code[pc] : undefined
  return byte === undefined || byte === 0xfe ? 'INVALID' : `opcode 0x${byte.toString(16)} not defined`
}

/** Whether the error is a REVERT (the frame's output is then its revert data). */
export function isRevert(error: EVMError | undefined): boolean {
  return error?.error === 'revert'
}
