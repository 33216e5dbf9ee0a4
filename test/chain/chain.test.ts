import { createMPT } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, bytesToUnprefixedHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { Bloom, encodeReceipt } from '@ethereumjs/vm'
import { afterEach, describe, expect, test } from 'vitest'
import { Chain, type ChainOptions } from '../../src/chain/chain.js'
import { BlockOutOfWindowError, FutureBlockError, UnknownBlockError } from '../../src/chain/errors.js'
import { deployStore, send, signed1559, signedLegacy, storeCalldata, word } from '../helpers/chain.js'

const chains: Chain[] = []
async function newChain(options: ChainOptions = {}): Promise<Chain> {
  const chain = await Chain.create({ deterministic: true, ...options })
  chains.push(chain)
  return chain
}
afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.close()))
})

const slotKey = (slot: bigint) => bytesToUnprefixedHex(word(slot))
const addrKey = (a: Uint8Array) => bytesToUnprefixedHex(a)

describe('genesis', () => {
  test('default: the well-known dev accounts, funded, at block 0', async () => {
    const chain = await newChain()
    expect(bytesToHex(chain.accounts[0]!.address)).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(bytesToHex(chain.accounts[9]!.address)).toBe('0xa0ee7a142d267c1f36714e4a8f75612f20a79720')
    expect(chain.accounts).toHaveLength(10)
    expect(chain.head.number).toBe(0n)
    expect(chain.common.chainId()).toBe(31337n)
    expect(chain.stateAtBlock(chain.head).account(addrKey(chain.accounts[3]!.address))?.balance).toBe(10_000n * 10n ** 18n)
  })

  test('behavior: same options give the same genesis hash', async () => {
    const a = await newChain({ chainId: 5n, accounts: 3 })
    const b = await newChain({ chainId: 5n, accounts: 3 })
    expect(bytesToHex(a.head.hash)).toBe(bytesToHex(b.head.hash))
    const c = await newChain({ chainId: 6n, accounts: 3 })
    expect(bytesToHex(c.head.hash)).toBe(bytesToHex(a.head.hash)) // chain id is not in the header
    const d = await newChain({ chainId: 5n, accounts: 4 })
    expect(bytesToHex(d.head.hash)).not.toBe(bytesToHex(a.head.hash))
  })

  test('error: bad mnemonic and unknown fork', async () => {
    await expect(Chain.create({ mnemonic: 'not a mnemonic' })).rejects.toThrow(/invalid mnemonic/)
    await expect(Chain.create({ hardfork: 'lunar' })).rejects.toThrow(/unknown hardfork "lunar"/)
  })
})

describe('deterministic mode', () => {
  test('behavior: the same inputs give byte-identical block hashes across two runs', async () => {
    const run = async () => {
      const chain = await newChain()
      const store = await deployStore(chain)
      await send(chain, signed1559(chain, 0, { nonce: 1n, to: store, data: storeCalldata(1n, 7n), gasLimit: 100_000n }))
      await send(chain, signedLegacy(chain, 1, { nonce: 0n, to: chain.accounts[2]!.address, value: 5n }))
      await chain.mine(3n)
      return chain.head
    }
    const [a, b] = [await run(), await run()]
    expect(a.number).toBe(6n)
    expect(bytesToHex(a.hash)).toBe(bytesToHex(b.hash))
    expect(a.block.header.timestamp - (await newChain()).head.block.header.timestamp).toBe(6n * 12n)
  })
})

