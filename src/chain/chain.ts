/**
 * The simulated chain: VM, block ring, pool, transaction index, mining, time and snapshots.
 *
 * Owns: accepting transactions into the pool, mining them into blocks (automine, interval, manual),
 * the ring of the latest `window` blocks and everything they own, resolving block references,
 * state reads at any block of the window, calls, test-control writes, and whole-chain snapshots.
 * Every operation that changes the chain runs one at a time (`#exclusive`); reads are synchronous
 * and see either the chain before or after a block, never half of one.
 * Leaves to others: state storage and history (`state.ts`), the VM's journal (`stateManager.ts`),
 * admission rules (`validate.ts`), receipts (`receipts.ts`), and all of JSON-RPC (`src/rpc/`).
 */
import { createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import {
  Address,
  KECCAK256_NULL,
  bytesToUnprefixedHex,
  hexToBytes,
  setLengthLeft,
  unpadBytes,
  Account,
  bigIntToHex,
  bytesToHex,
  concatBytes,
  eoaCode7702RecoverAuthority,
  equalsBytes,
  type EOACode7702AuthorizationListItem,
} from '@ethereumjs/util'
import { createVM, type RunTxResult, type VM } from '@ethereumjs/vm'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createAccessList, type AccessListCall, type AccessListEntry, type AccessListResult, type AuthorizationEntry } from './accessList.js'
import { startBlock } from './builder.js'
import { Clock, DETERMINISTIC_GENESIS_TIMESTAMP, type ClockState } from './clock.js'
import {
  BlockOutOfWindowError,
  ExecutionFailedError,
  ExecutionRevertedError,
  FutureBlockError,
  InvalidInputError,
  UnknownBlockError,
} from './errors.js'
import {
  DEFAULT_HARDFORK,
  DEFAULT_MNEMONIC,
  createDevCommon,
  deriveAccounts,
  devAlloc,
  devGenesisBlock,
  type DevAccount,
} from './genesis.js'
import { TxPool, type PoolSnapshot } from './pool.js'
import type { GenesisFacts } from './forkConfig.js'
import { PreimageStore, type PreimageSnapshot, type SlotDerivation } from './preimages.js'
import type { AccountProof } from './proofs.js'
import { buildIncluded } from './receipts.js'
import { EMPTY, WorldState, emptyChanges, keyOf, newAccount, type StateReader, type StateChanges, type WorldStateSnapshot } from './state.js'
import { describeRevert } from './revert.js'
import { attachConsole, type ConsoleCall } from './console/attach.js'
import { reportExecution, wantsConsole, type ConsoleEntry, type ConsoleSource, type ExecutionReporter } from './console/report.js'
import { RingStateManager } from './stateManager.js'
import { StorageWriteRecorder, accountSlots, blockChanges, type StorageWrite } from './storageChanges.js'
import { SYSTEM_CONTRACTS, answerIdleRequestCalls } from './systemContracts.js'
import type { AccountRecord, BlockRecord, BlockRef, IncludedTx, MiningMode, PendingTx, TxLookup } from './types.js'
import { TX_GAS_CAP, checkAdmission, decodeRawTransaction, upfrontCost } from './validate.js'

/** Options of a chain. Every field has a default; the same options always give the same genesis. */
export interface ChainOptions {
  /** Chain id. Default 31337. */
  chainId?: bigint
  /** Fork rules, from `chainstart` (alias `frontier`) to the newest. Default: the newest mainnet fork ethereumjs supports. */
  hardfork?: string
  /** Gas limit of every block. Default 30,000,000. */
  blockGasLimit?: bigint
  /** Base fee of the genesis block (EIP-1559 forks). Default 1 gwei. */
  baseFee?: bigint
  /** BIP-39 mnemonic of the dev accounts. Default `test test … junk`. */
  mnemonic?: string
  /** Number of dev accounts. Default 10. */
  accounts?: number
  /** Balance of each dev account, in wei. Default 10,000 ETH. */
  balance?: bigint
  /** Number of blocks kept (the window). Default 128. */
  window?: number
  /** How far `safe` lags the head. Default 32. */
  safeLag?: number
  /** How far `finalized` lags the head. Default 64. */
  finalizedLag?: number
  /** Mining mode at start. Default automine. */
  mining?: MiningMode
  /** Fixed genesis timestamp and 12 s per block, so the same inputs give the same hashes. Default false (wall clock). */
  deterministic?: boolean | { genesisTimestamp?: bigint; blockTime?: bigint }
  /** Fee recipient of mined blocks. Default the zero address. */
  coinbase?: Uint8Array
  /** Crypto given to ethereumjs (native secp256k1, KZG). */
  customCrypto?: import('@ethereumjs/common').CustomCrypto
  /**
   * Where mining errors are reported (default: stderr), and, when it has `info`, each mined
   * transaction that failed (with its reason) and the console.log lines of transactions and calls.
   */
  logger?: { error(message: string): void; info?(message: string): void }
  /** Called with each Solidity console.log of a mined transaction, an `eth_call` or an `eth_estimateGas`. */
  onConsole?: (entry: ConsoleEntry) => void
}

/** Parameters of a call or gas estimate. */
export interface CallParams {
  from?: Uint8Array
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  data?: Uint8Array
  /** EIP-2930: counted in the intrinsic gas and warm from the start, as in a transaction. */
  accessList?: readonly AccessListEntry[]
  /** EIP-7702: counted in the intrinsic gas, and the valid ones delegate before the call runs. */
  authorizationList?: readonly AuthorizationEntry[]
}

/** The outcome of a call. */
export interface CallResult {
  readonly returnValue: Uint8Array
  readonly gasUsed: bigint
}

/** What the blocks to come are built with. Test controls change it; a snapshot keeps it. */
export interface BlockSettings {
  /** Gas limit of every block from the next one on. */
  readonly gasLimit: bigint
  /** Fee recipient of every block from the next one on. */
  readonly coinbase: Uint8Array
  /** Base fee of the next block only, in place of the one its parent implies (anvil_setNextBlockBaseFeePerGas). */
  readonly nextBaseFee: bigint | undefined
}

