import { MerklePatriciaTrie, createMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Account, KECCAK256_RLP, MapDB, ValueEncoding, bytesToBigInt, bytesToUnprefixedHex, createAccountFromRLP, equalsBytes, unprefixedHexToBytes, } from '@ethereumjs/util';
/**
 * Builds the account trie and the account's storage trie of `source` over a scratch layer and
 * proves `address` and each of `slots` (32-byte keys, unprefixed hex). Throws if the storage
 * trie it rebuilt does not hash to the storage root its account leaf names (a broken history).
 */
export async function buildProof(source, slots) {
    const overlay = new OverlayMap(source.nodes);
    const trie = (root) => new MerklePatriciaTrie({ db: new MapDB(overlay), valueEncoding: ValueEncoding.Bytes, useKeyHashing: true, common: source.common, root });
    const accountTrie = trie(source.root);
    for (const [address, record] of source.accounts) {
        const key = unprefixedHexToBytes(address);
        if (record === undefined)
            await accountTrie.del(key);
        else
            await accountTrie.put(key, encodeRecord(record));
    }
    const addressBytes = unprefixedHexToBytes(source.address);
    const leaf = await accountTrie.get(addressBytes);
    const account = leaf === null ? undefined : decodeAccount(leaf);
    const accountProof = await proofOf(accountTrie, addressBytes);
    const storageProof = [];
    const storageRoot = account?.storageRoot ?? KECCAK256_RLP;
    if (equalsBytes(storageRoot, KECCAK256_RLP)) {
        // No storage (or no account): geth proves nothing and answers zero.
        for (const slot of slots)
            storageProof.push({ slot: unprefixedHexToBytes(slot), value: 0n, proof: [] });
    }
    else {
        const storageTrie = trie(source.storageRoot ?? storageRoot);
        for (const [slot, value] of source.slots) {
            if (value.length === 0)
                await storageTrie.del(unprefixedHexToBytes(slot));
            else
                await storageTrie.put(unprefixedHexToBytes(slot), RLP.encode(value));
        }
        if (!equalsBytes(storageTrie.root(), storageRoot)) {
            throw new Error(`storage trie of 0x${source.address} does not hash to its account's storage root`);
        }
        for (const slot of slots) {
            const key = unprefixedHexToBytes(slot);
            const stored = await storageTrie.get(key);
            const value = stored === null ? 0n : bytesToBigInt(RLP.decode(stored));
            storageProof.push({ slot: key, value, proof: await proofOf(storageTrie, key) });
        }
    }
    return { address: addressBytes, account, accountProof, storageProof };
}
/**
 * The nodes on the path to `key`, root first, as geth's `Prove` lists them: a node embedded in its
 * parent (RLP shorter than 32 bytes) is not a proof element of its own, except the root.
 */
async function proofOf(trie, key) {
    const nodes = await createMerkleProof(trie, key);
    return nodes.filter((node, i) => i === 0 || node.length >= 32);
}
function encodeRecord(record) {
    return new Account(record.nonce, record.balance, record.storageRoot, record.codeHash).serialize();
}
function decodeAccount(leaf) {
    const account = createAccountFromRLP(leaf);
    return { nonce: account.nonce, balance: account.balance, storageRoot: account.storageRoot, codeHash: account.codeHash };
}
/** A node map whose writes stay local and whose reads fall through to `base`. */
class OverlayMap extends Map {
    #base;
    constructor(base) {
        super();
        this.#base = base;
    }
    get(key) {
        return super.get(key) ?? this.#base.get(key);
    }
    has(key) {
        return super.has(key) || this.#base.has(key);
    }
}
/** Whether `nodes` holds the root node of a trie (the empty trie needs none). */
export function holdsRoot(nodes, root) {
    return equalsBytes(root, KECCAK256_RLP) || nodes.has(bytesToUnprefixedHex(root));
}
//# sourceMappingURL=proofs.js.map