/**
 * Block production: the VM blocks are mined on, the mining mode and its interval timer, what the
 * next blocks are built with, and the pending block.
 *
 * Owns: building a block from pool candidates (skipping those that cannot run now), committing its
 * state, pushing it into the window, automining, and the pending block (built on a scratch VM,
 * kept until the head or the pool changes).
 * Leaves to others: running one operation at a time and telling listeners (`chain.ts`), which
 * transactions the pool offers (`pool.ts`), the window's indexes (`window.ts`), the state (`state.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { Address, hexToBytes } from '@ethereumjs/util'
import type { EVM } from '@ethereumjs/evm'
import { createVM, type BuildBlockOpts, type RunTxResult, type VM } from '@ethereumjs/vm'
import { startBlock } from './builder.js'
import type { Clock } from './clock.js'
import type { TxPool } from './pool.js'
import { PreimageStore } from './preimages.js'
import { minedBlockRecord } from './minedRecord.js'
import type { StateReader, WorldState } from './state.js'
import { ForkSourceError } from './fork/source.js'
import { RingStateManager } from './stateManager.js'
import { StorageWriteRecorder } from './storageChanges.js'
import { answerIdleRequestCalls, requestQueuesIdle } from './systemContracts.js'
import type { BlockRecord, MiningMode, PendingTx } from './types.js'
import { upfrontCost } from './validate.js'
import type { BlockWindow } from './window.js'
import { attachConsole, type ConsoleCall } from './console/attach.js'
import { reportExecution, wantsConsole, type ExecutionReporter } from './console/report.js'
import { keyOf } from './encoding.js'
import { installFastInterpreter } from './execution/fastInterpreter.js'

/** What the blocks to come are built with. Test controls change it; a snapshot keeps it. */
export interface BlockSettings {
  /** Gas limit of every block from the next one on. */
  readonly gasLimit: bigint
  /** Fee recipient of every block from the next one on. */
  readonly coinbase: Uint8Array
  /** Base fee of the next block only, in place of the one its parent implies (anvil_setNextBlockBaseFeePerGas). */
  readonly nextBaseFee: bigint | undefined
}

/** What a snapshot of the miner keeps. */
export interface MinerState {
  readonly mining: MiningMode
  readonly settings: BlockSettings
}

/** The VM blocks are mined on, its journal over the head state, and what it records for storage inspection. */
export interface MiningVM {
  readonly vm: VM
  readonly sm: RingStateManager
  readonly preimages: PreimageStore
  readonly writes: StorageWriteRecorder
  /** Whether the request contracts' queues are idle in the block being built (see `systemContracts.ts`). */
  readonly requestQueuesIdle: () => boolean
}

const ZERO32 = new Uint8Array(32)
const MAYBE_NONZERO = new Uint8Array([1])
/** The longest delay a Node timer takes as it is. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Creates the mining VM; BLOCKHASH reads the window's recent hashes. */
export async function createMiningVM(
  common: Common,
  world: WorldState,
  window: BlockWindow,
  keccak: (data: Uint8Array) => Uint8Array,
  /** A forked chain's hashes of the upstream's blocks before the window. */
  olderHash?: (number: bigint) => Promise<Uint8Array | undefined>,
): Promise<MiningVM> {
  const sm = new RingStateManager(world.head, { keccak, computeRoot: (c) => world.computeRoot(c) })
  const blockchain = {
    getBlock: async (number: number) => {
      const hash = window.recentHash(BigInt(number)) ?? (await olderHash?.(BigInt(number)))
      return { hash: () => hash ?? ZERO32 }
    },
    putBlock: async () => {},
    shallowCopy() {
      return this
    },
  }
  // The mining VM records what KECCAK256 hashes and what SSTORE writes (storage inspection); calls run without.
  const preimages = new PreimageStore()
  const writes = new StorageWriteRecorder(
    (address, slot) => sm.storageValue(address, slot),
    (address, slot) => sm.load(address, slot),
  )
  const customOpcodes = [preimages.opcode(common), writes.opcode(common)]
  const vm = await createVM({ common, stateManager: sm, blockchain: blockchain as never, evmOpts: { customOpcodes } })
  await installFastInterpreter(vm.evm as EVM)
  answerIdleRequestCalls(vm.evm, sm, keccak)
  return { vm, sm, preimages, writes, requestQueuesIdle: requestQueuesIdle(sm, keccak) }
}