describe('receipts', () => {
  test('behavior: receipts agree with the block: receiptsRoot, logsBloom, cumulative gas, log indexes', async () => {
    const chain = await newChain({ mining: { mode: 'manual' } })
    await chain.setMiningMode({ mode: 'auto' })
    const store = await deployStore(chain)
    await chain.setMiningMode({ mode: 'manual' })
    for (let i = 0n; i < 4n; i++) {
      await send(chain, signed1559(chain, 1, { nonce: i, to: store, data: storeCalldata(i, i + 100n), gasLimit: 100_000n }))
    }
    await send(chain, signed1559(chain, 2, { nonce: 0n, to: chain.accounts[3]!.address, value: 1n }))
    const [record] = await chain.mine(1n)
    expect(record!.transactions).toHaveLength(5)
    // receiptsRoot recomputed from our receipts with an independent trie
    const trie = await createMPT()
    let cumulative = 0n
    const bloom = new Bloom()
    for (const included of record!.transactions) {
      const r = included.receipt
      cumulative += r.gasUsed
      expect(r.cumulativeGasUsed).toBe(cumulative)
      const encoded = encodeReceipt(
        { status: r.status!, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.logsBloom, logs: r.logs.map((l) => [l.address, [...l.topics], l.data]) },
        included.tx.type,
      )
      await trie.put(RLP.encode(included.index), encoded)
      const own = new Bloom()
      for (const log of r.logs) {
        own.add(log.address)
        for (const topic of log.topics) own.add(topic)
      }
      expect(bytesToHex(own.bitvector)).toBe(bytesToHex(r.logsBloom))
      bloom.or(own)
    }
    expect(bytesToHex(trie.root())).toBe(bytesToHex(record!.block.header.receiptTrie))
    expect(bytesToHex(bloom.bitvector)).toBe(bytesToHex(record!.block.header.logsBloom))
    expect(cumulative).toBe(record!.block.header.gasUsed)
    expect(record!.logs.map((l) => l.logIndex)).toEqual([0, 1, 2, 3])
    expect(record!.logs.map((l) => l.transactionIndex)).toEqual([0, 1, 2, 3])
  })

  test('behavior: a mined block builds its receipts and logs once, on first read, and every read gets the same records', async () => {
    const chain = await newChain()
    const store = await deployStore(chain)
    const hash = await send(chain, signed1559(chain, 1, { nonce: 0n, to: store, data: storeCalldata(3n, 9n), gasLimit: 100_000n }))
    const record = chain.head
    // Found by hash through the window's index before anything read the block's records.
    const found = chain.lookupTransaction(hash)
    if (found?.status !== 'included') throw new Error('not included')
    const included = found.included
    expect(included).toBe(record.transactions[0])
    expect(record.transactions).toBe(record.transactions)
    expect(record.logs).toBe(record.logs)
    expect(record.logs[0]).toBe(included.receipt.logs[0])
    expect(bytesToHex(included.hash)).toBe(bytesToHex(hash))
    expect(bytesToHex(included.blockHash)).toBe(bytesToHex(record.hash))
    expect(included.receipt.status).toBe(1)
    expect(included.receipt.gasUsed).toBe(record.block.header.gasUsed)
    // A snapshot's restore indexes the ring again: the same records are found.
    const id = await chain.snapshot()
    await chain.mine(2n)
    await chain.revert(id)
    const again = chain.lookupTransaction(hash)
    expect(again?.status === 'included' ? again.included : undefined).toBe(included)
  })

  test('behavior: contractAddress is set for a creation, also a failed one', async () => {
    const chain = await newChain()
    const ok = await deployStore(chain)
    expect(ok).toHaveLength(20)
    // init code that reverts at once: PUSH1 0 PUSH1 0 REVERT
    const hash = await send(chain, signed1559(chain, 0, { nonce: 1n, data: hexToBytes('0x60006000fd'), gasLimit: 100_000n }))
    const found = chain.lookupTransaction(hash)
    expect(found?.status).toBe('included')
    if (found?.status !== 'included') return
    expect(found.included.receipt.status).toBe(0)
    expect(found.included.receipt.contractAddress).toHaveLength(20)
  })

  test('behavior: a pre-Byzantium chain gives receipts with root and no status', async () => {
    const chain = await newChain({ hardfork: 'spuriousDragon' })
    const hash = await send(chain, signedLegacy(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address, value: 1n }))
    const found = chain.lookupTransaction(hash)
    if (found?.status !== 'included') throw new Error('not included')
    expect(found.included.receipt.status).toBeUndefined()
    const r = found.included.receipt
    expect(r.root).toHaveLength(32)
    // the block's receiptsRoot, recomputed from the root-form receipt, agrees
    const trie = await createMPT()
    await trie.put(RLP.encode(0), encodeReceipt({ stateRoot: r.root!, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.logsBloom, logs: [] }, 0))
    expect(bytesToHex(trie.root())).toBe(bytesToHex(chain.head.block.header.receiptTrie))
    // before the miner reward is paid, so it is not the block's state root
    expect(bytesToHex(r.root!)).not.toBe(bytesToHex(chain.head.block.header.stateRoot))
  })
})

