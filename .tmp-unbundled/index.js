/** ringchain's public API: the only barrel file. */
export { CLIENT_VERSION, DEFAULT_API_KEY, DEFAULT_MAX_CHAINS, RingchainRpcError, createRingchain, startRingchain, } from './simulator.js';
export { Chain } from './chain/chain.js';
export * from './chain/errors.js';
export { ImportError } from './chain/import.js';
export { DEFAULT_HARDFORK, DEFAULT_MNEMONIC, HARDFORKS } from './chain/genesis.js';
export { runScenario, } from './scenario/run.js';
export { SCENARIO_SCHEMA_PATH, ScenarioFileError, loadScenario, parseScenario, } from './scenario/load.js';
export { wrapWithRecorder } from './scenario/record.js';
export { bytesDataSlots, decodeBytesHead, dynamicArrayElement, dynamicDataSlot, elementLocation, encodeKey, erc7201Slot, fixedArrayElement, mappingSlot, nestedMappingSlot, packedField, structMemberSlot, toSigned, } from './inspect/slots.js';
export { Layout, LayoutError, parseLayout } from './inspect/layout.js';
export { cachedReader, readAll, readResolved, renderVariables } from './inspect/read.js';
export { DEFAULT_RPC_URL, RpcCallError, StorageClient, eip1193Request, httpRequest } from './inspect/client.js';
//# sourceMappingURL=index.js.map