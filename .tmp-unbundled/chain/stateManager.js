import { OriginalStorageCache } from '@ethereumjs/statemanager';
import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex, unpadBytes, } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EMPTY, emptyChanges } from './state.js';
export class RingStateManager {
    originalStorageCache;
    #reader;
    #layers = [emptyChanges()];
    #keccak;
    #computeRoot;
    #rootCache;
    #version = 0;
    constructor(reader, options = {}) {
        this.#reader = reader;
        this.#keccak = options.keccak ?? keccak_256;
        this.#computeRoot = options.computeRoot;
        this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
    }
    /** The net changes of everything committed so far (the bottom layer). */
    get changes() {
        return this.#layers[0];
    }
    /** Drops all pending writes and reads from `reader` from now on. */
    reset(reader) {
        if (reader !== undefined)
            this.#reader = reader;
        this.#layers = [emptyChanges()];
        this.#rootCache = undefined;
        this.#version++;
        this.originalStorageCache.clear();
    }
    // --- reads ---------------------------------------------------------------------------------
    /** The account record as this view sees it (undefined: no account). */
    accountRecord(address) {
        for (let i = this.#layers.length - 1; i >= 0; i--) {
            const layer = this.#layers[i];
            const record = layer.accounts.get(address);
            if (record !== undefined)
                return record ?? undefined;
        }
        return this.#reader.account(address);
    }
    storageValue(address, slot) {
        for (let i = this.#layers.length - 1; i >= 0; i--) {
            const layer = this.#layers[i];
            const value = layer.storage.get(address)?.get(slot);
            if (value !== undefined)
                return value;
            if (layer.cleared.has(address) || layer.accounts.get(address) === null)
                return EMPTY;
        }
        return this.#reader.storage(address, slot);
    }
    codeOf(codeHash) {
        const key = bytesToUnprefixedHex(codeHash);
        for (let i = this.#layers.length - 1; i >= 0; i--) {
            const code = this.#layers[i].code.get(key);
            if (code !== undefined)
                return code;
        }
        return this.#reader.code(key) ?? EMPTY;
    }
    async getAccount(address) {
        const record = this.accountRecord(bytesToUnprefixedHex(address.bytes));
        if (record === undefined)
            return undefined;
        return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash, record.codeSize);
    }
    async getCode(address) {
        const record = this.accountRecord(bytesToUnprefixedHex(address.bytes));
        return record === undefined ? EMPTY : this.codeOf(record.codeHash);
    }
    async getCodeSize(address) {
        return (await this.getCode(address)).length;
    }
    async getStorage(address, key) {
        if (key.length !== 32)
            throw new Error('Storage key must be 32 bytes long');
        return this.storageValue(bytesToUnprefixedHex(address.bytes), bytesToUnprefixedHex(key));
    }
    // --- writes --------------------------------------------------------------------------------
    async putAccount(address, account) {
        if (account === undefined)
            return this.deleteAccount(address);
        const key = bytesToUnprefixedHex(address.bytes);
        const previous = this.accountRecord(key);
        this.#top().accounts.set(key, {
            nonce: account.nonce,
            balance: account.balance,
            storageRoot: account.storageRoot,
            codeHash: account.codeHash,
            codeSize: account.codeSize ?? previous?.codeSize ?? 0,
        });
        this.#version++;
    }
    async deleteAccount(address) {
        const key = bytesToUnprefixedHex(address.bytes);
        const top = this.#top();
        top.accounts.set(key, null);
        top.storage.delete(key);
        top.cleared.add(key);
        this.#version++;
    }
    async modifyAccountFields(address, fields) {
        const account = (await this.getAccount(address)) ?? new Account();
        account.nonce = fields.nonce ?? account.nonce;
        account.balance = fields.balance ?? account.balance;
        account.storageRoot = fields.storageRoot ?? account.storageRoot;
        account.codeHash = fields.codeHash ?? account.codeHash;
        account.codeSize = fields.codeSize ?? account.codeSize;
        await this.putAccount(address, account);
    }
    async putCode(address, value) {
        const key = bytesToUnprefixedHex(address.bytes);
        const codeHash = value.length === 0 ? KECCAK256_NULL : this.#keccak(value);
        const top = this.#top();
        top.code.set(bytesToUnprefixedHex(codeHash), value);
        const previous = this.accountRecord(key);
        top.accounts.set(key, {
            nonce: previous?.nonce ?? 0n,
            balance: previous?.balance ?? 0n,
            storageRoot: previous?.storageRoot ?? KECCAK256_RLP,
            codeHash,
            codeSize: value.length,
        });
        this.#version++;
    }
    async putStorage(address, key, value) {
        if (key.length !== 32)
            throw new Error('Storage key must be 32 bytes long');
        if (value.length > 32)
            throw new Error('Storage value cannot be longer than 32 bytes');
        const top = this.#top();
        const addressKey = bytesToUnprefixedHex(address.bytes);
        let slots = top.storage.get(addressKey);
        if (slots === undefined)
            top.storage.set(addressKey, (slots = new Map()));
        slots.set(bytesToUnprefixedHex(key), unpadBytes(value));
        this.#version++;
    }
    async clearStorage(address) {
        const key = bytesToUnprefixedHex(address.bytes);
        const top = this.#top();
        top.storage.delete(key);
        top.cleared.add(key);
        this.#version++;
    }
    // --- journal -------------------------------------------------------------------------------
    async checkpoint() {
        this.#layers.push(emptyChanges());
    }
    async commit() {
        if (this.#layers.length < 2)
            throw new Error('commit without a checkpoint');
        const top = this.#layers.pop();
        mergeInto(this.#top(), top);
        if (this.#layers.length === 1)
            this.originalStorageCache.clear();
    }
    async revert() {
        if (this.#layers.length < 2)
            throw new Error('revert without a checkpoint');
        this.#layers.pop();
        this.#version++;
        if (this.#layers.length === 1)
            this.originalStorageCache.clear();
    }
    // --- roots ---------------------------------------------------------------------------------
    /** State root with every pending write applied (all layers, committed or not). */
    async getStateRoot() {
        return (await this.computeRoot()).root;
    }
    /** Roots for the pending writes; cached until the next write. */
    async computeRoot() {
        if (this.#computeRoot === undefined)
            throw new Error('this state view has no state root');
        if (this.#rootCache?.version === this.#version)
            return this.#rootCache.computed;
        const version = this.#version;
        const flattened = emptyChanges();
        for (const layer of this.#layers)
            mergeInto(flattened, layer);
        const computed = await this.#computeRoot(flattened);
        this.#rootCache = { version, computed };
        return computed;
    }
    async setStateRoot() {
        throw new Error('setStateRoot is not supported: the chain moves state through snapshots');
    }
    async hasStateRoot() {
        return false;
    }
    clearCaches() { }
    shallowCopy() {
        throw new Error('shallowCopy is not supported: build a view on the world state instead');
    }
    #top() {
        return this.#layers[this.#layers.length - 1];
    }
}
/** Applies the writes of `upper` on top of `lower`. */
function mergeInto(lower, upper) {
    for (const address of upper.cleared) {
        lower.cleared.add(address);
        lower.storage.delete(address);
    }
    for (const [address, record] of upper.accounts) {
        lower.accounts.set(address, record);
        if (record === null)
            lower.storage.delete(address);
    }
    for (const [address, slots] of upper.storage) {
        let target = lower.storage.get(address);
        if (target === undefined)
            lower.storage.set(address, (target = new Map()));
        for (const [slot, value] of slots)
            target.set(slot, value);
    }
    for (const [hash, code] of upper.code)
        lower.code.set(hash, code);
}
//# sourceMappingURL=stateManager.js.map