/**
 * Importing a recorded chain: a geth genesis plus an RLP file of blocks, replayed and verified
 * block by block, then served as a ringchain whose head is the file's last block.
 *
 * Owns: the fork rules from a geth genesis (`Common`, blob schedule), the genesis state and block,
 * decoding the block file, checking each header against its parent as a client does (the
 * proof-of-work seal excepted: the file is trusted that far), executing each block and checking its
 * state root, receipts root, bloom, gas used and requests hash, and the receipts of every block.
 * Leaves to others: reading files (`src/simulator.ts` hands bytes and parsed JSON in), state storage
 * (`state.ts`), receipts (`receipts.ts`), and the running chain itself (`Chain.assemble`).
 */
import { createBlock, createBlockFromBytesArray, type Block, type BlockBytes, type BlockHeader } from '@ethereumjs/block'
import { createCommonFromGethGenesis, parseGethGenesisState, type Common, type GethGenesis } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import {
  KECCAK256_NULL,
  bytesToHex,
  bytesToUnprefixedHex,
  equalsBytes,
  hexToBytes,
  setLengthLeft,
  unpadBytes,
} from '@ethereumjs/util'
import { createVM, runBlock, type RunBlockResult } from '@ethereumjs/vm'
import { Chain, type ChainOptions } from './chain.js'
import { Clock } from './clock.js'
import { newAccount } from './encoding.js'
import { ChainError, InvalidInputError } from './errors.js'
import { DEFAULT_MNEMONIC, deriveAccounts } from './accounts.js'
import { mergeParamsOnce } from './genesis.js'
import { buildIncluded } from './receipts.js'
import { WorldState, emptyChanges, type StateChanges } from './state.js'
import { RingStateManager } from './stateManager.js'
import { SYSTEM_CONTRACTS, watchRequestCalls } from './systemContracts.js'
import type { BlockRecord } from './types.js'
import { keccakOf } from './crypto.js'
import { memoizeCommonQueries } from './commonMemo.js'

export type { GethGenesis } from '@ethereumjs/common'

/** The window when none is given (as `Chain`'s default). */
const DEFAULT_WINDOW = 128

/** The highest gas limit a header may carry (geth's `params.MaxGasLimit`, 2^63 - 1). */
const MAX_GAS_LIMIT = 2n ** 63n - 1n

/** What to import: a parsed geth genesis and, optionally, the RLP-encoded blocks after it. */
export interface ChainImport {
  /** A geth genesis (`geth init` format): chain id, forks, blob schedule, alloc. */
  readonly genesis: GethGenesis
  /** Concatenated RLP blocks (`geth export` format), oldest first, starting at block 1. */
  readonly blocks?: Uint8Array
}

/** The import stopped at a block that is not valid on top of its parent. */
export class ImportError extends ChainError {
  override name = 'ImportError'
  constructor(
    readonly block: bigint,
    readonly field: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`import: block ${block}: ${field} ${detail}`, options)
  }
}

/**
 * Builds a chain from a geth genesis and replays `blocks` on it, verifying each one; the last block
 * becomes the head. Unless `options` say otherwise, the head is also safe and finalized, nothing
 * is mined until asked (manual mining), new blocks keep the head's gas limit and follow the head's
 * timestamp 12 s apart (`deterministic: false` takes the wall clock instead), and there are no
 * dev accounts (`accounts` or `mnemonic` derive some, unfunded unless the genesis funds them).
 * `chainId`, `hardfork`, `baseFee` and `balance` come from the genesis: those options are ignored.
 *
 * @example
 * const chain = await importChain({ genesis: JSON.parse(genesisJson), blocks: rlpBytes }, { customCrypto })
 */
