// Positional parameter decoders: JSON values in, typed values (bigint, Uint8Array, unions) out.
// Owns: what each parameter kind accepts and geth's exact wording when it does not, including
// the `invalid argument N: ` prefix (N counts from 0, as geth does), `too many arguments` and
// `missing value for required argument N`. Does not own: what a method does with a value, checks
// that need the chain (a block after the head, a range the other way round), or hex encoding of
// results (hex.ts).
//
// geth decodes with Go's encoding/json, so its messages name Go types
// (`json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address`).
// They are reproduced here because clients and test suites compare them with geth's.
import { InvalidParamsError } from './errors.js';
import { HexReason, decodeHexDigits, fromHex, has0xPrefix, nibbleAt, quantitySyntaxError } from './hex.js';
/**
 * A decoder's complaint about its value; `decodeParams` turns it into
 * `invalid argument N: <message>`. A decoder whose message geth sends without that prefix throws
 * `InvalidParamsError` itself.
 */
export class ArgumentError extends InvalidParamsError {
    name = 'ArgumentError';
}
export function optional(param, ...fallback) {
    const value = fallback.length === 0 ? undefined : fallback[0];
    return { decode: param.decode, absent: () => value };
}
/**
 * Decodes a request's positional params (absent `params` is `[]`), in order, as geth does: the
 * first bad argument wins, then `too many arguments`, then missing required ones.
 *
 * @example decodeParams([address, storageSlot, optional(blockParam, LATEST)], ['0xaa…', '0x0'])
 */
