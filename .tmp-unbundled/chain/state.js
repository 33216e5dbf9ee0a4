/**
 * World state: the head state as flat maps, a per-key history of the window, and the Merkle tries
 * that give state roots.
 *
 * Owns: reading any account, slot or code at the head or at any block of the window (a map lookup
 * plus a short binary search, whatever the block's age), committing a block's net changes, evicting
 * a block's history, computing state roots, and keeping memory flat.
 * Leaves to others: execution (`stateManager.ts` journals the VM's writes and hands the net changes
 * here), which blocks are in the window (`chain.ts` tells us when one leaves).
 *
 * Why this shape: ethereumjs's Merkle state keeps every trie node of every block forever. Like a
 * near-head geth (head state plus one diff layer per block), we keep the head state flat and, per
 * key, the values it had before each block of the window changed it. The tries are persistent
 * (content-addressed nodes in one map) and only used to compute roots; when garbage nodes pile up
 * they are rebuilt from the flat state, so memory follows the live state, not the chain's age.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Account, KECCAK256_NULL, KECCAK256_RLP, MapDB, ValueEncoding, bytesToUnprefixedHex, unprefixedHexToBytes, } from '@ethereumjs/util';
import { buildProof, holdsRoot } from './proofs.js';
/** A zero storage value: slots hold their value without leading zeros, so zero is empty. */
export const EMPTY = new Uint8Array(0);
export function emptyChanges() {
    return { accounts: new Map(), storage: new Map(), cleared: new Set(), code: new Map() };
}
const EMPTY_CODE_HASH = bytesToUnprefixedHex(KECCAK256_NULL);
/**
 * Garbage trie nodes tolerated before a rebuild: at least this many, and at least as many as there
 * are live nodes, so a rebuild's cost (proportional to the live state) is paid back over many blocks.
 */
