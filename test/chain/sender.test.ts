// A raw transaction's sender is recovered once, when it is decoded (validate.ts), and kept on the
// transaction: what admission and the block's `runTx` read must be that sender, and the
// transaction must stay frozen and hash as before.
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createAccessList2930Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes, privateToAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test } from 'vitest'
import { createCustomCrypto } from '../../src/chain/crypto.js'
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

test('behavior: every typed and legacy transaction recovers the sender, hash and encoding ethereumjs gives', () => {
  // With the chain's crypto (native recovery, WebAssembly keccak) as a chain decodes with it.
  const prague = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague', customCrypto: createCustomCrypto() })
  const to = `0x${'33'.repeat(20)}` as const
  const accessList = [{ address: `0x${'44'.repeat(20)}` as const, storageKeys: [`0x${'00'.repeat(31)}07` as const] }]
  for (let i = 1; i <= 12; i++) {
    // Keys and fields that vary in length: r and s under 32 bytes now and then, empty and long data.
    const key = keccak_256(new Uint8Array([i]))
    const data = new Uint8Array(i * 7).fill(i)
    const authorization = eoaCode7702SignAuthorization({ chainId: '0x7a69', address: to, nonce: `0x${i.toString(16)}` }, key)
    const signed = [
      createLegacyTx({ nonce: BigInt(i), gasPrice: 10n ** 9n + BigInt(i), gasLimit: 90_000n, to, value: BigInt(i), data }, { common: prague }).sign(key),
      createLegacyTx({ nonce: BigInt(i), gasPrice: 10n ** 9n, gasLimit: 90_000n, data }, { common: createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'tangerineWhistle' }) }).sign(key),
      createAccessList2930Tx({ chainId: 31337n, nonce: BigInt(i), gasPrice: 10n ** 9n, gasLimit: 90_000n, to, data, accessList }, { common: prague }).sign(key),
      createFeeMarket1559Tx({ chainId: 31337n, nonce: BigInt(i), to, value: BigInt(i) << 70n, gasLimit: 90_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: BigInt(i), data, accessList: i % 2 === 0 ? accessList : [] }, { common: prague }).sign(key),
      createFeeMarket1559Tx({ chainId: 31337n, nonce: 0n, gasLimit: 90_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 0n, data }, { common: prague }).sign(key),
      createEOACode7702Tx({ chainId: 31337n, nonce: BigInt(i), to, gasLimit: 90_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [authorization] }, { common: prague }).sign(key),
    ]
    for (const tx of signed) {
      const raw = tx.serialize()
      const reference = createTxFromRLP(raw, { common: tx.common })
      const decoded = decodeRawTransaction(raw, tx.common, 30_000_000n)
      expect(decoded.type).toBe(tx.type)
      expect(bytesToHex(decoded.getSenderAddress().bytes)).toBe(bytesToHex(privateToAddress(key)))
      expect(bytesToHex(decoded.getSenderPublicKey())).toBe(bytesToHex(reference.getSenderPublicKey()))
      expect(bytesToHex(decoded.serialize())).toBe(bytesToHex(reference.serialize()))
      expect(bytesToHex(decoded.hash())).toBe(bytesToHex(reference.hash()))
    }
  }
})

test('behavior: the encoding kept is a copy, not the caller\'s bytes', () => {
  const tx = createFeeMarket1559Tx({ chainId: 31337n, nonce: 2n, to: `0x${'22'.repeat(20)}`, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(KEY)
  const raw = tx.serialize()
  const decoded = decodeRawTransaction(raw, common, 30_000_000n)
  raw.fill(0)
  expect(bytesToHex(decoded.serialize())).toBe(bytesToHex(tx.serialize()))
})

test('error: a typed transaction whose signature recovers no key is refused as an invalid sender', () => {
  const tx = createFeeMarket1559Tx({ chainId: 31337n, nonce: 1n, to: `0x${'22'.repeat(20)}`, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common }).sign(KEY)
  // r = 0 is no point on the curve: ethereumjs builds the transaction, recovery fails.
  const fields = [...tx.raw().slice(0, 10), new Uint8Array(0), tx.raw()[11]!] as Uint8Array[]
  const raw = new Uint8Array([2, ...RLP.encode(fields)])
  expect(() => decodeRawTransaction(raw, common, 30_000_000n)).toThrow('invalid sender')
})

test('behavior: the signed message is cut from the raw bytes right at every length of its RLP list (short, one, two and three length bytes)', () => {
  for (const size of [0, 20, 60, 300, 70_000]) {
    const data = bytesToHex(new Uint8Array(size).fill(0x5b))
    const signed = [
      createFeeMarket1559Tx({ chainId: 31337n, nonce: 1n, to: `0x${'22'.repeat(20)}`, data, gasLimit: 10_000_000n, maxFeePerGas: 10n ** 10n }, { common }).sign(KEY),
      createAccessList2930Tx({ chainId: 31337n, nonce: 1n, to: `0x${'22'.repeat(20)}`, data, gasLimit: 10_000_000n, gasPrice: 10n ** 10n, accessList: [{ address: `0x${'33'.repeat(20)}`, storageKeys: [] }] }, { common }).sign(KEY),
    ]
    for (const tx of signed) {
      const decoded = decodeRawTransaction(tx.serialize(), common, 30_000_000n)
      expect({ size, type: tx.type, sender: bytesToHex(decoded.getSenderAddress().bytes) }).toEqual({ size, type: tx.type, sender: bytesToHex(privateToAddress(KEY)) })
    }
  }
})

test('behavior: a transaction the node signed itself takes its signer key as given, without recovering it, and decodes alike', async () => {
  const { DEFAULT_MNEMONIC, deriveAccounts, signerKeyOf } = await import('../../src/chain/accounts.js')
  let recoveries = 0
  const crypto = createCustomCrypto()
  const ecrecover = crypto.ecrecover!
  const counting = createCustomCommon({ chainId: 31337 }, Mainnet, {
    hardfork: 'prague',
    customCrypto: { ...crypto, ecrecover: (...args: Parameters<typeof ecrecover>) => (recoveries++, ecrecover(...args)) },
  })
  // The default mnemonic's accounts come from a table, a custom one's are derived: both kinds.
  const accounts = [...deriveAccounts(DEFAULT_MNEMONIC, 2), ...deriveAccounts('legal winner thank year wave sausage worth useful legal winner thank yellow', 2)]
  for (const account of accounts) {
    for (const tx of [
      createFeeMarket1559Tx({ chainId: 31337n, nonce: 2n, to: `0x${'55'.repeat(20)}`, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common: counting }).sign(account.privateKey),
      createLegacyTx({ nonce: 0n, gasPrice: 10n ** 10n, gasLimit: 60_000n, data: '0x6000' }, { common: counting }).sign(account.privateKey),
    ]) {
      const raw = tx.serialize()
      recoveries = 0
      const recovered = decodeRawTransaction(raw, counting, 30_000_000n)
      expect(recoveries).toBe(1)
      const given = decodeRawTransaction(raw, counting, 30_000_000n, signerKeyOf(account))
      expect(recoveries).toBe(1)
      expect(signerKeyOf(account)).toEqual(recovered.getSenderPublicKey())
      expect(bytesToHex(given.getSenderAddress().bytes)).toBe(bytesToHex(account.address))
      expect(bytesToHex(given.hash())).toBe(bytesToHex(recovered.hash()))
      expect(given.serialize()).toEqual(raw)
      expect(Object.isFrozen(given)).toBe(true)
    }
  }
})
