/**
 * The headers the lean block builder makes: ethereumjs `BlockHeader` objects (its prototype, its
 * fields, frozen), filled field by field instead of through its constructor.
 *
 * Owns: completing a header's data with the defaults ethereumjs's constructor gives every field
 * (`completeHeaderFields`), the `Common` such headers hold (`headerCommon`), and making the header
 * from complete fields (`makeHeader`) with the proof-of-stake format checks the constructor makes.
 * Leaves to others: which values the fields take (`builder.ts`), the hash (`headerHash.ts`), every
 * method of the header (ethereumjs's prototype).
 *
 * Why: the constructor copies `Common`, converts every field with `toType`, works out defaults and
 * validates them all again: some 40 µs per header, and the miner made two per block (the one its
 * transaction runs in and the sealed one). The sealed one was then copied with `Object.assign` into
 * an object V8 kept in dictionary mode, so every later read of a mined header took the slow path.
 * A constructor function here gives every mined header one fast shape.
 */
import { BlockHeader, paramsBlock } from '@ethereumjs/block'
import { Hardfork, type Common } from '@ethereumjs/common'
import { Address, EthereumJSErrorWithoutCode, KECCAK256_RLP, KECCAK256_RLP_ARRAY, SHA256_NULL, TypeOutput, toType } from '@ethereumjs/util'
import { equal } from './encoding.js'
import { keccakOf } from './crypto.js'
import { sharedCopy, type SharedCopies } from './sharedCommon.js'

/** Every field of a header as ethereumjs's `BlockHeader` holds it (undefined: not in this fork). */
export interface HeaderFields {
  readonly parentHash: Uint8Array
  readonly uncleHash: Uint8Array
  readonly coinbase: Address
  readonly stateRoot: Uint8Array
  readonly transactionsTrie: Uint8Array
  readonly receiptTrie: Uint8Array
  readonly logsBloom: Uint8Array
  readonly difficulty: bigint
  readonly number: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  readonly timestamp: bigint
  readonly extraData: Uint8Array
  readonly mixHash: Uint8Array
  readonly nonce: Uint8Array
  readonly baseFeePerGas: bigint | undefined
  readonly withdrawalsRoot: Uint8Array | undefined
  readonly blobGasUsed: bigint | undefined
  readonly excessBlobGas: bigint | undefined
  readonly parentBeaconBlockRoot: Uint8Array | undefined
  readonly requestsHash: Uint8Array | undefined
  readonly blockAccessListHash: Uint8Array | undefined
  readonly slotNumber: bigint | undefined
}

/** The header fields only a built block knows (its placeholders in the header its transactions ran in). */
export interface BlockResults {
  readonly stateRoot: Uint8Array
  readonly transactionsTrie: Uint8Array
  readonly receiptTrie: Uint8Array
  readonly logsBloom: Uint8Array
  readonly gasUsed: bigint
  readonly blobGasUsed?: bigint
  readonly requestsHash?: Uint8Array
}

/** ethereumjs's default gas limit of a header that names none. */
const DEFAULT_GAS_LIMIT = BigInt('0xffffffffffffff')

/** One header `Common` per chain `Common`, remade when the chain's fork, EIPs or parameters change. */
const headerCommons: SharedCopies = new WeakMap()

/**
 * The `Common` of the headers made here for a chain's `common`: what the constructor gives each
 * header (a copy with the block parameters merged), made once and shared. A header only reads its
 * `Common`; the copy keeps it apart from any later change of the chain's, and a change of the
 * chain's makes a new one for the headers after it.
 */
export function headerCommon(common: Common): Common {
  return sharedCopy(headerCommons, common, paramsBlock)
}

/**
 * What ethereumjs's `BlockHeader` constructor makes of `data` (header data as `createBlockHeader`
 * takes it) under `common` (a header `Common`): every field converted, every absent one defaulted.
 */
