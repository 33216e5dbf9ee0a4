/**
 * The plain values a scenario writes: quantities with units (`1.5 ether`, `30 gwei`, `0x5208`),
 * durations (`90s`, `2h`), addresses, hashes and hex data, each parsed or rejected with a message
 * that says what was expected.
 *
 * Owns: the syntax of a value. Leaves names and `${…}` references to `scope.ts`, and comparing
 * values to `match.ts`.
 */
/** A value the scenario file got wrong: the runner reports it at the step's line. */
export class ScenarioValueError extends Error {
    name = 'ScenarioValueError';
}
const UNITS = { wei: 1n, gwei: 10n ** 9n, ether: 10n ** 18n, eth: 10n ** 18n };
const QUANTITY = /^\s*(-?)(?:(0x[0-9a-fA-F]+)|([0-9][0-9_]*)(?:\.([0-9_]+))?(?:\s*(wei|gwei|ether|eth))?)\s*$/;
/** Whether `value` can be read as a quantity (an integer, a decimal or hex string, or a number with a unit). */
export function isQuantityLike(value) {
    if (typeof value === 'bigint')
        return true;
    if (typeof value === 'number')
        return Number.isInteger(value);
    return typeof value === 'string' && QUANTITY.test(value);
}
/**
 * Reads a quantity: `21000`, `"0x5208"`, `"1_000_000"`, `"1.5 ether"`, `"30 gwei"`.
 * @example parseQuantity('1.5 ether') // 1500000000000000000n
 */
export function parseQuantity(value, what = 'quantity', allowNegative = false) {
    let result;
    if (typeof value === 'bigint')
        result = value;
    else if (typeof value === 'number') {
        if (!Number.isSafeInteger(value))
            throw new ScenarioValueError(`${what}: ${value} is not a whole number (write large numbers as strings)`);
        result = BigInt(value);
    }
    else if (typeof value === 'string') {
        const m = QUANTITY.exec(value);
        if (m !== null) {
            const [, sign, hex, whole, fraction, unit] = m;
            if (hex !== undefined)
                result = BigInt(hex);
            else {
                const scale = UNITS[(unit ?? 'wei').toLowerCase()];
                const digits = (fraction ?? '').replaceAll('_', '');
                const exponent = scale.toString().length - 1;
                if (digits.length > exponent)
                    throw new ScenarioValueError(`${what}: "${value}" has more decimals than a ${unit ?? 'wei'} allows`);
                result = BigInt(whole.replaceAll('_', '')) * scale + (digits === '' ? 0n : BigInt(digits.padEnd(exponent, '0')));
            }
            if (sign === '-')
                result = -result;
        }
    }
    if (result === undefined)
        throw new ScenarioValueError(`${what}: expected a number, got ${show(value)}`);
    if (result < 0n && !allowNegative)
        throw new ScenarioValueError(`${what}: ${show(value)} is negative`);
    return result;
}
const DURATION = /^\s*([0-9]+)\s*(s|m|h|d)?\s*$/;
const SECONDS = { s: 1n, m: 60n, h: 3600n, d: 86400n };
/** Reads a duration in seconds: `3600`, `"90s"`, `"15m"`, `"2h"`, `"1d"`. */
export function parseDuration(value, what = 'duration') {
    if (typeof value === 'number' || typeof value === 'bigint')
        return parseQuantity(value, what);
    const m = typeof value === 'string' ? DURATION.exec(value) : null;
    if (m === null)
        throw new ScenarioValueError(`${what}: expected seconds or a duration like "90s", "15m", "2h", "1d", got ${show(value)}`);
    return BigInt(m[1]) * SECONDS[m[2] ?? 's'];
}
/** Lowercase hex of a quantity, as JSON-RPC writes it. */
export function toQuantityHex(value) {
    return '0x' + BigInt(value).toString(16);
}
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const HASH = /^0x[0-9a-fA-F]{64}$/;
export const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
export function isAddress(value) {
    return typeof value === 'string' && ADDRESS.test(value);
}
export function isHash(value) {
    return typeof value === 'string' && HASH.test(value);
}
/** Reads hex data (`0x` and whole bytes), lowercased. */
export function parseData(value, what = 'data') {
    if (typeof value === 'string' && HEX_DATA.test(value))
        return value.toLowerCase();
    throw new ScenarioValueError(`${what}: expected hex data (0x followed by whole bytes), got ${show(value)}`);
}
export function hexToBytes(hex) {
    const clean = hex.startsWith('0x') ? hex.slice(2) : hex;
    const out = new Uint8Array(clean.length / 2);
    for (let i = 0; i < out.length; i++)
        out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
    return out;
}
export function bytesToHex(bytes) {
    let out = '0x';
    for (const b of bytes)
        out += b.toString(16).padStart(2, '0');
    return out;
}
/** A value as a message shows it: strings quoted, bigints as numbers, objects as compact JSON. */
export function show(value) {
    if (typeof value === 'string')
        return JSON.stringify(value);
    if (typeof value === 'bigint')
        return value.toString();
    if (value === undefined)
        return 'nothing';
    if (value instanceof Uint8Array)
        return bytesToHex(value);
    try {
        return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? bytesToHex(v) : v)) ?? String(value);
    }
    catch {
        return String(value);
    }
}
//# sourceMappingURL=values.js.map