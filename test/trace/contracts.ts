/**
 * Hand-assembled contracts for the tracer tests: B stores its argument, logs it and returns it;
 * C reverts with Panic(0x11); A calls B, then B again by STATICCALL (which fails: B writes), then C.
 */
import { bigIntToUnpaddedBytes, bytesToHex, generateAddress } from '@ethereumjs/util'

/** 12 bytes that copy the runtime code after them into memory and return it. */
function initCode(runtime: string): string {
  const length = runtime.length / 2
  return `60${length.toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`
}

const B = '6000358060005560005260206000a060206000f3'
const C = '634e487b7160e01b600052601160045260246000fd'

function callerA(b: Uint8Array, c: Uint8Array): string {
  const hexB = bytesToHex(b).slice(2)
  const hexC = bytesToHex(c).slice(2)
  return (
    // calldata in memory: selector 0x12345678 and the word 7
    '631234567860e01b600052600760045' + '2' +
    // CALL(gas, B, 0, 0, 0x24, 0, 0x20); POP
    `6020600060246000600073${hexB}5af150` +
    // STATICCALL(gas, B, 0, 0x24, 0, 0x20); POP
    `602060006024600073${hexB}5afa50` +
    // CALL(gas, C, 0, 0, 0x24, 0, 0x20); POP
    `6020600060246000600073${hexC}5af150` +
    '00'
  )
}

/** The addresses the three deployments by `from` (nonces 0, 1, 2) get. */
export function deployment(from: Uint8Array): { b: Uint8Array; c: Uint8Array; a: Uint8Array } {
  const at = (nonce: bigint) => generateAddress(from, bigIntToUnpaddedBytes(nonce))
  return { b: at(0n), c: at(1n), a: at(2n) }
}

/** Four legacy transactions from a fresh account: deploy B, C, A, then call A. */
export function scenarioTransactions(from: Uint8Array): { nonce: bigint; gasLimit: bigint; gasPrice: bigint; data: string; to?: string; type: number }[] {
  const { b, c, a } = deployment(from)
  const common = { gasLimit: 500_000n, gasPrice: 10_000_000_000n, type: 0 }
  return [
    { ...common, nonce: 0n, data: `0x${initCode(B)}` },
    { ...common, nonce: 1n, data: `0x${initCode(C)}` },
    { ...common, nonce: 2n, data: `0x${initCode(callerA(b, c))}` },
    { ...common, nonce: 3n, data: '0x', to: bytesToHex(a) },
  ]
}
