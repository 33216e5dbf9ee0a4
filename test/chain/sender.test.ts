// A raw transaction's sender is recovered once, when it is decoded (validate.ts), and kept on the
// transaction: what admission and the block's `runTx` read must be that sender, and the
// transaction must stay frozen and hash as before.
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { createFeeMarket1559Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { decodeRawTransaction } from '../../src/chain/validate.js'

const KEY = hexToBytes('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })

test('default: the decoded transaction answers its recovered sender, frozen, with the hash ethereumjs gives', () => {
  const signed = [
    createFeeMarket1559Tx({ chainId: 31337n, nonce: 3n, to: `0x${'11'.repeat(20)}`, value: 5n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(KEY),
    createLegacyTx({ nonce: 0n, gasPrice: 10n ** 10n, gasLimit: 60_000n, data: '0x6000' }, { common }).sign(KEY),
  ]
  for (const tx of signed) {
    const raw = tx.serialize()
    const decoded = decodeRawTransaction(raw, common, 30_000_000n)
    expect(Object.isFrozen(decoded)).toBe(true)
    expect(bytesToHex(decoded.getSenderAddress().bytes)).toBe(bytesToHex(privateToAddress(KEY)))
    expect(decoded.getSenderAddress().bytes).toEqual(createTxFromRLP(raw, { common }).getSenderAddress().bytes)
    expect(bytesToHex(decoded.hash())).toBe(bytesToHex(tx.hash()))
  }
})

test('behavior: the decoded transaction encodes once, as ethereumjs encodes it', () => {
  const tx = createFeeMarket1559Tx({ chainId: 31337n, nonce: 1n, to: `0x${'22'.repeat(20)}`, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(KEY)
  const decoded = decodeRawTransaction(tx.serialize(), common, 30_000_000n)
  const first = decoded.serialize()
  expect(first).toEqual(createTxFromRLP(tx.serialize(), { common }).serialize())
  expect(decoded.serialize()).toBe(first)
})
