/**
 * One test as a dapp's test suite runs it, through JSON-RPC: snapshot; deploy a contract; storage
 * writes, each prepared the way viem does (`eth_fillTransaction`) and the way ethers does (nonce,
 * estimate, block, fees), signed, sent and awaited; views, a balance, a revert, the events; then a
 * token's life (deploy, transfer, approve, transferFrom, a balance, the transfers' events, a
 * refused transfer), prepared as viem does; revert. The warm-up runs it again and again on a
 * scratch chain, so the server's code is compiled, with what real requests look like, before a
 * real test needs it.
 */
import { LoopbackRpcError, type Rpc } from './loopback.js'
import { STORED_TOPIC, STORE_BYTECODE, STORE_SELECTORS } from './storeContract.js'
import { TRANSFER_TOPIC, WARM_TOKEN_BYTECODE, WARM_TOKEN_SELECTORS } from './tokenContract.js'

interface Receipt {
  readonly status: string
  readonly blockNumber: string
  readonly contractAddress: string | null
}

/** Who receives the token's transfers: two addresses nobody holds a key to. */
const RECIPIENTS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2'] as const
/** Token amounts, wider than 64 bits as real ones are. */
const SUPPLY = 10n ** 30n
const AMOUNT = 10n ** 20n

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
      await this.#token(rpc)
    } finally {
      await rpc('evm_revert', [id])
    }
  }

  /** A token deployed with constructor arguments, traded as viem's writeContract does, read, and refused an overdraft. */
  async #token(rpc: Rpc): Promise<void> {
    const from = this.from
    const { transfer, approve, transferFrom, balanceOf } = WARM_TOKEN_SELECTORS
    const [to, other] = RECIPIENTS
    const deployed = await this.#sendAndWait(rpc, 'token', WARM_TOKEN_BYTECODE + constructorArguments('Warm', SUPPLY), undefined, 'viem')
    const token = deployed.contractAddress
    if (token === null) throw new Error('the token deployment has no contract address')
    await this.#sendAndWait(rpc, 'token transfer', transfer + word(to.slice(2)) + word(AMOUNT.toString(16)), token, 'viem')
    await this.#sendAndWait(rpc, 'token approve', approve + word(from.slice(2)) + word((AMOUNT * 10n).toString(16)), token, 'viem')
    await this.#sendAndWait(rpc, 'token transferFrom', transferFrom + word(from.slice(2)) + word(other.slice(2)) + word(AMOUNT.toString(16)), token, 'viem')
    await rpc('eth_call', [{ data: balanceOf + word(to.slice(2)), to: token }, 'latest'])
    await rpc('eth_getLogs', [{ address: token, topics: [TRANSFER_TOPIC, null, `0x${word(to.slice(2))}`], fromBlock: deployed.blockNumber, toBlock: 'latest' }])
    // More than the recipient holds: a custom-error revert, as a test of the failure path sees it.
    await reverts(rpc('eth_estimateGas', [{ data: transfer + word(from.slice(2)) + word((SUPPLY * 2n).toString(16)), from: to, to: token }]))
  }

  /**
   * A transaction of `data` (to `to`, or a deployment), sent and awaited; prepared as viem and as
   * ethers do (`both`), or as viem alone.
   */
  async #sendAndWait(rpc: Rpc, step: string, data: string, to?: string, preparedAs: 'both' | 'viem' = 'both'): Promise<Receipt> {
    const from = this.from
    // viem's one question, then ethers' six; each with its client's keys in its client's order.
    await rpc('eth_fillTransaction', [to === undefined ? { data, from } : { data, from, to }])
    if (preparedAs === 'both') {
      const nonce = await rpc('eth_getTransactionCount', [from, 'pending'], 'ethers')
      await rpc('eth_estimateGas', [to === undefined ? { nonce, from, data } : { nonce, from, to, data }], 'ethers')
      await rpc('eth_getBlockByNumber', ['latest', false], 'ethers')
      await rpc('eth_gasPrice', [], 'ethers')
      await rpc('eth_maxPriorityFeePerGas', [], 'ethers')
      await rpc('eth_blockNumber', [], 'ethers')
    }
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

/** The ABI encoding of `(string name, uint256 supply)` for a short ASCII name, without 0x. */
function constructorArguments(name: string, supply: bigint): string {
  const text = Buffer.from(name, 'latin1').toString('hex')
  return word('40') + word(supply.toString(16)) + word(name.length.toString(16)) + text.padEnd(64, '0')
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
