/**
 * Chain configuration and genesis: the fork rules (an ethereumjs `Common`), the dev accounts derived
 * from the mnemonic, and the genesis block and state. Same options, same genesis, every time.
 *
 * Leaves to others: execution and mining (`chain.ts`), storing state (`state.ts`).
 */
import { createHash, pbkdf2Sync } from 'node:crypto'
import { createBlock, type Block } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet, type CustomCrypto } from '@ethereumjs/common'
import { bytesToUnprefixedHex, privateToAddress } from '@ethereumjs/util'
import { HDKey } from '@scure/bip32'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { InvalidInputError } from './errors.js'
import { newAccount, type StateChanges, emptyChanges } from './state.js'

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
  const hardforks = Mainnet.hardforks
    .filter((hf) => hf.name !== 'dao' && hf.name !== 'mergeNetsplitBlock')
    .map((hf) => {
      const active = HARDFORKS.indexOf(hf.name) <= last
      return { name: hf.name, block: active ? 0 : null }
    })
  const postMerge = HARDFORKS.indexOf(target) >= HARDFORKS.indexOf(Hardfork.Paris)
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
  return common
}

/** A dev account: address and private key. */
export interface DevAccount {
  readonly address: Uint8Array
  readonly privateKey: Uint8Array
}

/** Derives `count` accounts at m/44'/60'/0'/0/i, as Hardhat, anvil, viem and ethers do. */
export function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  const normalized = mnemonic.normalize('NFKD').trim().split(/\s+/).join(' ')
  if (!validateMnemonic(normalized, wordlist)) throw new InvalidInputError('invalid mnemonic: not a BIP-39 English mnemonic with a valid checksum')
  // node's native PBKDF2 is an order of magnitude faster than a JS one, and startup time matters.
  const seed = pbkdf2Sync(normalized, 'mnemonic', 2048, 64, 'sha512')
  const root = HDKey.fromMasterSeed(seed)
  const accounts: DevAccount[] = []
  for (let i = 0; i < count; i++) {
    const key = root.derive(`m/44'/60'/0'/0/${i}`).privateKey
    if (key === null) throw new InvalidInputError(`cannot derive account ${i}`)
    accounts.push({ address: privateToAddress(key), privateKey: key })
  }
  return accounts
}

/** The genesis alloc of a dev chain: each dev account funded with `balance`. */
export function devAlloc(accounts: readonly DevAccount[], balance: bigint): StateChanges {
  const changes = emptyChanges()
  for (const account of accounts) changes.accounts.set(bytesToUnprefixedHex(account.address), newAccount({ balance }))
  return changes
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
