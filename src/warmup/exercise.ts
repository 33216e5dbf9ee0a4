/**
 * One test as a dapp's test suite runs it, through JSON-RPC: snapshot; deploy a contract; storage
 * writes, each prepared the way viem does (`eth_fillTransaction`) and the way ethers does (nonce,
 * estimate, block, fees), signed, sent and awaited; views, a balance, a revert, the events; revert.
 * The warm-up runs it again and again on a scratch chain, so the server's code is compiled, with
 * what real requests look like, before a real test needs it.
 */
import { LoopbackRpcError, type Rpc } from './loopback.js'
import { STORED_TOPIC, STORE_BYTECODE, STORE_SELECTORS } from './storeContract.js'

interface Receipt {
  readonly status: string
  readonly blockNumber: string
  readonly contractAddress: string | null
}

/** The test, with its transactions signed once: after the revert, the same ones are valid again. */
export class Exercise {
  /** Signed transactions by step: the same nonces and fees come round in every run. */
  readonly #signed = new Map<string, string>()

  /** `from`: a dev account of the chain it runs on (it signs). */
  constructor(private readonly from: string) {}

  /** Runs the test once; rejects on any answer a working chain would not give. */
  async run(rpc: Rpc): Promise<void> {
    const id = await rpc('evm_snapshot')
    try {
      await rpc('eth_chainId')
      const deployed = await this.#sendAndWait(rpc, 'deploy', STORE_BYTECODE)
      const address = deployed.contractAddress
      if (address === null) throw new Error('the deployment has no contract address')
      // One value wider than 64 bits, as token amounts are: bigint code V8 has seen only narrow values
      // in is compiled for those, and thrown away at the first wide one.
      for (const value of [1n, 2n ** 100n, 3n]) await this.#sendAndWait(rpc, `store ${value}`, STORE_SELECTORS.store + word(value.toString(16)), address)
      // Views as viem's readContract and call send them (keys in its order), then as ethers' call.
      await rpc('eth_call', [{ data: STORE_SELECTORS.value, to: address }, 'latest'])
      await rpc('eth_call', [{ data: STORE_SELECTORS.balances + word(this.from.slice(2)), to: address }, 'latest'])
      await rpc('eth_call', [{ data: STORE_SELECTORS.get, from: this.from, to: address }, 'latest'])
      await rpc('eth_call', [{ from: this.from, to: address, data: STORE_SELECTORS.get }, 'latest'], 'ethers')
      await rpc('eth_getBalance', [this.from, 'latest'])
      await reverts(rpc('eth_call', [{ data: STORE_SELECTORS.fail, from: this.from, to: address }, 'latest']))
      await reverts(rpc('eth_estimateGas', [{ data: STORE_SELECTORS.fail, from: this.from, to: address }]))
      await rpc('eth_getLogs', [{ address, topics: [STORED_TOPIC], fromBlock: deployed.blockNumber, toBlock: 'latest' }])
    } finally {
      await rpc('evm_revert', [id])
    }
  }

  /** A transaction of `data` (to `to`, or a deployment), prepared as viem and as ethers do, sent and awaited. */
  async #sendAndWait(rpc: Rpc, step: string, data: string, to?: string): Promise<Receipt> {
    const from = this.from
    // viem's one question, then ethers' six; each with its client's keys in its client's order.
    await rpc('eth_fillTransaction', [to === undefined ? { data, from } : { data, from, to }])
    const nonce = await rpc('eth_getTransactionCount', [from, 'pending'], 'ethers')
    await rpc('eth_estimateGas', [to === undefined ? { nonce, from, data } : { nonce, from, to, data }], 'ethers')
    await rpc('eth_getBlockByNumber', ['latest', false], 'ethers')
    await rpc('eth_gasPrice', [], 'ethers')
    await rpc('eth_maxPriorityFeePerGas', [], 'ethers')
    await rpc('eth_blockNumber', [], 'ethers')
    let raw = this.#signed.get(step)
    if (raw === undefined) this.#signed.set(step, (raw = (await rpc('eth_signTransaction', [to === undefined ? { from, data } : { from, to, data }])) as string))
    let hash: unknown
    try {
      hash = await rpc('eth_sendRawTransaction', [raw])
    } catch (e) {
      // Signed on a chain that has moved on (it should not): sign afresh next time.
      this.#signed.delete(step)
      throw e
    }
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as Receipt | null
    await rpc('eth_getTransactionByHash', [hash])
    if (receipt?.status !== '0x1') throw new Error(`${step}: not mined with success`)
    return receipt
  }
}

/** A 32-byte ABI word of a hex number or address, without 0x. */
function word(hex: string): string {
  return hex.padStart(64, '0')
}

/** Resolves if `answer` is refused as a revert (JSON-RPC error 3); anything else rejects. */
async function reverts(answer: Promise<unknown>): Promise<void> {
  try {
    await answer
  } catch (e) {
    if (e instanceof LoopbackRpcError && e.code === 3) return
    throw e
  }
  throw new Error('expected a revert')
}
