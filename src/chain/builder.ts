/**
 * Building a block on the mining VM: ethereumjs's `BlockBuilder` (header fields, system calls,
 * requests, sealing), with the work it repeats for nothing taken out.
 *
 * Owns: adding transactions to the block being built, the transaction and receipt trie roots, and
 * the final block's transactions (the objects that ran, not copies), the EIP-4788/EIP-2935
 * start-of-block writes (step for step as ethereumjs 10 makes them: slot writes, no EVM run). The
 * header fields take the values ethereumjs's would (filled without its constructor: `minedHeader.ts`)
 * and the requests stay ethereumjs's, so the block and its hash are the ones its `BlockBuilder`
 * makes (a test builds both and compares).
 * Leaves to others: which transactions go in and in what order (`chain.ts`), state (the VM's state
 * manager), receipt records (`receipts.ts`).
 *
 * Why: for every transaction added, `BlockBuilder.addTransaction` rebuilds a whole `Block` (a copy
 * of `Common`, a header validated again, every transaction so far made again) only to hand its
 * header to `runTx`; and each trie root it computes makes a Merkle trie whose constructor probes
 * the terminal for colours. Here one header serves every transaction of the block (`runTx` reads
 * the gas used so far from its `blockGasUsed` option instead), the roots come from `trie.ts`, and
 * an empty withdrawal list is left out (the same block, without its trie). While the request
 * queues are idle and no deposit was logged, the end-of-block request calls, which could give
 * nothing, are not made, and `build` makes the header itself, once.
 * Forks whose block building differs (proof of work and clique rewards, EIP-7928 access lists,
 * EIP-8037 two-dimensional gas, EIP-7843 slot numbers, EIP-7864 binary trees) keep ethereumjs's
 * builder as it is.
 */