describe('pool', () => {
  test('behavior: a nonce gap is queued in every mode and mined once the gap fills', async () => {
    const chain = await newChain()
    const to = chain.accounts[5]!.address
    const h2 = await send(chain, signed1559(chain, 0, { nonce: 2n, to }))
    const h1 = await send(chain, signed1559(chain, 0, { nonce: 1n, to }))
    expect(chain.lookupTransaction(h2)?.status).toBe('pending')
    expect(chain.poolContent().queued.get(addrKey(chain.accounts[0]!.address))).toHaveLength(2)
    expect(chain.head.number).toBe(0n)
    const h0 = await send(chain, signed1559(chain, 0, { nonce: 0n, to }))
    for (const h of [h0, h1, h2]) expect(chain.lookupTransaction(h)?.status).toBe('included')
    expect(chain.head.number).toBe(3n) // automine: one block per transaction
    expect(chain.poolContent().executable.size + chain.poolContent().queued.size).toBe(0)
  })

  test('behavior: manual mode orders by tip across senders and by nonce within one', async () => {
    const chain = await newChain({ mining: { mode: 'manual' } })
    const to = chain.accounts[9]!.address
    const low = await send(chain, signed1559(chain, 1, { nonce: 0n, to, maxPriorityFeePerGas: 1n }))
    const high0 = await send(chain, signed1559(chain, 2, { nonce: 0n, to, maxPriorityFeePerGas: 5n }))
    const high1 = await send(chain, signed1559(chain, 2, { nonce: 1n, to, maxPriorityFeePerGas: 50n }))
    expect(chain.pendingNonce(chain.accounts[2]!.address)).toBe(2n)
    const [record] = await chain.mine(1n)
    expect(record!.transactions.map((t) => bytesToHex(t.hash))).toEqual([high0, high1, low].map((h) => bytesToHex(h)))
  })

  test('behavior: replacement needs a 10% bump of fee cap and tip', async () => {
    const chain = await newChain({ mining: { mode: 'manual' } })
    const to = chain.accounts[9]!.address
    await send(chain, signed1559(chain, 0, { nonce: 0n, to, maxFeePerGas: 100n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }))
    await expect(send(chain, signed1559(chain, 0, { nonce: 0n, to, value: 1n, maxFeePerGas: 105n * 10n ** 9n, maxPriorityFeePerGas: 2n * 10n ** 9n }))).rejects.toThrow(
      'replacement transaction underpriced',
    )
    const replacement = await send(chain, signed1559(chain, 0, { nonce: 0n, to, value: 2n, maxFeePerGas: 110n * 10n ** 9n, maxPriorityFeePerGas: 11n * 10n ** 8n }))
    const [record] = await chain.mine(1n)
    expect(record!.transactions.map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(replacement)])
  })

  test('error: geth messages for rejected transactions', async () => {
    const chain = await newChain()
    const to = chain.accounts[9]!.address
    await send(chain, signed1559(chain, 0, { nonce: 0n, to }))
    await expect(send(chain, signed1559(chain, 0, { nonce: 0n, to, value: 3n }))).rejects.toThrow('nonce too low: next nonce 1, tx nonce 0')
    await expect(send(chain, signed1559(chain, 0, { nonce: 1n, to, gasLimit: 20_000n }))).rejects.toThrow('intrinsic gas too low: gas 20000, minimum needed 21000')
    await expect(send(chain, signed1559(chain, 0, { nonce: 1n, to, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }))).rejects.toThrow('max fee per gas less than block base fee')
    // ethereumjs cannot build such a transaction: swap the fee fields of a signed one
    const fields = RLP.decode(signed1559(chain, 0, { nonce: 1n, to }).serialize().subarray(1)) as Uint8Array[]
    ;[fields[2], fields[3]] = [fields[3]!, fields[2]!]
    const tipAboveCap = new Uint8Array([2, ...RLP.encode(fields)])
    await expect(chain.sendRawTransaction(tipAboveCap)).rejects.toThrow('max priority fee per gas higher than max fee per gas')
    const prague = await newChain({ hardfork: 'prague' })
    await expect(send(prague, signed1559(prague, 0, { nonce: 0n, to, gasLimit: 31_000_000n }))).rejects.toThrow('exceeds block gas limit')
    const big = await newChain({ hardfork: 'prague', blockGasLimit: 60_000_000n })
    const rawBig = signed1559(big, 0, { nonce: 0n, to, gasLimit: 20_000_000n }).serialize()
    const osaka = await newChain({ hardfork: 'osaka', blockGasLimit: 60_000_000n, chainId: big.common.chainId() })
    await expect(osaka.sendRawTransaction(rawBig)).rejects.toThrow('transaction gas limit too high (cap: 16777216, tx: 20000000)')
    await expect(send(chain, signed1559(chain, 0, { nonce: 1n, to, value: 10n ** 24n }))).rejects.toThrow(
      /^insufficient funds for gas \* price \+ value: address 0x[0-9a-fA-F]{40} have \d+ want \d+$/,
    )
    const other = await Chain.create({ chainId: 1n })
    chains.push(other)
    await expect(chain.sendRawTransaction(signed1559(other, 0, { nonce: 1n, to }).serialize())).rejects.toThrow('invalid chain id for signer')
    const raw = signed1559(chain, 0, { nonce: 1n, to }).serialize()
    const known = await chain.sendRawTransaction(raw)
    expect(known).toHaveLength(32)
    await expect(chain.sendRawTransaction(raw)).rejects.toThrow(/already known|nonce too low/)
  })

  test('behavior: a pending transaction can be dropped', async () => {
    const chain = await newChain({ mining: { mode: 'manual' } })
    const hash = await send(chain, signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address }))
    expect(await chain.dropTransaction(hash)).toBe(true)
    expect(chain.lookupTransaction(hash)).toBeUndefined()
    expect(await chain.dropTransaction(hash)).toBe(false)
  })
})