export class Miner {
  readonly #common: Common
  readonly #world: WorldState
  readonly #pool: TxPool
  readonly #window: BlockWindow
  readonly #clock: Clock
  readonly #vm: VM
  readonly #sm: RingStateManager
  readonly #preimages: PreimageStore
  readonly #writes: StorageWriteRecorder
  readonly #requestQueuesIdle: () => boolean
  readonly #keccak: (data: Uint8Array) => Uint8Array
  readonly #logger: { error(message: string): void }
  /** Where console.log lines and mined failures go. */
  readonly #reporter: ExecutionReporter
  /** The console.log calls of the transaction being mined (filled by the mining VM's hook, when anyone listens). */
  readonly #consoleCalls: ConsoleCall[] = []
  /** Called with each block mined. */
  readonly #onBlock: (record: BlockRecord) => void
  /** Mines one block the way the chain's callers do (one operation at a time): the interval timer's tick. */
  readonly #tick: () => Promise<unknown>
  #settings: BlockSettings
  #mining: MiningMode
  #timer: NodeJS.Timeout | undefined
  #stopped = false
  #pendingCache: { head: Uint8Array; record: BlockRecord; state: StateReader } | undefined
  #baseFeeCache: { head: BlockRecord; fee: bigint } | undefined
  #excessBlobGasCache: { head: BlockRecord; gas: bigint } | undefined

