import { createAccessList2930Tx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import { blockSize } from '../../src/chain/blockSize.js'
import { Chain, type ChainOptions } from '../../src/chain/chain.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { STORE_INITCODE, send, signed1559, signedLegacy, storeCalldata } from '../helpers/chain.js'

const chains: Chain[] = []
async function newChain(options: ChainOptions = {}): Promise<Chain> {
  const chain = await Chain.create({ deterministic: true, customCrypto: createCustomCrypto(), ...options })
  chains.push(chain)
  return chain
}
afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.close()))
})

/** Pools one transaction of each type the fork has (several senders, so one block holds them all), then mines them. */
async function mineMixedBlock(chain: Chain) {
  await chain.setMiningMode({ mode: 'manual' })
  const to = chain.accounts[5]!.address
  await send(chain, signedLegacy(chain, 0, { nonce: 0n, to, value: 1n }))
  await send(chain, signedLegacy(chain, 0, { nonce: 1n, data: hexToBytes(STORE_INITCODE), gasLimit: 200_000n }))
  if (chain.common.isActivatedEIP(2930)) {
    const accessList = [{ address: bytesToHex(to), storageKeys: [bytesToHex(new Uint8Array(32))] }]
    await send(chain, createAccessList2930Tx({ chainId: chain.common.chainId(), nonce: 0n, to, gasLimit: 60_000n, gasPrice: 10n ** 10n, data: storeCalldata(1n, 2n), accessList }, { common: chain.common }).sign(chain.accounts[1]!.privateKey))
  }
  if (chain.common.isActivatedEIP(1559)) {
    // A deployment's calldata over 55 bytes: a long string's length prefix, inside a long list.
    await send(chain, signed1559(chain, 2, { nonce: 0n, data: new Uint8Array(3000).fill(0xfe), gasLimit: 1_000_000n }))
  }
  const [record] = await chain.mine()
  return record!
}

test('behavior: the size a mined block reports is the length of its RLP encoding, on each fork', async () => {
  for (const hardfork of ['berlin', 'london', 'shanghai', 'cancun', 'osaka']) {
    const chain = await newChain({ hardfork })
    const record = await mineMixedBlock(chain)
    expect(record.transactions.length).toBeGreaterThan(1)
    expect({ hardfork, size: record.size }).toEqual({ hardfork, size: record.block.serialize().length })
  }
})

test('behavior: an empty block and the genesis block sum to their encodings too', async () => {
  const chain = await newChain()
  const [empty] = await chain.mine()
  expect(blockSize(empty!.block)).toBe(empty!.block.serialize().length)
  const genesis = chain.blockByNumber(0n)!.block
  expect(blockSize(genesis)).toBe(genesis.serialize().length)
})