export function decodeParams(params, raw) {
    const out = new Array(params.length);
    for (let i = 0; i < raw.length; i++) {
        const param = params[i];
        if (param === undefined)
            throw new InvalidParamsError(`too many arguments, want at most ${params.length}`);
        const value = raw[i];
        if (value === null || value === undefined) {
            if (param.absent === undefined)
                throw new InvalidParamsError(`missing value for required argument ${i}`);
            out[i] = param.absent();
            continue;
        }
        try {
            out[i] = param.decode(value);
        }
        catch (error) {
            if (error instanceof ArgumentError)
                throw new InvalidParamsError(`invalid argument ${i}: ${error.message}`);
            throw error;
        }
    }
    for (let i = raw.length; i < params.length; i++) {
        const absent = params[i].absent;
        if (absent === undefined)
            throw new InvalidParamsError(`missing value for required argument ${i}`);
        out[i] = absent();
    }
    return out;
}
function field(struct, path) {
    return { struct, path };
}
/** `json: cannot unmarshal <what> into Go value of type <T>` (or `Go struct field S.f`). */
function cannotUnmarshal(what, goType, at) {
    const into = at === undefined ? 'Go value' : `Go struct field ${at.struct}.${at.path}`;
    return new ArgumentError(`json: cannot unmarshal ${what} into ${into} of type ${goType}`);
}
/** Go's name for the kind of a JSON value. */
function jsonKind(value) {
    if (typeof value === 'boolean')
        return 'bool';
    if (Array.isArray(value))
        return 'array';
    if (value === null)
        return 'null';
    return typeof value; // 'string' | 'number' | 'object'
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** Go's `%q`: a double-quoted string with Go's escapes. */
function goQuote(text) {
    let out = '"';
    for (const ch of text) {
        const c = ch.codePointAt(0);
        if (ch === '"' || ch === '\\')
            out += '\\' + ch;
        else if (c === 0x0a)
            out += '\\n';
        else if (c === 0x09)
            out += '\\t';
        else if (c === 0x0d)
            out += '\\r';
        else if (c < 0x20 || c === 0x7f)
            out += '\\x' + c.toString(16).padStart(2, '0');
        else
            out += ch;
    }
    return out + '"';
}
// --- hex values (hexutil / common types) ------------------------------------------------------
/** A fixed-size byte string (common.Address, common.Hash), as hexutil.UnmarshalFixedJSON. */
function decodeFixed(value, size, goType, at) {
    if (typeof value !== 'string')
        throw cannotUnmarshal('non-string', goType, at);
    let start = 0;
    if (value.length > 0) {
        if (!has0xPrefix(value))
            throw cannotUnmarshal(HexReason.missingPrefix, goType, at);
        start = 2;
        if ((value.length & 1) !== 0)
            throw cannotUnmarshal(HexReason.oddLength, goType, at);
    }
    const digits = value.length - start;
    if (digits !== size * 2)
        throw new ArgumentError(`hex string has length ${digits}, want ${size * 2} for ${goType}`);
    const bytes = decodeHexDigits(value, start);
    if (bytes === undefined)
        throw cannotUnmarshal(HexReason.syntax, goType, at);
    return bytes;
}
/** Variable-length bytes (hexutil.Bytes). The empty string is refused (geth reads it as `0x`). */
function decodeBytes(value, at) {
    const goType = 'hexutil.Bytes';
    if (typeof value !== 'string')
        throw cannotUnmarshal('non-string', goType, at);
    if (value.length === 0)
        throw cannotUnmarshal(HexReason.empty, goType, at);
    if (!has0xPrefix(value))
        throw cannotUnmarshal(HexReason.missingPrefix, goType, at);
    if ((value.length & 1) !== 0)
        throw cannotUnmarshal(HexReason.oddLength, goType, at);
    const bytes = decodeHexDigits(value, 2);
    if (bytes === undefined)
        throw cannotUnmarshal(HexReason.syntax, goType, at);
    return bytes;
}
const BIG = { goType: '*hexutil.Big', maxDigits: 64, rangeReason: 'hex number > 256 bits' };
const U256 = { goType: '*uint256.Int', maxDigits: 64, rangeReason: 'hex number > 256 bits', bare: true };
const UINT64 = { goType: 'hexutil.Uint64', maxDigits: 16, rangeReason: 'hex number > 64 bits' };
const UINT = { goType: 'hexutil.Uint', maxDigits: 16, rangeReason: 'hex number > 64 bits' };
/**
 * A quantity in a JSON string, as hexutil.Big/Uint64 (or uint256) decode it: `0x` required, no
 * leading zeros, `0x` alone refused, too many digits refused before the digits are checked.
 * The empty string is refused (geth reads it as zero).
 */
function decodeNumber(value, kind, at) {
    const fail = (reason) => kind.bare === true ? new ArgumentError(reason) : cannotUnmarshal(reason, kind.goType, at);
    if (typeof value !== 'string')
        throw cannotUnmarshal('non-string', kind.goType, at);
    const shape = quantitySyntaxError(value);
    if (shape !== undefined)
        throw fail(shape);
    if (value.length - 2 > kind.maxDigits)
        throw fail(kind.rangeReason);
    for (let i = 2; i < value.length; i++)
        if (nibbleAt(value, i) < 0)
            throw fail(HexReason.syntax);
    return BigInt('0x' + value.slice(2));
}
/**
 * A uint64 as hexutil.DecodeUint64 reads a bare string (block numbers): errors unwrapped, and,
 * like Go's strconv, a bad digit or the 17th digit, whichever comes first.
 */
function decodeUint64Text(text) {
    const shape = quantitySyntaxError(text);
    if (shape !== undefined)
        throw new ArgumentError(shape);
    for (let i = 2; i < text.length; i++) {
        if (nibbleAt(text, i) < 0)
            throw new ArgumentError(HexReason.syntax);
        if (i - 2 >= 16)
            throw new ArgumentError('hex number > 64 bits');
    }
    return BigInt('0x' + text.slice(2));
}
function decodeBool(value, at) {
    if (typeof value !== 'boolean')
        throw cannotUnmarshal(jsonKind(value), 'bool', at);
    return value;
}
// --- simple params ----------------------------------------------------------------------------
/** A 20-byte address (`0x` + 40 hex digits, any case; checksums are not enforced, as in geth). */
export const address = { decode: (value) => decodeFixed(value, 20, 'common.Address') };
/** A 32-byte hash (`0x` + 64 hex digits). */
export const hash = { decode: (value) => decodeFixed(value, 32, 'common.Hash') };
/** Bytes of any length (`0x` + an even number of hex digits). */
export const data = { decode: (value) => decodeBytes(value) };
/** A quantity of up to 256 bits (hexutil.Big). */
export const quantity = { decode: (value) => decodeNumber(value, BIG) };
/** A quantity of up to 64 bits (hexutil.Uint64). */
export const uint64 = { decode: (value) => decodeNumber(value, UINT64) };
/** A position (transaction index in a block; hexutil.Uint), as a number. */
export const index = { decode: (value) => Number(decodeNumber(value, UINT)) };
/** A JSON boolean (`true`/`false`, never a string). */
export const bool = { decode: (value) => decodeBool(value) };
/**
 * The storage slot of `eth_getStorageAt`, as geth reads it: `0x` (optional, as in geth) plus up
 * to 64 hex digits, leading zeros allowed, an odd count padded; always 32 bytes, left-padded.
 * geth words its errors without the argument prefix:
 * `storage key too long (want at most 32 bytes): "0x…"`, `invalid hex in storage key: "0x…"`.
 */
export const storageSlot = {
    decode(value) {
        if (typeof value !== 'string')
            throw cannotUnmarshal(jsonKind(value), 'string');
        return storageKey(value).slot;
    },
};
/**
 * A storage key as geth's `decodeStorageKey` reads it (`eth_getStorageAt`, `eth_getProof`): the
 * 32-byte slot, and how many bytes the text gave (`eth_getProof` echoes a 32-byte key as it is and
 * any shorter one as a quantity). Errors are -32602 in geth's words, without an argument prefix.
 */
export function storageKey(text) {
    let digits = has0xPrefix(text) ? text.slice(2) : text;
    if ((digits.length & 1) !== 0)
        digits = '0' + digits;
    if (digits.length > 64) {
        throw new InvalidParamsError(`storage key too long (want at most 32 bytes): ${goQuote(text)}`);
    }
    const bytes = decodeHexDigits(digits);
    if (bytes === undefined)
        throw new InvalidParamsError(`invalid hex in storage key: ${goQuote(text)}`);
    const slot = new Uint8Array(32);
    slot.set(bytes, 32 - bytes.length);
    return { slot, length: bytes.length };
}
/** The storage keys of `eth_getProof` as strings (geth's `[]string`); each is read by `storageKey` once all arguments are decoded. */
export const storageKeyList = {
    decode(value) {
        if (!Array.isArray(value))
            throw cannotUnmarshal(jsonKind(value), '[]string');
        return value.map((item) => {
            if (typeof item !== 'string')
                throw cannotUnmarshal(jsonKind(item), 'string');
            return item;
        });
    },
};
/**
 * The request map of `eth_getStorageValues` (geth's `map[common.Address][]common.Hash`): addresses
 * as map keys (so two spellings of one address keep the later list, as Go's decoder does), slots
 * as full 32-byte hashes.
 */
export const storageRequests = {
    decode(value) {
        if (!isObject(value))
            throw cannotUnmarshal(jsonKind(value), 'map[common.Address][]common.Hash');
        const requests = new Map();
        for (const key in value) {
            const member = value[key];
            // Go decodes a null list as an empty one, and each value before its key.
            const slots = member === null ? [] : decodeArray(member, '[]common.Hash').map((item) => decodeFixed(item, 32, 'common.Hash'));
            const owner = decodeAddressKey(key);
            requests.set(key.toLowerCase(), { address: owner, slots });
        }
        return [...requests.values()];
    },
};
/** An address as a JSON object key: common.Address's UnmarshalText, whose errors Go passes on bare. */
function decodeAddressKey(text) {
    let start = 0;
    if (text.length > 0) {
        if (!has0xPrefix(text))
            throw new ArgumentError(HexReason.missingPrefix);
        start = 2;
        if ((text.length & 1) !== 0)
            throw new ArgumentError(HexReason.oddLength);
    }
    if (text.length - start !== 40)
        throw new ArgumentError(`hex string has length ${text.length - start}, want 40 for Address`);
    const bytes = decodeHexDigits(text, start);
    if (bytes === undefined)
        throw new ArgumentError(HexReason.syntax);
    return bytes;
}
const TAGS = new Map(['latest', 'earliest', 'pending', 'safe', 'finalized'].map((tag) => [
    tag,
    Object.freeze({ kind: 'tag', tag }),
]));
/** The `latest` block: the usual default of an optional block parameter. */
export const LATEST = TAGS.get('latest');
/** The `pending` block. */
export const PENDING = TAGS.get('pending');
const MAX_INT64 = (1n << 63n) - 1n;
/** rpc.BlockNumber: a tag or a quantity up to int64; anything not a string reads as unprefixed hex. */
function decodeBlockNumber(value, tooHigh) {
    if (typeof value !== 'string')
        throw new ArgumentError(HexReason.missingPrefix);
    const tag = TAGS.get(value);
    if (tag !== undefined)
        return tag;
    const number = decodeUint64Text(value);
    if (number > MAX_INT64)
        throw new ArgumentError(tooHigh);
    return { kind: 'number', number };
}
/** A block tag (`latest`, `earliest`, `pending`, `safe`, `finalized`) or number. */
export const blockNumber = {
    decode: (value) => decodeBlockNumber(value, 'block number larger than int64'),
};
/**
 * A block tag, number, 32-byte block hash, or EIP-1898 object (`{blockNumber}` or
 * `{blockHash, requireCanonical?}`).
 */
export const blockParam = {
    decode(value) {
        if (typeof value === 'string') {
            const tag = TAGS.get(value);
            if (tag !== undefined)
                return tag;
            if (value.length === 66) {
                // geth reads a 66-character string as a hash, with hexutil's bare errors.
                if (!has0xPrefix(value))
                    throw new ArgumentError(HexReason.missingPrefix);
                const bytes = decodeHexDigits(value, 2);
                if (bytes === undefined)
                    throw new ArgumentError(HexReason.syntax);
                return { kind: 'hash', hash: bytes, requireCanonical: false };
            }
            const number = decodeUint64Text(value);
            if (number > MAX_INT64)
                throw new ArgumentError('blocknumber too high');
            return { kind: 'number', number };
        }
        if (!isObject(value))
            throw cannotUnmarshal(jsonKind(value), 'string');
        return decodeEip1898(value);
    },
};
/**
 * `{blockNumber}` or `{blockHash, requireCanonical?}`. Unlike geth, which then only says
 * `json: cannot unmarshal object into Go value of type string`, a bad member is named.
 */
function decodeEip1898(value) {
    const struct = 'BlockNumberOrHash';
    let number;
    let blockHash;
    let requireCanonical = false;
    for (const key in value) {
        const member = value[key];
        if (member === null || member === undefined)
            continue;
        if (key === 'blockNumber')
            number = decodeBlockNumber(member, 'block number larger than int64');
        else if (key === 'blockHash')
            blockHash = decodeFixed(member, 32, 'common.Hash', field(struct, key));
        else if (key === 'requireCanonical')
            requireCanonical = decodeBool(member, field(struct, key));
    }
    if (number !== undefined && blockHash !== undefined) {
        throw new ArgumentError('cannot specify both BlockHash and BlockNumber, choose one or the other');
    }
    if (blockHash !== undefined)
        return { kind: 'hash', hash: blockHash, requireCanonical };
    if (number !== undefined)
        return number;
    // geth accepts `{}` and fails later with this text (as -32000); it is a parameter error.
    throw new ArgumentError('invalid arguments; neither block nor hash specified');
}
const TX = 'TransactionArgs';
/** A transaction call object (geth's TransactionArgs). */
export const transactionRequest = {
    decode(value) {
        if (!isObject(value))
            throw cannotUnmarshal(jsonKind(value), 'ethapi.TransactionArgs');
        const tx = {};
        let data;
        let input;
        // Members in the order they came, as Go's decoder meets them: the first bad one is reported.
        for (const key in value) {
            const member = value[key];
            if (member === null || member === undefined)
                continue;
            const at = field(TX, key);
            switch (key) {
                case 'from':
                case 'to':
                    tx[key] = decodeFixed(member, 20, 'common.Address', at);
                    break;
                case 'gas':
                case 'nonce':
                case 'type':
                    tx[key] = decodeNumber(member, UINT64, at);
                    break;
                case 'gasPrice':
                case 'maxFeePerGas':
                case 'maxPriorityFeePerGas':
                case 'maxFeePerBlobGas':
                case 'value':
                case 'chainId':
                    tx[key] = decodeNumber(member, BIG, at);
                    break;
                case 'data':
                    data = decodeBytes(member, at);
                    break;
                case 'input':
                    input = decodeBytes(member, at);
                    break;
                case 'accessList':
                    tx.accessList = decodeArray(member, 'types.AccessList', at).map(decodeAccessListItem);
                    break;
                case 'blobVersionedHashes':
                    tx.blobVersionedHashes = decodeArray(member, '[]common.Hash', at).map((item) => decodeFixed(item, 32, 'common.Hash', at));
                    break;
                case 'authorizationList':
                    tx.authorizationList = decodeArray(member, '[]types.SetCodeAuthorization', at).map(decodeAuthorization);
                    break;
            }
        }
        if (data !== undefined && input !== undefined && !equalBytes(data, input)) {
            // geth's text (geth sends it as -32000 once the call runs).
            throw new InvalidParamsError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
        }
        const payload = input ?? data;
        if (payload !== undefined)
            tx.data = payload;
        return tx;
    },
};
function decodeArray(value, goType, at) {
    if (!Array.isArray(value))
        throw cannotUnmarshal(jsonKind(value), goType, at);
    return value;
}
function decodeAccessListItem(value) {
    const at = field(TX, 'accessList');
    // A null entry decodes as an empty tuple in Go, which then misses its required fields.
    if (value !== null && !isObject(value))
        throw cannotUnmarshal(jsonKind(value), 'types.AccessTuple', at);
    const members = value ?? {};
    let itemAddress;
    let storageKeys;
    for (const key in members) {
        const member = members[key];
        if (member === null || member === undefined)
            continue;
        const memberAt = field(TX, `accessList.${key}`);
        if (key === 'address')
            itemAddress = decodeFixed(member, 20, 'common.Address', memberAt);
        else if (key === 'storageKeys') {
            storageKeys = decodeArray(member, '[]common.Hash', memberAt).map((item) => decodeFixed(item, 32, 'common.Hash', memberAt));
        }
    }
    if (itemAddress === undefined)
        throw new ArgumentError("missing required field 'address' for AccessTuple");
    if (storageKeys === undefined)
        throw new ArgumentError("missing required field 'storageKeys' for AccessTuple");
    return { address: itemAddress, storageKeys };
}
const AUTHORIZATION_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'];
function decodeAuthorization(value) {
    const at = field(TX, 'authorizationList');
    if (value !== null && !isObject(value))
        throw cannotUnmarshal(jsonKind(value), 'types.SetCodeAuthorization', at);
    const members = value ?? {};
    const got = {};
    for (const key in members) {
        const member = members[key];
        if (member === null || member === undefined)
            continue;
        const memberAt = field(TX, `authorizationList.${key}`);
        switch (key) {
            case 'chainId':
            case 'r':
            case 's':
                got[key] = decodeNumber(member, U256, memberAt);
                break;
            case 'nonce':
            case 'yParity':
                got[key] = decodeNumber(member, UINT64, memberAt);
                break;
            case 'address':
                got.address = decodeFixed(member, 20, 'common.Address', memberAt);
                break;
        }
    }
    for (const name of AUTHORIZATION_FIELDS) {
        if (got[name] === undefined)
            throw new ArgumentError(`missing required field '${name}' for SetCodeAuthorization`);
    }
    return got;
}
function equalBytes(a, b) {
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i])
            return false;
    return true;
}
// geth's limits (eth/filters).
const MAX_ADDRESSES = 1000;
const MAX_TOPICS = 4;
const MAX_SUB_TOPICS = 1000;
/** A log filter object (geth's FilterCriteria). */
export const logFilter = {
    decode(value) {
        if (!isObject(value))
            throw cannotUnmarshal(jsonKind(value), 'filters.input');
        let blockHash;
        let fromBlock;
        let toBlock;
        let rawAddresses;
        let rawTopics;
        for (const key in value) {
            const member = value[key];
            if (member === null || member === undefined)
                continue;
            if (key === 'blockHash')
                blockHash = decodeFixed(member, 32, 'common.Hash', field('input', key));
            else if (key === 'fromBlock')
                fromBlock = decodeBlockNumber(member, 'block number larger than int64');
            else if (key === 'toBlock')
                toBlock = decodeBlockNumber(member, 'block number larger than int64');
            else if (key === 'address')
                rawAddresses = member;
            else if (key === 'topics')
                rawTopics = decodeArray(member, '[]interface {}', field('input', key));
        }
        if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
            throw new ArgumentError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
        }
        const filter = {
            addresses: decodeFilterAddresses(rawAddresses),
            topics: decodeFilterTopics(rawTopics ?? []),
        };
        if (blockHash !== undefined)
            filter.blockHash = blockHash;
        if (fromBlock !== undefined)
            filter.fromBlock = fromBlock;
        if (toBlock !== undefined)
            filter.toBlock = toBlock;
        return filter;
    },
};
function decodeFilterAddresses(raw) {
    if (raw === undefined)
        return [];
    if (typeof raw === 'string') {
        try {
            return [decodeExact(raw, 20, 'address')];
        }
        catch (error) {
            throw new ArgumentError(`invalid address: ${error.message}`);
        }
    }
    if (!Array.isArray(raw))
        throw new ArgumentError('invalid addresses in query');
    if (raw.length > MAX_ADDRESSES)
        throw new ArgumentError('exceed max addresses');
    return raw.map((item, i) => {
        if (typeof item !== 'string')
            throw new ArgumentError(`non-string address at index ${i}`);
        try {
            return decodeExact(item, 20, 'address');
        }
        catch (error) {
            throw new ArgumentError(`invalid address at index ${i}: ${error.message}`);
        }
    });
}
function decodeFilterTopics(raw) {
    if (raw.length > MAX_TOPICS)
        throw new ArgumentError('exceed max topics');
    return raw.map((position) => {
        if (position === null)
            return null;
        if (typeof position === 'string')
            return [decodeTopic(position)];
        if (!Array.isArray(position))
            throw new ArgumentError('invalid topic(s)');
        if (position.length > MAX_SUB_TOPICS)
            throw new ArgumentError('exceed max topics');
        const alternatives = [];
        for (const item of position) {
            if (item === null)
                return null; // a null alternative matches anything (geth stops reading here)
            if (typeof item !== 'string')
                throw new ArgumentError('invalid topic(s)');
            alternatives.push(decodeTopic(item));
        }
        return alternatives.length === 0 ? null : alternatives;
    });
}
function decodeTopic(text) {
    return decodeExact(text, 32, 'topic');
}
/** hexutil.Decode plus a length check, worded as geth's filter decoding words it. */
function decodeExact(text, size, what) {
    let bytes;
    try {
        bytes = fromHex(text);
    }
    catch (error) {
        throw new ArgumentError(error.message);
    }
    if (bytes.length !== size) {
        throw new ArgumentError(`hex has invalid length ${bytes.length} after decoding; expected ${size} for ${what}`);
    }
    return bytes;
}
// --- test controls and signing ------------------------------------------------------------------
/**
 * A whole number of seconds as anvil reads it (a `u64`): a JSON number, which is what viem sends,
 * or a quantity string.
 */