export async function importChain(source: ChainImport, options: ChainOptions = {}): Promise<Chain> {
  const window = options.window ?? DEFAULT_WINDOW
  if (!Number.isInteger(window) || window < 1) throw new InvalidInputError('window must be a positive integer')
  const common = createImportCommon(source.genesis, options.customCrypto)
  const keccak = keccakOf(common)
  const world = new WorldState(common)
  const alloc = genesisAlloc(source.genesis, keccak)
  await world.commitGenesis(alloc)
  const genesis = genesisBlock(source.genesis, common, world.root)
  const genesisRecord: BlockRecord = { block: genesis, hash: genesis.hash(), number: 0n, transactions: [], logs: [], size: genesis.serialize().length }
  const records: BlockRecord[] = [genesisRecord]

  const replay = new Replay(common, world, records[0]!)
  for (const { values, size } of rlpItems(source.blocks ?? new Uint8Array(0), replay.nextNumber)) {
    records.push(await replay.apply(values, size))
    // Only the last `window` blocks are served: don't hold more than that while importing.
    if (records.length > window + 1) world.evict(records.shift()!.number)
  }

  const head = records[records.length - 1]!.block.header
  common.setHardforkBy({ blockNumber: head.number, timestamp: head.timestamp })
  // A recorded chain has its own time: new blocks follow the head's timestamp, not the wall clock.
  const deterministic = options.deterministic
  const clock = new Clock(
    deterministic === false
      ? undefined
      : {
          genesisTimestamp: genesis.header.timestamp,
          blockTime: (typeof deterministic === 'object' ? deterministic.blockTime : undefined) ?? 12n,
        },
  )
  const accounts =
    options.accounts === undefined && options.mnemonic === undefined ? [] : deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? 10)
  return Chain.assemble({
    common,
    accounts,
    world,
    clock,
    blocks: records,
    genesis: genesisRecord,
    options: {
      ...options,
      safeLag: options.safeLag ?? 0,
      finalizedLag: options.finalizedLag ?? 0,
      mining: options.mining ?? { mode: 'manual' },
      blockGasLimit: options.blockGasLimit ?? head.gasLimit,
    },
  })
}

/**
 * The fork rules of a geth genesis, starting at block 0: the hardfork then follows each block.
 * ethereumjs 10.1.3 reads the BPO entries of `blobSchedule` into parameters its blob gas schedule
 * does not read, so they are also given as the BPO forks' own `target`/`max`/update fraction.
 */
function createImportCommon(genesis: GethGenesis, customCrypto?: ChainOptions['customCrypto']): Common {
  const common = createCommonFromGethGenesis(genesis, {
    chain: 'ringchain-import',
    ...(customCrypto === undefined ? {} : { customCrypto }),
  })
  const schedule = (genesis.config as { blobSchedule?: Record<string, { target: number; max: number; baseFeeUpdateFraction: number }> }).blobSchedule ?? {}
  const bpo: Record<string, { target: number; max: number; blobGasPriceUpdateFraction: number }> = {}
  for (const [fork, entry] of Object.entries(schedule)) {
    if (!/^bpo\d+$/.test(fork)) continue
    bpo[fork] = { target: entry.target, max: entry.max, blobGasPriceUpdateFraction: entry.baseFeeUpdateFraction }
  }
  if (Object.keys(bpo).length > 0) common.updateParams(bpo)
  common.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(genesis.timestamp ?? 0) })
  mergeParamsOnce(common)
  memoizeCommonQueries(common)
  return common
}

/** The genesis alloc as state changes (code by hash, storage left-padded slots, unpadded values). */
function genesisAlloc(genesis: GethGenesis, keccak: (data: Uint8Array) => Uint8Array): StateChanges {
  const changes = emptyChanges()
  for (const [prefixed, [balance, code, storage, nonce]] of Object.entries(parseGethGenesisState(genesis))) {
    const address = prefixed.slice(2)
    const codeBytes = code === undefined ? new Uint8Array(0) : hexToBytes(code)
    const codeHash = codeBytes.length === 0 ? KECCAK256_NULL : keccak(codeBytes)
    if (codeBytes.length > 0) changes.code.set(bytesToUnprefixedHex(codeHash), codeBytes)
    changes.accounts.set(address, {
      ...newAccount({ balance: BigInt(balance), nonce: nonce === undefined ? 0n : BigInt(nonce) }),
      codeHash,
      codeSize: codeBytes.length,
    })
    if (storage !== undefined && storage.length > 0) {
      const slots = new Map<string, Uint8Array>()
      for (const [slot, value] of storage) {
        const v = unpadBytes(hexToBytes(evenHex(value)))
        if (v.length > 0) slots.set(bytesToUnprefixedHex(setLengthLeft(hexToBytes(evenHex(slot)), 32)), v)
      }
      if (slots.size > 0) changes.storage.set(address, slots)
    }
  }
  return changes
}

