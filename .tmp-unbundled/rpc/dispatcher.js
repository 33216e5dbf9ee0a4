// The JSON-RPC 2.0 dispatcher: raw body in, raw body out.
// Owns: every envelope (parse and request errors, id echo, batches, notifications), looking the
// method up before decoding its params, running handlers, and turning whatever they throw into
// an error object through `toRpcError`. Does not own: what a method does (its handler), param
// wording (params.ts), the code of a domain error (the mapper handed in), or transport, keys and
// limits other than batch length (src/server/).
import { InternalError, InvalidRequestError, MethodNotFoundError, ParseError, toRpcError } from './errors.js';
import { decodeParams } from './params.js';
/**
 * A result that is already JSON text (the chain caches the JSON of immutable receipts and
 * transactions): the dispatcher splices it into the envelope as it is.
 */
export class RawJson {
    json;
    constructor(json) {
        this.json = json;
    }
}
/** Many cached JSON values as one JSON array. */
export function rawJsonArray(items) {
    let json = '[';
    for (let i = 0; i < items.length; i++)
        json += (i === 0 ? '' : ',') + items[i].json;
    return new RawJson(json + ']');
}
/**
 * A method whose handler's params are typed from its decoders.
 *
 * @example
 * const eth_getStorageAt = defineMethod(
 *   [address, storageSlot, optional(blockParam, LATEST)],
 *   ([owner, slot, block]) => chain.storageAt(owner, slot, block),
 * )
 */
export function defineMethod(params, handler) {
    return { params, handler };
}
/**
 * Numeric ids that a JavaScript number cannot hold exactly (beyond 2^53, `1e400`) are carried
 * through parsing as a marked string holding their source text, and echoed as that text.
 */
const RAW_ID = '\u0000raw-id:';
const NUMERIC_ID = /"id"\s*:\s*(-?\d[\d.eE+-]*)/g;
/** Marks the ids JSON.parse would round. (An `"id"` key inside params with such a number is marked too: harmless in practice.) */
function protectIds(body) {
    if (!body.includes('"id"'))
        return body;
    return body.replace(NUMERIC_ID, (match, literal) => JSON.stringify(Number(literal)) === literal ? match : `"id":"\\u0000raw-id:${literal}"`);
}
function idText(id) {
    return typeof id === 'string' && id.startsWith(RAW_ID) ? id.slice(RAW_ID.length) : JSON.stringify(id);
}
/** A success envelope. */
export function resultResponse(id, result) {
    return '{"jsonrpc":"2.0","id":' + idText(id) + ',"result":' + serializeResult(result) + '}';
}
/** An error envelope. */
export function errorResponse(id, error) {
    let body = '{"code":' + error.code + ',"message":' + JSON.stringify(error.message);
    if (error.data !== undefined)
        body += ',"data":' + JSON.stringify(error.data);
    return '{"jsonrpc":"2.0","id":' + idText(id) + ',"error":' + body + '}}';
}
/** An `eth_subscription` notification, pushed through `RpcSession.send`. */
export function subscriptionNotification(subscription, result) {
    return ('{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":' +
        JSON.stringify(subscription) +
        ',"result":' +
        serializeResult(result) +
        '}}');
}
function serializeResult(result) {
    if (result instanceof RawJson)
        return result.json;
    if (result === undefined)
        return 'null';
    const json = JSON.stringify(result);
    if (json === undefined)
        throw new TypeError(`a result of type ${typeof result} is not JSON`);
    return json;
}
const consoleLogger = {
    error: (message, details) => console.error(message, details.error),
};
const NO_PARAMS = Object.freeze([]);
/**
 * The dispatcher for a method table.
 *
 * Batch items run one after another, in order, as geth runs them: a batch of
 * `[eth_sendRawTransaction, eth_getTransactionByHash]` sees its own transaction.
 *
 * @example
 * const dispatch = createDispatcher(methods, { mapDomainError })
 * await dispatch('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', session)
 */