describe('the window', () => {
  test('behavior: blocks, transactions and receipts leave with the ring; lookups answer unknown', async () => {
    const chain = await newChain({ window: 8 })
    const hash = await send(chain, signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address }))
    const block1 = chain.head
    await chain.mine(6n)
    expect(chain.lookupTransaction(hash)?.status).toBe('included')
    expect(chain.oldest.number).toBe(0n)
    await chain.mine(2n) // head 9: window 2..9
    expect(chain.oldest.number).toBe(2n)
    expect(chain.lookupTransaction(hash)).toBeUndefined()
    expect(chain.blockByHash(block1.hash)).toBeUndefined()
    expect(() => chain.resolveBlock({ kind: 'number', number: 1n })).toThrow(BlockOutOfWindowError)
    expect(() => chain.resolveBlock({ kind: 'hash', hash: block1.hash })).toThrow(UnknownBlockError)
    expect(() => chain.resolveBlock({ kind: 'number', number: 10n })).toThrow(FutureBlockError)
    expect(chain.resolveBlock({ kind: 'tag', tag: 'earliest' }).number).toBe(2n)
    const error = (() => {
      try {
        chain.resolveBlock({ kind: 'number', number: 1n })
      } catch (e) {
        return e as BlockOutOfWindowError
      }
    })()
    expect(error?.message).toBe('pruned history unavailable: block 1 is outside the served window 2..9')
  })

  test('behavior: safe and finalized lag the head, never below the oldest block', async () => {
    const chain = await newChain({ safeLag: 2, finalizedLag: 4, window: 5 })
    expect(chain.tagNumber('safe')).toBe(0n)
    await chain.mine(10n)
    expect(chain.tagNumber('safe')).toBe(8n)
    expect(chain.tagNumber('finalized')).toBe(6n)
    expect(chain.tagNumber('earliest')).toBe(6n)
  })

  test('behavior: random storage over 300 blocks reads right at every block of the window', async () => {
    const chain = await newChain({ mining: { mode: 'manual' } })
    await chain.setMiningMode({ mode: 'auto' })
    const store = await deployStore(chain)
    await chain.setMiningMode({ mode: 'manual' })
    const reference = new Map<bigint, Map<bigint, bigint>>() // block -> slot -> value
    let current = new Map<bigint, bigint>()
    let seed = 12345
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed % n
    }
    let nonce = 0n
    for (let b = 0; b < 300; b++) {
      const writes = random(3)
      for (let w = 0; w < writes; w++) {
        const slot = BigInt(random(12))
        const value = random(4) === 0 ? 0n : BigInt(random(1000) + 1)
        await send(chain, signed1559(chain, 1, { nonce: nonce++, to: store, data: storeCalldata(slot, value), gasLimit: 100_000n }))
      }
      const [record] = await chain.mine(1n)
      // apply this block's writes in order to the reference
      current = new Map(current)
      for (const t of record!.transactions) {
        const data = t.tx.data
        const slot = BigInt(bytesToHex(data.subarray(0, 32)))
        const value = BigInt(bytesToHex(data.subarray(32, 64)))
        current.set(slot, value)
      }
      reference.set(record!.number, current)
    }
    expect(chain.head.number - chain.oldest.number).toBe(127n)
    for (let n = chain.oldest.number; n <= chain.head.number; n++) {
      const state = chain.stateAtBlock(chain.resolveBlock({ kind: 'number', number: n }))
      for (let slot = 0n; slot < 12n; slot++) {
        const raw = state.storage(addrKey(store), slotKey(slot))
        const got = raw.length === 0 ? 0n : BigInt(bytesToHex(raw))
        expect(got, `block ${n} slot ${slot}`).toBe(reference.get(n)?.get(slot) ?? 0n)
      }
    }
  })
})