export const seconds = {
    decode(value) {
        if (typeof value === 'number') {
            if (!Number.isSafeInteger(value) || value < 0)
                throw cannotUnmarshal(`number ${value}`, 'uint64');
            return BigInt(value);
        }
        return decodeNumber(value, UINT64);
    },
};
/**
 * EIP-712 typed data: the JSON object, or a string holding it (viem and ethers send a string).
 * Only the outline is checked here; the types and values are checked when the data is hashed.
 */
export const typedData = {
    decode(value) {
        let parsed = value;
        if (typeof value === 'string') {
            try {
                parsed = JSON.parse(value);
            }
            catch {
                throw new ArgumentError('typed data is not valid JSON');
            }
        }
        if (!isObject(parsed))
            throw cannotUnmarshal(jsonKind(parsed), 'apitypes.TypedData');
        const { types, primaryType, domain, message } = parsed;
        if (!isObject(types))
            throw new ArgumentError('typed data: "types" must be an object');
        for (const name in types) {
            const fields = types[name];
            const wellFormed = Array.isArray(fields) && fields.every((f) => isObject(f) && typeof f.name === 'string' && typeof f.type === 'string');
            if (!wellFormed)
                throw new ArgumentError(`typed data: type ${name} must be a list of {name, type}`);
        }
        if (typeof primaryType !== 'string')
            throw new ArgumentError('typed data: "primaryType" must be a string');
        if (!Object.hasOwn(types, primaryType))
            throw new ArgumentError(`typed data: primary type ${primaryType} is not among the types`);
        if (!isObject(domain))
            throw new ArgumentError('typed data: "domain" must be an object');
        if (!isObject(message))
            throw new ArgumentError('typed data: "message" must be an object');
        return parsed;
    },
};
//# sourceMappingURL=params.js.map