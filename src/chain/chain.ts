/**
 * The simulated chain: the one object that ties the window, the pool, the miner, the queries, the
 * controls and the snapshots together, and runs every operation that changes the chain one at a time.
 *
 * Owns: the order of operations (`#exclusive`: every change runs alone; reads are synchronous and
 * see either the chain before or after a block, never half of one), events, lifecycle, and
 * assembling the parts at creation.
 * Leaves to others: block production and the pending block (`miner.ts`), the pool's use
 * (`transactions.ts`), block references, state views, proofs and storage inspection (`queries.ts`),
 * calls, estimates and access lists (`execution/runner.ts`), the
 * ring (`window.ts`), test-control writes (`controls.ts`), snapshots (`snapshots.ts`), state storage
 * and history (`state.ts`), and all of JSON-RPC (`src/rpc/`).
 */
import type { Common } from '@ethereumjs/common'
import type { CallOverrides } from './overrides.js'
import { StateNotLoadedError, readLoaded } from './fork/loadedKeys.js'
import { loadKeys } from './fork/lazyState.js'
import type { ForkPoint } from './fork/source.js'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToUnprefixedHex, type Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { AccessListCall, AccessListResult } from './accessList.js'
import type { Clock } from './clock.js'
import { checkBlockSettings, checkMiningMode, codeEdit, editHead, storageEdit, type AccountEdit } from './controls.js'
import { InvalidInputError } from './errors.js'
import { ChainListeners, type ChainEvents } from './events.js'
import type { CallParams, CallResult } from './execution/params.js'
import { CallRunner } from './execution/runner.js'
import { exportHeadState, loadHeadState, type HeadStateParts } from './headState.js'
import type { ChainState } from './dumpState.js'
import type { DevAccount } from './accounts.js'
import { CHAIN_DEFAULTS } from './defaults.js'
import { createDevGenesis, type ChainOptions } from './genesis.js'
import type { GenesisFacts } from './forkConfig.js'
import { Miner, createMiningVM, type BlockSettings, type MiningVM } from './miner.js'
import { TxPool } from './pool.js'
import type { AccountProof } from './proofs.js'
import { ChainQueries, type StorageChange, type StorageSlot } from './queries.js'
import { checkReorg, runReorg, type ReorgOutcome, type ReorgSpec } from './reorg/reorg.js'
import { ScheduledReorgs, type ReorgSchedule } from './reorg/schedule.js'
import { simulate } from './simulate/simulator.js'
import type { SimulatedBlock, SimulationSpec } from './simulate/types.js'
import { Snapshots } from './snapshots.js'
import { WorldState, type StateReader } from './state.js'
import { PendingTransactions } from './transactions.js'
import type { BlockRecord, BlockRef, IncludedTx, MiningMode, PendingTx, TxLookup } from './types.js'
import { BlockWindow } from './window.js'
import { keccakOf } from './crypto.js'

export type { ChainEvents } from './events.js'
export type { ChainOptions } from './genesis.js'
export type { BlockSettings } from './miner.js'
export type { StorageChange, StorageSlot } from './queries.js'

export type { CallParams, CallResult } from './execution/params.js'
export type { ReorgOutcome, ReorgSpec, ReorgTransaction } from './reorg/reorg.js'
export type { ReorgSchedule } from './reorg/schedule.js'

/** How a send is mined in automine mode. */
export interface AddOptions {
  /**
   * `now` (default): the send resolves once its block is mined. `next-turn`: it resolves once the
   * transaction is pooled, and the block is mined on the event loop's next turn, or sooner when
   * `settled()` is asked; a served send is answered while it is mined.
   */
  readonly automine?: 'now' | 'next-turn'
}