import { Block, genRequestsRoot } from '@ethereumjs/block'
import { Hardfork, type Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { Blob4844Tx, NetworkWrapperType, createMinimal4844TxFromNetworkWrapper, type TypedTransaction } from '@ethereumjs/tx'
import { Address, CLRequest, CLRequestType, EthereumJSErrorWithoutCode, TypeOutput, bigIntToAddressBytes, hexToBytes, toType } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { BlockBuilder, BuildStatus, buildBlock, type BuildBlockOpts, type RunTxOpts, type RunTxResult, type VM } from '@ethereumjs/vm'
import { equal, keyOf, unpadded } from './encoding.js'
import { RingStateManager } from './stateManager.js'
import { runTransaction } from './execution/leanRunTx.js'
import { withHashCached } from './headerHash.js'
import { completeHeaderFields, headerCommon, makeHeader, type BlockResults, type HeaderFields } from './minedHeader.js'
import { encodeTxReceipt } from './receiptEncoding.js'
import { wordBytes } from './execution/word.js'
import { SYSTEM_CONTRACTS } from './systemContracts.js'
import { singleKeyRoot, trieRoot, trieSet, type TrieNode } from './trie.js'
import { keccakOf } from './crypto.js'

/** The EIPs under which `LeanBlockBuilder` would build a different block than ethereumjs: those go to its builder. */
const OWN_BUILDER_EIPS = [7843, 7864, 7928, 8037] as const

/** The topic of the deposit contract's `DepositEvent` (EIP-6110 reads deposits from these logs). */
const DEPOSIT_TOPIC = hexToBytes('0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5')

/**
 * Starts a block on `vm` (system calls included), with the lean builder wherever it builds the
 * same block. `requestQueuesIdle` (see `systemContracts.ts`) tells when the end-of-block request
 * calls can give nothing: then they are not made.
 */
export async function startBlock(vm: VM, opts: BuildBlockOpts, requestQueuesIdle?: () => boolean): Promise<BlockBuilder> {
  const common = vm.common
  const lean = common.consensusType() === 'pos' && !OWN_BUILDER_EIPS.some((eip) => common.isActivatedEIP(eip)) && opts.blockOpts?.cliqueSigner === undefined
  if (!lean) return buildBlock(vm, opts)
  const builder = new LeanBlockBuilder(vm, Object.assign({}, opts, { headerData: completeHeaderData(vm, opts) as BuildBlockOpts['headerData'] }), requestQueuesIdle)
  await builder.initState()
  return builder
}

/**
 * The header data with every field `BlockBuilder`'s constructor would default already set, to the
 * same values, in a new object. Why: the constructor copies the data with a spread and then adds
 * the fields it lacks, and V8 11 adds a property to an object made by a spread on its slow path
 * (some microseconds each); fields the copy already has are overwritten on the fast one.
 */
function completeHeaderData(vm: VM, opts: BuildBlockOpts): Record<string, unknown> {
  const data = Object.assign({}, opts.headerData) as Record<string, unknown>
  const parent = opts.parentBlock.header
  const common = vm.common
  data.parentHash ??= opts.parentBlock.hash()
  data.number ??= parent.number + 1n
  data.gasLimit ??= parent.gasLimit
  data.timestamp ??= Math.round(Date.now() / 1000)
  if (common.isActivatedEIP(1559) && data.baseFeePerGas === undefined) {
    data.baseFeePerGas = data.number === common.hardforkBlock(Hardfork.London) ? common.param('initialBaseFee') : parent.calcNextBaseFee()
  }
  if (common.isActivatedEIP(4844) && data.excessBlobGas === undefined) data.excessBlobGas = parent.calcNextExcessBlobGas(common)
  return data
}

/** The fields of `BlockBuilder` that `addTransaction` reads and writes (private in its typings, plain properties at run time). */
interface BuilderState {
  readonly vm: VM
  readonly blockOpts: NonNullable<BuildBlockOpts['blockOpts']>
  readonly headerData: Record<string, unknown>
  readonly transactions: TypedTransaction[]
  readonly transactionResults: RunTxResult[]
  withdrawals: unknown[] | undefined
  checkpointed: boolean
  blockStatus: { status: BuildStatus; block?: Block }
  _minerValue: bigint
  checkStatus(): void
}

class LeanBlockBuilder extends BlockBuilder {
  /** Every field of the block's header, the block's results still placeholders (`minedHeader.ts`). */
  readonly #fields: HeaderFields
  /** The block every transaction of this one runs in: the header as built so far, with no gas used. */
  #context: Block | undefined
  /** While `build` runs: the transactions of the block. */
  #ran: TypedTransaction[] | undefined
  readonly #requestQueuesIdle: (() => boolean) | undefined

  constructor(vm: VM, opts: BuildBlockOpts, requestQueuesIdle?: () => boolean) {
    super(vm, opts)
    this.#requestQueuesIdle = requestQueuesIdle
    // No withdrawals (a dev chain never has any) is the same block as an empty list: the header's
    // withdrawals root defaults to the empty trie's and the block's list to [], without a trie built.
    if (this.#state.withdrawals?.length === 0) this.#state.withdrawals = undefined
    const fields = completeHeaderFields(this.#state.headerData, headerCommon(vm.common))
    // The header the transactions run in has no gas used yet, whatever the data says.
    this.#fields = fields.gasUsed === 0n ? fields : Object.assign({}, fields, { gasUsed: 0n })
  }

  get #state(): BuilderState {
    return this as unknown as BuilderState
  }

  /**
   * `BlockBuilder.initState` (EIP-4788 and EIP-2935 at the start of the block) step for step:
   * ethereumjs 10 does not run these contracts, it writes their ring-buffer slots itself when the
   * address holds code, and so does this, with the addresses and slot keys made once rather than
   * through hex strings and padded copies per write.
   */
  override async initState(): Promise<void> {
    const state = this.#state
    const { vm, headerData } = state
    const common = vm.common
    let wrote = false
    if (common.isActivatedEIP(4788)) {
      await this.#checkpoint()
      const timestamp = asBigInt(headerData.timestamp) ?? 0n
      const root = asBytes(headerData.parentBeaconBlockRoot) ?? new Uint8Array(32)
      const length = systemParamsOf(common).historicalRootsLength
      const index = timestamp % length
      if (await holdsCode(vm.stateManager, BEACON_ROOTS)) {
        await putSystemSlot(vm.stateManager, BEACON_ROOTS, index, unpadded(timestamp))
        await putSystemSlot(vm.stateManager, BEACON_ROOTS, index + length, root)
        wrote = true
      }
    }
    if (common.isActivatedEIP(2935)) {
      await this.#checkpoint()
      const number = asBigInt(headerData.number) ?? 0n
      const parentHash = asBytes(headerData.parentHash) ?? new Uint8Array(32)
      const params = systemParamsOf(common)
      const history = historyContract(params.historyStorageAddress)
      if (await holdsCode(vm.stateManager, history)) {
        await putSystemSlot(vm.stateManager, history, (number - 1n) % params.historyServeWindow, parentHash)
        wrote = true
      }
    }
    // ethereumjs cleans the journal up after each contract's writes; the second cleanup finds what
    // the first left (these writes go to the state manager, not the journal), so once does the same.
    if (wrote) await vm.evm.journal.cleanup()
  }

  async #checkpoint(): Promise<void> {
    const state = this.#state
    if (state.checkpointed) return
    await state.vm.evm.journal.checkpoint()
    state.checkpointed = true
  }

  /** `BlockBuilder.addTransaction`, step for step, but with one header for the whole block. */
  override async addTransaction(tx: TypedTransaction, { skipHardForkValidation, allowNoBlobs }: { skipHardForkValidation?: boolean; allowNoBlobs?: boolean } = {}): Promise<RunTxResult> {
    const state = this.#state
    state.checkStatus()
    const { vm } = state
    const common = vm.common
    await this.#checkpoint()
    // The parameter only a blob transaction needs (ethereumjs reads it for each transaction).
    const blobGasPerBlob = tx instanceof Blob4844Tx ? common.param('blobGasPerBlob') : 0n
    const blockGasLimit = asBigInt(state.headerData.gasLimit)!
    if (tx.gasLimit > blockGasLimit - this.gasUsed) {
      throw EthereumJSErrorWithoutCode('tx has a higher gas limit than the remaining gas in the block')
    }
    if (tx instanceof Blob4844Tx) {
      const { maxBlobGasPerBlock } = common.getBlobGasSchedule()
      if (tx.networkWrapperVersion === NetworkWrapperType.EIP4844 && common.isActivatedEIP(7594)) {
        throw EthereumJSErrorWithoutCode('eip4844 blob transaction for eip7594 activated fork')
      } else if (tx.networkWrapperVersion === NetworkWrapperType.EIP7594 && !common.isActivatedEIP(7594)) {
        throw EthereumJSErrorWithoutCode('eip7594 blob transaction but eip not yet activated')
      }
      if (state.blockOpts.common?.isActivatedEIP(4844) === false) throw EthereumJSErrorWithoutCode('eip4844 not activated yet for adding a blob transaction')
      if (tx.blobs === undefined && allowNoBlobs !== true) throw EthereumJSErrorWithoutCode('blobs missing for 4844 transaction')
      if (this.blobGasUsed + BigInt(tx.numBlobs()) * blobGasPerBlob > maxBlobGasPerBlock) throw EthereumJSErrorWithoutCode('block blob gas limit reached')
    }
    this.#context ??= new Block(makeHeader(this.#fields, headerCommon(common)), [], [], undefined, state.blockOpts)
    const runOpts: RunTxOpts = { tx, block: this.#context, blockGasUsed: this.gasUsed }
    if (skipHardForkValidation !== undefined) runOpts.skipHardForkValidation = skipHardForkValidation
    // ethereumjs's runTx, or its lean copy for the transactions it runs the same (see leanRunTx.ts).
    const result = await runTransaction(vm, runOpts)
    let included = tx
    if (tx instanceof Blob4844Tx) {
      this.blobGasUsed += BigInt(tx.blobVersionedHashes.length) * blobGasPerBlob
      included = createMinimal4844TxFromNetworkWrapper(tx, { common: state.blockOpts.common! })
    }
    state.transactions.push(included)
    state.transactionResults.push(result)
    this.gasUsed += result.blockGasSpent
    state._minerValue += result.minerValue
    return result
  }

  /**
   * `BlockBuilder.build`, with the block holding the very transactions that were run. ethereumjs
   * makes each one again from its fields for its block, which costs a copy and loses what the
   * pool's transaction has cached (its hash, its sender): here the block is its header with the
   * transactions that ran. When no request can come out of the block (no deposit log, request
   * queues idle), the request system calls are not made, and the header is made once, here.
   */
  override async build(sealOpts?: Parameters<BlockBuilder['build']>[0]): ReturnType<BlockBuilder['build']> {
    const requests = this.#noRequests()
    return requests === undefined ? this.#buildWithEthereumjs(sealOpts) : this.#buildWithout(requests)
  }

  /**
   * The requests of this block when none can come out of it: an empty one of each type
   * ethereumjs's `accumulateRequests` would make, in its order. Undefined when that must run.
   */
  #noRequests(): CLRequest<CLRequestType>[] | undefined {
    const state = this.#state
    const common = state.vm.common
    if (state.withdrawals !== undefined || common.isActivatedEIP(8282)) return undefined
    if (!common.isActivatedEIP(7685)) return []
    if (this.#requestQueuesIdle?.() !== true) return undefined
    for (const result of state.transactionResults) {
      for (const [, topics] of result.receipt.logs) if (topics.length > 0 && equal(topics[0]!, DEPOSIT_TOPIC)) return undefined
    }
    return noRequestsOf(common)
  }

  /** `BlockBuilder.build` step for step (no withdrawals, proof of stake, no clique) with `requests` as the block's. */
  async #buildWithout(requests: CLRequest<CLRequestType>[]): ReturnType<BlockBuilder['build']> {
    const state = this.#state
    state.checkStatus()
    const { vm, blockOpts } = state
    const common = vm.common
    const transactionsTrie = await this.transactionsTrie()
    const receiptTrie = await this.receiptTrie()
    const logsBloom = this.logsBloom()
    const requestsHash = common.isActivatedEIP(7685) ? genRequestsRoot(requests, common.customCrypto.sha256 ?? sha256) : undefined
    const stateRoot = await vm.stateManager.getStateRoot()
    const results: Mutable<BlockResults> = { stateRoot, transactionsTrie, receiptTrie, logsBloom, gasUsed: this.gasUsed }
    if (common.isActivatedEIP(4844)) results.blobGasUsed = this.blobGasUsed
    if (requestsHash !== undefined) results.requestsHash = requestsHash
    const header = withHashCached(makeHeader(this.#fields, headerCommon(common), results), keccakOf(common))
    const block = new Block(header, [...state.transactions], [], undefined, blockOpts)
    if (blockOpts.putBlockIntoBlockchain === true) await vm.blockchain.putBlock(block)
    state.blockStatus = { status: BuildStatus.Build, block }
    if (state.checkpointed) {
      await vm.evm.journal.commit()
      state.checkpointed = false
    }
    return { block, requests: common.isActivatedEIP(7685) ? requests : undefined, blockLevelAccessList: vm.evm.blockLevelAccessList }
  }

  /** ethereumjs's `build`, with the transactions hidden from it (see `build`). */
  async #buildWithEthereumjs(sealOpts?: Parameters<BlockBuilder['build']>[0]): ReturnType<BlockBuilder['build']> {
    const state = this.#state
    const ran = [...state.transactions]
    this.#ran = ran
    state.transactions.length = 0
    let built: Awaited<ReturnType<BlockBuilder['build']>>
    try {
      built = await super.build(sealOpts)
    } finally {
      state.transactions.push(...ran)
      this.#ran = undefined
    }
    const { header, withdrawals } = built.block
    return { ...built, block: new Block(header, ran, [], withdrawals, state.blockOpts) }
  }

  /** The transactions of the block: `build` hides them from ethereumjs's part of it. */
  get #transactions(): readonly TypedTransaction[] {
    return this.#ran ?? this.#state.transactions
  }

  /** `BlockBuilder.logsBloom`; a block without transactions has the empty bloom, without a `Bloom` made for it. */
  override logsBloom(): Uint8Array {
    return this.#state.transactionResults.length === 0 ? new Uint8Array(256) : super.logsBloom()
  }

  override async transactionsTrie(): Promise<Uint8Array> {
    return indexedRoot(this.#transactions.map((tx) => tx.serialize()), this.#state.vm)
  }

  override async receiptTrie(): Promise<Uint8Array> {
    const transactions = this.#transactions
    return indexedRoot(this.#state.transactionResults.map((result, i) => encodeTxReceipt(result.receipt, transactions[i]!.type)), this.#state.vm)
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Per `Common`: the empty request of each type its fork knows, made once (a block's requests are only read). */
const emptyRequests = new WeakMap<Common, { hardfork: string; requests: CLRequest<CLRequestType>[] }>()
function noRequestsOf(common: Common): CLRequest<CLRequestType>[] {
  const cached = emptyRequests.get(common)
  if (cached?.hardfork === common.hardfork()) return cached.requests
  const requests: CLRequest<CLRequestType>[] = []
  if (common.isActivatedEIP(6110)) requests.push(new CLRequest(CLRequestType.Deposit, new Uint8Array(0)))
  if (common.isActivatedEIP(7002)) requests.push(new CLRequest(CLRequestType.Withdrawal, new Uint8Array(0)))
  if (common.isActivatedEIP(7251)) requests.push(new CLRequest(CLRequestType.Consolidation, new Uint8Array(0)))
  emptyRequests.set(common, { hardfork: common.hardfork(), requests })
  return requests
}

/** A header field as a bigint, as `toType` makes it; what the miner gives (a bigint) as it is. */
function asBigInt(value: unknown): bigint | undefined {
  return typeof value === 'bigint' ? value : toType(value as bigint | undefined, TypeOutput.BigInt)
}

/** A header field as bytes, as `toType` makes them; what the miner gives (bytes) as they are. */
function asBytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : toType(value as Uint8Array | undefined, TypeOutput.Uint8Array)
}

/** A system contract the block's start writes to: its address, and the key the state manager files it under. */
interface SystemContract {
  readonly address: Address
  readonly key: string
}

function systemContract(address: Address): SystemContract {
  return { address, key: keyOf(address.bytes) }
}

/** The EIP-4788 beacon roots contract. */
const BEACON_ROOTS = systemContract(new Address(hexToBytes(SYSTEM_CONTRACTS.find((c) => c.eip === 4788)!.address as `0x${string}`)))

/** The EIP-2935 history contract at the address `Common` names (its parameter), made once per address. */
let history: { param: bigint; contract: SystemContract } | undefined
function historyContract(param: bigint): SystemContract {
  if (history?.param !== param) history = { param, contract: systemContract(new Address(bigIntToAddressBytes(param))) }
  return history.contract
}

/** The parameters of the system writes, per parameter set of a Common (a fork, EIP or parameter change makes a new one). */
interface SystemParams {
  readonly historicalRootsLength: bigint
  readonly historyStorageAddress: bigint
  readonly historyServeWindow: bigint
}
const systemParamsByCache = new WeakMap<object, SystemParams>()

function systemParamsOf(common: Common): SystemParams {
  const cache = (common as unknown as { readonly _paramsCache: object })._paramsCache
  let params = systemParamsByCache.get(cache)
  if (params === undefined) {
    params = {
      // Each read only under its EIP (a fork without it has no such parameter).
      historicalRootsLength: common.isActivatedEIP(4788) ? BigInt(common.param('historicalRootsLength')) : 0n,
      historyStorageAddress: common.isActivatedEIP(2935) ? common.param('historyStorageAddress') : 0n,
      historyServeWindow: common.isActivatedEIP(2935) ? common.param('historyServeWindow') : 0n,
    }
    systemParamsByCache.set(cache, params)
  }
  return params
}

/** Whether `contract` holds code (on the ring state manager by its key, not made again from the `Address`). */
async function holdsCode(sm: VM['stateManager'], contract: SystemContract): Promise<boolean> {
  const code = sm instanceof RingStateManager ? await sm.codeByKey(contract.key) : await sm.getCode(contract.address)
  return code.length > 0
}

/** `putStorage` of `value` at the slot numbered `slot` (as a word) of `contract`: on the ring state manager by their keys. */
async function putSystemSlot(sm: VM['stateManager'], contract: SystemContract, slot: bigint, value: Uint8Array): Promise<void> {
  if (!(sm instanceof RingStateManager)) return sm.putStorage(contract.address, wordBytes(slot), value)
  sm.putStorageByKey(contract.key, slot.toString(16).padStart(64, '0'), value)
}

/** Root of the trie of `values` keyed by their RLP-encoded index, as the transaction and receipt tries are. */
function indexedRoot(values: readonly Uint8Array[], vm: VM): Uint8Array {
  const keccak = keccakOf(vm.common)
  // An automined block's one transaction: its key is RLP(0) = 0x80.
  if (values.length === 1) return singleKeyRoot(FIRST_INDEX_PATH, values[0]!, keccak)
  let root: TrieNode | undefined
  for (let i = 0; i < values.length; i++) root = trieSet(root, keyOf(RLP.encode(i)), values[i]!)
  return trieRoot(root, keccak)
}

/** The trie path of index 0 in a transaction or receipt trie. */
const FIRST_INDEX_PATH = keyOf(RLP.encode(0))
