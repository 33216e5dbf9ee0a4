/**
 * Chain configuration and genesis: the options a chain is created with, the fork rules (an
 * ethereumjs `Common`), and the genesis block and state, its dev accounts funded.
 * Same options, same genesis, every time.
 *
 * Leaves to others: execution and mining (`chain.ts`), storing state (`state.ts`), deriving the dev
 * accounts (`accounts.ts`).
 */
import { createHash } from 'node:crypto'
import { createBlock, paramsBlock, type Block } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet, type CustomCrypto, type ParamsDict } from '@ethereumjs/common'
import { paramsEVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'
import { bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { DEFAULT_MNEMONIC, deriveAccounts, type DevAccount } from './accounts.js'
import { CHAIN_DEFAULTS } from './defaults.js'
import { Clock, DETERMINISTIC_GENESIS_TIMESTAMP } from './clock.js'
import { newAccount } from './encoding.js'
import { InvalidInputError } from './errors.js'
import { WorldState, type StateChanges, emptyChanges } from './state.js'
import { SYSTEM_CONTRACTS } from './systemContracts.js'
import type { BlockRecord, MiningMode } from './types.js'
import type { ConsoleEntry } from './console/report.js'
import type { ReorgSchedule } from './reorg/schedule.js'
import { memoizeCommonQueries } from './commonMemo.js'

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
  memoizeCommonQueries(common)
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
