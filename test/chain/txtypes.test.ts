import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createLegacyTx } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, bytesToUnprefixedHex, eoaCode7702SignAuthorization } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterEach, describe, expect, test } from 'vitest'
import { Chain, type ChainOptions } from '../../src/chain/chain.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { deployStore, send, signed1559 } from '../helpers/chain.js'

const chains: Chain[] = []
async function newChain(options: ChainOptions = {}): Promise<Chain> {
  const chain = await Chain.create({ deterministic: true, customCrypto: createCustomCrypto(), ...options })
  chains.push(chain)
  return chain
}
afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.close()))
})

function included(chain: Chain, hash: Uint8Array) {
  const found = chain.lookupTransaction(hash)
  if (found?.status !== 'included') throw new Error(`0x${bytesToUnprefixedHex(hash)} is ${found?.status ?? 'unknown'}`)
  return found.included
}

describe('transaction types', () => {
  test('behavior: legacy without EIP-155 and with it are both accepted and mined', async () => {
    const chain = await newChain()
    const to = chain.accounts[1]!.address
    // ethereumjs signs with EIP-155 whenever the fork has it: sign the pre-EIP-155 message by hand
    const fields = { nonce: 0n, to, gasLimit: 21_000n, gasPrice: 10n ** 10n, value: 0n, data: new Uint8Array(0) }
    const message = keccak_256(RLP.encode([bigIntToUnpaddedBytes(0n), bigIntToUnpaddedBytes(fields.gasPrice), bigIntToUnpaddedBytes(fields.gasLimit), to, bigIntToUnpaddedBytes(0n), fields.data]))
    const sig = secp256k1.sign(message, chain.accounts[0]!.privateKey, { prehash: false, format: 'recovered' })
    const [recovery, r, s] = [sig[0]!, sig.subarray(1, 33), sig.subarray(33, 65)]
    const unprotected = createLegacyTx({ ...fields, v: 27n + BigInt(recovery), r, s }, { common: chain.common })
    expect(unprotected.v! < 35n).toBe(true)
    // EIP-155: v carries the chain id
    const protectedTx = createLegacyTx({ nonce: 1n, to, gasLimit: 21_000n, gasPrice: 10n ** 10n }, { common: chain.common }).sign(chain.accounts[0]!.privateKey)
    expect(protectedTx.v! >= 35n).toBe(true)
    for (const tx of [unprotected, protectedTx]) expect(included(chain, await send(chain, tx)).receipt.status).toBe(1)
  })

  test('behavior: an EIP-2930 access-list transaction is mined with its type', async () => {
    const chain = await newChain()
    const store = await deployStore(chain)
    const tx = createAccessList2930Tx(
      { chainId: chain.common.chainId(), nonce: 1n, to: store, gasLimit: 100_000n, gasPrice: 10n ** 10n, data: new Uint8Array(64), accessList: [{ address: bytesToHex(store), storageKeys: [bytesToHex(new Uint8Array(32))] }] },
      { common: chain.common },
    ).sign(chain.accounts[0]!.privateKey)
    const record = included(chain, await send(chain, tx))
    expect(record.tx.type).toBe(1)
    expect(record.receipt.status).toBe(1)
  })

  test('behavior: an EIP-7702 set-code transaction delegates the authority\'s code', async () => {
    const chain = await newChain()
    const store = await deployStore(chain)
    const authority = chain.accounts[2]!
    const authorization = eoaCode7702SignAuthorization(
      { chainId: bytesToHex(new Uint8Array([0])), address: bytesToHex(store), nonce: '0x0' },
      authority.privateKey,
    )
    const tx = createEOACode7702Tx(
      { chainId: chain.common.chainId(), nonce: 1n, to: authority.address, gasLimit: 200_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [authorization] },
      { common: chain.common },
    ).sign(chain.accounts[0]!.privateKey)
    const record = included(chain, await send(chain, tx))
    expect(record.receipt.status).toBe(1)
    const account = chain.stateAtBlock(chain.head).account(bytesToUnprefixedHex(authority.address))!
    const code = chain.stateAtBlock(chain.head).code(bytesToUnprefixedHex(account.codeHash))!
    // the delegation designator: 0xef0100 ++ address
    expect(bytesToHex(code)).toBe(`0xef0100${bytesToUnprefixedHex(store)}`)
    expect(account.nonce).toBe(1n)
  })

  test('error: a transaction type the fork lacks is not supported', async () => {
    const chain = await newChain({ hardfork: 'berlin' })
    const tx = signed1559(await newChain(), 0, { nonce: 0n, to: chain.accounts[1]!.address })
    await expect(chain.sendRawTransaction(tx.serialize())).rejects.toThrow('transaction type not supported')
  })

  test(
    'behavior: a blob transaction in network form (EIP-7594 cell proofs) is verified, mined, and has blob gas in its receipt',
    async () => {
      const chain = await newChain()
      const tx = createBlob4844Tx(
        { chainId: chain.common.chainId(), nonce: 0n, to: chain.accounts[1]!.address, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, maxFeePerBlobGas: 10n ** 9n, blobsData: ['ringchain'] },
        { common: chain.common },
      ).sign(chain.accounts[0]!.privateKey)
      const hash = await chain.sendRawTransaction(tx.serializeNetworkWrapper())
      const record = included(chain, hash)
      expect(record.receipt.status).toBe(1)
      expect(record.receipt.blobGasUsed).toBe(131_072n)
      expect(record.receipt.blobGasPrice).toBeGreaterThan(0n)
      expect(chain.head.block.header.blobGasUsed).toBe(131_072n)
      // the canonical form without the sidecar is refused
      await expect(chain.sendRawTransaction(tx.serialize())).rejects.toThrow(/without its blobs|already known/)
      // a wrong proof is refused
      const wrapper = tx.serializeNetworkWrapper()
      const corrupted = new Uint8Array(wrapper)
      corrupted[corrupted.length - 5]! ^= 0xff
      const other = await newChain()
      await expect(other.sendRawTransaction(corrupted)).rejects.toThrow(/invalid blob transaction|invalid transaction/)
    },
    120_000,
  )
})
