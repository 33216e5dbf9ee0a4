/** ringchain's public API: the only barrel file. */
export {
  CLIENT_VERSION,
  DEFAULT_API_KEY,
  DEFAULT_MAX_CHAINS,
  InvalidProviderProfileError,
  RingchainRpcError,
  parseProviderProfile,
  createRingchain,
  startRingchain,
  type AccountInfo,
  type ConsoleLog,
  type ImportSource,
  type IsolateOptions,
  type ListeningRingchain,
  type ProviderBehaviour,
  type ProviderProfileJson,
  type RequestArguments,
  type Ringchain,
  type RingchainLogger,
  type RingchainOptions,
  type RunningRingchain,
  type StartOptions,
  type StateDump,
} from './simulator.js'
export { Chain, type CallParams, type CallResult, type ChainOptions } from './chain/chain.js'
export * from './chain/errors.js'
export { decodeConsoleLog } from './chain/console/decode.js'
export { ImportError } from './chain/import.js'
export { InvalidStateDumpError } from './chain/dumpState.js'
export type { BlockRecord, BlockRef, BlockTag, IncludedTx, LogRecord, MiningMode, PendingTx, ReceiptRecord, TxLookup } from './chain/types.js'
export { DEFAULT_MNEMONIC } from './chain/accounts.js'
export { DEFAULT_HARDFORK, HARDFORKS } from './chain/genesis.js'
export {
  runScenario,
  type MismatchReport,
  type RunEvent,
  type RunScenarioOptions,
  type ScenarioReport,
  type StepReport,
} from './scenario/run.js'
export {
  SCENARIO_SCHEMA_PATH,
  ScenarioFileError,
  loadScenario,
  parseScenario,
  type ScenarioDocument,
  type ScenarioProblem,
} from './scenario/load.js'
export { wrapWithRecorder, type Recorder, type RecorderOptions } from './recorder.js'
export {
  bytesDataSlots,
  decodeBytesHead,
  dynamicArrayElement,
  dynamicDataSlot,
  elementLocation,
  encodeKey,
  erc7201Slot,
  fixedArrayElement,
  mappingSlot,
  nestedMappingSlot,
  packedField,
  structMemberSlot,
  toSigned,
  type BytesHead,
  type KeyKind,
  type Location,
} from './inspect/slots.js'
export { Layout, parseLayout } from './inspect/layout.js'
export { LayoutError, type Derivation, type Resolved, type SolcStorageLayout, type WordField } from './inspect/types.js'
export { cachedReader, readAll, readResolved, renderVariables, type ReadOptions, type SlotReader, type Value, type VariableValue } from './inspect/read.js'
export { DEFAULT_RPC_URL, RpcCallError, StorageClient, eip1193Request, httpRequest, type ChangeEntry, type Diff, type SlotEntry } from './inspect/client.js'