export class Chain {
  readonly common: Common
  readonly accounts: readonly DevAccount[]
  readonly window: number
  readonly safeLag: number
  readonly finalizedLag: number
  /** The genesis block's hash and time (fork ids start from them), kept after genesis leaves the window. */
  readonly genesis: GenesisFacts
  /** Where this chain was forked from, when it was: blocks up to `fork.blockNumber` are the upstream's. */
  readonly fork: ForkPoint | undefined
  readonly #world: WorldState
  readonly #pool = new TxPool()
  readonly #clock: Clock
  /** The mining VM: calls share its blockchain (BLOCKHASH). */
  readonly #vm: VM
  /** Runs calls, estimates and access-list searches on one EVM of their own. */
  readonly #calls: CallRunner
  readonly #keccak: (data: Uint8Array) => Uint8Array
  readonly #window: BlockWindow
  readonly #miner: Miner
  readonly #transactions: PendingTransactions
  readonly #queries: ChainQueries
  readonly #snapshots: Snapshots
  #queue: Promise<unknown> = Promise.resolve()
  /** Counts operations that may change the chain, so that an unchanged chain is not snapshotted twice. */
  #version = 0
  readonly #listeners = new ChainListeners()
  #closed = false
  /** Reorgs so far: the new blocks' extra data counts them, so that no two replacements share a hash. */
  #reorgs = 0
  #schedule: ScheduledReorgs | undefined
  readonly #logError: (message: string) => void
  /** The automine a send put off to the next turn (see `#automineNextTurn`), until it has run. */
  #dueAutomine: Promise<void> | undefined
  /** Starts that automine now rather than on the next turn. */
  #startDueAutomine: (() => void) | undefined