export function createDispatcher(methods, options = {}) {
    // A Map, so that `toString` or `__proto__` are unknown methods rather than inherited ones.
    const table = new Map(Object.entries(methods));
    const logger = options.logger ?? consoleLogger;
    const maxBatchLength = options.maxBatchLength ?? 1000;
    const mapDomainError = options.mapDomainError;
    function reportInternal(error, method) {
        try {
            logger.error(`internal error${method === undefined ? '' : ` in ${method}`}`, {
                method,
                error: error.cause ?? error,
            });
        }
        catch {
            // A failing logger must not turn an answer into no answer.
        }
    }
    async function handleMessage(message, session) {
        if (typeof message !== 'object' || message === null || Array.isArray(message)) {
            return errorResponse(null, new InvalidRequestError());
        }
        const request = message;
        const hasId = Object.hasOwn(request, 'id');
        const id = request.id;
        if (hasId && !isValidId(id))
            return errorResponse(null, new InvalidRequestError());
        const echoId = hasId ? id : null;
        const method = request.method;
        const params = request.params;
        if (request.jsonrpc !== '2.0' ||
            typeof method !== 'string' ||
            (params !== undefined && params !== null && !Array.isArray(params))) {
            return errorResponse(echoId, new InvalidRequestError());
        }
        // From here on the request is valid; one without an id is a notification and gets no answer.
        const spec = table.get(method);
        if (spec === undefined)
            return hasId ? errorResponse(echoId, new MethodNotFoundError(method)) : undefined;
        try {
            const args = decodeParams(spec.params, params ?? NO_PARAMS);
            let result = spec.handler(args, { session, method });
            if (isThenable(result))
                result = await result;
            return hasId ? resultResponse(echoId, result) : undefined;
        }
        catch (thrown) {
            const error = toRpcError(thrown, mapDomainError);
            if (error instanceof InternalError)
                reportInternal(error, method);
            return hasId ? errorResponse(echoId, error) : undefined;
        }
    }
    async function handleBatch(batch, session) {
        if (batch.length === 0)
            return errorResponse(null, new InvalidRequestError('empty batch'));
        if (batch.length > maxBatchLength) {
            // As geth: one error, in an array, carrying the id of the first call.
            return '[' + errorResponse(firstCallId(batch), new InvalidRequestError('batch too large')) + ']';
        }
        const answers = [];
        for (const message of batch) {
            const answer = await handleMessage(message, session);
            if (answer !== undefined)
                answers.push(answer);
        }
        return answers.length === 0 ? undefined : '[' + answers.join(',') + ']';
    }
    return async function dispatch(body, session) {
        let parsed;
        try {
            parsed = JSON.parse(protectIds(body));
        }
        catch {
            return errorResponse(null, new ParseError());
        }
        try {
            return Array.isArray(parsed) ? await handleBatch(parsed, session) : await handleMessage(parsed, session);
        }
        catch (thrown) {
            // Only a bug of the dispatcher itself gets here (handlers' errors are answered above).
            const error = new InternalError({ cause: thrown });
            reportInternal(error, undefined);
            return errorResponse(null, error);
        }
    };
}
/** JSON-RPC ids: a string, a number (fractions allowed, as geth allows them) or null. */
function isValidId(id) {
    return id === null || typeof id === 'string' || typeof id === 'number';
}
function isThenable(value) {
    return (typeof value === 'object' && value !== null && typeof value.then === 'function');
}
/** The id of the first well-formed call in a batch, else null. */
function firstCallId(batch) {
    for (const message of batch) {
        if (typeof message !== 'object' || message === null || Array.isArray(message))
            continue;
        const request = message;
        if (request.jsonrpc === '2.0' &&
            typeof request.method === 'string' &&
            Object.hasOwn(request, 'id') &&
            isValidId(request.id)) {
            return request.id;
        }
    }
    return null;
}
//# sourceMappingURL=dispatcher.js.map