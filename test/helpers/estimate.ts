/** Test helpers for estimates: a chain with a deployer, hand-assembled contracts, and a brute-force search for the least gas. */
import { expect } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'

export type Hex = `0x${string}`
export type Request = (method: string, params: unknown[]) => Promise<unknown>

/** 64 bytes of calldata: SSTORE(word 0, word 1); 32 bytes: return SLOAD(word 0). */
export const READ_WRITE_RUNTIME = '0x36602014600f5760203560003555005b6000355460005260206000f3'

/**
 * Forwards its calldata to `target` with all its gas (so the callee gets 63/64 of it); reverts if
 * that call fails. It reads GAS for the call's gas, or with `asking` asks for that much more than
 * it has (the call then gets 63/64 too, with no GAS read).
 */
export function proxyRuntime(target: string, asking?: 'PUSH4 0xffffffff'): string {
  const gas = asking === undefined ? '5a' : '63ffffffff'
  const revert = asking === undefined ? '2b' : '2f'
  return `0x3660006000376000600036600060007 3${target.slice(2)}${gas} f115 60${revert} 57005b600080fd`.replaceAll(' ', '')
}

/** A deterministic chain (closed by the caller through `open`), its first two accounts, and a deployer. */
export async function estimateSetup(open: Ringchain[]) {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const [a, b] = rc.accounts as [{ address: Hex; privateKey: Hex }, { address: Hex; privateKey: Hex }]
  const request: Request = (method, params) => rc.request({ method, params })
  const deploy = async (code: string) => {
    const hash = await request('eth_sendTransaction', [{ from: a.address, data: code }])
    return ((await request('eth_getTransactionReceipt', [hash])) as { contractAddress: Hex }).contractAddress
  }
  return { rc, a, b, request, deploy }
}

/** The least gas with which eth_call succeeds, by binary search from the bottom of the range up to the cap, independent of the estimator. */
export async function bruteForce(request: Request, call: Record<string, unknown>): Promise<bigint> {
  const succeeds = async (gas: bigint) => {
    try {
      await request('eth_call', [{ ...call, gas: `0x${gas.toString(16)}` }, 'latest'])
      return true
    } catch {
      return false
    }
  }
  let lo = 20_999n
  let hi = 16_777_216n
  expect(await succeeds(hi)).toBe(true)
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (await succeeds(mid)) hi = mid
    else lo = mid
  }
  return hi
}