interface ChainSnapshot {
  /** The chain's change count when it was taken. */
  readonly version: number
  readonly world: WorldStateSnapshot
  readonly ring: readonly BlockRecord[]
  readonly pool: PoolSnapshot
  readonly clock: ClockState
  readonly mining: MiningMode
  readonly settings: BlockSettings
  readonly recentHashes: Map<bigint, Uint8Array>
  readonly preimages: PreimageSnapshot
}

/** A non-zero storage slot (unprefixed hex; the value without leading zeros) and how it was computed, when known. */
export interface StorageSlot {
  readonly slot: string
  readonly value: Uint8Array
  readonly derivation: SlotDerivation | undefined
}

/** A slot a block or transaction changed, and how it was computed, when known. */
export interface StorageChange extends StorageWrite {
  readonly derivation: SlotDerivation | undefined
}

/** Listeners for subscriptions and filters. */
export interface ChainEvents {
  block: (record: BlockRecord) => void
  pending: (entry: PendingTx) => void
}

const ZERO32 = new Uint8Array(32)
/** The longest delay a Node timer takes as it is. */
const MAX_TIMER_MS = 2 ** 31 - 1
const DEFAULTS = {
  chainId: 31337n,
  blockGasLimit: 30_000_000n,
  baseFee: 1_000_000_000n,
  accounts: 10,
  balance: 10_000n * 10n ** 18n,
  window: 128,
  safeLag: 32,
  finalizedLag: 64,
}

export class Chain {
  readonly common: Common
  readonly accounts: readonly DevAccount[]
  readonly window: number
  readonly safeLag: number
  readonly finalizedLag: number
  /** The genesis block's hash and time (fork ids start from them), kept after genesis leaves the window. */
  readonly genesis: GenesisFacts
  readonly #world: WorldState
  readonly #pool = new TxPool()
  readonly #clock: Clock
  readonly #sm: RingStateManager
  readonly #vm: VM
  #settings: BlockSettings
  readonly #keccak: (data: Uint8Array) => Uint8Array
  readonly #logger: { error(message: string): void }
  /** Where console.log lines and mined failures go; `console` is undefined when nobody listens. */
  readonly #reporter: ExecutionReporter
  /** The console.log calls of the transaction being mined (filled by the mining VM's hook). */
  readonly #consoleCalls: ConsoleCall[] = []
  /** Keccak preimages and per-transaction storage writes, recorded while blocks are mined (storage inspection). */
  readonly #preimages: PreimageStore
  readonly #writes: StorageWriteRecorder
  #ring: BlockRecord[] = []
  #byHash = new Map<string, BlockRecord>()
  #txIndex = new Map<string, IncludedTx>()
  /** Hashes of the last 256 blocks, for BLOCKHASH even when the window is smaller. */
  #recentHashes = new Map<bigint, Uint8Array>()
  #mining: MiningMode
  #timer: NodeJS.Timeout | undefined
  #queue: Promise<unknown> = Promise.resolve()
  #snapshots = new Map<number, ChainSnapshot>()
  /** Counts operations that may change the chain, so that an unchanged chain is not snapshotted twice. */
  #version = 0
  #nextSnapshotId = 1
  #listeners: { [K in keyof ChainEvents]: Set<ChainEvents[K]> } = { block: new Set(), pending: new Set() }
  #closed = false

  private constructor(init: {
    common: Common
    accounts: DevAccount[]
    world: WorldState
    clock: Clock
    sm: RingStateManager
    vm: VM
    preimages: PreimageStore
    writes: StorageWriteRecorder
    options: ChainOptions
    genesis: GenesisFacts
  }) {
    const o = init.options
    this.common = init.common
    this.accounts = init.accounts
    this.genesis = init.genesis
    this.#world = init.world
    this.#clock = init.clock
    this.#sm = init.sm
    this.#vm = init.vm
    this.#preimages = init.preimages
    this.#writes = init.writes
    this.window = o.window ?? DEFAULTS.window
    this.safeLag = o.safeLag ?? DEFAULTS.safeLag
    this.finalizedLag = o.finalizedLag ?? DEFAULTS.finalizedLag
    this.#settings = { gasLimit: o.blockGasLimit ?? DEFAULTS.blockGasLimit, coinbase: o.coinbase ?? new Uint8Array(20), nextBaseFee: undefined }
    this.#keccak = init.common.customCrypto.keccak256 ?? keccak_256
    this.#logger = o.logger ?? { error: (m) => process.stderr.write(`ringchain: ${m}\n`) }
    this.#reporter = { onConsole: o.onConsole, info: o.logger?.info?.bind(o.logger) }
    this.#mining = o.mining ?? { mode: 'auto' }
  }

