/**
 * The head state as a whole, out and in (anvil_dumpState / anvil_loadState): every account of the
 * head with the head block's fields, and making such a state the new head of a chain.
 *
 * Owns: reading the parts a dump needs and putting a loaded state in place across the parts
 * (state, window, pool, clock, miner settings).
 * Leaves to others: the file and wire format and its checks (`dumpState.ts`), running alone (`chain.ts`).
 */
import type { Common } from '@ethereumjs/common'
import { KECCAK256_NULL, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Clock } from './clock.js'
import { loadedHeadBlock, type ChainState, type DumpedAccount } from './dumpState.js'
import { newAccount } from './encoding.js'
import type { Miner } from './miner.js'
import { TxPool } from './pool.js'
import { EMPTY, emptyChanges, type WorldState } from './state.js'
import type { BlockWindow } from './window.js'

/** The parts of a chain a state dump reads or replaces. */
export interface HeadStateParts {
  readonly common: Common
  readonly world: WorldState
  readonly window: BlockWindow
  readonly pool: TxPool
  readonly clock: Clock
  readonly miner: Miner
  readonly keccak: (data: Uint8Array) => Uint8Array
}

/** The head block's fields and every account of the head state. */
export function exportHeadState(p: HeadStateParts): ChainState {
  const header = p.window.head.block.header
  const accounts = new Map<string, DumpedAccount>()
  for (const address of p.world.addresses()) {
    const record = p.world.head.account(address)!
    const code = p.world.head.code(bytesToUnprefixedHex(record.codeHash)) ?? EMPTY
    accounts.set(address, { nonce: record.nonce, balance: record.balance, code, storage: p.world.slots(address) })
  }
  const head = {
    number: header.number,
    timestamp: header.timestamp,
    gasLimit: header.gasLimit,
    baseFee: header.baseFeePerGas,
    coinbase: header.coinbase.bytes,
    prevrandao: header.mixHash,
    difficulty: header.difficulty,
    excessBlobGas: header.excessBlobGas,
    ...(header.excessBlobGas === undefined ? {} : { blobGasPrice: header.getBlobGasPrice() }),
    stateRoot: header.stateRoot,
  }
  return { head, nextBaseFee: p.miner.nextBaseFee(), accounts }
}

/**
 * Makes a dumped state the head: its accounts replace theirs (others are kept, as in anvil), in a
 * new head block with the dump's number, time and base fee, where the window starts again. The
 * pool is emptied; blocks to come take the dump's gas limit and coinbase.
 */
export async function loadHeadState(p: HeadStateParts, state: ChainState): Promise<void> {
  const changes = emptyChanges()
  for (const [address, account] of state.accounts) {
    const codeHash = account.code.length === 0 ? KECCAK256_NULL : p.keccak(account.code)
    if (account.code.length > 0) changes.code.set(bytesToUnprefixedHex(codeHash), account.code)
    changes.accounts.set(address, { ...newAccount(account), codeHash, codeSize: account.code.length })
    changes.cleared.add(address)
    if (account.storage.size > 0) changes.storage.set(address, new Map(account.storage))
  }
  // Nothing reads a block before the loaded head: its history, and the old blocks', go.
  for (let n = p.window.oldest.number; n <= p.window.head.number; n++) p.world.evict(n)
  const computed = await p.world.computeRoot(changes)
  const block = loadedHeadBlock(p.common, state.head, computed.root)
  await p.world.commit(changes, computed, block.header.number)
  p.world.evict(block.header.number)
  p.window.restore({ ring: [], recentHashes: new Map() })
  p.pool.restore(new TxPool().snapshot())
  p.clock.continueFrom(block.header.timestamp)
  const nextBaseFee = p.common.isActivatedEIP(1559) ? state.nextBaseFee : undefined
  p.miner.changeSettings({ gasLimit: state.head.gasLimit, coinbase: state.head.coinbase, nextBaseFee })
  p.miner.push({ block, hash: block.hash(), number: block.header.number, transactions: [], logs: [], size: block.serialize().length })
  p.miner.dropPending()
}
