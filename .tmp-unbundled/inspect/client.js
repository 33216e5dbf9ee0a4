import { hexToBytes } from './layout.js';
import { toWord } from './slots.js';
/** The default URL of `ringchain serve`. */
export const DEFAULT_RPC_URL = 'http://127.0.0.1:8545/v3/ringchain';
/** A JSON-RPC error answer (or a node that cannot be reached: code 0). */
export class RpcCallError extends Error {
    code;
    data;
    name = 'RpcCallError';
    constructor(code, message, data) {
        super(message);
        this.code = code;
        this.data = data;
    }
}
/** A `Request` over HTTP POST. */
export function httpRequest(url) {
    let id = 1;
    return async (method, params) => {
        let response;
        try {
            response = await fetch(url, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
            });
        }
        catch (e) {
            const cause = e.cause;
            throw new RpcCallError(0, `cannot reach ${url}: ${cause?.code ?? cause?.message ?? e.message} (is \`ringchain serve\` running? --rpc <url> names another node)`);
        }
        const text = await response.text();
        let body;
        try {
            body = JSON.parse(text);
        }
        catch {
            throw new RpcCallError(0, `${url} answered HTTP ${response.status} with no JSON-RPC body: ${text.slice(0, 200)}`);
        }
        if (body.error !== undefined)
            throw new RpcCallError(body.error.code, body.error.message, body.error.data);
        return body.result;
    };
}
/** A `Request` over an EIP-1193 provider (`createRingchain()`'s, viem's, ethers'). */
export function eip1193Request(provider) {
    return async (method, params) => {
        try {
            return await provider.request({ method, params });
        }
        catch (e) {
            const err = e;
            throw new RpcCallError(typeof err.code === 'number' ? err.code : 0, err.message ?? String(e), err.data);
        }
    };
}
/** The storage methods of a node, with bigint and bytes. */
export class StorageClient {
    #request;
    constructor(request) {
        this.#request = request;
    }
    /** The number of the block a tag or number names (checked against the node: a block after the head fails). */
    async blockNumber(block) {
        const tag = typeof block === 'bigint' ? '0x' + block.toString(16) : block;
        const found = (await this.#request('eth_getBlockByNumber', [tag, false]));
        if (found === null || found.number === undefined) {
            const head = BigInt((await this.#request('eth_blockNumber', [])));
            throw new RpcCallError(-32000, `block ${typeof block === 'bigint' ? block : block} is not mined yet (the head is ${head})`);
        }
        return BigInt(found.number);
    }
    /** The 32-byte word at `slot` of `address` at block `number`. */
    async storageAt(address, slot, number) {
        const word = (await this.#request('eth_getStorageAt', [address, toHexWord(slot), '0x' + number.toString(16)]));
        return hexToBytes(word);
    }
    /** A `SlotReader` bound to one account and block. */
    reader(address, number) {
        return (slot) => this.storageAt(address, slot, number);
    }
    /** Every non-zero slot of `address` at block `number`, with its derivation when the node knows it. */
    async slots(address, number) {
        const answer = (await this.#request('ringchain_storageLayout', [address, '0x' + number.toString(16)]));
        return answer.slots.map((s) => ({ slot: BigInt(s.slot), value: hexToBytes(s.value), path: s.path, derivation: derivationOf(s.derivation) }));
    }
    /** The storage changes of a transaction (by hash) or a block (number, tag or hash), optionally of one account. */
    async diff(target, address) {
        const t = typeof target === 'bigint' ? '0x' + target.toString(16) : target;
        const answer = (await this.#request('ringchain_storageDiff', address === undefined ? [t] : [t, address]));
        return {
            blockNumber: BigInt(answer.blockNumber),
            blockHash: answer.blockHash,
            ...(answer.transactionHash === undefined ? {} : { transactionHash: answer.transactionHash }),
            changes: answer.changes.map((c) => ({
                address: c.address,
                slot: BigInt(c.slot),
                before: hexToBytes(c.before),
                after: hexToBytes(c.after),
                path: c.path,
                derivation: derivationOf(c.derivation),
            })),
        };
    }
}
function derivationOf(wire) {
    if (wire === null)
        return undefined;
    const steps = wire.steps.map((s) => s.kind === 'mapping' ? { kind: 'mapping', key: hexToBytes(s.key) } : s.kind === 'keccak' ? { kind: 'keccak' } : { kind: 'offset', by: BigInt(s.by) });
    return { root: BigInt(wire.root), steps };
}
function toHexWord(slot) {
    return '0x' + Buffer.from(toWord(slot)).toString('hex');
}
//# sourceMappingURL=client.js.map