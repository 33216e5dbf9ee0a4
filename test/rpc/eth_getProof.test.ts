// eth_getProof end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. Every proof is
// checked the way a light client checks it: the nodes must hash up to the stateRoot of the block
// asked for (and the storage nodes to the account's storageHash), and prove the values returned.
// Older blocks are the interesting part: only the head's trie nodes are kept, so their tries are
// the head's with the later blocks undone (src/chain/state.ts).

import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL, KECCAK256_RLP, bytesToBigInt, bytesToHex, createAccountFromRLP, hexToBytes } from '@ethereumjs/util'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { StartOptions } from '../../src/index.js'
import { IMPORT, fixtureExchange, startImported } from '../conformance/corpus.js'
import { STORE_INITCODE, storeCalldata } from '../helpers/chain.js'
import { type Hex, result, rpcError, sendRaw, signedTx, start, toHex, word } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_getProof'
const ZERO_HASH = word(0n)

interface ProofJson {
  address: Hex
  accountProof: Hex[]
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  storageProof: { key: Hex; value: Hex; proof: Hex[] }[]
}

/** A ringchain with the storage contract deployed by dev account 0 (block 1). */
async function setup(options: Omit<StartOptions, 'port'> = {}) {
  const rc = await start(options)
  let nonce = 0n
  const deploy = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, data: STORE_INITCODE, gasLimit: 200_000n }))
  const contract = (await result<{ contractAddress: Hex }>(rc.httpUrl, 'eth_getTransactionReceipt', [deploy])).contractAddress
  const write = (slot: bigint, value: bigint) =>
    sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: nonce++, to: contract, data: bytesToHex(storeCalldata(slot, value)) as Hex }))
  const prove = (owner: Hex, keys: readonly string[], block?: unknown) =>
    result<ProofJson>(rc.httpUrl, METHOD, block === undefined ? [owner, keys] : [owner, keys, block])
  return { rc, url: rc.httpUrl, contract, write, prove, dev: bytesToHex(rc.chain.accounts[0]!.address) as Hex }
}

async function stateRoot(url: string, block: string): Promise<Uint8Array> {
  return hexToBytes((await result<{ stateRoot: Hex }>(url, 'eth_getBlockByNumber', [block, false])).stateRoot)
}

/**
 * Checks `proof` as a light client would against `root`: the account nodes prove the fields
 * returned (or the account's absence), and each storage proof proves its value under storageHash.
 */
async function expectProven(proof: ProofJson, root: Uint8Array): Promise<void> {
  const leaf = await verifyMerkleProof(hexToBytes(proof.address), proof.accountProof.map(hexToBytes), { root, useKeyHashing: true })
  if (leaf === null) {
    expect(proof).toMatchObject({ balance: '0x0', nonce: '0x0', codeHash: ZERO_HASH, storageHash: ZERO_HASH })
  } else {
    const account = createAccountFromRLP(leaf)
    expect(proof).toMatchObject({
      balance: toHex(account.balance),
      nonce: toHex(account.nonce),
      codeHash: bytesToHex(account.codeHash),
      storageHash: bytesToHex(account.storageRoot),
    })
  }
  for (const slot of proof.storageProof) {
    if (slot.proof.length === 0) {
      // Only an account without storage proves nothing (and has nothing but zeros).
      expect([ZERO_HASH, bytesToHex(KECCAK256_RLP)]).toContain(proof.storageHash)
      expect(slot.value).toBe('0x0')
      continue
    }
    const key = hexToBytes(word(BigInt(slot.key)))
    const stored = await verifyMerkleProof(key, slot.proof.map(hexToBytes), { root: hexToBytes(proof.storageHash), useKeyHashing: true })
    expect(slot.value).toBe(toHex(stored === null ? 0n : bytesToBigInt(RLP.decode(stored) as Uint8Array)))
  }
}

test('default', async () => {
  const { url, contract, write, prove } = await setup()
  await write(0n, 0x38n)
  const proof = await prove(contract, ['0x0'], 'latest')
  expect(proof.address).toBe(contract)
  expect(proof.storageProof).toEqual([{ key: '0x0', value: '0x38', proof: expect.any(Array) }])
  expect(proof.codeHash).not.toBe(bytesToHex(KECCAK256_NULL))
  await expectProven(proof, await stateRoot(url, 'latest'))
  expectSchemaValid(METHOD, proof)
})

