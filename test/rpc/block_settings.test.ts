// The test controls over the blocks to come, end to end over HTTP, with anvil's semantics:
// evm_setBlockGasLimit (and anvil_setBlockGasLimit), anvil_setCoinbase (and hardhat_setCoinbase),
// anvil_setNextBlockBaseFeePerGas (and hardhat_), anvil_setBlockTimestampInterval,
// anvil_removeBlockTimestampInterval and anvil_setLoggingEnabled. A snapshot keeps all of them.

import { describe, expect, test } from 'vitest'
import { type Hex, TIP, result, rpcError, sendRaw, signedTx, start, toHex } from '../helpers/rpc.js'

const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111'
const COINBASE: Hex = '0x00000000000000000000000000000000000000cc'

interface Block {
  readonly number: Hex
  readonly gasLimit: Hex
  readonly miner: Hex
  readonly baseFeePerGas: Hex
  readonly timestamp: Hex
}

async function setup(options: Parameters<typeof start>[0] = {}) {
  const rc = await start(options)
  const url = rc.httpUrl
  const block = (tag: string) => result<Block>(url, 'eth_getBlockByNumber', [tag, false])
  const mine = async () => {
    await result(url, 'evm_mine', [])
    return block('latest')
  }
  return { rc, url, block, mine }
}

describe('evm_setBlockGasLimit', () => {
  test('default', async () => {
    const { url, mine } = await setup()
    expect(await result(url, 'evm_setBlockGasLimit', [toHex(12_345_678)])).toBe(true)
    expect((await mine()).gasLimit).toBe(toHex(12_345_678))
    expect((await mine()).gasLimit).toBe(toHex(12_345_678))
  })

  test('args: anvil_setBlockGasLimit', async () => {
    const { url, mine } = await setup()
    expect(await result(url, 'anvil_setBlockGasLimit', [toHex(60_000_000)])).toBe(true)
    expect((await mine()).gasLimit).toBe(toHex(60_000_000))
  })

  test('behavior: a transaction above the new limit is refused', async () => {
    const { rc, url } = await setup()
    await result(url, 'evm_setBlockGasLimit', [toHex(50_000)])
    const tx = signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT, gasLimit: 100_000n })
    expect(await rpcError(url, 'eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`])).toEqual({
      code: -32000,
      message: 'exceeds block gas limit',
    })
  })

  test('behavior: evm_revert puts the limit back', async () => {
    const { url, mine } = await setup()
    const id = await result(url, 'evm_snapshot', [])
    await result(url, 'evm_setBlockGasLimit', [toHex(12_345_678)])
    expect(await result(url, 'evm_revert', [id])).toBe(true)
    expect((await mine()).gasLimit).toBe(toHex(30_000_000))
  })

  test('error: zero', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'evm_setBlockGasLimit', ['0x0'])).toEqual({ code: -32602, message: 'block gas limit must be greater than 0' })
  })

  test('error: more than 64 bits', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'evm_setBlockGasLimit', [`0x1${'0'.repeat(16)}`])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    })
  })
})

describe('anvil_setCoinbase', () => {
  test('default', async () => {
    const { rc, url, block } = await setup()
    expect(await result(url, 'anvil_setCoinbase', [COINBASE])).toBe(null)
    expect(await result(url, 'eth_coinbase', [])).toBe(COINBASE)
    // The next block's fee recipient: it earns the tip.
    await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT, gasLimit: 21_000n }))
    expect((await block('latest')).miner).toBe(COINBASE)
    expect(await result(url, 'eth_getBalance', [COINBASE, 'latest'])).toBe(toHex(21_000n * TIP))
  })

  test('args: hardhat_setCoinbase answers true', async () => {
    const { url, mine } = await setup()
    expect(await result(url, 'hardhat_setCoinbase', [COINBASE])).toBe(true)
    expect((await mine()).miner).toBe(COINBASE)
  })

  test('behavior: evm_revert puts the coinbase back', async () => {
    const { url, mine } = await setup()
    const id = await result(url, 'evm_snapshot', [])
    await result(url, 'anvil_setCoinbase', [COINBASE])
    await result(url, 'evm_revert', [id])
    expect(await result(url, 'eth_coinbase', [])).toBe('0x0000000000000000000000000000000000000000')
    expect((await mine()).miner).toBe('0x0000000000000000000000000000000000000000')
  })
})