export function completeHeaderFields(data: Readonly<Record<string, unknown>>, common: Common): HeaderFields {
  const number = int(data.number) ?? 0n
  const coinbase = data.coinbase instanceof Address ? data.coinbase : new Address(bytes(data.coinbase) ?? new Uint8Array(20))
  const london = common.isActivatedEIP(1559)
  const cancun = common.isActivatedEIP(4844)
  return {
    parentHash: bytes(data.parentHash) ?? new Uint8Array(32),
    uncleHash: bytes(data.uncleHash) ?? KECCAK256_RLP_ARRAY,
    coinbase,
    stateRoot: bytes(data.stateRoot) ?? new Uint8Array(32),
    transactionsTrie: bytes(data.transactionsTrie) ?? KECCAK256_RLP,
    receiptTrie: bytes(data.receiptTrie) ?? KECCAK256_RLP,
    logsBloom: bytes(data.logsBloom) ?? new Uint8Array(256),
    difficulty: int(data.difficulty) ?? 0n,
    number,
    gasLimit: int(data.gasLimit) ?? DEFAULT_GAS_LIMIT,
    gasUsed: int(data.gasUsed) ?? 0n,
    timestamp: int(data.timestamp) ?? 0n,
    extraData: bytes(data.extraData) ?? new Uint8Array(0),
    mixHash: bytes(data.mixHash) ?? new Uint8Array(32),
    nonce: bytes(data.nonce) ?? new Uint8Array(8),
    baseFeePerGas: int(data.baseFeePerGas) ?? (london ? (number === common.hardforkBlock(Hardfork.London) ? common.param('initialBaseFee') : 7n) : undefined),
    withdrawalsRoot: bytes(data.withdrawalsRoot) ?? (common.isActivatedEIP(4895) ? KECCAK256_RLP : undefined),
    blobGasUsed: int(data.blobGasUsed) ?? (cancun ? 0n : undefined),
    excessBlobGas: int(data.excessBlobGas) ?? (cancun ? 0n : undefined),
    parentBeaconBlockRoot: bytes(data.parentBeaconBlockRoot) ?? (common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined),
    requestsHash: bytes(data.requestsHash) ?? (common.isActivatedEIP(7685) ? SHA256_NULL : undefined),
    blockAccessListHash: bytes(data.blockAccessListHash) ?? (common.isActivatedEIP(7928) ? new Uint8Array(32) : undefined),
    slotNumber: int(data.slotNumber) ?? (common.isActivatedEIP(7843) ? 0n : undefined),
  }
}

/** A header field as bytes, as `toType` makes them; bytes as they are. */
function bytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : toType(value as Uint8Array | undefined, TypeOutput.Uint8Array)
}

/** A header field as a bigint, as `toType` makes it; a bigint as it is. */
function int(value: unknown): bigint | undefined {
  return typeof value === 'bigint' ? value : toType(value as bigint | undefined, TypeOutput.BigInt)
}

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/** The own fields of a `BlockHeader` besides its header fields. */
interface HeaderInternals {
  cache: { hash: Uint8Array | undefined }
  common: Common
  keccakFunction: (data: Uint8Array) => Uint8Array
}

/**
 * Fills a new header in the constructor's order (so every mined header has one shape), with the
 * block's results in place of the placeholders when given.
 */
function MinedHeader(this: Writable<HeaderFields> & HeaderInternals, fields: HeaderFields, results: BlockResults | undefined, common: Common): void {
  this.cache = { hash: undefined }
  this.common = common
  this.keccakFunction = keccakOf(common)
  this.parentHash = fields.parentHash
  this.uncleHash = fields.uncleHash
  this.coinbase = fields.coinbase
  this.stateRoot = results === undefined ? fields.stateRoot : results.stateRoot
  this.transactionsTrie = results === undefined ? fields.transactionsTrie : results.transactionsTrie
  this.receiptTrie = results === undefined ? fields.receiptTrie : results.receiptTrie
  this.logsBloom = results === undefined ? fields.logsBloom : results.logsBloom
  this.difficulty = fields.difficulty
  this.number = fields.number
  this.gasLimit = fields.gasLimit
  this.gasUsed = results === undefined ? fields.gasUsed : results.gasUsed
  this.timestamp = fields.timestamp
  this.extraData = fields.extraData
  this.mixHash = fields.mixHash
  this.nonce = fields.nonce
  this.baseFeePerGas = fields.baseFeePerGas
  this.withdrawalsRoot = fields.withdrawalsRoot
  this.blobGasUsed = results?.blobGasUsed ?? fields.blobGasUsed
  this.excessBlobGas = fields.excessBlobGas
  this.parentBeaconBlockRoot = fields.parentBeaconBlockRoot
  this.requestsHash = results?.requestsHash ?? fields.requestsHash
  this.blockAccessListHash = fields.blockAccessListHash
  this.slotNumber = fields.slotNumber
}
MinedHeader.prototype = BlockHeader.prototype

const ZERO_NONCE = new Uint8Array(8)

/**
 * A frozen `BlockHeader` holding `fields` (complete, see `completeHeaderFields`), with `results`
 * in place of the placeholders when given, under `common` (a header `Common`). Checks what the
 * constructor checks of a proof-of-stake header the builder could get wrong; the other fields are
 * the builder's own 32-byte hashes and sums.
 */
export function makeHeader(fields: HeaderFields, common: Common, results?: BlockResults): BlockHeader {
  const header = new (MinedHeader as unknown as new (fields: HeaderFields, results: BlockResults | undefined, common: Common) => BlockHeader)(fields, results, common)
  if (header.gasUsed > header.gasLimit) throw EthereumJSErrorWithoutCode(`Invalid block: gasUsed ${header.gasUsed} exceeds gasLimit ${header.gasLimit}`)
  if (common.consensusType() === 'pos' && header.number !== 0n) {
    if (header.difficulty !== 0n || header.extraData.length > 32 || !equal(header.nonce, ZERO_NONCE) || !equal(header.uncleHash, KECCAK256_RLP_ARRAY)) {
      throw EthereumJSErrorWithoutCode(`Invalid PoS block: difficulty ${header.difficulty}, extraData of ${header.extraData.length} bytes`)
    }
  }
  Object.freeze(header)
  return header
}