function evenHex(hex: string): `0x${string}` {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex
  return `0x${digits.length % 2 === 1 ? '0' : ''}${digits}`
}

/** The genesis block geth builds from the same file (its hash is what block 1 names as parent). */
function genesisBlock(genesis: GethGenesis, common: Common, stateRoot: Uint8Array): Block {
  const g = common.genesis()
  const header: Record<string, unknown> = {
    number: 0n,
    stateRoot,
    gasLimit: BigInt(g.gasLimit),
    difficulty: BigInt(g.difficulty),
    timestamp: BigInt(g.timestamp ?? 0),
    extraData: g.extraData,
    nonce: g.nonce,
    ...(genesis.mixHash === undefined ? {} : { mixHash: genesis.mixHash }),
    ...(genesis.coinbase === undefined ? {} : { coinbase: genesis.coinbase }),
  }
  if (common.isActivatedEIP(1559) && genesis.baseFeePerGas !== undefined && genesis.baseFeePerGas !== null) header.baseFeePerGas = BigInt(genesis.baseFeePerGas)
  if (common.isActivatedEIP(4844) && genesis.excessBlobGas !== undefined && genesis.excessBlobGas !== null) header.excessBlobGas = BigInt(genesis.excessBlobGas)
  return createBlock({ header, ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common, skipConsensusFormatValidation: true })
}

/** The top-level RLP items of a block file, one block each, with their encoded sizes. */
function* rlpItems(bytes: Uint8Array, nextNumber: () => bigint): Generator<{ values: BlockBytes; size: number }> {
  let rest = bytes
  while (rest.length > 0) {
    let decoded: { data: unknown; remainder: Uint8Array }
    try {
      decoded = RLP.decode(rest, true) as { data: unknown; remainder: Uint8Array }
    } catch (cause) {
      throw new ImportError(nextNumber(), 'encoding', `is not valid RLP (${(cause as Error).message})`, { cause })
    }
    if (!Array.isArray(decoded.data)) throw new ImportError(nextNumber(), 'encoding', 'is not a block (an RLP list)')
    yield { values: decoded.data as BlockBytes, size: rest.length - decoded.remainder.length }
    rest = decoded.remainder
  }
}

/** Replays blocks one by one on a world state, the way a client imports them. */
class Replay {
  readonly #common: Common
  readonly #world: WorldState
  readonly #sm: RingStateManager
  /** Hashes by number, for BLOCKHASH; and recent blocks by hash, for uncle checks. */
  readonly #hashes = new Map<bigint, Uint8Array>()
  readonly #recent = new Map<string, BlockHeader>()
  readonly #unclesSeen = new Set<string>()
  #parent: Block
  #vm: Awaited<ReturnType<typeof createVM>> | undefined
  #requestCalls: ReturnType<typeof watchRequestCalls> | undefined

