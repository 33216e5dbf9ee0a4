import type { Common } from '@ethereumjs/common';
import { type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { type AccessListCall, type AccessListResult } from './accessList.js';
import { Clock } from './clock.js';
import { type DevAccount } from './genesis.js';
import type { GenesisFacts } from './forkConfig.js';
import { type SlotDerivation } from './preimages.js';
import type { AccountProof } from './proofs.js';
import { WorldState, type StateReader } from './state.js';
import { type StorageWrite } from './storageChanges.js';
import type { BlockRecord, BlockRef, IncludedTx, MiningMode, PendingTx, TxLookup } from './types.js';
/** Options of a chain. Every field has a default; the same options always give the same genesis. */
export interface ChainOptions {
    /** Chain id. Default 31337. */
    chainId?: bigint;
    /** Fork rules, from `chainstart` (alias `frontier`) to the newest. Default: the newest mainnet fork ethereumjs supports. */
    hardfork?: string;
    /** Gas limit of every block. Default 30,000,000. */
    blockGasLimit?: bigint;
    /** Base fee of the genesis block (EIP-1559 forks). Default 1 gwei. */
    baseFee?: bigint;
    /** BIP-39 mnemonic of the dev accounts. Default `test test … junk`. */
    mnemonic?: string;
    /** Number of dev accounts. Default 10. */
    accounts?: number;
    /** Balance of each dev account, in wei. Default 10,000 ETH. */
    balance?: bigint;
    /** Number of blocks kept (the window). Default 128. */
    window?: number;
    /** How far `safe` lags the head. Default 32. */
    safeLag?: number;
    /** How far `finalized` lags the head. Default 64. */
    finalizedLag?: number;
    /** Mining mode at start. Default automine. */
    mining?: MiningMode;
    /** Fixed genesis timestamp and 12 s per block, so the same inputs give the same hashes. Default false (wall clock). */
    deterministic?: boolean | {
        genesisTimestamp?: bigint;
        blockTime?: bigint;
    };
    /** Fee recipient of mined blocks. Default the zero address. */
    coinbase?: Uint8Array;
    /** Crypto given to ethereumjs (native secp256k1, KZG). */
    customCrypto?: import('@ethereumjs/common').CustomCrypto;
    /** Where mining errors are reported. Default: stderr. */
    logger?: {
        error(message: string): void;
    };
}
/** Parameters of a call or gas estimate. */
export interface CallParams {
    from?: Uint8Array;
    to?: Uint8Array;
    gas?: bigint;
    gasPrice?: bigint;
    maxFeePerGas?: bigint;
    maxPriorityFeePerGas?: bigint;
    value?: bigint;
    data?: Uint8Array;
}
/** The outcome of a call. */
export interface CallResult {
    readonly returnValue: Uint8Array;
    readonly gasUsed: bigint;
}
/** What the blocks to come are built with. Test controls change it; a snapshot keeps it. */
export interface BlockSettings {
    /** Gas limit of every block from the next one on. */
    readonly gasLimit: bigint;
    /** Fee recipient of every block from the next one on. */
    readonly coinbase: Uint8Array;
    /** Base fee of the next block only, in place of the one its parent implies (anvil_setNextBlockBaseFeePerGas). */
    readonly nextBaseFee: bigint | undefined;
}
/** A non-zero storage slot (unprefixed hex; the value without leading zeros) and how it was computed, when known. */
export interface StorageSlot {
    readonly slot: string;
    readonly value: Uint8Array;
    readonly derivation: SlotDerivation | undefined;
}
/** A slot a block or transaction changed, and how it was computed, when known. */
export interface StorageChange extends StorageWrite {
    readonly derivation: SlotDerivation | undefined;
}
/** Listeners for subscriptions and filters. */
export interface ChainEvents {
    block: (record: BlockRecord) => void;
    pending: (entry: PendingTx) => void;
}
export declare class Chain {
    #private;
    readonly common: Common;
    readonly accounts: readonly DevAccount[];
    readonly window: number;
    readonly safeLag: number;
    readonly finalizedLag: number;
    /** The genesis block's hash and time (fork ids start from them), kept after genesis leaves the window. */
    readonly genesis: GenesisFacts;
    private constructor();
    /** Creates a dev chain: genesis with funded dev accounts and the system contracts its fork needs. */
    static create(options?: ChainOptions): Promise<Chain>;
    /**
     * Wires a chain around a world state whose head is the last of `blocks` (genesis, or the blocks
     * of an imported chain, oldest first; only the last `window` are kept).
     * @internal for `import.ts`
     */
    static assemble(init: {
        common: Common;
        accounts: DevAccount[];
        world: WorldState;
        clock: Clock;
        blocks: readonly BlockRecord[];
        /** The genesis block, when `blocks` no longer starts with it (an import longer than the window). */
        genesis?: BlockRecord;
        options: ChainOptions;
    }): Promise<Chain>;
    get head(): BlockRecord;
    /** The oldest block still in the window. */
    get oldest(): BlockRecord;
    blockByNumber(number: bigint): BlockRecord | undefined;
    blockByHash(hash: Uint8Array): BlockRecord | undefined;
    /** Number of the block a tag names (`pending` names the head here; see `pendingBlock`). */
    tagNumber(tag: 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'): bigint;
    /**
     * The block a reference names. A number before the window: `BlockOutOfWindowError`; after the
     * head: `FutureBlockError`; an unknown hash: `UnknownBlockError`.
     */
    resolveBlock(ref: BlockRef): BlockRecord;
    /** The state as of a block reference; `pending` is the head plus the executable pool transactions. */
    stateAt(ref: BlockRef): Promise<StateReader>;
    /** Synchronous state view for references other than `pending`. */
    stateAtBlock(record: BlockRecord): StateReader;
    /** A transaction by hash: pending, included in a block of the window, or unknown (undefined). */
    lookupTransaction(hash: Uint8Array): TxLookup | undefined;
    /** Decodes, validates and pools a signed raw transaction; mines it at once in automine mode. */
    sendRawTransaction(raw: Uint8Array): Promise<Uint8Array>;
    /** Pools a decoded transaction (signed, or with an impersonated sender). */
    addTransaction(tx: TypedTransaction, sender?: Address): Promise<Uint8Array>;
    /** Removes a pending transaction; true if it was pending. */
    dropTransaction(hash: Uint8Array): Promise<boolean>;
    /** The pool, split into executable and queued transactions per sender. */
    poolContent(): {
        executable: Map<string, PendingTx[]>;
        queued: Map<string, PendingTx[]>;
    };
    /** The nonce the next transaction of `address` should carry, counting its executable pool transactions. */
    pendingNonce(address: Uint8Array): bigint;
    /** Base fee of the next block (undefined before London). */
    nextBaseFee(): bigint | undefined;
    /** Gas limit of the blocks to come. */
    get blockGasLimit(): bigint;
    get blockSettings(): BlockSettings;
    /**
     * Changes what the blocks to come are built with (anvil's `evm_setBlockGasLimit`, `anvil_setCoinbase`,
     * `anvil_setNextBlockBaseFeePerGas`). A next base fee needs EIP-1559 and holds for one block.
     */
    setBlockSettings(changes: Partial<BlockSettings>): Promise<void>;
    /**
     * Spaces every next block's timestamp `seconds` after its parent's (`undefined`: back to the
     * clock); returns whether an interval was set before.
     */
    setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean>;
    get miningMode(): MiningMode;
    setMiningMode(mode: MiningMode): Promise<void>;
    /**
     * Mines `count` blocks; the first takes the executable pool transactions that fit, and so does
     * each next one while any are left. `interval` spaces the timestamps by that many seconds.
     */
    mine(count?: bigint, interval?: bigint): Promise<BlockRecord[]>;
    /**
     * The block the pool would make now, on top of the head (not part of the chain), with its state.
     * Built once and kept until the head or the pool changes.
     */
    pendingBlock(): Promise<{
        record: BlockRecord;
        state: StateReader;
    }>;
    /** The non-zero slots of an account at a block of the window, each with how it was computed when the recorded preimages tell. */
    storageSlots(address: Uint8Array, record: BlockRecord): StorageSlot[];
    /** The storage changes a block of the window made (system calls and test-control writes included). */
    blockStorageChanges(record: BlockRecord): StorageChange[];
    /** The storage changes an included transaction made; undefined when its block was imported rather than mined here. */
    transactionStorageChanges(included: IncludedTx): StorageChange[] | undefined;
    /** Moves time forward; returns the total offset in seconds. */
    increaseTime(seconds: bigint): Promise<bigint>;
    /** The next block gets exactly `timestamp`. */
    setNextBlockTimestamp(timestamp: bigint): Promise<void>;
    /** Runs a call against the state of `ref` without changing anything. */
    call(params: CallParams, ref: BlockRef): Promise<CallResult>;
    /** The least gas with which the call succeeds, found by binary search as geth does. */
    estimateGas(params: CallParams, ref: BlockRef): Promise<bigint>;
    /** The access list of a call at `ref`, found as geth's `eth_createAccessList` finds it (see `accessList.ts`). */
    createAccessList(params: AccessListCall, ref: BlockRef): Promise<AccessListResult>;
    /**
     * EIP-1186 proof of an account and some of its 32-byte slots at `ref`: any block of the window
     * (see `WorldState.prove` for what an older block costs) or the pending block.
     */
    proof(address: Uint8Array, slots: readonly Uint8Array[], ref: BlockRef): Promise<AccountProof>;
    setBalance(address: Uint8Array, balance: bigint): Promise<void>;
    setNonce(address: Uint8Array, nonce: bigint): Promise<void>;
    setCode(address: Uint8Array, code: Uint8Array): Promise<void>;
    /** Writes a 32-byte word at `slot` (the value is left-padded to 32 bytes). */
    setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>;
    /** Takes a snapshot of the whole chain; returns its id. */
    snapshot(): Promise<number>;
    /** Puts the whole chain back as it was at snapshot `id`; false if there is no such snapshot. The snapshot stays usable. */
    revert(id: number): Promise<boolean>;
    on<K extends keyof ChainEvents>(event: K, listener: ChainEvents[K]): () => void;
    /** Stops interval mining; idempotent. Pending operations finish. */
    close(): Promise<void>;
    get closed(): boolean;
}
/** The reason string of `Error(string)` or the panic code of `Panic(uint256)`, when the data is one. */
export declare function decodeRevertReason(data: Uint8Array): string | undefined;