const TRIE_GC_MIN_SLACK = 20_000;
export class WorldState {
    #accounts = new Map();
    #storage = new Map();
    #code = new Map();
    #accountHistory = new Map();
    #storageHistory = new Map();
    #byBlock = new Map();
    #nodes = new Map();
    #liveNodes = 0;
    #root = KECCAK256_RLP;
    #common;
    /** The live head state. */
    head = {
        account: (address) => this.#accounts.get(address),
        storage: (address, slot) => this.#storage.get(address)?.get(slot) ?? EMPTY,
        code: (codeHash) => (codeHash === EMPTY_CODE_HASH ? EMPTY : this.#code.get(codeHash)),
    };
    constructor(common) {
        this.#common = common;
        this.#code.set(EMPTY_CODE_HASH, EMPTY);
    }
    /** State root of the head state. */
    get root() {
        return this.#root;
    }
    /** The state as of the end of block `number` (which the caller has checked is in the window). */
    at(number) {
        return {
            account: (address) => this.accountAt(address, number),
            storage: (address, slot) => this.storageAt(address, slot, number),
            code: this.head.code,
        };
    }
    accountAt(address, number) {
        const changes = this.#accountHistory.get(address);
        if (changes !== undefined) {
            const change = firstAfter(changes, number);
            if (change !== undefined)
                return change.before;
        }
        return this.#accounts.get(address);
    }
    storageAt(address, slot, number) {
        const changes = this.#storageHistory.get(address + slot);
        if (changes !== undefined) {
            const change = firstAfter(changes, number);
            if (change !== undefined)
                return change.before;
        }
        return this.#storage.get(address)?.get(slot) ?? EMPTY;
    }
    /** Every non-zero slot of an account at the head. */
    slots(address) {
        return this.#storage.get(address) ?? new Map();
    }
    /** The `[address, slot]` pairs whose value block `number` changed, once each (empty once it left the window). */
    changedSlots(number) {
        const keys = this.#byBlock.get(number)?.storage ?? [];
        // A key is address (40 hex digits) + slot (64); a block committed twice (a test-control write) may list one twice.
        return [...new Set(keys)].map((key) => [key.slice(0, 40), key.slice(40)]);
    }
    /**
     * EIP-1186 proof of `address` and `slots` (unprefixed hex) as of the end of block `number`,
     * which the caller has checked is in the window.
     *
     * Only the head's trie nodes are kept, so the blocks after `number` are undone on a scratch
     * layer over the head's tries: every account they changed, and this account's slots they
     * changed, are put back as they were. Cost: (accounts changed after `number` + this account's
     * slots changed after `number`) × trie depth node hashes, plus one history lookup each; nothing
     * in proportion to the whole state, and nothing shared is written. At the head it is just the
     * proof walk.
     */
    prove(address, slots, number) {
        // Everything is read now, before any await: a block mined meanwhile (which may evict this
        // history or swap the node map for a rebuilt one) cannot change what is proven.
        const accounts = new Set();
        const changed = new Set();
        for (const [block, keys] of this.#byBlock) {
            if (block <= number)
                continue;
            for (const account of keys.accounts)
                accounts.add(account);
            for (const key of keys.storage)
                if (key.startsWith(address))
                    changed.add(key.slice(40));
        }
        const source = {
            common: this.#common,
            nodes: this.#nodes,
            root: this.#root,
            accounts: [...accounts].map((account) => [account, this.accountAt(account, number)]),
            address,
            storageRoot: this.#accounts.get(address)?.storageRoot ?? KECCAK256_RLP,
            slots: [...changed].map((slot) => [slot, this.storageAt(address, slot, number)]),
        };
        return buildProof(source, slots);
    }
    /**
     * EIP-1186 proof against `root`, a state computed on top of the head (the pending block's), as
     * long as the tries still hold its nodes; undefined once a rebuild has dropped them.
     */
    proveAtRoot(root, address, slots) {
        if (!holdsRoot(this.#nodes, root))
            return undefined;
        return buildProof({ common: this.#common, nodes: this.#nodes, root, accounts: [], address, storageRoot: undefined, slots: [] }, slots);
    }
    /** Number of accounts at the head. */
    get accountCount() {
        return this.#accounts.size;
    }
    /**
     * Computes the state root the head would have with `changes` applied, without applying them.
     * The tries are persistent, so the head's root stays valid whatever is computed here.
     */
    async computeRoot(changes) {
        const accounts = new Map();
        const touched = new Set([...changes.accounts.keys(), ...changes.storage.keys(), ...changes.cleared]);
        const accountTrie = this.#trie(this.#root);
        // Writes that change nothing are skipped, not replayed into the tries: every block's system
        // calls write zeros over zeros (EIP-7002/7251 queues) and touch accounts they leave as they
        // were, and a trie update, even a no-op one, re-hashes its whole path.
        for (const address of touched) {
            const changed = changes.accounts.get(address);
            const head = this.#accounts.get(address);
            if (changed === null) {
                accounts.set(address, null);
                if (head !== undefined)
                    await accountTrie.del(unprefixedHexToBytes(address));
                continue;
            }
            const current = changed ?? head;
            if (current === undefined)
                continue; // storage written to an account that does not exist: nothing to store
            const cleared = changes.cleared.has(address);
            let storageRoot = cleared ? KECCAK256_RLP : (head?.storageRoot ?? KECCAK256_RLP);
            const writes = changes.storage.get(address);
            if (writes !== undefined && writes.size > 0) {
                const slots = cleared ? undefined : this.#storage.get(address);
                let storageTrie;
                for (const [slot, value] of writes) {
                    const before = slots?.get(slot) ?? EMPTY;
                    if (equal(before, value))
                        continue;
                    storageTrie ??= this.#trie(storageRoot);
                    if (value.length === 0)
                        await storageTrie.del(unprefixedHexToBytes(slot));
                    else
                        await storageTrie.put(unprefixedHexToBytes(slot), RLP.encode(value));
                }
                if (storageTrie !== undefined)
                    storageRoot = storageTrie.root();
            }
            const record = equal(current.storageRoot, storageRoot) ? current : { ...current, storageRoot };
            accounts.set(address, record);
            if (head !== undefined && sameAccount(head, record))
                continue;
            await accountTrie.put(unprefixedHexToBytes(address), encodeAccount(record));
        }
        return { root: accountTrie.root(), accounts };
    }
    /**
     * Makes `changes` the head state, remembering for each changed key its value before `block`, so
     * that reads at earlier blocks of the window still see it.
     */
    async commit(changes, computed, block) {
        const keys = this.#byBlock.get(block) ?? { accounts: [], storage: [] };
        this.#byBlock.set(block, keys);
        for (const [hash, code] of changes.code)
            this.#code.set(hash, code);
        for (const address of changes.cleared) {
            const slots = this.#storage.get(address);
            if (slots === undefined)
                continue;
            for (const [slot, value] of slots)
                this.#recordSlot(keys, block, address, slot, value);
            this.#storage.delete(address);
        }
        for (const [address, writes] of changes.storage) {
            if (computed.accounts.get(address) === null)
                continue;
            let slots = this.#storage.get(address);
            for (const [slot, value] of writes) {
                const before = slots?.get(slot) ?? EMPTY;
                if (equal(before, value))
                    continue;
                this.#recordSlot(keys, block, address, slot, before);
                if (value.length === 0) {
                    slots?.delete(slot);
                }
                else {
                    if (slots === undefined)
                        this.#storage.set(address, (slots = new Map()));
                    slots.set(slot, value);
                }
            }
            if (slots !== undefined && slots.size === 0)
                this.#storage.delete(address);
        }
        for (const [address, record] of computed.accounts) {
            const before = this.#accounts.get(address);
            if (record === null) {
                // A deleted account takes its storage with it.
                const slots = this.#storage.get(address);
                if (slots !== undefined) {
                    for (const [slot, value] of slots)
                        this.#recordSlot(keys, block, address, slot, value);
                    this.#storage.delete(address);
                }
                if (before === undefined)
                    continue;
                this.#recordAccount(keys, block, address, before);
                this.#accounts.delete(address);
            }
            else {
                if (before !== undefined && sameAccount(before, record))
                    continue;
                this.#recordAccount(keys, block, address, before);
                this.#accounts.set(address, record);
            }
        }
        this.#root = computed.root;
        if (this.#nodes.size > 2 * this.#liveNodes + TRIE_GC_MIN_SLACK)
            await this.rebuildTries();
    }
    /** Forgets what `block` changed: reads at blocks before it are no longer possible. */
    evict(block) {
        const keys = this.#byBlock.get(block);
        if (keys === undefined)
            return;
        this.#byBlock.delete(block);
        dropOldest(this.#accountHistory, keys.accounts, block);
        dropOldest(this.#storageHistory, keys.storage, block);
    }
    snapshot() {
        return {
            accounts: new Map(this.#accounts),
            storage: new Map([...this.#storage].map(([a, slots]) => [a, new Map(slots)])),
            code: new Map(this.#code),
            accountHistory: new Map([...this.#accountHistory].map(([k, v]) => [k, [...v]])),
            storageHistory: new Map([...this.#storageHistory].map(([k, v]) => [k, [...v]])),
            byBlock: new Map([...this.#byBlock].map(([b, k]) => [b, { accounts: [...k.accounts], storage: [...k.storage] }])),
            root: this.#root,
        };
    }
    /** Puts back a snapshot (which stays usable: it is copied, not adopted). */
    async restore(snapshot) {
        const copy = cloneSnapshot(snapshot);
        this.#accounts = copy.accounts;
        this.#storage = copy.storage;
        this.#code = copy.code;
        this.#accountHistory = copy.accountHistory;
        this.#storageHistory = copy.storageHistory;
        this.#byBlock = copy.byBlock;
        await this.rebuildTries();
        if (!equal(this.#root, snapshot.root))
            throw new Error('state root mismatch after restoring a snapshot');
    }
    /** Rebuilds the tries from the flat head state into a fresh node map (drops garbage nodes). */
    async rebuildTries() {
        this.#nodes = new Map();
        const accountTrie = this.#trie(KECCAK256_RLP);
        for (const [address, record] of this.#accounts) {
            const slots = this.#storage.get(address);
            let storageRoot = KECCAK256_RLP;
            if (slots !== undefined && slots.size > 0) {
                const storageTrie = this.#trie(KECCAK256_RLP);
                for (const [slot, value] of slots)
                    await storageTrie.put(unprefixedHexToBytes(slot), RLP.encode(value));
                storageRoot = storageTrie.root();
            }
            const fixed = equal(storageRoot, record.storageRoot) ? record : { ...record, storageRoot };
            if (fixed !== record)
                this.#accounts.set(address, fixed);
            await accountTrie.put(unprefixedHexToBytes(address), encodeAccount(fixed));
        }
        this.#root = accountTrie.root();
        this.#liveNodes = this.#nodes.size;
        this.#collectCode();
    }
    /** Number of trie nodes held (live and garbage): for memory tests. */
    get trieNodeCount() {
        return this.#nodes.size;
    }
    #collectCode() {
        const live = new Set([EMPTY_CODE_HASH]);
        for (const record of this.#accounts.values())
            live.add(bytesToUnprefixedHex(record.codeHash));
        for (const changes of this.#accountHistory.values()) {
            for (const change of changes)
                if (change.before !== undefined)
                    live.add(bytesToUnprefixedHex(change.before.codeHash));
        }
        for (const hash of this.#code.keys())
            if (!live.has(hash))
                this.#code.delete(hash);
    }
    #recordAccount(keys, block, address, before) {
        let changes = this.#accountHistory.get(address);
        if (changes === undefined)
            this.#accountHistory.set(address, (changes = []));
        changes.push({ block, before });
        keys.accounts.push(address);
    }
    #recordSlot(keys, block, address, slot, before) {
        const key = address + slot;
        let changes = this.#storageHistory.get(key);
        if (changes === undefined)
            this.#storageHistory.set(key, (changes = []));
        changes.push({ block, before });
        keys.storage.push(key);
    }
    #trie(root) {
        return new MerklePatriciaTrie({
            db: new MapDB(this.#nodes),
            valueEncoding: ValueEncoding.Bytes,
            useKeyHashing: true,
            common: this.#common,
            root,
        });
    }
}
/** The first change made after block `number`: its `before` is the value at `number`. */
function firstAfter(changes, number) {
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (changes[mid].block > number)
            hi = mid;
        else
            lo = mid + 1;
    }
    return changes[lo];
}
function dropOldest(history, keys, block) {
    for (const key of keys) {
        const changes = history.get(key);
        if (changes === undefined)
            continue;
        let n = 0;
        while (n < changes.length && changes[n].block <= block)
            n++;
        if (n === changes.length)
            history.delete(key);
        else if (n > 0)
            changes.splice(0, n);
    }
}
function cloneSnapshot(s) {
    return {
        accounts: new Map(s.accounts),
        storage: new Map([...s.storage].map(([a, slots]) => [a, new Map(slots)])),
        code: new Map(s.code),
        accountHistory: new Map([...s.accountHistory].map(([k, v]) => [k, [...v]])),
        storageHistory: new Map([...s.storageHistory].map(([k, v]) => [k, [...v]])),
        byBlock: new Map([...s.byBlock].map(([b, k]) => [b, { accounts: [...k.accounts], storage: [...k.storage] }])),
        root: s.root,
    };
}
export function encodeAccount(record) {
    return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash).serialize();
}
function sameAccount(a, b) {
    return (a.nonce === b.nonce &&
        a.balance === b.balance &&
        equal(a.codeHash, b.codeHash) &&
        equal(a.storageRoot, b.storageRoot));
}
export function equal(a, b) {
    if (a === b)
        return true;
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i])
            return false;
    return true;
}
/** A new account record with no code and no storage. */
export function newAccount(fields = {}) {
    return { nonce: fields.nonce ?? 0n, balance: fields.balance ?? 0n, storageRoot: KECCAK256_RLP, codeHash: KECCAK256_NULL, codeSize: 0 };
}
//# sourceMappingURL=state.js.map