  constructor(common: Common, world: WorldState, genesis: BlockRecord) {
    this.#common = common
    this.#world = world
    this.#sm = new RingStateManager(world.head, {
      keccak: keccakOf(common),
      computeRoot: (changes) => world.computeRoot(changes),
    })
    this.#parent = genesis.block
    this.#remember(genesis.block.header)
  }

  readonly nextNumber = (): bigint => this.#parent.header.number + 1n

  async apply(values: BlockBytes, size: number): Promise<BlockRecord> {
    const number = this.nextNumber()
    let block: Block
    try {
      block = createBlockFromBytesArray(values, { common: this.#common, setHardfork: true })
    } catch (cause) {
      throw new ImportError(number, 'block', `cannot be decoded (${(cause as Error).message})`, { cause })
    }
    await this.#checkHeader(block)
    await this.#checkBody(block)
    const vm = await this.#getVm()
    this.#sm.reset(this.#world.head)
    this.#requestCalls?.reset()
    let result: RunBlockResult
    try {
      // generate: the fields are compared below, so that a mismatch names the field and both values.
      result = await runBlock(vm, { block, generate: true, setHardfork: true, skipBlockValidation: true, skipHardForkValidation: true })
    } catch (cause) {
      throw new ImportError(number, 'execution', `failed (${(cause as Error).message})`, { cause })
    }
    this.#checkRequestCalls(block)
    const h = block.header
    expectBytes(number, 'state root', h.stateRoot, result.stateRoot)
    expectBytes(number, 'receipts root', h.receiptTrie, result.receiptsRoot)
    expectBytes(number, 'logs bloom', h.logsBloom, result.logsBloom)
    expectValue(number, 'gas used', h.gasUsed, result.gasUsed)
    if (h.requestsHash !== undefined || result.requestsHash !== undefined) {
      expectBytes(number, 'requests hash', h.requestsHash ?? new Uint8Array(0), result.requestsHash ?? new Uint8Array(0))
    }
    await this.#world.commit(this.#sm.changes, await this.#sm.computeRoot(), number)
    this.#sm.reset(this.#world.head)

    const senders = block.transactions.map((tx) => tx.getSenderAddress().bytes)
    const { transactions, logs } = buildIncluded(block, senders, result.results)
    this.#parent = block
    this.#remember(h)
    for (const uncle of block.uncleHeaders) this.#unclesSeen.add(bytesToUnprefixedHex(uncle.hash()))
    return { block, hash: block.hash(), number, transactions, logs, size }
  }

  /** Header rules against the parent, as a client checks them (the proof-of-work seal excepted). */
  async #checkHeader(block: Block): Promise<void> {
    const h = block.header
    const parent = this.#parent.header
    const number = parent.number + 1n
    expectValue(number, 'number', number, h.number)
    expectBytes(number, 'parent hash', this.#parent.hash(), h.parentHash)
    if (h.timestamp <= parent.timestamp) throw new ImportError(number, 'timestamp', `${h.timestamp} is not after the parent's ${parent.timestamp}`)
    if (h.gasLimit > MAX_GAS_LIMIT) throw new ImportError(number, 'gas limit', `${h.gasLimit} is above the maximum ${MAX_GAS_LIMIT} (2^63 - 1)`)
    if (h.gasUsed > h.gasLimit) throw new ImportError(number, 'gas used', `${h.gasUsed} is above the gas limit ${h.gasLimit}`)
    try {
      h.validateGasLimit(parent)
    } catch (cause) {
      throw new ImportError(number, 'gas limit', `is out of bounds (${(cause as Error).message})`, { cause })
    }
    if (h.common.consensusType() === 'pow') {
      expectValue(number, 'difficulty', h.ethashCanonicalDifficulty(parent), h.difficulty)
    } else {
      expectValue(number, 'difficulty', 0n, h.difficulty)
    }
    if (h.common.isActivatedEIP(1559)) {
      const expected = parent.common.isActivatedEIP(1559) ? parent.calcNextBaseFee() : BigInt(h.common.param('initialBaseFee'))
      expectValue(number, 'base fee', expected, h.baseFeePerGas)
    }
    if (h.common.isActivatedEIP(4844)) {
      expectValue(number, 'excess blob gas', parent.calcNextExcessBlobGas(h.common), h.excessBlobGas)
    }
  }

  /** Body rules: transactions, their trie, uncles, withdrawals, blob gas. */
  async #checkBody(block: Block): Promise<void> {
    const number = block.header.number
    const errors = block.getTransactionsValidationErrors()
    if (errors.length > 0) throw new ImportError(number, 'transactions', `are invalid (${errors.join('; ')})`)
    if (!(await block.transactionsTrieIsValid())) throw new ImportError(number, 'transactions root', 'does not match the transactions')
    if (!block.uncleHashIsValid()) throw new ImportError(number, 'uncles hash', 'does not match the uncles')
    if (block.common.isActivatedEIP(4895) && !(await block.withdrawalsTrieIsValid())) {
      throw new ImportError(number, 'withdrawals root', 'does not match the withdrawals')
    }
    this.#checkUncles(block)
    try {
      block.validateBlobTransactions(this.#parent.header)
    } catch (cause) {
      throw new ImportError(number, 'blob gas', `is invalid (${(cause as Error).message})`, { cause })
    }
  }

  /**
   * The EIP-7002 and EIP-7251 system calls at the end of the block, as geth checks them: the
   * contract must have code and the call must not fail, or the block is invalid (ethereumjs skips
   * a missing contract and takes a failed call's output as the requests).
   */
  #checkRequestCalls(block: Block): void {
    const number = block.header.number
    for (const contract of SYSTEM_CONTRACTS) {
      if ((contract.eip !== 7002 && contract.eip !== 7251) || !block.common.isActivatedEIP(contract.eip)) continue
      const record = this.#sm.accountRecord(contract.address.slice(2))
      if (record === undefined || equalsBytes(record.codeHash, KECCAK256_NULL)) {
        throw new ImportError(number, `EIP-${contract.eip} system call`, `failed: no code at ${contract.address}`)
      }
    }
    const failed = this.#requestCalls?.failure()
    if (failed !== undefined) throw new ImportError(number, `EIP-${failed.eip} system call`, `failed (${failed.reason})`)
  }

  /** Each uncle: a child of a recent ancestor, not itself an ancestor, not included before. */
  #checkUncles(block: Block): void {
    const number = block.header.number
    for (const uncle of block.uncleHeaders) {
      const key = bytesToUnprefixedHex(uncle.hash())
      const uncleParent = this.#recent.get(bytesToUnprefixedHex(uncle.parentHash))
      if (this.#recent.has(key) || this.#unclesSeen.has(key)) throw new ImportError(number, 'uncles', `include ${bytesToHex(uncle.hash())} twice or an ancestor`)
      if (uncleParent === undefined || uncleParent.number + 7n < number || uncle.number !== uncleParent.number + 1n) {
        throw new ImportError(number, 'uncles', `include ${bytesToHex(uncle.hash())}, which is not a child of a recent ancestor`)
      }
    }
  }

  #remember(header: BlockHeader): void {
    this.#hashes.set(header.number, header.hash())
    this.#recent.set(bytesToUnprefixedHex(header.hash()), header)
    // Uncles may name ancestors up to 7 generations back; BLOCKHASH reaches 256.
    const old = header.number - 256n
    const oldHash = this.#hashes.get(old)
    if (oldHash !== undefined) {
      this.#hashes.delete(old)
      this.#recent.delete(bytesToUnprefixedHex(oldHash))
    }
  }

  async #getVm() {
    if (this.#vm !== undefined) return this.#vm
    const hashes = this.#hashes
    const blockchain = {
      getBlock: async (n: number) => ({ hash: () => hashes.get(BigInt(n)) ?? new Uint8Array(32) }),
      putBlock: async () => {},
      shallowCopy() {
        return this
      },
    }
    this.#vm = await createVM({ common: this.#common, stateManager: this.#sm, blockchain: blockchain as never })
    this.#requestCalls = watchRequestCalls(this.#vm.evm)
    return this.#vm
  }
}

function expectBytes(block: bigint, field: string, expected: Uint8Array, got: Uint8Array): void {
  if (!equalsBytes(expected, got)) throw new ImportError(block, field, `mismatch (expected ${bytesToHex(expected)}, got ${bytesToHex(got)})`)
}

function expectValue(block: bigint, field: string, expected: bigint | undefined, got: bigint | undefined): void {
  if (expected !== got) throw new ImportError(block, field, `mismatch (expected ${String(expected)}, got ${String(got)})`)
}
