/** A string that is not the hex it should be. `message` is geth's hexutil text. */
export declare class HexError extends Error {
    name: string;
}
/** geth's hexutil error texts, reused by params.ts to word argument errors. */
export declare const HexReason: {
    readonly empty: "empty hex string";
    readonly syntax: "invalid hex string";
    readonly missingPrefix: "hex string without 0x prefix";
    readonly oddLength: "hex string of odd length";
    readonly emptyNumber: "hex string \"0x\"";
    readonly leadingZero: "hex number with leading zero digits";
};
/** The bytes as lowercase `0x` hex (`0x` for none). */
export declare const toData: (bytes: Uint8Array) => string;
/**
 * A non-negative integer as a JSON-RPC quantity: lowercase hex, no leading zeros, `0x0` for zero.
 *
 * @example toQuantity(255n) // '0xff'
 */
export declare function toQuantity(value: bigint | number): string;
/**
 * The bytes left-padded with zeros to `size` bytes, as data (storage values are always 32 bytes).
 * Longer input is an error, never truncated.
 */
export declare function toPaddedData(bytes: Uint8Array, size: number): string;
/** The value of one hex digit at `index`, or -1. */
export declare function nibbleAt(text: string, index: number): number;
/** True when `text` starts with `0x` or `0X` (geth accepts both). */
export declare function has0xPrefix(text: string): boolean;
/**
 * The bytes spelled by the hex digits of `text` from `start` on (an even count), or `undefined`
 * when one of them is not a hex digit. No prefix handling, no error wording: the building block.
 */
export declare function decodeHexDigits(text: string, start?: number): Uint8Array | undefined;
/**
 * Strict data decoding with geth's `hexutil.Decode` rules: `0x` required, an even number of
 * digits, any case. Throws `HexError` with geth's message.
 *
 * @example fromHex('0x00ff') // Uint8Array [0, 255]
 */
export declare function fromHex(text: string): Uint8Array;
/**
 * Strict quantity decoding with geth's rules: `0x` required, at least one digit, no leading
 * zeros. No size limit here (callers bound it). Throws `HexError` with geth's message.
 *
 * @example fromQuantity('0x1f') // 31n
 */
export declare function fromQuantity(text: string): bigint;
/**
 * The first of geth's number-shape errors in `text` (empty, missing prefix, `0x`, leading zero),
 * without looking at the digits themselves.
 */
export declare function quantitySyntaxError(text: string): string | undefined;