  private constructor(init: {
    common: Common
    accounts: DevAccount[]
    world: WorldState
    clock: Clock
    window: BlockWindow
    mining: MiningVM
    options: ChainOptions
    genesis: GenesisFacts
    fork?: ForkPoint
  }) {
    const o = init.options
    this.fork = init.fork
    this.common = init.common
    this.accounts = init.accounts
    this.genesis = init.genesis
    this.#world = init.world
    this.#clock = init.clock
    this.#window = init.window
    this.#vm = init.mining.vm
    this.window = init.window.size
    this.safeLag = o.safeLag ?? CHAIN_DEFAULTS.safeLag
    this.finalizedLag = o.finalizedLag ?? CHAIN_DEFAULTS.finalizedLag
    this.#keccak = keccakOf(init.common)
    const reporter = { onConsole: o.onConsole, info: o.logger?.info?.bind(o.logger) }
    const parts = { common: this.common, world: this.#world, pool: this.#pool, window: this.#window }
    this.#miner = new Miner({
      ...parts,
      clock: this.#clock,
      mining: init.mining,
      keccak: this.#keccak,
      logger: o.logger ?? { error: (m) => process.stderr.write(`ringchain: ${m}\n`) },
      reporter,
      settings: { gasLimit: o.blockGasLimit ?? CHAIN_DEFAULTS.blockGasLimit, coinbase: o.coinbase ?? new Uint8Array(20), nextBaseFee: undefined },
      mode: o.mining ?? { mode: 'auto' },
      onBlock: (record) => this.#listeners.emit('block', record),
      tick: () => this.mine(1n),
    })
    this.#transactions = new PendingTransactions({ ...parts, miner: this.#miner })
    this.#queries = new ChainQueries({
      ...parts,
      preimages: init.mining.preimages,
      writes: init.mining.writes,
      safeLag: this.safeLag,
      finalizedLag: this.finalizedLag,
      pendingBlock: () => this.pendingBlock(),
    })
    this.#calls = new CallRunner({
      ...parts,
      blockchain: this.#vm.blockchain,
      keccak: this.#keccak,
      reporter,
      queries: this.#queries,
      pendingBlock: () => this.pendingBlock(),
      blockGasLimit: () => this.blockGasLimit,
    })
    this.#logError = (m) => (o.logger ?? { error: (line: string) => process.stderr.write(`ringchain: ${line}\n`) }).error(m)
    if (o.reorgs !== undefined) this.setReorgSchedule(o.reorgs)
    this.#snapshots = new Snapshots({ ...parts, clock: this.#clock, miner: this.#miner, preimages: init.mining.preimages })
  }

  /** Creates a dev chain: genesis with funded dev accounts and the system contracts its fork needs. */
  static async create(options: ChainOptions = {}): Promise<Chain> {
    return Chain.assemble({ ...(await createDevGenesis(options)), options })
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
    /** A forked chain's fork point (its first block is the upstream's), and BLOCKHASH of the upstream's blocks before it. */
    fork?: ForkPoint
    olderHash?: (number: bigint) => Promise<Uint8Array | undefined>
  }): Promise<Chain> {
    const { common, world, options } = init
    const window = new BlockWindow(options.window ?? CHAIN_DEFAULTS.window, (old) => world.evict(old.number))
    const mining = await createMiningVM(common, world, window, keccakOf(common), init.olderHash)
    const first = init.genesis ?? init.blocks[0]!
    const genesis = { hash: first.hash, timestamp: first.block.header.timestamp }
    const chain = new Chain({ ...init, window, mining, genesis })
    for (const record of init.blocks) chain.#miner.push(record)
    chain.#miner.startTimer()
    return chain
  }

  // --- queries (queries.ts) -----------------------------------------------------------------

  get head(): BlockRecord {
    return this.#window.head
  }

  /** The oldest block still in the window. */
  get oldest(): BlockRecord {
    return this.#window.oldest
  }

  blockByNumber(number: bigint): BlockRecord | undefined {
    return this.#window.byNumber(number)
  }

  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    return this.#window.byHash(bytesToUnprefixedHex(hash))
  }

  /** Number of the block a tag names (`pending` names the head here; see `pendingBlock`). */
  tagNumber(tag: 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'): bigint {
    return this.#queries.tagNumber(tag)
  }

  /**
   * The block a reference names. A number before the window: `BlockOutOfWindowError`; after the
   * head: `FutureBlockError`; an unknown hash: `UnknownBlockError`.
   */
  resolveBlock(ref: BlockRef): BlockRecord {
    return this.#queries.resolveBlock(ref)
  }

  /** The state as of a block reference; `pending` is the head plus the executable pool transactions. */
  stateAt(ref: BlockRef): Promise<StateReader> {
    return this.#queries.stateAt(ref)
  }

  /** Synchronous state view for references other than `pending`. */
  stateAtBlock(record: BlockRecord): StateReader {
    return this.#queries.stateAtBlock(record)
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
    return this.#calls.gasCap()
  }

  /** A transaction by hash: pending, included in a block of the window, or unknown (undefined). */
  lookupTransaction(hash: Uint8Array): TxLookup | undefined {
    return this.#queries.lookupTransaction(hash)
  }

  /**
   * On a forked chain, fetches an account (and slots) from the upstream unless the chain holds
   * them already; undefined when there is nothing to wait for. State reads (`stateAt`) of what is
   * not held throw `StateNotLoadedError`: call this first (or retry with `readLoaded`).
   */
  load(address: Uint8Array, slots: readonly Uint8Array[] = []): Promise<void> | undefined {
    return this.fork === undefined ? undefined : loadKeys(this.#world, address, slots)
  }

  /** The non-zero slots of an account at a block of the window, each with how it was computed when the recorded preimages tell. */
  storageSlots(address: Uint8Array, record: BlockRecord): StorageSlot[] {
    return this.#queries.storageSlots(address, record)
  }

  /** The storage changes a block of the window made (system calls and test-control writes included). */
  blockStorageChanges(record: BlockRecord): StorageChange[] {
    return this.#queries.blockStorageChanges(record)
  }

  /** The storage changes an included transaction made; undefined when its block was imported rather than mined here. */
  transactionStorageChanges(included: IncludedTx): StorageChange[] | undefined {
    return this.#queries.transactionStorageChanges(included)
  }

  // --- the pool (transactions.ts) -----------------------------------------------------------

  /**
   * Decodes, validates and pools a signed raw transaction; mines it in automine mode, at once or,
   * with `automine: 'next-turn'`, just after (see `AddOptions`).
   * `signer`: the public key that signed `raw`, when the node signed it itself (see `decode`).
   */
  async sendRawTransaction(raw: Uint8Array, signer?: Uint8Array, options?: AddOptions): Promise<Uint8Array> {
    return this.addTransaction(this.#transactions.decode(raw, signer), undefined, options)
  }

  /** Pools a decoded transaction (signed, or with an impersonated sender); mines it as `sendRawTransaction` does. */
  async addTransaction(tx: TypedTransaction, sender?: Address, options?: AddOptions): Promise<Uint8Array> {
    return this.#exclusive(async () => {
      const entry = this.fork === undefined ? this.#transactions.admit(tx, sender) : await readLoaded(() => this.#transactions.admit(tx, sender))
      this.#miner.dropPending()
      this.#listeners.emit('pending', entry)
      if (options?.automine === 'next-turn' && this.#miner.mode.mode === 'auto') this.#automineNextTurn()
      else await this.#automine()
      return entry.hash
    })
  }

  /**
   * Resolves once every automine a send put off to the next turn has run (at once, if one has yet
   * to start); undefined when none is due. Whatever reads the chain for a client waits for it
   * first (`Chains.chainFor`), so no answer shows a sent transaction still pending.
   */
  settled(): Promise<void> | undefined {
    this.#startDueAutomine?.()
    return this.#dueAutomine
  }

  /**
   * Queues an automine that starts on the event loop's next turn (or when `settled()` asks for it
   * sooner): the caller answers the send first, and a client in another process prepares its next
   * request while the block is mined. A failure leaves the transactions pending, as mining does.
   */
  #automineNextTurn(): void {
    const turn = new Promise<void>((resolve) => {
      const immediate = setImmediate(resolve)
      this.#startDueAutomine = () => {
        clearImmediate(immediate)
        resolve()
      }
    })
    const due: Promise<void> = this.#exclusive(async () => {
      await turn
      await this.#automine()
    })
      .catch((e: unknown) => this.#logError(`automine failed: ${(e as Error).message}`))
      .finally(() => {
        if (this.#dueAutomine !== due) return
        this.#dueAutomine = undefined
        this.#startDueAutomine = undefined
      })
    this.#dueAutomine = due
  }

  /** Removes a pending transaction; true if it was pending. */
  async dropTransaction(hash: Uint8Array): Promise<boolean> {
    return this.#exclusive(async () => {
      this.#miner.dropPending()
      return this.#transactions.drop(hash)
    })
  }

  /** The pool, split into executable and queued transactions per sender. */
  poolContent(): { executable: Map<string, PendingTx[]>; queued: Map<string, PendingTx[]> } {
    return this.#transactions.content()
  }

  /** The nonce the next transaction of `address` should carry, counting its executable pool transactions. */
  pendingNonce(address: Uint8Array): bigint {
    return this.#transactions.pendingNonce(address)
  }

  // --- mining (miner.ts) --------------------------------------------------------------------

  /** Base fee of the next block (undefined before London). */
  nextBaseFee(): bigint | undefined {
    return this.#miner.nextBaseFee()
  }

  /** Gas limit of the blocks to come. */
  get blockGasLimit(): bigint {
    return this.#miner.settings.gasLimit
  }

  get blockSettings(): BlockSettings {
    return this.#miner.settings
  }

  get miningMode(): MiningMode {
    return this.#miner.mode
  }

  async setMiningMode(mode: MiningMode): Promise<void> {
    checkMiningMode(mode)
    await this.#exclusive(async () => {
      this.#miner.setMode(mode)
      await this.#automine()
    })
  }

  /**
   * Mines `count` blocks; the first takes the executable pool transactions that fit, and so does
   * each next one while any are left. `interval` spaces the timestamps by that many seconds.
   */
  async mine(count = 1n, interval?: bigint): Promise<BlockRecord[]> {
    if (count < 0n) throw new InvalidInputError('block count cannot be negative')
    return this.#exclusive(() => this.#miner.mine(count, interval))
  }

  /**
   * The block the pool would make now, on top of the head (not part of the chain), with its state.
   * Built once and kept until the head or the pool changes.
   */
  async pendingBlock(): Promise<{ record: BlockRecord; state: StateReader }> {
    return this.#miner.cachedPending() ?? this.#exclusive(() => this.#miner.buildPending(), false)
  }

  /** In automine mode, mines what the pool holds now. */
  async #automine(): Promise<void> {
    if (this.#miner.mode.mode === 'auto') await this.#miner.automine()
  }

  // --- calls (execution/runner.ts) ---------------------------------------------------------

  /** Runs a call against the state of `ref` without changing anything. */
  async call(params: CallParams, ref: BlockRef, overrides?: CallOverrides): Promise<CallResult> {
    return this.#calls.call(params, ref, overrides)
  }

  /** The least gas with which the call succeeds (see `execution/estimate.ts`). */
  async estimateGas(params: CallParams, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
    return this.#calls.estimateGas(params, ref, overrides)
  }

  /** The access list of a call at `ref`, found as geth's `eth_createAccessList` finds it (see `accessList.ts`). */
  async createAccessList(params: AccessListCall, ref: BlockRef): Promise<AccessListResult> {
    return this.#calls.createAccessList(params, ref)
  }

  /** Runs `eth_simulateV1`'s blocks of calls on top of `ref` (see `simulate/simulator.ts`); changes nothing. */
  async simulate(spec: SimulationSpec, ref: BlockRef): Promise<SimulatedBlock[]> {
    // Alone, so that the head it reads stays the head while it runs (the state roots need it).
    return this.#exclusive(async () => {
      const parent = this.resolveBlock(ref)
      const computeRoot = parent.hash === this.head.hash ? (changes: Parameters<WorldState['computeRoot']>[0]) => this.#world.computeRoot(changes) : undefined
      const recentHash = (n: bigint) => (n <= parent.number ? this.#window.recentHash(n) : undefined)
      return simulate({ common: this.common, keccak: this.#keccak, parent, state: this.stateAtBlock(parent), computeRoot, recentHash }, spec)
    }, false)
  }

  /** EIP-1186 proof of an account and some of its 32-byte slots at `ref` (see `queries.ts`). */
  async proof(address: Uint8Array, slots: readonly Uint8Array[], ref: BlockRef): Promise<AccountProof> {
    return this.#queries.proof(address, slots, ref)
  }

  // --- controls (controls.ts) ---------------------------------------------------------------

  async setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    await this.#edit(address, { update: (a) => ({ ...a, balance }) })
  }

  async setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    await this.#edit(address, { update: (a) => ({ ...a, nonce }) })
  }

  async setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    await this.#edit(address, codeEdit(code, this.#keccak))
  }

  /** Writes a 32-byte word at `slot` (the value is left-padded to 32 bytes). */
  async setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    await this.#edit(address, storageEdit(address, slot, value))
  }

  /** Changes the head state in place (as anvil and Hardhat do), keeping reads at older blocks right. */
  async #edit(address: Uint8Array, edit: AccountEdit): Promise<void> {
    await this.#exclusive(async () => {
      await this.load(address, edit.slot === undefined ? [] : [edit.slot])
      await editHead(this.#world, this.head.number, address, edit)
      this.#miner.dropPending()
      await this.#automine()
    })
  }

  /**
   * Changes what the blocks to come are built with (anvil's `evm_setBlockGasLimit`, `anvil_setCoinbase`,
   * `anvil_setNextBlockBaseFeePerGas`). A next base fee needs EIP-1559 and holds for one block.
   */
  async setBlockSettings(changes: Partial<BlockSettings>): Promise<void> {
    checkBlockSettings(this.common, changes)
    await this.#exclusive(async () => this.#miner.changeSettings(changes))
  }

  /**
   * Spaces every next block's timestamp `seconds` after its parent's (`undefined`: back to the
   * clock); returns whether an interval was set before.
   */
  async setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this.#exclusive(async () => {
      const had = this.#clock.setInterval(seconds)
      this.#miner.dropPending()
      return had
    })
  }

  /** Moves time forward; returns the total offset in seconds. */
  async increaseTime(seconds: bigint): Promise<bigint> {
    return this.#exclusive(async () => this.#clock.increaseTime(seconds))
  }

  /** The next block gets exactly `timestamp`. */
  async setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    await this.#exclusive(async () => this.#clock.setNextTimestamp(timestamp, this.head.block.header.timestamp))
  }

  // --- reorgs (reorg/reorg.ts) -------------------------------------------------------------

  /**
   * Takes the newest `spec.depth` blocks off the chain and, for a reorg, mines as many new ones
   * with the transactions placed in them; listeners hear of the removed blocks before the new
   * ones. Refused (`InvalidInputError`) with nothing changed when the spec cannot be carried out.
   * In automine mode, transactions put back in the pool are mined at once after.
   */
  async reorg(spec: ReorgSpec): Promise<ReorgOutcome> {
    return this.#exclusive(async () => {
      this.checkReorg(spec.depth, spec.kind, spec.transactions.map((t) => t.offset))
      const parts = { world: this.#world, window: this.#window, pool: this.#pool, clock: this.#clock, miner: this.#miner }
      const extraData = new TextEncoder().encode(`ringchain reorg ${++this.#reorgs}`)
      const outcome = await runReorg(parts, spec, extraData, (removed) => this.#listeners.emit('reorg', removed))
      if (outcome.requeued.length > 0) await this.#automine()
      return outcome
    })
  }

  /** Starts reorging on a schedule (replacing any running one), or stops with `undefined`. */
  setReorgSchedule(schedule: ReorgSchedule | undefined): void {
    const next = schedule === undefined ? undefined : new ScheduledReorgs(this, schedule, (e) => this.#logError(`scheduled reorg failed: ${(e as Error).message}`))
    this.#schedule?.stop()
    this.#schedule = next
  }

  get reorgSchedule(): ReorgSchedule | undefined {
    return this.#schedule?.schedule
  }

  /** Refuses (`InvalidInputError`) a reorg the chain cannot carry out now: a depth below 1, past genesis or the window, an offset not below the depth. */
  checkReorg(depth: bigint, kind: ReorgSpec['kind'], offsets: readonly number[] = []): void {
    checkReorg(this.#window, depth, kind, offsets)
  }

  // --- state dumps (headState.ts) -----------------------------------------------------------

  /** The head block's fields and every account of the head state (anvil_dumpState). */
  async exportState(): Promise<ChainState> {
    return this.#exclusive(async () => exportHeadState(this.#headStateParts()), false)
  }

  /** Makes a dumped state the head, where the window starts again (anvil_loadState). */
  async loadState(state: ChainState): Promise<void> {
    await this.#exclusive(() => loadHeadState(this.#headStateParts(), state))
  }

  #headStateParts(): HeadStateParts {
    return { common: this.common, world: this.#world, window: this.#window, pool: this.#pool, clock: this.#clock, miner: this.#miner, keccak: this.#keccak }
  }

  // --- snapshots (snapshots.ts) -------------------------------------------------------------

  /** Takes a snapshot of the whole chain; returns its id. */
  async snapshot(): Promise<number> {
    return this.#exclusive(async () => this.#snapshots.take(this.#version), false)
  }

  /** Puts the whole chain back as it was at snapshot `id`; false if there is no such snapshot. The snapshot stays usable. */
  async revert(id: number): Promise<boolean> {
    return this.#exclusive(async () => {
      const version = await this.#snapshots.revert(id)
      if (version === undefined) return false
      this.#version = version
      return true
    }, false)
  }

  // --- events and lifecycle -----------------------------------------------------------------

  /** Subscribes to an event (see `events.ts`); returns the function that unsubscribes. */
  on<K extends keyof ChainEvents>(event: K, listener: ChainEvents[K]): () => void {
    return this.#listeners.on(event, listener)
  }

  /** Stops interval mining; idempotent. Pending operations finish. */
  async close(): Promise<void> {
    this.#closed = true
    this.#miner.stop()
    this.#schedule?.stop()
    await this.#queue.catch(() => {})
    await this.fork?.source.close()
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Runs `fn` after every operation queued before it, alone. */
  #exclusive<T>(fn: () => Promise<T>, changes = true): Promise<T> {
    const counted = changes
      ? () => {
          this.#version++
          // A change may have happened before a read missed forked state: it must not be run again.
          return fn().catch((e: unknown) => {
            throw e instanceof StateNotLoadedError ? new Error(`unexpected read of state not loaded: ${e.message}`, { cause: e }) : e
          })
        }
      : fn
    const run = this.#queue.then(counted, counted)
    this.#queue = run.catch(() => {})
    return run
  }
}