  constructor(parts: {
    common: Common
    world: WorldState
    pool: TxPool
    window: BlockWindow
    clock: Clock
    mining: MiningVM
    keccak: (data: Uint8Array) => Uint8Array
    logger: { error(message: string): void }
    reporter: ExecutionReporter
    settings: BlockSettings
    mode: MiningMode
    onBlock: (record: BlockRecord) => void
    tick: () => Promise<unknown>
  }) {
    this.#common = parts.common
    this.#world = parts.world
    this.#pool = parts.pool
    this.#window = parts.window
    this.#clock = parts.clock
    this.#vm = parts.mining.vm
    this.#sm = parts.mining.sm
    this.#preimages = parts.mining.preimages
    this.#writes = parts.mining.writes
    this.#requestQueuesIdle = parts.mining.requestQueuesIdle
    this.#keccak = parts.keccak
    this.#logger = parts.logger
    this.#reporter = parts.reporter
    if (wantsConsole(parts.reporter)) attachConsole(this.#vm.evm, (call) => this.#consoleCalls.push(call))
    this.#settings = parts.settings
    this.#mining = parts.mode
    this.#onBlock = parts.onBlock
    this.#tick = parts.tick
  }

  get settings(): BlockSettings {
    return this.#settings
  }

  /** Changes what the blocks to come are built with (checked by the caller). */
  changeSettings(changes: Partial<BlockSettings>): void {
    this.#settings = { ...this.#settings, ...changes }
    this.#pendingCache = undefined
  }

  get mode(): MiningMode {
    return this.#mining
  }

  /** Switches the mining mode and (re)starts or stops the interval timer; the caller automines. */
  setMode(mode: MiningMode): void {
    this.#mining = mode
    this.startTimer()
  }

  /** Base fee of the next block (undefined before London). */
  nextBaseFee(): bigint | undefined {
    if (!this.#common.isActivatedEIP(1559)) return undefined
    return this.#settings.nextBaseFee ?? this.#impliedBaseFee()
  }

  /** The base fee the head implies for its child, worked out once per head (a send asks three times). */
  #impliedBaseFee(): bigint {
    const head = this.#window.head
    const cached = this.#baseFeeCache
    if (cached?.head === head) return cached.fee
    const fee = head.block.header.calcNextBaseFee()
    this.#baseFeeCache = { head, fee }
    return fee
  }

  /** The excess blob gas of the head's child (EIP-4844), worked out once per head. */
  #nextExcessBlobGas(): bigint {
    const head = this.#window.head
    const cached = this.#excessBlobGasCache
    if (cached?.head === head) return cached.gas
    const gas = head.block.header.calcNextExcessBlobGas(this.#common)
    this.#excessBlobGasCache = { head, gas }
    return gas
  }

  /** Mines `count` blocks from the pool; returns the last `window` of them. */
  async mine(count: bigint, interval?: bigint): Promise<BlockRecord[]> {
    const mined: BlockRecord[] = []
    for (let i = 0n; i < count; i++) {
      const record = await this.#mineBlock(this.#pool.ordered(this.#nonceOf, this.nextBaseFee()), interval)
      // Only the last `window` blocks can be kept anyway: don't hold more in memory.
      mined.push(record)
      if (mined.length > this.#window.size) mined.shift()
    }
    return mined
  }

  /** Mines one block per executable transaction, in pool order, until none is left that can be included. */
  async automine(): Promise<void> {
    for (;;) {
      const next = this.#pool.ordered(this.#nonceOf, this.nextBaseFee())[0]
      if (next === undefined) return
      const before = this.#pool.size
      await this.#mineBlock([next])
      if (this.#pool.size === before) return // it could not be included: leave it pending
    }
  }

  /**
   * Mines one block of `candidates` alone (those that can run now), whatever the pool holds: a
   * reorg's replacement block. `extraData` sets it apart from the block it replaces.
   */
  async mineReplacement(candidates: readonly PendingTx[], extraData: Uint8Array): Promise<BlockRecord> {
    return this.#mineBlock(candidates, undefined, extraData)
  }

  /** The pending block built for the current head, if it is still valid. */
  cachedPending(): { record: BlockRecord; state: StateReader } | undefined {
    const cached = this.#pendingCache
    return cached !== undefined && cached.head === this.#window.head.hash ? cached : undefined
  }

  /** Builds the block the pool would make now on top of the head, on a scratch VM, and keeps it. */
  async buildPending(): Promise<{ record: BlockRecord; state: StateReader }> {
    const head = this.#window.head
    const sm = new RingStateManager(this.#world.head, { keccak: this.#keccak, computeRoot: (c) => this.#world.computeRoot(c) })
    const vm = await createVM({ common: this.#common, stateManager: sm, blockchain: this.#vm.blockchain })
    await installFastInterpreter(vm.evm as EVM)
    const txs = this.#pool.ordered(this.#nonceOf, this.nextBaseFee())
    const idle = requestQueuesIdle(sm, this.#keccak)
    const { block, senders, results } = await this.#build({ vm, sm, requestQueuesIdle: idle }, txs, this.#clock.peek(head.block.header.timestamp))
    const record = minedBlockRecord(block, senders, results)
    const state: StateReader = {
      account: (a) => sm.accountRecord(a),
      storage: (a, s) => sm.storageValue(a, s),
      code: (h) => sm.codeOf(hexToBytes(`0x${h}`)),
      load: (a, s) => sm.load(a, s),
    }
    const built = { head: this.#window.head.hash, record, state }
    this.#pendingCache = built
    return built
  }

  /** Forgets the pending block: the pool, the head state or the settings changed. */
  dropPending(): void {
    this.#pendingCache = undefined
  }

  /** Makes `record` the head of the window (mined here, or given at assembly). */
  push(record: BlockRecord): void {
    this.#window.push(record)
    const oldest = this.#window.oldest.number
    // A forked chain's slot not fetched yet may be non-zero: its name is kept.
    const world = this.#world
    this.#preimages.sweep({
      oldest,
      head: (a, s) => (world.holds(a, s) ? world.head.storage(a, s) : MAYBE_NONZERO),
      atOldest: (a, s) => (world.holds(a, s) ? world.storageAt(a, s, oldest) : MAYBE_NONZERO),
    })
  }

  state(): MinerState {
    return { mining: this.#mining, settings: this.#settings }
  }

  restore(state: MinerState): void {
    this.#mining = state.mining
    this.#settings = state.settings
    this.#pendingCache = undefined
    this.startTimer()
  }

  /** Starts the interval timer if the mode asks for one (stopping any running one first). */
  startTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    if (this.#mining.mode !== 'interval' || this.#stopped) return
    this.#timer = setInterval(() => {
      this.#tick().catch((e: unknown) => this.#logger.error(`interval mining failed: ${(e as Error).message}`))
      // Node runs a longer delay than 2^31-1 ms (24.8 days) after 1 ms instead: cap it, never shorten it.
    }, Math.min(this.#mining.blockTimeMs, MAX_TIMER_MS))
    // A closing process must never wait for the next block.
    this.#timer.unref()
  }

  /** Stops the interval timer for good; idempotent. */
  stop(): void {
    this.#stopped = true
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
  }

  async #mineBlock(candidates: readonly PendingTx[], interval?: bigint, extraData?: Uint8Array): Promise<BlockRecord> {
    const timestamp = this.#clock.next(this.#window.head.block.header.timestamp, interval)
    this.#sm.reset(this.#world.head)
    this.#preimages.discard()
    this.#writes.discard()
    const { block, senders, results, included, dropped, consoleCalls } = await this.#build({ vm: this.#vm, sm: this.#sm, requestQueuesIdle: this.#requestQueuesIdle, writes: this.#writes }, candidates, timestamp, extraData)
    // A base fee set for the next block was that block's alone.
    if (this.#settings.nextBaseFee !== undefined) this.#settings = { ...this.#settings, nextBaseFee: undefined }
    const computed = await this.#sm.computeRoot()
    await this.#world.commit(this.#sm.changes, computed, block.header.number)
    this.#preimages.commit(block.header.number, this.#world.changedSlots(block.header.number))
    this.#sm.reset()
    for (const entry of [...included, ...dropped]) this.#pool.remove(keyOf(entry.hash))
    const record = minedBlockRecord(block, senders, results)
    this.#writes.finishBlock(record)
    this.push(record)
    this.#pool.prune(this.#nonceOf)
    this.#pendingCache = undefined
    for (const [i, result] of results.entries()) reportExecution(this.#reporter, included[i]!.hash, consoleCalls[i]!, { blockNumber: record.number, result })
    this.#onBlock(record)
    return record
  }

  /** Runs `candidates` into a new block on `vm`; skips those that cannot run now. The mining VM's `writes` records each transaction's. */
  async #build(on: Pick<MiningVM, 'vm' | 'sm' | 'requestQueuesIdle'> & { writes?: StorageWriteRecorder }, candidates: readonly PendingTx[], timestamp: bigint, extraData?: Uint8Array) {
    const { vm, sm } = on
    const parent = this.#window.head.block
    const common = this.#common
    // Fields set one by one: a literal with a conditional spread takes V8's slow path (see `leanEvm.ts`).
    const headerData: Record<string, unknown> = {
      number: parent.header.number + 1n,
      timestamp,
      gasLimit: this.#settings.gasLimit,
      coinbase: new Address(this.#settings.coinbase),
    }
    if (extraData !== undefined) headerData.extraData = extraData
    const baseFee = this.nextBaseFee()
    // The base fee the parent implies, unless the block is London's first (ethereumjs gives that one its initial base fee).
    if (baseFee !== undefined && (this.#settings.nextBaseFee !== undefined || headerData.number !== common.hardforkBlock('london'))) headerData.baseFeePerGas = baseFee
    if (common.consensusType() === 'pos') headerData.mixHash = this.#keccak(parent.hash())
    else headerData.difficulty = parent.header.difficulty
    if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = ZERO32
    if (common.isActivatedEIP(4844)) headerData.excessBlobGas = this.#nextExcessBlobGas()
    const opts: BuildBlockOpts = { parentBlock: parent, headerData, blockOpts: { putBlockIntoBlockchain: false, common } }
    if (common.isActivatedEIP(4895)) opts.withdrawals = []
    const builder = await startBlock(vm, opts, on.requestQueuesIdle)
    const senders: Uint8Array[] = []
    const results: RunTxResult[] = []
    const included: PendingTx[] = []
    const dropped: PendingTx[] = []
    // Per included transaction, the console.log calls it made (only the mining VM records any).
    const consoleCalls: ConsoleCall[][] = []
    const blocked = new Set<string>()
    for (const entry of candidates) {
      const from = keyOf(entry.from)
      if (blocked.has(from)) continue
      const tx = entry.tx
      const loading = sm.load(from)
      if (loading !== undefined) await loading
      const account = sm.accountRecord(from)
      const skip =
        tx.gasLimit > this.#settings.gasLimit - builder.gasUsed ||
        (account?.nonce ?? 0n) !== tx.nonce ||
        (baseFee !== undefined && ('maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice) < baseFee) ||
        (account?.balance ?? 0n) < upfrontCost(tx)
      if (skip) {
        // A sender's later nonces cannot run before this one.
        blocked.add(from)
        continue
      }
      try {
        on.writes?.beginTransaction()
        const result = await builder.addTransaction(tx, { skipHardForkValidation: true })
        on.writes?.endTransaction(entry.hash)
        results.push(result)
        senders.push(entry.from)
        included.push(entry)
        consoleCalls.push(this.#consoleCalls.splice(0))
      } catch (e) {
        this.#consoleCalls.length = 0
        // The upstream of a forked chain failing says nothing about the transaction: the block fails, the transaction stays pending.
        if (e instanceof ForkSourceError) throw e
        blocked.add(from)
        if (/blob gas limit|remaining gas/.test((e as Error).message)) continue
        dropped.push(entry)
        this.#logger.error(`dropped transaction 0x${keyOf(entry.hash)}: ${(e as Error).message}`)
      }
    }
    const { block } = await builder.build()
    return { block, senders, results, included, dropped, consoleCalls }
  }

  #nonceOf = (sender: string): bigint => this.#world.head.account(sender)?.nonce ?? 0n
}
