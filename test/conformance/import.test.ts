/**
 * Importing a recorded geth chain (`src/chain/import.ts`): the fixture chain replays to geth's head
 * state, the window and the defaults of imported chains hold, mining continues on top, and a block
 * that does not verify stops the import with an error naming the block and the field.
 */
import { readFileSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, concatBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { Chain } from '../../src/chain/chain.js'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { ImportError, importChain, type GethGenesis } from '../../src/chain/import.js'
import { IMPORT, TESTS } from './corpus.js'

const genesis = JSON.parse(readFileSync(IMPORT.genesis, 'utf8')) as GethGenesis
const blocks = new Uint8Array(readFileSync(IMPORT.blocks))
const customCrypto = createCustomCrypto()

/** geth's dump of the head state. */
const headState = JSON.parse(readFileSync(`${TESTS}../tools/chain/headstate.json`, 'utf8')) as {
  root: string
  accounts: Record<string, { balance: string; nonce: string; root: string; codeHash: string; storage?: Record<string, string> }>
}

async function imported(options: Parameters<typeof importChain>[1] = {}): Promise<Chain> {
  return importChain({ genesis, blocks }, { customCrypto, ...options })
}

/** One import with the defaults, shared by the tests that only read it. */
let shared: Promise<Chain> | undefined
const readOnly = (): Promise<Chain> => (shared ??= imported())

/** The blocks of the file, each as its RLP list. */
function splitBlocks(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = []
  let rest = bytes
  while (rest.length > 0) {
    const { data, remainder } = RLP.decode(rest, true) as unknown as { data: Uint8Array[]; remainder: Uint8Array }
    out.push(data)
    rest = remainder
  }
  return out
}

test('default: replays to geth\'s head state root, head = safe = finalized, manual mining', async () => {
  const chain = await readOnly()
  expect(chain.head.number).toBe(54n)
  expect(bytesToHex(chain.head.block.header.stateRoot)).toBe(`0x${headState.root}`)
  expect(chain.tagNumber('safe')).toBe(54n)
  expect(chain.tagNumber('finalized')).toBe(54n)
  expect(chain.oldest.number).toBe(0n)
  expect(chain.miningMode).toEqual({ mode: 'manual' })
  expect(chain.accounts).toEqual([])
  expect(chain.common.chainId()).toBe(3503995874084926n)
  // Pre-Byzantium receipts carry the state root, later ones the status.
  const early = chain.blockByNumber(2n)!.transactions[0]!.receipt
  const late = chain.blockByNumber(54n)!.transactions.at(-1)?.receipt ?? chain.blockByNumber(45n)!.transactions[0]!.receipt
  expect(early.root).toHaveLength(32)
  expect(early.status).toBeUndefined()
  expect(late.status).toBeDefined()
  expect(late.root).toBeUndefined()
})

test('behavior: every account and slot of the head state is what geth dumped', async () => {
  const chain = await readOnly()
  const state = chain.stateAtBlock(chain.head)
  let slots = 0
  for (const [address, dumped] of Object.entries(headState.accounts)) {
    const key = address.slice(2).toLowerCase()
    const account = state.account(key)
    expect(account, address).toBeDefined()
    expect({ balance: account!.balance, nonce: account!.nonce, root: bytesToHex(account!.storageRoot), codeHash: bytesToHex(account!.codeHash) }, address).toEqual({
      balance: BigInt(dumped.balance),
      nonce: BigInt(dumped.nonce),
      root: dumped.root,
      codeHash: dumped.codeHash,
    })
    for (const [slot, value] of Object.entries(dumped.storage ?? {})) {
      expect(BigInt(bytesToHex(state.storage(key, slot.slice(2)))), `${address} ${slot}`).toBe(BigInt(`0x${value.replace(/^0x/, '')}`))
      slots++
    }
  }
  expect(slots).toBeGreaterThan(0)
})

test('args: window keeps only the latest blocks', async () => {
  const chain = await imported({ window: 10 })
  expect(chain.head.number).toBe(54n)
  expect(chain.oldest.number).toBe(45n)
  expect(chain.blockByNumber(44n)).toBeUndefined()
})

test('args: safeLag, finalizedLag and mining given explicitly win', async () => {
  const chain = await imported({ safeLag: 2, finalizedLag: 4, mining: { mode: 'auto' } })
  expect(chain.tagNumber('safe')).toBe(52n)
  expect(chain.tagNumber('finalized')).toBe(50n)
  expect(chain.miningMode).toEqual({ mode: 'auto' })
})

test('behavior: mining continues on the imported head, timestamps after its own', async () => {
  const chain = await imported()
  const [mined] = await chain.mine(1n)
  expect(mined!.number).toBe(55n)
  expect(mined!.block.header.parentHash).toEqual(chain.blockByNumber(54n)!.hash)
  expect(mined!.block.header.timestamp).toBe(552n)
  expect(mined!.block.header.gasLimit).toBe(chain.blockByNumber(54n)!.block.header.gasLimit)
})

test('error: a corrupted state root in block 5 stops the import, naming block 5 and the field', async () => {
  const list = splitBlocks(blocks)
  const header = [...(list[4]![0] as unknown as Uint8Array[])]
  const real = header[3]!
  const corruptedRoot = Uint8Array.from(real)
  corruptedRoot[7] = corruptedRoot[7]! ^ 0xff
  header[3] = corruptedRoot
  const corrupted = concatBytes(...list.map((block, i) => RLP.encode(i === 4 ? [header, ...block.slice(1)] : block)))
  const error = await importChain({ genesis, blocks: corrupted }, { customCrypto }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ImportError)
  expect(error).toMatchObject({ block: 5n, field: 'state root' })
  expect((error as Error).message).toBe(`import: block 5: state root mismatch (expected ${bytesToHex(corruptedRoot)}, got ${bytesToHex(real)})`)
})

test('error: a block out of sequence stops the import', async () => {
  const list = splitBlocks(blocks)
  const skipped = concatBytes(...[list[0]!, list[2]!].map((block) => RLP.encode(block)))
  await expect(importChain({ genesis, blocks: skipped }, { customCrypto })).rejects.toThrow('import: block 2: number mismatch (expected 2, got 3)')
})

test('error: a block whose parent hash is wrong stops the import', async () => {
  const list = splitBlocks(blocks)
  const header = [...(list[1]![0] as unknown as Uint8Array[])]
  header[0] = new Uint8Array(32)
  const changed = concatBytes(...list.slice(0, 2).map((block, i) => RLP.encode(i === 1 ? [header, ...block.slice(1)] : block)))
  await expect(importChain({ genesis, blocks: changed }, { customCrypto })).rejects.toThrow(/^import: block 2: parent hash mismatch \(expected 0x[0-9a-f]{64}, got 0x0{64}\)$/)
})

test('error: bytes that are not RLP stop the import', async () => {
  await expect(importChain({ genesis, blocks: Uint8Array.from([0xf9, 0xff]) }, { customCrypto })).rejects.toThrow(/^import: block 1: encoding is not valid RLP/)
})