describe('mining', () => {
  test('behavior: 1,000 empty blocks mine in one call and timestamps strictly increase', async () => {
    const chain = await newChain({ deterministic: false })
    await chain.mine(1000n)
    expect(chain.head.number).toBe(1000n)
    let previous = -1n
    for (let n = chain.oldest.number; n <= chain.head.number; n++) {
      const ts = chain.resolveBlock({ kind: 'number', number: n }).block.header.timestamp
      expect(ts > previous).toBe(true)
      previous = ts
    }
  })

  test('behavior: increaseTime and setNextBlockTimestamp', async () => {
    const chain = await newChain()
    const t0 = chain.head.block.header.timestamp
    await chain.increaseTime(100n)
    await chain.mine(1n)
    expect(chain.head.block.header.timestamp).toBe(t0 + 112n)
    await chain.setNextBlockTimestamp(t0 + 1000n)
    await chain.mine(1n)
    expect(chain.head.block.header.timestamp).toBe(t0 + 1000n)
    await expect(chain.setNextBlockTimestamp(t0)).rejects.toThrow(/is not after the head block's timestamp/)
  })

  test('behavior: the pending block has the timestamp the next mined block gets (block time, increaseTime, setNextBlockTimestamp)', async () => {
    const chain = await newChain({ deterministic: { blockTime: 5n }, mining: { mode: 'manual' } })
    const pendingThenMined = async (): Promise<[bigint, bigint]> => {
      const pending = (await chain.pendingBlock()).record.block.header.timestamp
      await chain.mine(1n)
      return [pending, chain.head.block.header.timestamp]
    }
    const t0 = chain.head.block.header.timestamp
    expect(await pendingThenMined()).toEqual([t0 + 5n, t0 + 5n])
    await chain.increaseTime(1000n)
    expect(await pendingThenMined()).toEqual([t0 + 1010n, t0 + 1010n])
    await chain.setNextBlockTimestamp(t0 + 5000n)
    expect(await pendingThenMined()).toEqual([t0 + 5000n, t0 + 5000n])
  })

  test('behavior: interval mining makes blocks, empty ones too, and stops on close', async () => {
    const chain = await newChain({ mining: { mode: 'interval', blockTimeMs: 20 } })
    await new Promise((r) => setTimeout(r, 150))
    const mined = chain.head.number
    expect(mined).toBeGreaterThanOrEqual(2n)
    await chain.close()
    await new Promise((r) => setTimeout(r, 80))
    expect(chain.head.number).toBe(mined)
  })
})

describe('snapshots', () => {
  test('behavior: revert restores state, ring, pool and clock, and the same snapshot can be reverted to twice', async () => {
    const chain = await newChain()
    const store = await deployStore(chain)
    await send(chain, signed1559(chain, 0, { nonce: 1n, to: store, data: storeCalldata(3n, 33n), gasLimit: 100_000n }))
    const id = await chain.snapshot()
    const head = chain.head
    const root = bytesToHex(head.block.header.stateRoot)
    for (let round = 0; round < 2; round++) {
      await chain.setMiningMode({ mode: 'manual' })
      const pending = await send(chain, signed1559(chain, 0, { nonce: 2n, to: store, data: storeCalldata(3n, 44n), gasLimit: 100_000n }))
      await chain.mine(3n)
      expect(chain.lookupTransaction(pending)?.status).toBe('included')
      await send(chain, signed1559(chain, 1, { nonce: 0n, to: store, data: storeCalldata(3n, 55n), gasLimit: 100_000n }))
      expect(await chain.revert(id)).toBe(true)
      expect(chain.head).toBe(head)
      expect(chain.miningMode.mode).toBe('auto')
      expect(chain.lookupTransaction(pending)).toBeUndefined()
      expect(chain.poolContent().executable.size).toBe(0)
      const value = chain.stateAtBlock(chain.head).storage(addrKey(store), slotKey(3n))
      expect(bytesToHex(value)).toBe('0x21')
      expect(chain.stateAtBlock(chain.head).account(addrKey(chain.accounts[0]!.address))?.nonce).toBe(2n)
    }
    // mining after a revert continues from the restored head with the same state root
    await chain.mine(1n)
    expect(chain.head.number).toBe(head.number + 1n)
    expect(equalsBytes(chain.resolveBlock({ kind: 'number', number: head.number }).block.header.stateRoot, hexToBytes(root as `0x${string}`))).toBe(true)
    expect(await chain.revert(999)).toBe(false)
  })

  test('behavior: an unchanged chain keeps its snapshot id, so a snapshot-test-revert loop does not grow', async () => {
    const chain = await newChain()
    const first = await chain.snapshot()
    for (let i = 0; i < 5; i++) {
      expect(await chain.snapshot()).toBe(first)
      await send(chain, signed1559(chain, 0, { nonce: 0n, to: chain.accounts[1]!.address }))
      expect(await chain.revert(first)).toBe(true)
    }
    expect(chain.head.number).toBe(0n)
    // a changed chain gets a new id, and both stay usable
    await chain.mine(2n)
    const second = await chain.snapshot()
    expect(second).not.toBe(first)
    expect(await chain.revert(first)).toBe(true)
    expect(chain.head.number).toBe(0n)
    expect(await chain.revert(second)).toBe(true)
    expect(chain.head.number).toBe(2n)
  })
})