test('default: the fixture chain, as geth answered it', async () => {
  const rc = await startImported()
  const { request, response: expected } = fixtureExchange<{ result: ProofJson }>(METHOD, 'get-account-proof-with-storage')
  expect(await result(rc.httpUrl, METHOD, request.params)).toEqual(expected.result)
})

describe('args', () => {
  test('args: a 32-byte key is echoed as given, a shorter one as a quantity (geth)', async () => {
    const { contract, write, prove } = await setup()
    await write(5n, 1n)
    const keys = [word(5n), '0x05', '0x5', '5', '0x0000000005', word(5n).toUpperCase().replace('0X', '0x')]
    const proof = await prove(contract, keys)
    expect(proof.storageProof.map((p) => p.key)).toEqual([word(5n), '0x5', '0x5', '0x5', '0x5', word(5n)])
    expect(proof.storageProof.map((p) => p.value)).toEqual(Array(keys.length).fill('0x1'))
  })

  test('args: no keys', async () => {
    const { contract, prove } = await setup()
    expect((await prove(contract, [])).storageProof).toEqual([])
  })

  test('args: block omitted is latest', async () => {
    const { contract, write, prove } = await setup()
    await write(1n, 2n)
    expect(await prove(contract, ['0x1'])).toEqual(await prove(contract, ['0x1'], 'latest'))
  })

  test('args: block by hash and by EIP-1898 object', async () => {
    const { url, contract, write, prove } = await setup()
    await write(1n, 2n) // block 2
    await write(1n, 3n) // block 3
    const block2 = await result<{ hash: Hex; stateRoot: Hex }>(url, 'eth_getBlockByNumber', ['0x2', false])
    const byHash = await prove(contract, ['0x1'], block2.hash)
    expect(byHash.storageProof[0]!.value).toBe('0x2')
    expect(await prove(contract, ['0x1'], { blockHash: block2.hash })).toEqual(byHash)
    expect(await prove(contract, ['0x1'], { blockNumber: '0x2' })).toEqual(byHash)
    await expectProven(byHash, hexToBytes(block2.stateRoot))
  })

  test('args: blockTag pending (the pool applied on the head)', async () => {
    const { url, contract, write, prove, rc } = await setup()
    await write(1n, 2n)
    await rc.chain.setMiningMode({ mode: 'manual' })
    await write(1n, 3n) // pending only
    const pending = await prove(contract, ['0x1'], 'pending')
    expect(pending.storageProof[0]!.value).toBe('0x3')
    expect((await prove(contract, ['0x1'], 'latest')).storageProof[0]!.value).toBe('0x2')
    await expectProven(pending, await stateRoot(url, 'pending'))
  })
})

