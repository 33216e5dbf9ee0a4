import { ScenarioValueError, isAddress, isHash, show } from './values.js';
/** What `as:` keeps of a sent transaction (and, for a deployment, of the contract). */
export class TxCapture {
    hash;
    from;
    to;
    nonce;
    address;
    abi;
    kind = 'tx';
    #receipt = null;
    #client;
    constructor(client, hash, from, to, nonce, 
    /** The created contract's address (deployments) and its ABI, when known. */
    address, abi) {
        this.hash = hash;
        this.from = from;
        this.to = to;
        this.nonce = nonce;
        this.address = address;
        this.abi = abi;
        this.#client = client;
    }
    /** The receipt as the node last answered it (null while pending or once its block left the window). */
    async receipt() {
        if (this.#receipt === null)
            this.#receipt = await this.#client.request('eth_getTransactionReceipt', [this.hash]);
        return this.#receipt;
    }
    /** Keeps a receipt already fetched, so references made after its block left the window still read it. */
    remember(receipt) {
        if (receipt !== null && receipt !== undefined)
            this.#receipt = receipt;
    }
    async field(key) {
        switch (key) {
            case 'hash':
                return this.hash;
            case 'from':
                return this.from;
            case 'to':
                return this.to;
            case 'nonce':
                return this.nonce;
            case 'address':
                return this.address;
            case 'receipt':
                return this.receipt();
            default:
                return undefined;
        }
    }
    keys() {
        return ['hash', 'from', 'to', 'nonce', 'receipt', ...(this.address === undefined ? [] : ['address'])];
    }
}
const REFERENCE = /\$\{([^}]*)\}/g;
const WHOLE_REFERENCE = /^\$\{([^}]*)\}$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** A reference, a name or an address that names nothing the scenario knows. */
export class ReferenceError extends ScenarioValueError {
    name = 'ReferenceError';
}
export class Scope {
    #names = new Map();
    #dev;
    constructor(devAccounts) {
        this.#dev = devAccounts;
    }
    get devAccounts() {
        return this.#dev;
    }
    define(name, value) {
        this.#names.set(name, value);
    }
    /** A name's entry, without following a path. */
    get(name) {
        return this.#names.get(name);
    }
    /** Dev account `index`. */
    dev(index) {
        const account = this.#dev[index];
        if (account === undefined)
            throw new ReferenceError(`there is no dev account ${index} (the chain has ${this.#dev.length})`);
        return account;
    }
    /** The value of `${path}`: `token.address`, `tx1.receipt.blockNumber`, `call1.returns[0]`. */
    async lookup(path) {
        const segments = parsePath(path);
        const [first, ...rest] = segments;
        let current = this.#names.get(String(first));
        if (current === undefined) {
            throw new ReferenceError(`\${${path}}: nothing is named "${String(first)}"${this.#suggest(String(first))}`);
        }
        let walked = String(first);
        for (const segment of rest) {
            const next = await child(current, segment);
            if (next === undefined) {
                throw new ReferenceError(`\${${path}}: ${walked} has no "${segment}"${describeKeys(current)}`);
            }
            current = next;
            walked += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
        }
        if (current instanceof TxCapture)
            return current.hash;
        if (isAccount(current))
            return current.address;
        return current;
    }
    /**
     * Substitutes every `${…}` in `value` (deeply). A string that is one reference becomes the value
     * itself (a number stays a number); references inside text are written as text. `$${` is a
     * literal `${`.
     */
    async resolve(value) {
        if (typeof value === 'string') {
            if (!value.includes('${'))
                return value;
            const whole = WHOLE_REFERENCE.exec(value);
            if (whole !== null && !value.startsWith('$${'))
                return this.lookup(whole[1].trim());
            let out = '';
            let last = 0;
            for (const m of value.matchAll(REFERENCE)) {
                const at = m.index;
                if (at > 0 && value[at - 1] === '$') {
                    out += value.slice(last, at - 1) + m[0];
                }
                else {
                    out += value.slice(last, at) + asText(await this.lookup(m[1].trim()));
                }
                last = at + m[0].length;
            }
            return out + value.slice(last);
        }
        if (Array.isArray(value)) {
            const out = [];
            for (const item of value)
                out.push(await this.resolve(item));
            return out;
        }
        if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
            const out = {};
            for (const [k, v] of Object.entries(value))
                out[k] = await this.resolve(v);
            return out;
        }
        return value;
    }
    /**
     * The address a value names: a dev account index, an account or contract name, a capture with
     * an address, or a literal address (lowercased).
     */
    address(value, what = 'address') {
        if (typeof value === 'number' || typeof value === 'bigint')
            return this.dev(Number(value)).address;
        if (isAddress(value))
            return value.toLowerCase();
        if (typeof value === 'string' && NAME.test(value)) {
            const entry = this.#names.get(value);
            if (entry === undefined)
                throw new ReferenceError(`${what}: nothing is named "${value}"${this.#suggest(value)}`);
            if (entry instanceof TxCapture) {
                if (entry.address !== undefined)
                    return entry.address;
                throw new ReferenceError(`${what}: "${value}" is a transaction, not an address (write ${value}.to or ${value}.from)`);
            }
            const address = entry.address;
            if (isAddress(address))
                return address.toLowerCase();
            throw new ReferenceError(`${what}: "${value}" has no address`);
        }
        throw new ScenarioValueError(`${what}: expected an account name, a dev account index or an address, got ${show(value)}`);
    }
    /** Whether `value` names an address (without throwing). */
    isAddressLike(value) {
        try {
            this.address(value);
            return true;
        }
        catch {
            return false;
        }
    }
    /** The transaction hash a value names: a capture of a sent transaction, or a literal hash. */
    hash(value, what = 'transaction') {
        if (isHash(value))
            return value.toLowerCase();
        if (typeof value === 'string' && NAME.test(value)) {
            const entry = this.#names.get(value);
            if (entry instanceof TxCapture)
                return entry.hash;
            if (entry === undefined)
                throw new ReferenceError(`${what}: nothing is named "${value}"${this.#suggest(value)}`);
            throw new ReferenceError(`${what}: "${value}" is not a transaction`);
        }
        throw new ScenarioValueError(`${what}: expected a transaction hash or the name of a sent transaction, got ${show(value)}`);
    }
    /** The capture of a transaction by hash (to remember receipts). */
    transaction(hash) {
        for (const entry of this.#names.values())
            if (entry instanceof TxCapture && entry.hash === hash)
                return entry;
        return undefined;
    }
    /** The key the runner holds for an address, if any. */
    keyOf(address) {
        const lower = address.toLowerCase();
        for (const entry of [...this.#dev, ...this.#names.values()]) {
            if (isAccount(entry) && entry.address === lower && entry.privateKey !== undefined)
                return entry.privateKey;
        }
        return undefined;
    }
    /** ABIs known for an address (from deployments with an artifact or an ABI). */
    abiOf(address) {
        const lower = address.toLowerCase();
        for (const entry of this.#names.values())
            if (entry instanceof TxCapture && entry.address === lower && entry.abi !== undefined)
                return entry.abi;
        return undefined;
    }
    /** Every ABI the scenario knows, for events named without a signature. */
    allAbis() {
        const out = [];
        for (const entry of this.#names.values())
            if (entry instanceof TxCapture && entry.abi !== undefined)
                out.push(entry.abi);
        return out;
    }
    /** A short name for an address in step descriptions: the scenario's own name for it, else the address. */
    nameOf(address) {
        const lower = address.toLowerCase();
        for (const [name, entry] of this.#names) {
            if ((isAccount(entry) || entry instanceof TxCapture) && entry.address === lower)
                return name;
        }
        const dev = this.#dev.findIndex((a) => a.address === lower);
        if (dev >= 0)
            return `#${dev}`;
        return `${lower.slice(0, 8)}…${lower.slice(-4)}`;
    }
    #suggest(name) {
        const names = [...this.#names.keys()];
        const close = names.filter((n) => distance(n, name) <= 2);
        if (close.length > 0)
            return ` (did you mean ${close.map((n) => `"${n}"`).join(' or ')}?)`;
        return names.length === 0 ? '' : ` (known names: ${names.join(', ')})`;
    }
}
function isAccount(value) {
    return typeof value === 'object' && value !== null && value.kind === 'account';
}
function parsePath(path) {
    const out = [];
    for (const part of path.split('.')) {
        const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
        if (m === null || (m[1] === '' && out.length === 0))
            throw new ReferenceError(`\${${path}}: not a reference (write \${name.field} or \${name.list[0]})`);
        if (m[1] !== '')
            out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
        for (const index of m[2].matchAll(/\[(\d+)\]/g))
            out.push(Number(index[1]));
    }
    return out;
}
async function child(value, key) {
    if (value instanceof TxCapture)
        return typeof key === 'string' ? value.field(key) : undefined;
    if (Array.isArray(value))
        return typeof key === 'number' ? value[key] : key === 'length' ? value.length : undefined;
    if (typeof value === 'object' && value !== null)
        return value[String(key)];
    return undefined;
}
function describeKeys(value) {
    const keys = value instanceof TxCapture ? value.keys() : typeof value === 'object' && value !== null ? Object.keys(value) : [];
    if (Array.isArray(value))
        return ` (it is a list of ${value.length})`;
    return keys.length === 0 ? '' : ` (it has ${keys.join(', ')})`;
}
function asText(value) {
    if (typeof value === 'string')
        return value;
    if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
        return String(value);
    return show(value);
}
/** Levenshtein distance, for "did you mean". */
export function distance(a, b) {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        let previous = row[0];
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const current = row[j];
            row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
            previous = current;
        }
    }
    return row[b.length];
}
//# sourceMappingURL=scope.js.map