// debug_getRawBlock, debug_getRawHeader, debug_getRawReceipts, debug_getRawTransaction on a chain
// mined here (the conformance fixtures cover an imported one): typed and legacy transactions in
// one block, the receipts checked against the block's receipts root, pending and unknown hashes.
import { createMPT } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes, intToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { createRingchain } from '../../src/index.js'

async function setup() {
  const rc = await createRingchain({ mining: { mode: 'manual' } })
  const key = hexToBytes(rc.accounts[0]!.privateKey)
  const common = rc.chain.common
  const to = hexToBytes('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
  const legacy = createLegacyTx({ nonce: 0n, gasLimit: 21_000n, gasPrice: 10n ** 10n, to, value: 1n }, { common }).sign(key)
  const typed = createFeeMarket1559Tx({ nonce: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, to, value: 2n, chainId: 31337n }, { common }).sign(key)
  return { rc, legacy, typed }
}

test('default: a mined block, its header, its receipts (under the receipts root) and its transactions', async () => {
  const { rc, legacy, typed } = await setup()
  for (const tx of [legacy, typed]) await rc.request({ method: 'eth_sendRawTransaction', params: [bytesToHex(tx.serialize())] })
  await rc.request({ method: 'evm_mine' })
  const record = rc.chain.head
  expect(await rc.request({ method: 'debug_getRawBlock', params: ['latest'] })).toBe(bytesToHex(record.block.serialize()))
  expect(await rc.request({ method: 'debug_getRawHeader', params: [bytesToHex(record.hash)] })).toBe(bytesToHex(record.block.header.serialize()))
  const receipts = (await rc.request({ method: 'debug_getRawReceipts', params: ['0x1'] })) as string[]
  expect(receipts).toHaveLength(2)
  expect(receipts[1]!.startsWith('0x02')).toBe(true)
  const trie = await createMPT()
  for (const [i, raw] of receipts.entries()) await trie.put(RLP.encode(i === 0 ? new Uint8Array() : intToBytes(i)), hexToBytes(raw as `0x${string}`))
  expect(bytesToHex(trie.root())).toBe(bytesToHex(record.block.header.receiptTrie))
  expect(await rc.request({ method: 'debug_getRawTransaction', params: [bytesToHex(typed.hash())] })).toBe(bytesToHex(typed.serialize()))
  await rc.close()
})

test('behavior: a pending transaction is found in the pool; an unknown hash answers null', async () => {
  const { rc, legacy } = await setup()
  await rc.request({ method: 'eth_sendRawTransaction', params: [bytesToHex(legacy.serialize())] })
  expect(await rc.request({ method: 'debug_getRawTransaction', params: [bytesToHex(legacy.hash())] })).toBe(bytesToHex(legacy.serialize()))
  expect(await rc.request({ method: 'debug_getRawTransaction', params: [`0x${'11'.repeat(32)}`] })).toBeNull()
  await rc.close()
})

test('error: a block after the head is not found, as in geth', async () => {
  const { rc } = await setup()
  await expect(rc.request({ method: 'debug_getRawBlock', params: ['0x5'] })).rejects.toMatchObject({ code: -32000, message: 'header not found' })
  await rc.close()
})
