/**
 * The EIP-1193 shapes of the public API: a request and the error it rejects with. Kept apart from
 * the simulator so that light entry points (`ringchain/vitest` in a test worker) can use them
 * without loading the chain.
 */
/** The error an EIP-1193 `request` rejects with: the JSON-RPC error's code, message and data. */
export class RingchainRpcError extends Error {
    code;
    data;
    name = 'RingchainRpcError';
    constructor(code, message, data) {
        super(message);
        this.code = code;
        this.data = data;
    }
}
//# sourceMappingURL=eip1193.js.map