describe('behavior', () => {
  test('behavior: every block of the window is proven against its own state root', async () => {
    const { url, contract, write, prove, dev, rc } = await setup()
    // Slots written, overwritten and cleared over several blocks, and balances that move every block.
    const script: [bigint, bigint][] = [[0n, 1n], [1n, 2n], [0n, 3n], [2n, 4n], [1n, 0n], [0n, 0n], [3n, 5n], [2n, 6n]]
    for (const [slot, value] of script) await write(slot, value)
    const other = bytesToHex(rc.chain.accounts[1]!.address) as Hex
    const keys = ['0x0', '0x1', '0x2', '0x3', '0x4']
    for (let block = 0n; block <= rc.chain.head.number; block++) {
      const root = await stateRoot(url, toHex(block))
      for (const owner of [contract, dev, other]) {
        const proof = await prove(owner, keys, toHex(block))
        await expectProven(proof, root)
        expect(proof.balance).toBe(await result(url, 'eth_getBalance', [owner, toHex(block)]))
        expect(proof.nonce).toBe(await result(url, 'eth_getTransactionCount', [owner, toHex(block)]))
        for (const [i, slot] of proof.storageProof.entries()) {
          expect(BigInt(slot.value)).toBe(BigInt(await result<Hex>(url, 'eth_getStorageAt', [owner, keys[i], toHex(block)])))
        }
      }
    }
  })

  test('behavior: older blocks are still proven once the tries were rebuilt from the head only', async () => {
    const { url, contract, write, prove, rc } = await setup()
    const id = await result<Hex>(url, 'evm_snapshot', [])
    for (let value = 1n; value <= 4n; value++) await write(value % 2n, value) // blocks 2..5
    // Reverting to a snapshot rebuilds the tries from the flat head state: older nodes are gone.
    const again = await result<Hex>(url, 'evm_snapshot', [])
    expect(await result(url, 'evm_revert', [again])).toBe(true)
    for (let block = 1n; block <= 5n; block++) {
      await expectProven(await prove(contract, ['0x0', '0x1'], toHex(block)), await stateRoot(url, toHex(block)))
    }
    expect((await prove(contract, ['0x1'], '0x3')).storageProof[0]!.value).toBe('0x1')
    expect(await result(url, 'evm_revert', [id])).toBe(true)
    expect(rc.chain.head.number).toBe(1n)
  })

  test('behavior: blocks across the imported fixture chain are proven against their own state roots', async () => {
    const rc = await startImported()
    const url = rc.httpUrl
    const genesis = JSON.parse(readFileSync(IMPORT.genesis, 'utf8')) as { alloc: Record<string, unknown> }
    const owners = new Set([...Object.keys(genesis.alloc).map((a) => (a.startsWith('0x') ? a : `0x${a}`).toLowerCase()), '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df'])
    // Every ninth block from genesis to the head (54): each undoes a different stretch of history.
    for (let block = 0n; block <= rc.chain.head.number; block += 9n) {
      const record = rc.chain.blockByNumber(block)!
      const root = record.block.header.stateRoot
      for (const owner of owners) {
        const slots = rc.chain.storageSlots(hexToBytes(owner as Hex), record).slice(0, 3).map((s) => `0x${s.slot}`)
        await expectProven(await result<ProofJson>(url, METHOD, [owner, [...slots, '0x42ff'], toHex(block)]), root)
      }
    }
  }, 30_000)

  test('behavior: an account that does not exist: zero hashes, and a proof of its absence', async () => {
    const { url, prove } = await setup()
    const proof = await prove('0xc1cadaffffffffffffffffffffffffffffffffff', ['0x0'])
    expect(proof).toMatchObject({ balance: '0x0', nonce: '0x0', codeHash: ZERO_HASH, storageHash: ZERO_HASH, storageProof: [{ key: '0x0', value: '0x0', proof: [] }] })
    expect(proof.accountProof.length).toBeGreaterThan(0)
    await expectProven(proof, await stateRoot(url, 'latest'))
  })

  test('behavior: an account without storage proves no slot', async () => {
    const { url, prove, dev } = await setup()
    const proof = await prove(dev, ['0x0'])
    expect(proof.storageHash).toBe(bytesToHex(KECCAK256_RLP))
    expect(proof.storageProof).toEqual([{ key: '0x0', value: '0x0', proof: [] }])
    await expectProven(proof, await stateRoot(url, 'latest'))
  })

  test('behavior: a slot never written is proven absent', async () => {
    const { url, contract, write, prove } = await setup()
    await write(0n, 1n)
    const proof = await prove(contract, ['0x99'])
    expect(proof.storageProof[0]).toMatchObject({ key: '0x99', value: '0x0' })
    expect(proof.storageProof[0]!.proof.length).toBeGreaterThan(0)
    await expectProven(proof, await stateRoot(url, 'latest'))
  })

  test('behavior: a block that left the window is refused (4444)', async () => {
    const { url, contract, write } = await setup({ window: 4 })
    for (let value = 1n; value <= 5n; value++) await write(0n, value) // head 6, window 3..6
    const error = await rpcError(url, METHOD, [contract, ['0x0'], '0x1'])
    expect(error).toMatchObject({ code: 4444, data: { requested: '0x1', oldest: '0x3', head: '0x6' } })
  })
})

describe('errors', () => {
  test('error: key longer than 32 bytes', async () => {
    const { url, contract } = await setup()
    const key = `0x${'11'.repeat(33)}`
    expect(await rpcError(url, METHOD, [contract, [key]])).toEqual({ code: -32602, message: `storage key too long (want at most 32 bytes): "${key}"` })
  })

  test('error: key that is not hex', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, ['0xzz']])).toEqual({ code: -32602, message: 'invalid hex in storage key: "0xzz"' })
  })

  test('error: keys not a list', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, '0x0'])).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go value of type []string' })
  })

  test('error: keys missing', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract])).toEqual({ code: -32602, message: 'missing value for required argument 1' })
  })

  test('error: unknown block hash', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, [], word(1n)])).toMatchObject({ code: -32001, message: 'block not found' })
  })

  test('error: block after the head', async () => {
    const { url, contract } = await setup()
    expect(await rpcError(url, METHOD, [contract, [], '0x99'])).toMatchObject({ code: -32000, message: 'header not found' })
  })
})