describe('anvil_setNextBlockBaseFeePerGas', () => {
  test('default', async () => {
    const { url, mine, block } = await setup()
    expect(await result(url, 'anvil_setNextBlockBaseFeePerGas', [toHex(7_000_000_000)])).toBe(null)
    expect((await block('pending')).baseFeePerGas).toBe(toHex(7_000_000_000))
    expect((await mine()).baseFeePerGas).toBe(toHex(7_000_000_000))
    // One block only: the next follows EIP-1559 from it (an empty block: 7/8 of it).
    expect((await mine()).baseFeePerGas).toBe(toHex((7_000_000_000n * 7n) / 8n))
  })

  test('args: hardhat_setNextBlockBaseFeePerGas answers true', async () => {
    const { url, mine } = await setup()
    expect(await result(url, 'hardhat_setNextBlockBaseFeePerGas', [toHex(5)])).toBe(true)
    expect((await mine()).baseFeePerGas).toBe('0x5')
  })

  test('behavior: a fee cap below the next base fee is refused', async () => {
    const { rc, url } = await setup()
    await result(url, 'anvil_setNextBlockBaseFeePerGas', [toHex(20_000_000_000)])
    const tx = signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT, maxFeePerGas: 10_000_000_000n })
    const error = await rpcError(url, 'eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`])
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^max fee per gas less than block base fee/)
  })

  test('behavior: evm_revert drops a base fee set after the snapshot', async () => {
    const { url, mine } = await setup()
    const id = await result(url, 'evm_snapshot', [])
    await result(url, 'anvil_setNextBlockBaseFeePerGas', [toHex(7_000_000_000)])
    await result(url, 'evm_revert', [id])
    expect((await mine()).baseFeePerGas).not.toBe(toHex(7_000_000_000))
  })

  test('error: before London', async () => {
    const { url } = await setup({ hardfork: 'berlin' })
    expect(await rpcError(url, 'anvil_setNextBlockBaseFeePerGas', ['0x1'])).toEqual({
      code: -32602,
      message: 'a next block base fee needs EIP-1559 (London or later)',
    })
  })
})

describe('anvil_setBlockTimestampInterval', () => {
  test('default', async () => {
    const { url, mine, block } = await setup()
    // viem sends the interval as a JSON number.
    expect(await result(url, 'anvil_setBlockTimestampInterval', [100])).toBe(null)
    const head = BigInt((await block('latest')).timestamp)
    expect(BigInt((await block('pending')).timestamp)).toBe(head + 100n)
    expect(BigInt((await mine()).timestamp)).toBe(head + 100n)
    expect(BigInt((await mine()).timestamp)).toBe(head + 200n)
  })

  test('args: a quantity', async () => {
    const { url, mine, block } = await setup()
    await result(url, 'anvil_setBlockTimestampInterval', ['0x3c'])
    const head = BigInt((await block('latest')).timestamp)
    expect(BigInt((await mine()).timestamp)).toBe(head + 60n)
  })

  test('behavior: anvil_removeBlockTimestampInterval goes back to the clock and tells whether there was one', async () => {
    const { url, mine } = await setup()
    await result(url, 'anvil_setBlockTimestampInterval', [100])
    expect(await result(url, 'anvil_removeBlockTimestampInterval', [])).toBe(true)
    expect(await result(url, 'anvil_removeBlockTimestampInterval', [])).toBe(false)
    // The deterministic clock: 12 s blocks.
    const before = BigInt((await mine()).timestamp)
    expect(BigInt((await mine()).timestamp)).toBe(before + 12n)
  })

  test('behavior: evm_revert puts the clock back', async () => {
    const { url, mine } = await setup()
    const id = await result(url, 'evm_snapshot', [])
    await result(url, 'anvil_setBlockTimestampInterval', [100])
    await result(url, 'evm_revert', [id])
    const before = BigInt((await mine()).timestamp)
    expect(BigInt((await mine()).timestamp)).toBe(before + 12n)
  })

  test('error: a negative or fractional number', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'anvil_setBlockTimestampInterval', [-1])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64',
    })
    expect((await rpcError(url, 'anvil_setBlockTimestampInterval', [1.5])).code).toBe(-32602)
  })
})

describe('anvil_setLoggingEnabled', () => {
  test('default: accepted, nothing changes', async () => {
    const { url } = await setup()
    expect(await result(url, 'anvil_setLoggingEnabled', [false])).toBe(null)
    expect(await result(url, 'anvil_setLoggingEnabled', [true])).toBe(null)
  })

  test('error: not a boolean', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'anvil_setLoggingEnabled', ['yes'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal string into Go value of type bool',
    })
  })
})