  /** Creates a dev chain: genesis with funded dev accounts and the system contracts its fork needs. */
  static async create(options: ChainOptions = {}): Promise<Chain> {
    const window = options.window ?? DEFAULTS.window
    if (!Number.isInteger(window) || window < 1) throw new InvalidInputError('window must be a positive integer')
    const common = createDevCommon({
      chainId: options.chainId ?? DEFAULTS.chainId,
      hardfork: options.hardfork ?? DEFAULT_HARDFORK,
      ...(options.customCrypto === undefined ? {} : { customCrypto: options.customCrypto }),
    })
    const accounts = deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? DEFAULTS.accounts)
    const deterministic = options.deterministic
    const clock = new Clock(
      deterministic === undefined || deterministic === false
        ? undefined
        : {
            genesisTimestamp: (deterministic === true ? undefined : deterministic.genesisTimestamp) ?? DETERMINISTIC_GENESIS_TIMESTAMP,
            blockTime: (deterministic === true ? undefined : deterministic.blockTime) ?? 12n,
          },
    )
    const world = new WorldState(common)
    const alloc = devAlloc(accounts, options.balance ?? DEFAULTS.balance)
    addSystemContracts(alloc, common)
    await world.commitGenesis(alloc)
    const genesis = devGenesisBlock(common, {
      stateRoot: world.root,
      gasLimit: options.blockGasLimit ?? DEFAULTS.blockGasLimit,
      baseFee: options.baseFee ?? DEFAULTS.baseFee,
      timestamp: clock.genesisTimestamp(),
    })
    const record: BlockRecord = { block: genesis, hash: genesis.hash(), number: 0n, transactions: [], logs: [], size: genesis.serialize().length }
    return Chain.assemble({ common, accounts, world, clock, blocks: [record], options })
  }

  /**
   * Wires a chain around a world state whose head is the last of `blocks` (genesis, or the blocks
   * of an imported chain, oldest first; only the last `window` are kept).
   * @internal for `import.ts`
   */
  static async assemble(init: {
    common: Common
    accounts: DevAccount[]
    world: WorldState
    clock: Clock
    blocks: readonly BlockRecord[]
    /** The genesis block, when `blocks` no longer starts with it (an import longer than the window). */
    genesis?: BlockRecord
    options: ChainOptions
  }): Promise<Chain> {
    const { common, accounts, world, clock, options } = init
    const keccak = common.customCrypto.keccak256 ?? keccak_256
    const sm = new RingStateManager(world.head, { keccak, computeRoot: (c) => world.computeRoot(c) })
    let chain: Chain | undefined
    const blockchain = {
      getBlock: async (number: number) => {
        const hash = chain === undefined ? undefined : chain.#recentHashes.get(BigInt(number))
        return { hash: () => hash ?? ZERO32 }
      },
      putBlock: async () => {},
      shallowCopy() {
        return this
      },
    }
    // The mining VM records what KECCAK256 hashes and what SSTORE writes (storage inspection); calls run without.
    const preimages = new PreimageStore()
    const writes = new StorageWriteRecorder((address, slot) => sm.storageValue(address, slot))
    const customOpcodes = [preimages.opcode(common), writes.opcode(common)]
    const vm = await createVM({ common, stateManager: sm, blockchain: blockchain as never, evmOpts: { customOpcodes } })
    answerIdleRequestCalls(vm.evm, sm, keccak)
    writes.attach(vm)
    const first = init.genesis ?? init.blocks[0]!
    const genesis = { hash: first.hash, timestamp: first.block.header.timestamp }
    chain = new Chain({ common, accounts, world, clock, sm, vm, preimages, writes, options, genesis })
    chain.#hookConsole(vm)
    for (const record of init.blocks) chain.#push(record)
    chain.#startTimer()
    return chain
  }

  // --- the window --------------------------------------------------------------------------

  get head(): BlockRecord {
    return this.#ring[this.#ring.length - 1]!
  }

  /** The oldest block still in the window. */
  get oldest(): BlockRecord {
    return this.#ring[0]!
  }

  blockByNumber(number: bigint): BlockRecord | undefined {
    const index = Number(number - this.oldest.number)
    return index >= 0 && index < this.#ring.length ? this.#ring[index] : undefined
  }

  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    return this.#byHash.get(bytesToUnprefixedHex(hash))
  }

  /** Number of the block a tag names (`pending` names the head here; see `pendingBlock`). */
  tagNumber(tag: 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'): bigint {
    switch (tag) {
      case 'latest':
      case 'pending':
        return this.head.number
      case 'earliest':
        return this.oldest.number
      case 'safe':
        return this.#lagged(this.safeLag)
      case 'finalized':
        return this.#lagged(this.finalizedLag)
    }
  }

  // A method, not a closure in `tagNumber`: that runs on every state read, and the CLI bundle keeps
  // names, which costs each closure a `defineProperty` per call.
  #lagged(lag: number): bigint {
    const n = this.head.number - BigInt(lag)
    return n < this.oldest.number ? this.oldest.number : n
  }

  /**
   * The block a reference names. A number before the window: `BlockOutOfWindowError`; after the
   * head: `FutureBlockError`; an unknown hash: `UnknownBlockError`.
   */
  resolveBlock(ref: BlockRef): BlockRecord {
    if (ref.kind === 'hash') {
      const found = this.blockByHash(ref.hash)
      if (found === undefined) throw new UnknownBlockError()
      return found
    }
    const number = ref.kind === 'tag' ? this.tagNumber(ref.tag) : ref.number
    if (number > this.head.number) throw new FutureBlockError(number)
    const found = this.blockByNumber(number)
    if (found === undefined) throw new BlockOutOfWindowError(number, this.oldest.number, this.head.number)
    return found
  }

  /** The state as of a block reference; `pending` is the head plus the executable pool transactions. */
  async stateAt(ref: BlockRef): Promise<StateReader> {
    if (ref.kind === 'tag' && ref.tag === 'pending') return (await this.pendingBlock()).state
    // By number, not "the head": a view stays on its block while later blocks are mined.
    return this.#world.at(this.resolveBlock(ref).number)
  }

  /** Synchronous state view for references other than `pending`. */
  stateAtBlock(record: BlockRecord): StateReader {
    return record === this.head ? this.#world.head : this.#world.at(record.number)
  }

  /**
   * What re-running a block of the window needs (tracing): the state its parent left, kept even
   * for the oldest block, and the block hashes BLOCKHASH reads.
   */
  replayBase(record: BlockRecord): { state: StateReader; blockchain: VM['blockchain'] } {
    return { state: this.#world.at(record.number - 1n), blockchain: this.#vm.blockchain }
  }

  /** Gas of a call that names none, and the most a call may use (what `eth_call` runs with). */
  get callGasCap(): bigint {
    return this.#callGasCap()
  }

  // --- transactions -------------------------------------------------------------------------

  /** A transaction by hash: pending, included in a block of the window, or unknown (undefined). */
  lookupTransaction(hash: Uint8Array): TxLookup | undefined {
    const key = keyOf(hash)
    const included = this.#txIndex.get(key)
    if (included !== undefined) return { status: 'included', included }
    const pending = this.#pool.get(key)
    if (pending !== undefined) return { status: 'pending', pending }
    return undefined
  }

  /** Decodes, validates and pools a signed raw transaction; mines it at once in automine mode. */
  async sendRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    const tx = decodeRawTransaction(raw, this.common, this.blockGasLimit)
    return this.addTransaction(tx)
  }

  /** Pools a decoded transaction (signed, or with an impersonated sender). */
  async addTransaction(tx: TypedTransaction, sender?: Address): Promise<Uint8Array> {
    return this.#exclusive(async () => {
      const from = sender ?? tx.getSenderAddress()
      const fromKey = bytesToUnprefixedHex(from.bytes)
      const hash = tx.hash()
      const hashKey = bytesToUnprefixedHex(hash)
      checkAdmission(tx, from, {
        blockGasLimit: this.blockGasLimit,
        nextBaseFee: this.nextBaseFee(),
        account: this.#world.head.account(fromKey),
        existing: this.#pool.at(fromKey, tx.nonce),
        known: this.#pool.get(hashKey) !== undefined || this.#txIndex.has(hashKey),
      })
      const entry: PendingTx = { tx, hash, from: from.bytes, seq: this.#pool.nextSeq() }
      this.#pool.add(entry)
      this.#pendingCache = undefined
      for (const listener of this.#listeners.pending) listener(entry)
      if (this.#mining.mode === 'auto') await this.#automine()
      return hash
    })
  }

  /** Removes a pending transaction; true if it was pending. */
  async dropTransaction(hash: Uint8Array): Promise<boolean> {
    return this.#exclusive(async () => {
      this.#pendingCache = undefined
      return this.#pool.remove(bytesToUnprefixedHex(hash))
    })
  }

  /** The pool, split into executable and queued transactions per sender. */
  poolContent(): { executable: Map<string, PendingTx[]>; queued: Map<string, PendingTx[]> } {
    return this.#pool.content(this.#nonceOf)
  }

  /** The nonce the next transaction of `address` should carry, counting its executable pool transactions. */
  pendingNonce(address: Uint8Array): bigint {
    const key = bytesToUnprefixedHex(address)
    return this.#nonceOf(key) + BigInt(this.#pool.executableOf(key, this.#nonceOf).length)
  }

  /** Base fee of the next block (undefined before London). */
  nextBaseFee(): bigint | undefined {
    const header = this.head.block.header
    if (!this.common.isActivatedEIP(1559)) return undefined
    return this.#settings.nextBaseFee ?? header.calcNextBaseFee()
  }

  /** Gas limit of the blocks to come. */
  get blockGasLimit(): bigint {
    return this.#settings.gasLimit
  }

  get blockSettings(): BlockSettings {
    return this.#settings
  }

  /**
   * Changes what the blocks to come are built with (anvil's `evm_setBlockGasLimit`, `anvil_setCoinbase`,
   * `anvil_setNextBlockBaseFeePerGas`). A next base fee needs EIP-1559 and holds for one block.
   */
  async setBlockSettings(changes: Partial<BlockSettings>): Promise<void> {
    if (changes.gasLimit !== undefined && changes.gasLimit <= 0n) throw new InvalidInputError('block gas limit must be greater than 0')
    if (changes.coinbase !== undefined && changes.coinbase.length !== 20) throw new InvalidInputError('coinbase must be a 20-byte address')
    if (changes.nextBaseFee !== undefined && !this.common.isActivatedEIP(1559)) {
      throw new InvalidInputError('a next block base fee needs EIP-1559 (London or later)')
    }
    await this.#exclusive(async () => {
      this.#settings = { ...this.#settings, ...changes }
      this.#pendingCache = undefined
    })
  }

  /**
   * Spaces every next block's timestamp `seconds` after its parent's (`undefined`: back to the
   * clock); returns whether an interval was set before.
   */
  async setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this.#exclusive(async () => {
      const had = this.#clock.setInterval(seconds)
      this.#pendingCache = undefined
      return had
    })
  }

  // --- mining -------------------------------------------------------------------------------

  get miningMode(): MiningMode {
    return this.#mining
  }

  async setMiningMode(mode: MiningMode): Promise<void> {
    if (mode.mode === 'interval' && (!Number.isFinite(mode.blockTimeMs) || mode.blockTimeMs <= 0)) {
      throw new InvalidInputError('interval mining needs a block time above 0 ms')
    }
    await this.#exclusive(async () => {
      this.#mining = mode
      this.#startTimer()
      if (mode.mode === 'auto') await this.#automine()
    })
  }

  /**
   * Mines `count` blocks; the first takes the executable pool transactions that fit, and so does
   * each next one while any are left. `interval` spaces the timestamps by that many seconds.
   */
  async mine(count = 1n, interval?: bigint): Promise<BlockRecord[]> {
    if (count < 0n) throw new InvalidInputError('block count cannot be negative')
    return this.#exclusive(async () => {
      const mined: BlockRecord[] = []
      for (let i = 0n; i < count; i++) {
        const record = await this.#mineBlock(this.#pool.ordered(this.#nonceOf, this.nextBaseFee()), interval)
        // Only the last `window` blocks can be kept anyway: don't hold more in memory.
        mined.push(record)
        if (mined.length > this.window) mined.shift()
      }
      return mined
    })
  }

  #pendingCache: { head: Uint8Array; record: BlockRecord; state: StateReader } | undefined

  /**
   * The block the pool would make now, on top of the head (not part of the chain), with its state.
   * Built once and kept until the head or the pool changes.
   */
  async pendingBlock(): Promise<{ record: BlockRecord; state: StateReader }> {
    const cached = this.#pendingCache
    if (cached !== undefined && cached.head === this.head.hash) return cached
    return this.#exclusive(async () => {
      const sm = new RingStateManager(this.#world.head, { keccak: this.#keccak, computeRoot: (c) => this.#world.computeRoot(c) })
      const vm = await createVM({ common: this.common, stateManager: sm, blockchain: this.#vm.blockchain })
      const txs = this.#pool.ordered(this.#nonceOf, this.nextBaseFee())
      const { block, senders, results } = await this.#build(vm, sm, txs, this.#clock.peek(this.head.block.header.timestamp))
      const { transactions, logs } = buildIncluded(block, senders, results)
      const record: BlockRecord = { block, hash: block.hash(), number: block.header.number, transactions, logs, size: block.serialize().length }
      const state: StateReader = {
        account: (a) => sm.accountRecord(a),
        storage: (a, s) => sm.storageValue(a, s),
        code: (h) => sm.codeOf(hexToBytes(`0x${h}`)),
      }
      const built = { head: this.head.hash, record, state }
      this.#pendingCache = built
      return built
    }, false)
  }

  async #automine(): Promise<void> {
    for (;;) {
      const next = this.#pool.ordered(this.#nonceOf, this.nextBaseFee())[0]
      if (next === undefined) return
      const before = this.#pool.size
      await this.#mineBlock([next])
      if (this.#pool.size === before) return // it could not be included: leave it pending
    }
  }

  async #mineBlock(candidates: readonly PendingTx[], interval?: bigint): Promise<BlockRecord> {
    const timestamp = this.#clock.next(this.head.block.header.timestamp, interval)
    this.#sm.reset(this.#world.head)
    this.#preimages.discard()
    this.#writes.discard()
    const { block, senders, results, included, dropped, consoleCalls } = await this.#build(this.#vm, this.#sm, candidates, timestamp)
    // A base fee set for the next block was that block's alone.
    if (this.#settings.nextBaseFee !== undefined) this.#settings = { ...this.#settings, nextBaseFee: undefined }
    const computed = await this.#sm.computeRoot()
    await this.#world.commit(this.#sm.changes, computed, block.header.number)
    this.#preimages.commit(block.header.number, this.#world.changedSlots(block.header.number))
    this.#sm.reset()
    for (const entry of [...included, ...dropped]) this.#pool.remove(bytesToUnprefixedHex(entry.hash))
    const { transactions, logs } = buildIncluded(block, senders, results)
    const record: BlockRecord = { block, hash: block.hash(), number: block.header.number, transactions, logs, size: block.serialize().length }
    this.#writes.finishBlock(record)
    this.#push(record)
    this.#pool.prune(this.#nonceOf)
    this.#pendingCache = undefined
    for (const [i, result] of results.entries()) reportExecution(this.#reporter, included[i]!.hash, consoleCalls[i]!, { blockNumber: record.number, result })
    for (const listener of this.#listeners.block) listener(record)
    return record
  }

  /** Catches the console.log calls of `vm`'s transactions into `#consoleCalls`, when anyone listens. */
  #hookConsole(vm: VM): void {
    if (wantsConsole(this.#reporter)) attachConsole(vm.evm, (call) => this.#consoleCalls.push(call))
  }

  /** Runs `candidates` into a new block on `vm`; skips those that cannot run now. */
  async #build(vm: VM, sm: RingStateManager, candidates: readonly PendingTx[], timestamp: bigint) {
    const parent = this.head.block
    const headerData: Record<string, unknown> = {
      number: parent.header.number + 1n,
      timestamp,
      gasLimit: this.#settings.gasLimit,
      coinbase: new Address(this.#settings.coinbase),
    }
    if (this.#settings.nextBaseFee !== undefined && this.common.isActivatedEIP(1559)) headerData.baseFeePerGas = this.#settings.nextBaseFee
    if (this.common.consensusType() === 'pos') headerData.mixHash = this.#keccak(parent.hash())
    else headerData.difficulty = parent.header.difficulty
    if (this.common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = ZERO32
    const builder = await startBlock(vm, {
      parentBlock: parent,
      headerData,
      ...(this.common.isActivatedEIP(4895) ? { withdrawals: [] } : {}),
      blockOpts: { putBlockIntoBlockchain: false, common: this.common },
    })
    const senders: Uint8Array[] = []
    const results: RunTxResult[] = []
    const included: PendingTx[] = []
    const dropped: PendingTx[] = []
    // Per included transaction, the console.log calls it made (only the mining VM records any).
    const consoleCalls: ConsoleCall[][] = []
    const baseFee = this.nextBaseFee()
    const blocked = new Set<string>()
    for (const entry of candidates) {
      const from = bytesToUnprefixedHex(entry.from)
      if (blocked.has(from)) continue
      const tx = entry.tx
      const account = sm.accountRecord(from)
      const skip =
        tx.gasLimit > this.blockGasLimit - builder.gasUsed ||
        (account?.nonce ?? 0n) !== tx.nonce ||
        (baseFee !== undefined && ('maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice) < baseFee) ||
        (account?.balance ?? 0n) < upfrontCost(tx)
      if (skip) {
        // A sender's later nonces cannot run before this one.
        blocked.add(from)
        continue
      }
      try {
        const result = await builder.addTransaction(tx, { skipHardForkValidation: true })
        results.push(result)
        senders.push(entry.from)
        included.push(entry)
        consoleCalls.push(this.#consoleCalls.splice(0))
      } catch (e) {
        this.#consoleCalls.length = 0
        blocked.add(from)
        if (/blob gas limit|remaining gas/.test((e as Error).message)) continue
        dropped.push(entry)
        this.#logger.error(`dropped transaction 0x${bytesToUnprefixedHex(entry.hash)}: ${(e as Error).message}`)
      }
    }
    const { block } = await builder.build()
    return { block, senders, results, included, dropped, consoleCalls }
  }

  #push(record: BlockRecord): void {
    this.#ring.push(record)
    this.#byHash.set(bytesToUnprefixedHex(record.hash), record)
    for (const included of record.transactions) this.#txIndex.set(bytesToUnprefixedHex(included.hash), included)
    this.#recentHashes.set(record.number, record.hash)
    this.#recentHashes.delete(record.number - 256n)
    while (this.#ring.length > this.window) {
      const old = this.#ring.shift()!
      this.#byHash.delete(bytesToUnprefixedHex(old.hash))
      for (const included of old.transactions) this.#txIndex.delete(bytesToUnprefixedHex(included.hash))
      this.#world.evict(old.number)
    }
    const oldest = this.oldest.number
    this.#preimages.sweep({ oldest, head: this.#world.head.storage, atOldest: (a, s) => this.#world.storageAt(a, s, oldest) })
  }

  #nonceOf = (sender: string): bigint => this.#world.head.account(sender)?.nonce ?? 0n

  #startTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    if (this.#mining.mode !== 'interval' || this.#closed) return
    this.#timer = setInterval(() => {
      this.mine(1n).catch((e: unknown) => this.#logger.error(`interval mining failed: ${(e as Error).message}`))
      // Node runs a longer delay than 2^31-1 ms (24.8 days) after 1 ms instead: cap it, never shorten it.
    }, Math.min(this.#mining.blockTimeMs, MAX_TIMER_MS))
    // A closing process must never wait for the next block.
    this.#timer.unref()
  }

  // --- storage inspection -------------------------------------------------------------------

  /** The non-zero slots of an account at a block of the window, each with how it was computed when the recorded preimages tell. */
  storageSlots(address: Uint8Array, record: BlockRecord): StorageSlot[] {
    const key = bytesToUnprefixedHex(address)
    return [...accountSlots(this.#world, key, record.number, this.head.number)].map(([slot, value]) => ({ slot, value, derivation: this.#preimages.derivation(key, slot) }))
  }

  /** The storage changes a block of the window made (system calls and test-control writes included). */
  blockStorageChanges(record: BlockRecord): StorageChange[] {
    return blockChanges(this.#world, record.number).map((w) => this.#named(w))
  }

  /** The storage changes an included transaction made; undefined when its block was imported rather than mined here. */
  transactionStorageChanges(included: IncludedTx): StorageChange[] | undefined {
    const record = this.blockByNumber(included.blockNumber)
    return record === undefined ? undefined : this.#writes.writesOf(record, included.index)?.map((w) => this.#named(w))
  }

  #named(write: StorageWrite): StorageChange {
    return { ...write, derivation: this.#preimages.derivation(write.address, write.slot) }
  }

  // --- time ---------------------------------------------------------------------------------

  /** Moves time forward; returns the total offset in seconds. */
  async increaseTime(seconds: bigint): Promise<bigint> {
    return this.#exclusive(async () => this.#clock.increaseTime(seconds))
  }

  /** The next block gets exactly `timestamp`. */
  async setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    await this.#exclusive(async () => this.#clock.setNextTimestamp(timestamp, this.head.block.header.timestamp))
  }

  // --- calls --------------------------------------------------------------------------------

  /** Runs a call against the state of `ref` without changing anything. */
  async call(params: CallParams, ref: BlockRef): Promise<CallResult> {
    const { execResult } = await this.#runCall(params, ref, params.gas, 'call')
    const error = execResult.exceptionError
    if (error !== undefined) throw callError(error.error, execResult.returnValue)
    return { returnValue: execResult.returnValue, gasUsed: execResult.executionGasUsed }
  }

  /** The least gas with which the call succeeds, found by binary search as geth does. */
  async estimateGas(params: CallParams, ref: BlockRef): Promise<bigint> {
    const cap = this.#callGas(params.gas)
    // Only the first run reports its console.log lines: the search's probes would repeat them.
    const { execResult: first, intrinsic } = await this.#runCall(params, ref, cap, 'estimateGas')
    const failure = first.exceptionError
    if (failure !== undefined) throw callError(failure.error, first.returnValue)
    // Nothing ran (a transfer to an account without code): the intrinsic gas is exact, as geth's plain-transfer shortcut answers.
    if (first.executionGasUsed === 0n) return intrinsic
    let lo = intrinsic + first.executionGasUsed - 1n
    let hi = cap
    // Optimistic guess: what it used plus the 63/64 reserve; most calls succeed with it.
    const guess = ((intrinsic + first.executionGasUsed + (first.gasRefund ?? 0n) + 2300n) * 64n) / 63n
    if (guess < hi) {
      const probe = await this.#runCall(params, ref, guess)
      if (probe.execResult.exceptionError === undefined) hi = guess
      else lo = guess
    }
    while (hi - lo > 1n && (hi - lo) * 1000n > hi * 15n) {
      const mid = (lo + hi) / 2n
      const probe = await this.#runCall(params, ref, mid)
      if (probe.execResult.exceptionError === undefined) hi = mid
      else lo = mid
    }
    return hi
  }

  /** The access list of a call at `ref`, found as geth's `eth_createAccessList` finds it (see `accessList.ts`). */
  async createAccessList(params: AccessListCall, ref: BlockRef): Promise<AccessListResult> {
    const { record, state } = await this.#blockAndState(ref)
    return createAccessList(params, {
      common: this.common,
      state,
      header: record.block.header,
      blockchain: this.#vm.blockchain,
      keccak: this.#keccak,
      defaultGas: this.#callGasCap(),
      // What eth_maxPriorityFeePerGas and, before London, eth_gasPrice suggest.
      suggestedTip: 1_000_000_000n,
      suggestedGasPrice: 1_000_000_000n,
    })
  }

  /**
   * EIP-1186 proof of an account and some of its 32-byte slots at `ref`: any block of the window
   * (see `WorldState.prove` for what an older block costs) or the pending block.
   */
  async proof(address: Uint8Array, slots: readonly Uint8Array[], ref: BlockRef): Promise<AccountProof> {
    const key = bytesToUnprefixedHex(address)
    const slotKeys = slots.map((slot) => bytesToUnprefixedHex(setLengthLeft(slot, 32)))
    if (ref.kind === 'tag' && ref.tag === 'pending') {
      // The pending block's trie nodes are in the shared node map until the next rebuild, which
      // only a new block or a state write (each dropping that pending block) triggers: if one came
      // in between, prove the pending block built after it.
      for (let attempt = 0; ; attempt++) {
        const { record } = await this.pendingBlock()
        const proof = this.#world.proveAtRoot(record.block.header.stateRoot, key, slotKeys)
        if (proof !== undefined) return proof
        if (attempt > 0) throw new Error('the pending state changed while it was being proven')
      }
    }
    return this.#world.prove(key, slotKeys, this.resolveBlock(ref).number)
  }

  /**
   * The gas a call runs with: what it asks for, at most the cap (geth caps with its RPC gas cap).
   * Uncapped, `gas: 2^64` on a looping contract would hold the only thread for hours; above the
   * EIP-7825 cap ethereumjs would not even build the call.
   */
  #callGas(asked: bigint | undefined): bigint {
    const cap = this.#callGasCap()
    return asked === undefined || asked > cap ? cap : asked
  }

  /** Gas of a call that names none: the block gas limit, capped as EIP-7825 (Osaka) caps a transaction (geth too). */
  #callGasCap(): bigint {
    return this.common.isActivatedEIP(7825) && this.blockGasLimit > TX_GAS_CAP ? TX_GAS_CAP : this.blockGasLimit
  }

  /** The block `ref` names and the state as of it, resolved once (`pending`: the pending block). */
  async #blockAndState(ref: BlockRef): Promise<{ record: BlockRecord; state: StateReader }> {
    if (ref.kind === 'tag' && ref.tag === 'pending') return this.pendingBlock()
    const record = this.resolveBlock(ref)
    return { record, state: this.#world.at(record.number) }
  }

  async #runCall(params: CallParams, ref: BlockRef, gas: bigint | undefined, consoleSource?: ConsoleSource) {
    const { record, state } = await this.#blockAndState(ref)
    const sm = new RingStateManager(state, { keccak: this.#keccak })
    const vm = await createVM({ common: this.common, stateManager: sm, blockchain: this.#vm.blockchain })
    const consoleCalls: ConsoleCall[] = []
    if (consoleSource !== undefined && wantsConsole(this.#reporter)) attachConsole(vm.evm, (call) => consoleCalls.push(call))
    const from = new Address(params.from ?? new Uint8Array(20))
    const gasLimit = this.#callGas(gas)
    const accessList = (params.accessList ?? []).map((item) => ({ address: bytesToHex(item.address), storageKeys: item.storageKeys.map((k) => bytesToHex(k)) }))
    const authorizationList = (params.authorizationList ?? []).map((a) => ({
      chainId: bigIntToHex(a.chainId),
      address: bytesToHex(a.address),
      nonce: bigIntToHex(a.nonce),
      yParity: bigIntToHex(a.yParity),
      r: bigIntToHex(a.r),
      s: bigIntToHex(a.s),
    }))
    const txData = {
      nonce: sm.accountRecord(bytesToUnprefixedHex(from.bytes))?.nonce ?? 0n,
      gasLimit,
      value: params.value ?? 0n,
      data: params.data ?? EMPTY,
      ...(params.to === undefined ? {} : { to: params.to }),
      // The transaction type that carries these lists, so that they count in the intrinsic gas.
      ...(authorizationList.length > 0 && this.common.isActivatedEIP(7702)
        ? { type: 4, authorizationList, accessList, chainId: this.common.chainId() }
        : accessList.length > 0 && this.common.isActivatedEIP(2930)
          ? { type: 1, accessList, chainId: this.common.chainId() }
          : {}),
    } as TypedTxData
    const intrinsicTx = createTx(txData, { common: this.common })
    const intrinsic = intrinsicTx.getIntrinsicGas()
    for (const item of accessList) {
      vm.evm.journal.addAlwaysWarmAddress(item.address.slice(2), true)
      for (const key of item.storageKeys) vm.evm.journal.addAlwaysWarmSlot(item.address.slice(2), key.slice(2), true)
    }
    for (const authorization of authorizationList) await delegate(sm, authorization, this.common.chainId())
    if (gasLimit < intrinsic) {
      throw new ExecutionFailedError(`intrinsic gas too low: gas ${gasLimit}, minimum needed ${intrinsic}`)
    }
    const header = record.block.header
    const gasPrice = params.gasPrice ?? params.maxFeePerGas ?? 0n
    // A call that pays nothing sees a base fee of 0, as in geth (its NoBaseFee rule for calls).
    const baseFee = gasPrice === 0n && header.baseFeePerGas !== undefined ? { baseFeePerGas: 0n } : {}
    const result = await vm.evm.runCall({
      caller: from,
      origin: from,
      ...(params.to === undefined ? {} : { to: new Address(params.to) }),
      value: params.value ?? 0n,
      data: params.data ?? EMPTY,
      gasLimit: gasLimit - intrinsic,
      gasPrice,
      block: createBlock({ header: { ...header.toJSON(), number: header.number, timestamp: header.timestamp, ...baseFee } }, { common: this.common, skipConsensusFormatValidation: true }),
      skipBalance: true,
    })
    if (consoleSource !== undefined) reportExecution(this.#reporter, consoleSource, consoleCalls)
    return { execResult: result.execResult, intrinsic }
  }

  // --- test control -------------------------------------------------------------------------

  async setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    await this.#modify(address, (a) => ({ ...a, balance }))
  }

  async setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    await this.#modify(address, (a) => ({ ...a, nonce }))
  }

  async setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    const codeHash = code.length === 0 ? KECCAK256_NULL : this.#keccak(code)
    await this.#modify(address, (a) => ({ ...a, codeHash, codeSize: code.length }), (c) => c.code.set(bytesToUnprefixedHex(codeHash), code))
  }

  /** Writes a 32-byte word at `slot` (the value is left-padded to 32 bytes). */
  async setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    await this.#modify(address, (a) => a, (c) => {
      c.storage.set(bytesToUnprefixedHex(address), new Map([[bytesToUnprefixedHex(setLengthLeft(slot, 32)), unpadBytes(value)]]))
    })
  }

  /** Changes the head state in place (as anvil and Hardhat do), keeping reads at older blocks right. */
  async #modify(address: Uint8Array, update: (a: AccountRecord) => AccountRecord, extra?: (c: StateChanges) => void): Promise<void> {
    await this.#exclusive(async () => {
      const key = bytesToUnprefixedHex(address)
      const changes = emptyChanges()
      changes.accounts.set(key, update(this.#world.head.account(key) ?? newAccount()))
      extra?.(changes)
      const computed = await this.#world.computeRoot(changes)
      await this.#world.commit(changes, computed, this.head.number)
      this.#pendingCache = undefined
      if (this.#mining.mode === 'auto') await this.#automine()
    })
  }

  // --- snapshots ----------------------------------------------------------------------------

  /** Takes a snapshot of the whole chain; returns its id. */
  async snapshot(): Promise<number> {
    return this.#exclusive(async () => {
      // Nothing changed since the last snapshot (a test fixture's snapshot-test-revert loop): the
      // same id names the same chain, and memory does not grow with the number of tests.
      const last = this.#snapshots.get(this.#nextSnapshotId - 1)
      if (last !== undefined && last.version === this.#version) return this.#nextSnapshotId - 1
      const id = this.#nextSnapshotId++
      this.#snapshots.set(id, {
        version: this.#version,
        world: this.#world.snapshot(),
        ring: [...this.#ring],
        pool: this.#pool.snapshot(),
        clock: this.#clock.state(),
        mining: this.#mining,
        settings: this.#settings,
        recentHashes: new Map(this.#recentHashes),
        preimages: this.#preimages.snapshot(),
      })
      return id
    }, false)
  }

  /** Puts the whole chain back as it was at snapshot `id`; false if there is no such snapshot. The snapshot stays usable. */
  async revert(id: number): Promise<boolean> {
    return this.#exclusive(async () => {
      const snapshot = this.#snapshots.get(id)
      if (snapshot === undefined) return false
      await this.#world.restore(snapshot.world)
      this.#ring = [...snapshot.ring]
      this.#byHash = new Map(this.#ring.map((r) => [bytesToUnprefixedHex(r.hash), r]))
      this.#txIndex = new Map(this.#ring.flatMap((r) => r.transactions.map((t) => [bytesToUnprefixedHex(t.hash), t] as const)))
      this.#recentHashes = new Map(snapshot.recentHashes)
      this.#preimages.restore(snapshot.preimages)
      this.#pool.restore(snapshot.pool)
      this.#clock.restore(snapshot.clock)
      this.#mining = snapshot.mining
      this.#settings = snapshot.settings
      this.#pendingCache = undefined
      this.#startTimer()
      this.#version = snapshot.version
      return true
    }, false)
  }

  // --- events and lifecycle -----------------------------------------------------------------

  on<K extends keyof ChainEvents>(event: K, listener: ChainEvents[K]): () => void {
    const set = this.#listeners[event] as Set<ChainEvents[K]>
    set.add(listener)
    return () => set.delete(listener)
  }

  /** Stops interval mining; idempotent. Pending operations finish. */
  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    await this.#queue.catch(() => {})
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Runs `fn` after every operation queued before it, alone. */
  #exclusive<T>(fn: () => Promise<T>, changes = true): Promise<T> {
    const counted = changes
      ? () => {
          this.#version++
          return fn()
        }
      : fn
    const run = this.#queue.then(counted, counted)
    this.#queue = run.catch(() => {})
    return run
  }
}

/** Applies one EIP-7702 authorization to a call's state view, as a transaction would; invalid ones are skipped. */
async function delegate(sm: RingStateManager, authorization: EOACode7702AuthorizationListItem, chainId: bigint): Promise<void> {
  const authChainId = BigInt(authorization.chainId)
  if (authChainId !== 0n && authChainId !== chainId) return
  let authority: Address
  try {
    authority = eoaCode7702RecoverAuthority(authorization)
  } catch {
    return
  }
  const account = (await sm.getAccount(authority)) ?? new Account()
  if (account.nonce !== BigInt(authorization.nonce)) return
  const target = hexToBytes(authorization.address as `0x${string}`)
  await sm.putCode(authority, equalsBytes(target, new Uint8Array(20)) ? EMPTY : concatBytes(hexToBytes('0xef0100'), target))
  const updated = (await sm.getAccount(authority)) ?? new Account()
  updated.nonce = account.nonce + 1n
  await sm.putAccount(authority, updated)
}

/** Funds nothing, but puts the system contracts a fork needs at genesis, as geth's dev genesis does. */
function addSystemContracts(alloc: StateChanges, common: Common): void {
  for (const contract of SYSTEM_CONTRACTS) {
    if (!common.gteHardfork(contract.fork)) continue
    const code = hexToBytes(contract.code as `0x${string}`)
    const codeHash = keccak_256(code)
    alloc.code.set(bytesToUnprefixedHex(codeHash), code)
    alloc.accounts.set(contract.address.slice(2), { ...newAccount({ nonce: 1n }), codeHash, codeSize: code.length })
  }
}

function callError(error: string, returnValue: Uint8Array): Error {
  if (error === 'revert') return new ExecutionRevertedError(returnValue, describeRevert(returnValue))
  return new ExecutionFailedError(error)
}
