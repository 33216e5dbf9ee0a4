/**
 * Chain configuration and genesis: the options a chain is created with, the fork rules (an
 * ethereumjs `Common`), the dev accounts derived from the mnemonic, and the genesis block and state.
 * Same options, same genesis, every time.
 *
 * Leaves to others: execution and mining (`chain.ts`), storing state (`state.ts`).
 */
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto'
import { createBlock, paramsBlock, type Block } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet, type CustomCrypto, type ParamsDict } from '@ethereumjs/common'
import { paramsEVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'
import { bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { wordlist } from '@scure/bip39/wordlists/english'
import { secp256k1PublicKey } from './crypto.js'
import { Clock, DETERMINISTIC_GENESIS_TIMESTAMP } from './clock.js'
import { DEFAULT_MNEMONIC_ACCOUNTS } from './defaultAccounts.js'
import { newAccount } from './encoding.js'
import { InvalidInputError } from './errors.js'
import { WorldState, type StateChanges, emptyChanges } from './state.js'
import { SYSTEM_CONTRACTS } from './systemContracts.js'
import type { BlockRecord, MiningMode } from './types.js'
import type { ConsoleEntry } from './console/report.js'
import type { ReorgSchedule } from './reorg/schedule.js'

/** The well-known test mnemonic of Hardhat, anvil and Foundry: their fixtures' addresses work here. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** Mainnet forks in order, as ethereumjs names them. `mergeNetsplitBlock` and `dao` are not rule sets. */
export const HARDFORKS: readonly string[] = Mainnet.hardforks
  .map((hf) => hf.name)
  .filter((name) => name !== 'dao' && name !== 'mergeNetsplitBlock')

/** The newest mainnet fork ethereumjs 10 supports and mainnet has scheduled. */
export const DEFAULT_HARDFORK: string = (() => {
  const scheduled = Mainnet.hardforks.filter((hf) => hf.block !== null || hf.timestamp !== undefined)
  return scheduled[scheduled.length - 1]!.name
})()

/** Accepts ethereumjs's names and the common aliases (`frontier`, `merge`). */
export function normalizeHardfork(name: string): string {
  const aliases: Record<string, string> = { frontier: 'chainstart', merge: 'paris', constantinopleFix: 'petersburg' }
  const wanted = aliases[name] ?? name
  const found = HARDFORKS.find((hf) => hf.toLowerCase() === wanted.toLowerCase())
  if (found === undefined) throw new InvalidInputError(`unknown hardfork "${name}": expected one of ${HARDFORKS.join(', ')}`)
  return found
}

/**
 * A Common with every fork up to `hardfork` active from genesis and none after it, so the rules
 * never change under a running dev chain.
 */
export function createDevCommon(options: { chainId: bigint; hardfork: string; customCrypto?: CustomCrypto }): Common {
  const target = normalizeHardfork(options.hardfork)
  const last = HARDFORKS.indexOf(target)
  const hardforks = HARDFORKS.map((name, i) => ({ name, block: i <= last ? 0 : null }))
  const postMerge = last >= HARDFORKS.indexOf(Hardfork.Paris)
  const common = new Common({
    chain: {
      ...Mainnet,
      name: 'ringchain',
      chainId: options.chainId.toString(),
      hardforks,
      consensus: postMerge ? { type: 'pos', algorithm: 'casper' } : Mainnet.consensus,
      genesis: { ...Mainnet.genesis, difficulty: postMerge ? 0 : 1, extraData: '0x' },
    },
    hardfork: target,
    ...(options.customCrypto === undefined ? {} : { customCrypto: options.customCrypto }),
  })
  mergeParamsOnce(common)
  return common
}

// In the order a VM's creation leaves them merged (the EVM's, then the VM's: their one shared key,
// EIP-2935's historyServeWindow, ends up 8191 either way).
const PACKAGE_PARAMS: readonly ParamsDict[] = [paramsBlock, paramsTx, paramsEVM, paramsVM]

/**
 * Merges the parameter sets of ethereumjs's packages into `common` once, and makes every copy of it
 * skip merging them again.
 *
 * Why: ethereumjs copies the chain's `Common` for every block header and transaction it builds,
 * then merges its package's parameter set into the copy (`updateParams`: a JSON deep copy of every
 * EIP's parameters and a rebuilt cache), which was a third of the CPU of mining a transfer. The
 * sets are module constants, so skipping one already merged changes nothing. `copy()` copies own
 * enumerable properties, so the copies inherit the skipping; any other set is merged as before.
 */
export function mergeParamsOnce(common: Common): void {
  const merge = Common.prototype.updateParams
  for (const params of PACKAGE_PARAMS) merge.call(common, params)
  const merged = new Set<ParamsDict>(PACKAGE_PARAMS)
  Object.defineProperty(common, 'updateParams', {
    value: function updateParams(this: Common, params: ParamsDict): void {
      if (!merged.has(params)) merge.call(this, params)
    },
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

/** A dev account: address and private key. */
export interface DevAccount {
  readonly address: Uint8Array
  readonly privateKey: Uint8Array
}

/**
 * Derives `count` accounts at m/44'/60'/0'/0/i, as Hardhat, anvil, viem and ethers do.
 *
 * BIP-39 and BIP-32 are written out here on node:crypto (native PBKDF2 and HMAC) and the native
 * secp256k1 binding, rather than taken from @scure/bip32: that one brings a second copy of noble's
 * curves whose precomputed tables cost ~200 ms, paid at every start. The default mnemonic's
 * first accounts are not derived at all but read from a table (see defaultAccounts.ts).
 */
export function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  if (mnemonic === DEFAULT_MNEMONIC && count <= DEFAULT_MNEMONIC_ACCOUNTS.length) {
    return DEFAULT_MNEMONIC_ACCOUNTS.slice(0, count).map(([address, privateKey]) => ({ address: fromHex(address), privateKey: fromHex(privateKey) }))
  }
  const normalized = normalizeMnemonic(mnemonic)
  const seed = pbkdf2Sync(normalized, 'mnemonic', 2048, 64, 'sha512')
  let node = hdMaster(seed)
  for (const index of [44 + HARDENED, 60 + HARDENED, HARDENED, 0]) node = hdChild(node, index)
  const accounts: DevAccount[] = []
  for (let i = 0; i < count; i++) {
    const privateKey = hdChild(node, i).key
    const publicKey = secp256k1PublicKey(privateKey, false)
    accounts.push({ address: keccak_256(publicKey.subarray(1)).slice(12), privateKey })
  }
  return accounts
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

const HARDENED = 0x8000_0000
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

interface HdNode {
  readonly key: Uint8Array
  readonly chainCode: Uint8Array
}

/** The mnemonic as BIP-39 hashes it (NFKD, single spaces); `InvalidInputError` unless its words and checksum are valid. */
export function normalizeMnemonic(mnemonic: string): string {
  const normalized = mnemonic.normalize('NFKD').trim().split(/\s+/).join(' ')
  if (!validMnemonic(normalized)) throw new InvalidInputError('invalid mnemonic: not a BIP-39 English mnemonic with a valid checksum')
  return normalized
}

function validMnemonic(words: string): boolean {
  const list = words.split(' ')
  if (list.length % 3 !== 0 || list.length < 12 || list.length > 24) return false
  let bits = ''
  for (const word of list) {
    const index = wordIndex().get(word)
    if (index === undefined) return false
    bits += index.toString(2).padStart(11, '0')
  }
  const checksumBits = list.length / 3
  const entropyBits = bits.slice(0, bits.length - checksumBits)
  const entropy = Uint8Array.from(entropyBits.match(/.{8}/g)!, (byte) => parseInt(byte, 2))
  const hash = createHash('sha256').update(entropy).digest()
  return hash[0]!.toString(2).padStart(8, '0').slice(0, checksumBits) === bits.slice(-checksumBits)
}

let wordIndexes: Map<string, number> | undefined
function wordIndex(): Map<string, number> {
  return (wordIndexes ??= new Map(wordlist.map((word, i) => [word, i])))
}

function hdMaster(seed: Uint8Array): HdNode {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest()
  return { key: new Uint8Array(I.subarray(0, 32)), chainCode: new Uint8Array(I.subarray(32)) }
}

/** BIP-32 CKDpriv. */
function hdChild(parent: HdNode, index: number): HdNode {
  const data = new Uint8Array(37)
  if (index >= HARDENED) data.set(parent.key, 1)
  else data.set(secp256k1PublicKey(parent.key, true), 0)
  new DataView(data.buffer).setUint32(33, index)
  const I = createHmac('sha512', parent.chainCode).update(data).digest()
  const tweak = BigInt('0x' + I.subarray(0, 32).toString('hex'))
  const key = (tweak + BigInt('0x' + bytesToUnprefixedHex(parent.key))) % CURVE_ORDER
  // Probability below 2^-127; BIP-32 would skip to the next index, which no wallet does either.
  if (tweak >= CURVE_ORDER || key === 0n) throw new InvalidInputError(`cannot derive child key ${index}`)
  const hex = key.toString(16).padStart(64, '0')
  return { key: Uint8Array.from(hex.match(/.{2}/g)!, (byte) => parseInt(byte, 16)), chainCode: new Uint8Array(I.subarray(32)) }
}

/** The genesis alloc of a dev chain: each dev account funded with `balance`. */
export function devAlloc(accounts: readonly DevAccount[], balance: bigint): StateChanges {
  const changes = emptyChanges()
  for (const account of accounts) changes.accounts.set(bytesToUnprefixedHex(account.address), newAccount({ balance }))
  return changes
}

/** Funds nothing, but puts the system contracts a fork needs at genesis, as geth's dev genesis does. */
export function addSystemContracts(alloc: StateChanges, common: Common): void {
  for (const contract of SYSTEM_CONTRACTS) {
    if (!common.gteHardfork(contract.fork)) continue
    const code = hexToBytes(contract.code as `0x${string}`)
    const codeHash = keccak_256(code)
    alloc.code.set(bytesToUnprefixedHex(codeHash), code)
    alloc.accounts.set(contract.address.slice(2), { ...newAccount({ nonce: 1n }), codeHash, codeSize: code.length })
  }
}

/** The genesis block of a dev chain, given its state root. */
export function devGenesisBlock(common: Common, options: { stateRoot: Uint8Array; gasLimit: bigint; baseFee: bigint; timestamp: bigint }): Block {
  const header: Record<string, unknown> = {
    number: 0n,
    gasLimit: options.gasLimit,
    timestamp: options.timestamp,
    stateRoot: options.stateRoot,
    extraData: new Uint8Array(0),
    difficulty: common.consensusType() === 'pos' ? 0n : 1n,
    nonce: new Uint8Array(8),
  }
  if (common.isActivatedEIP(1559)) header.baseFeePerGas = options.baseFee
  if (common.isActivatedEIP(4844)) {
    header.excessBlobGas = 0n
    header.blobGasUsed = 0n
    header.parentBeaconBlockRoot = new Uint8Array(32)
  }
  if (common.isActivatedEIP(4895)) header.withdrawalsRoot = undefined
  if (common.isActivatedEIP(7685)) header.requestsHash = createHash('sha256').update(new Uint8Array(0)).digest()
  return createBlock({ header, ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common, skipConsensusFormatValidation: true })
}

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
  /** A reorg of depth `depth` after every `every` blocks, seeded (see `reorg/schedule.ts`). Default none. */
  reorgs?: ReorgSchedule
}

/** The default of each option a chain is created with. */
export const CHAIN_DEFAULTS = {
  chainId: 31337n,
  blockGasLimit: 30_000_000n,
  baseFee: 1_000_000_000n,
  accounts: 10,
  balance: 10_000n * 10n ** 18n,
  window: 128,
  safeLag: 32,
  finalizedLag: 64,
}

/** The parts of a new dev chain: genesis with funded dev accounts and the system contracts its fork needs. */
export async function createDevGenesis(options: ChainOptions): Promise<{ common: Common; accounts: DevAccount[]; world: WorldState; clock: Clock; blocks: BlockRecord[] }> {
  const window = options.window ?? CHAIN_DEFAULTS.window
  if (!Number.isInteger(window) || window < 1) throw new InvalidInputError('window must be a positive integer')
  const common = createDevCommon({
    chainId: options.chainId ?? CHAIN_DEFAULTS.chainId,
    hardfork: options.hardfork ?? DEFAULT_HARDFORK,
    ...(options.customCrypto === undefined ? {} : { customCrypto: options.customCrypto }),
  })
  const accounts = deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? CHAIN_DEFAULTS.accounts)
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
  const alloc = devAlloc(accounts, options.balance ?? CHAIN_DEFAULTS.balance)
  addSystemContracts(alloc, common)
  await world.commitGenesis(alloc)
  const genesis = devGenesisBlock(common, {
    stateRoot: world.root,
    gasLimit: options.blockGasLimit ?? CHAIN_DEFAULTS.blockGasLimit,
    baseFee: options.baseFee ?? CHAIN_DEFAULTS.baseFee,
    timestamp: clock.genesisTimestamp(),
  })
  const record: BlockRecord = { block: genesis, hash: genesis.hash(), number: 0n, transactions: [], logs: [], size: genesis.serialize().length }
  return { common, accounts, world, clock, blocks: [record] }
}
