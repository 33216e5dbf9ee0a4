/** ringchain's public API: the only barrel file. */
export {
  CLIENT_VERSION,
  DEFAULT_API_KEY,
  RingchainRpcError,
  createRingchain,
  startRingchain,
  type AccountInfo,
  type RequestArguments,
  type Ringchain,
  type RingchainOptions,
  type RunningRingchain,
  type StartOptions,
} from './simulator.js'
export { Chain, type CallParams, type CallResult, type ChainOptions } from './chain/chain.js'
export * from './chain/errors.js'
export type { BlockRecord, BlockRef, BlockTag, IncludedTx, LogRecord, MiningMode, PendingTx, ReceiptRecord, TxLookup } from './chain/types.js'
export { DEFAULT_HARDFORK, DEFAULT_MNEMONIC, HARDFORKS } from './chain/genesis.js'
