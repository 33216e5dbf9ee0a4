/** Helpers of the fork tests: an upstream prepared by transactions, and a source that counts what it is asked. */
import type { ForkSource } from '../../src/chain/fork/source.js'
import { ForkSourceError } from '../../src/chain/fork/source.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'

export type Hex = `0x${string}`
type Request = (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>

/** A ForkSource over an EIP-1193 `request` (an in-process ringchain), recording each call; `fail` makes calls throw. */
export function countingSource(request: Request, label = 'in-process'): ForkSource & { calls: Array<{ method: string; params: readonly unknown[] }>; fail: string | undefined } {
  const source = {
    label,
    calls: [] as Array<{ method: string; params: readonly unknown[] }>,
    fail: undefined as string | undefined,
    async request(method: string, params: readonly unknown[]) {
      source.calls.push({ method, params })
      if (source.fail !== undefined) throw new ForkSourceError(label, method, source.fail)
      return request({ method, params: [...params] })
    },
    async close() {},
  }
  return source
}

export const BEEF: Hex = '0x000000000000000000000000000000000000beef'

/** What `prepareUpstream` made: a deployed storage contract, two slots written, a funded address. */
export interface Prepared {
  readonly contract: Hex
  readonly sender: Hex
}

/**
 * Prepares an upstream by transactions: deploys the storage contract, writes slot 1 = 0x1234 and
 * slot 2 = 0x55, and sends 1.5 ETH to BEEF.
 */
export async function prepareUpstream(request: Request): Promise<Prepared> {
  const [sender] = (await request({ method: 'eth_accounts' })) as Hex[]
  const deploy = (await request({ method: 'eth_sendTransaction', params: [{ from: sender, data: STORE_INITCODE, gas: '0x30d40' }] })) as Hex
  const contract = (await receipt(request, deploy)).contractAddress
  for (const [slot, value] of [[1n, 0x1234n], [2n, 0x55n]] as const) {
    await receipt(request, (await request({ method: 'eth_sendTransaction', params: [{ from: sender, to: contract, data: hex(storeCalldata(slot, value)), gas: '0x186a0' }] })) as Hex)
  }
  await receipt(request, (await request({ method: 'eth_sendTransaction', params: [{ from: sender, to: BEEF, value: '0x14d1120d7b160000' }] })) as Hex)
  return { contract, sender: sender! }
}

/** The receipt of a sent transaction, waited for a few seconds at most (anvil mines just after answering). */
async function receipt(request: Request, hash: Hex): Promise<{ contractAddress: Hex; status: Hex }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = (await request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex; status: Hex } | null
    if (found !== null) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no receipt for ${hash}`)
}

export function hex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

export function slotHex(n: bigint): Hex {
  return `0x${n.toString(16).padStart(64, '0')}`
}

/** The calls of `method` made to the source. */
export function callsOf(source: { calls: Array<{ method: string; params: readonly unknown[] }> }, method: string): Array<readonly unknown[]> {
  return source.calls.filter((c) => c.method === method).map((c) => c.params)
}

/** An EIP-1193-like `request` over HTTP: the answer's result, or an error carrying its code and message. */
export function httpRequest(url: string): Request {
  let id = 0
  return async ({ method, params = [] }) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { code: body.error.code })
    return body.result
  }
}
