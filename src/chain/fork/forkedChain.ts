/**
 * Creating a chain forked from an upstream node: the chain continues from the upstream's block
 * (its `latest`, or a given number), whose header becomes the first block of the window, with the
 * upstream's chain id, the hardfork its block follows, its gas limit, and a base fee and
 * timestamps that follow from its block. State is the upstream's at that block, read lazily
 * (`lazyState.ts`); the dev accounts hold the dev balance there, as anvil's do.
 *
 * Owns: the fork point (what to ask the upstream to start, and the header it gives), the rules
 * the forked chain runs under, and BLOCKHASH of the upstream's blocks before the fork.
 * Leaves to others: the connection (`ForkSource`), serving the upstream's blocks over RPC
 * (`src/rpc/`), and everything a chain does once assembled (`chain.ts`).
 */
import { Block, createBlockHeaderFromRPC, type JSONRPCBlock } from '@ethereumjs/block'
import { Common, Holesky, Hoodi, Mainnet, Sepolia } from '@ethereumjs/common'
import { bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { Chain } from '../chain.js'
import { Clock } from '../clock.js'
import { DEFAULT_MNEMONIC, deriveAccounts } from '../accounts.js'
import { CHAIN_DEFAULTS } from '../defaults.js'
import { createDevCommon, type ChainOptions } from '../genesis.js'
import { WorldState } from '../state.js'
import { SYSTEM_CONTRACTS } from '../systemContracts.js'
import type { BlockRecord } from '../types.js'
import { UpstreamState, once, type AccountAdjustment } from './lazyState.js'
import { ForkSourceError, type ForkSource } from './source.js'
import { keccakOf } from '../crypto.js'

/** Where to fork from: the upstream and, unless its `latest`, the block number. */
export interface ForkOptions {
  readonly source: ForkSource
  readonly blockNumber?: bigint
}

/**
 * Forks the upstream at `fork.blockNumber` (default: its latest block). `chainId`, `hardfork`,
 * `blockGasLimit` override what the upstream's block says; `baseFee` is ignored (the next base
 * fee follows from the fork block). The chain closes `fork.source` when it is closed.
 *
 * @example
 * const chain = await forkChain({ source: connectUpstream('http://127.0.0.1:8545') })
 */
export async function forkChain(fork: ForkOptions, options: ChainOptions = {}): Promise<Chain> {
  const { source } = fork
  const tag = fork.blockNumber === undefined ? 'latest' : `0x${fork.blockNumber.toString(16)}`
  const [chainIdHex, json] = await Promise.all([source.request('eth_chainId', []), source.request('eth_getBlockByNumber', [tag, false])])
  const block = upstreamBlock(source, tag, json)
  const chainId = options.chainId ?? BigInt(chainIdHex as string)
  const number = BigInt(block.number)
  const timestamp = BigInt(block.timestamp)
  const common = createDevCommon({
    chainId,
    hardfork: options.hardfork ?? upstreamHardfork(chainId, block, number, timestamp),
    ...(options.customCrypto === undefined ? {} : { customCrypto: options.customCrypto }),
  })
  const keccak = keccakOf(common)
  const header = createBlockHeaderFromRPC(block, { common, skipConsensusFormatValidation: true })
  const hash = hexToBytes(block.hash as `0x${string}`)
  // The upstream's hash is the parent hash of the next block, whatever fields this header could not carry.
  if (bytesToUnprefixedHex(header.hash()) !== bytesToUnprefixedHex(hash)) (header as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hash
  const forkBlock = new Block(header, [], [], common.isActivatedEIP(4895) ? [] : undefined, { common })
  const record: BlockRecord = { block: forkBlock, hash, number, transactions: [], logs: [], size: Number(block.size ?? 0) }

  const accounts = deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? CHAIN_DEFAULTS.accounts)
  const world = new WorldState(common)
  const adjust = devAdjustment(new Set(accounts.map((a) => bytesToUnprefixedHex(a.address))), options.balance ?? CHAIN_DEFAULTS.balance, common)
  world.forkFrom(new UpstreamState({ source, blockNumber: number, world, keccak, adjust }))
  const deterministic = options.deterministic
  const clock = new Clock(
    deterministic === undefined || deterministic === false
      ? undefined
      : { genesisTimestamp: timestamp, blockTime: (deterministic === true ? undefined : deterministic.blockTime) ?? 12n },
  )
  return Chain.assemble({
    common,
    accounts,
    world,
    clock,
    blocks: [record],
    options: { ...options, blockGasLimit: options.blockGasLimit ?? header.gasLimit },
    fork: { source, blockNumber: number, blockHash: block.hash },
    olderHash: upstreamHashes(source, number),
  })
}

function upstreamBlock(source: ForkSource, tag: string, json: unknown): JSONRPCBlock {
  const block = json as Partial<JSONRPCBlock> | null
  if (block === null || typeof block !== 'object') throw new ForkSourceError(source.label, 'eth_getBlockByNumber', `block ${tag} not found`)
  for (const field of ['number', 'hash', 'timestamp', 'gasLimit', 'parentHash'] as const) {
    if (typeof block[field] !== 'string') throw new ForkSourceError(source.label, 'eth_getBlockByNumber', `block ${tag} has no ${field}`)
  }
  return block as JSONRPCBlock
}

/**
 * The hardfork the upstream's block runs under: from the schedule of a public network ethereumjs
 * knows, else the newest fork whose header fields the block carries.
 */
function upstreamHardfork(chainId: bigint, block: JSONRPCBlock, number: bigint, timestamp: bigint): string {
  const known = [Mainnet, Sepolia, Holesky, Hoodi].find((chain) => BigInt(chain.chainId) === chainId)
  if (known !== undefined) return new Common({ chain: known }).getHardforkBy({ blockNumber: number, timestamp })
  if (block.requestsHash !== undefined) return 'prague'
  if (block.parentBeaconBlockRoot !== undefined) return 'cancun'
  if (block.withdrawalsRoot !== undefined) return 'shanghai'
  if (block.baseFeePerGas !== undefined) return BigInt(block.difficulty ?? '0x0') === 0n ? 'paris' : 'london'
  return 'berlin'
}

/**
 * What a dev chain changes at the fork: its dev accounts hold `balance` (nonce and code stay the
 * upstream's), and a system contract its hardfork needs is installed where the upstream has none.
 */
function devAdjustment(devAccounts: ReadonlySet<string>, balance: bigint, common: Common): AccountAdjustment {
  const systemCode = new Map(
    SYSTEM_CONTRACTS.filter((contract) => common.gteHardfork(contract.fork)).map((contract) => [contract.address.slice(2), hexToBytes(contract.code as `0x${string}`)]),
  )
  return (address, fetched) => {
    const code = systemCode.get(address)
    if (code !== undefined && fetched.code.length === 0) return { ...fetched, nonce: fetched.nonce > 0n ? fetched.nonce : 1n, code }
    return devAccounts.has(address) ? { ...fetched, balance } : fetched
  }
}

/** BLOCKHASH of the upstream's blocks up to the fork: fetched once each when a transaction asks. */
function upstreamHashes(source: ForkSource, forkNumber: bigint): (number: bigint) => Promise<Uint8Array | undefined> {
  const hashes = new Map<string, Promise<Uint8Array | undefined>>()
  return (number) => {
    if (number > forkNumber || number < 0n) return Promise.resolve(undefined)
    return once(hashes, number.toString(), async () => {
      const block = (await source.request('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])) as { hash?: unknown } | null
      if (typeof block?.hash !== 'string') throw new ForkSourceError(source.label, 'eth_getBlockByNumber', `block ${number} not found`)
      return hexToBytes(block.hash as `0x${string}`)
    })
  }
}
