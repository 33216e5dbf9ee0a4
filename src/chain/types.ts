/**
 * The chain's vocabulary, written once.
 *
 * A transaction is *pending* (in the pool), *included* (in a block of the window) or unknown.
 * Inside the pool a pending transaction is *executable* (its nonce is next in line for its sender)
 * or *queued* (a nonce gap holds it back). A block is *in the window* while it is one of the latest
 * `window` blocks; everything it owns (transactions, receipts, logs, state history) leaves with it.
 *
 * Everything here speaks bigint and Uint8Array: hex strings belong to `src/rpc/`.
 */
import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'

/** How blocks get mined. */
export const MiningModes = ['auto', 'interval', 'manual'] as const
export type MiningMode =
  | { readonly mode: 'auto' }
  | { readonly mode: 'interval'; readonly blockTimeMs: number }
  | { readonly mode: 'manual' }

/** Block tags as a client names them. */
export const BlockTags = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const
export type BlockTag = (typeof BlockTags)[number]

/** Where a state read or a block lookup points. */
export type BlockRef =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: bigint }
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical?: boolean }

/** A log, with its place in the chain fixed when its block was mined. */
export interface LogRecord {
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
  /** Position of the log in its block (counts across the whole block). */
  readonly logIndex: number
  readonly transactionIndex: number
  readonly transactionHash: Uint8Array
  readonly blockHash: Uint8Array
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
}

/** A receipt, built once when its block is mined. Exactly one of `status` and `root` is set. */
export interface ReceiptRecord {
  readonly status?: 0 | 1
  /** Post-transaction state root, before Byzantium. */
  readonly root?: Uint8Array
  readonly cumulativeGasUsed: bigint
  readonly gasUsed: bigint
  readonly effectiveGasPrice: bigint
  /** Set for every creation, also a failed one. */
  readonly contractAddress: Uint8Array | undefined
  readonly logs: readonly LogRecord[]
  readonly logsBloom: Uint8Array
  readonly blobGasUsed?: bigint
  readonly blobGasPrice?: bigint
}

/** A transaction included in a block of the window. */
export interface IncludedTx {
  readonly tx: TypedTransaction
  readonly hash: Uint8Array
  readonly from: Uint8Array
  readonly blockHash: Uint8Array
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  readonly index: number
  readonly receipt: ReceiptRecord
}

/** A transaction waiting in the pool. */
export interface PendingTx {
  readonly tx: TypedTransaction
  readonly hash: Uint8Array
  readonly from: Uint8Array
  /** Arrival order, to break ties between equal tips. */
  readonly seq: number
}

/** A mined block and everything it owns. */
export interface BlockRecord {
  readonly block: Block
  readonly hash: Uint8Array
  readonly number: bigint
  /** One per transaction of `block`, in its order. A mined block's are built when first read, then kept. */
  readonly transactions: readonly IncludedTx[]
  /** The logs of every transaction, in block order (built with `transactions`). */
  readonly logs: readonly LogRecord[]
  /** RLP size of the whole block in bytes. */
  readonly size: number
}

/** What a lookup of a transaction hash finds. */
export type TxLookup =
  | { readonly status: 'pending'; readonly pending: PendingTx }
  | { readonly status: 'included'; readonly included: IncludedTx }

/** An account as stored in the state. */
export interface AccountRecord {
  readonly nonce: bigint
  readonly balance: bigint
  readonly storageRoot: Uint8Array
  readonly codeHash: Uint8Array
  readonly codeSize: number
}
