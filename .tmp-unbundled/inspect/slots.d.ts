/** A slot or unsigned value as a 32-byte big-endian word. */
export declare function toWord(value: bigint): Uint8Array;
/** A big-endian byte string as an unsigned integer (the empty string is 0). */
export declare function toBigInt(bytes: Uint8Array): bigint;
/** keccak256 of `data`, as a slot number. */
export declare function keccakSlot(data: Uint8Array): bigint;
/**
 * The value of a packed field: `size` bytes at `offset` bytes from the low-order end of the word.
 *
 * @example packedField(word, 4, 20) // the address after a uint8, a uint16 and a bool
 */
export declare function packedField(word: Uint8Array | bigint, offset: number, size: number): bigint;
/** A signed integer of `bits` from its two's-complement field value. */
export declare function toSigned(value: bigint, bits: number): bigint;
/** A mapping key's type, as far as its encoding goes. */
export type KeyKind = {
    readonly kind: 'uint';
    readonly bits: number;
} | {
    readonly kind: 'int';
    readonly bits: number;
} | {
    readonly kind: 'address';
} | {
    readonly kind: 'bool';
} | {
    readonly kind: 'fixedBytes';
    readonly size: number;
} | {
    readonly kind: 'string';
} | {
    readonly kind: 'bytes';
};
/**
 * The bytes a mapping key is hashed as: the 32-byte ABI word of a value type (unsigned and address
 * left-padded, signed sign-extended, `bytesN` right-padded), the UTF-8 or raw bytes of a string or
 * `bytes` key (unpadded).
 *
 * @example encodeKey({ kind: 'fixedBytes', size: 4 }, Uint8Array.of(0xde, 0xad, 0xbe, 0xef)) // 0xdeadbeef00…00
 */
export declare function encodeKey(kind: KeyKind, value: bigint | boolean | string | Uint8Array): Uint8Array;
/**
 * The slot of `mapping[key]` for a mapping at `slot`; `key` as `encodeKey` gives it (or a bigint:
 * an unsigned value or address, left-padded).
 *
 * @example mappingSlot(0n, 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n) // _balances[account] of an OpenZeppelin ERC-20
 */
export declare function mappingSlot(slot: bigint, key: Uint8Array | bigint): bigint;
/** The slot of `mapping[k0][k1]…` (outer key first). */
export declare function nestedMappingSlot(slot: bigint, keys: readonly (Uint8Array | bigint)[]): bigint;
/** Where an element or field sits: its slot and its offset (bytes from the low-order end). */
export interface Location {
    readonly slot: bigint;
    readonly offset: number;
}
/** How many elements of `elementBytes` share one slot (1 for elements of more than 16 bytes). */
export declare function elementsPerSlot(elementBytes: number): number;
/** Slots one element takes (0 when several share a slot: see `elementsPerSlot`). */
export declare function slotsPerElement(elementBytes: number): bigint;
/**
 * Element `index` of the elements laid out from slot `base`, each `elementBytes` long (a value type
 * of 16 bytes or less shares slots; a struct or array gives its size in whole slots, ×32 bytes).
 */
export declare function elementLocation(base: bigint, index: bigint, elementBytes: number): Location;
/** Where the elements of the dynamic array (or the data of the long string/bytes) at `slot` start: `keccak256(slot)`. */
export declare function dynamicDataSlot(slot: bigint): bigint;
/** Element `index` of the dynamic array at `slot` (its length is at `slot` itself). */
export declare function dynamicArrayElement(slot: bigint, index: bigint, elementBytes: number): Location;
/** Element `index` of the fixed array at `slot` (with `length` elements: the index is checked). */
export declare function fixedArrayElement(slot: bigint, index: bigint, elementBytes: number, length?: bigint): Location;
/** The slot of a struct member: the struct's slot plus the member's (solc's layout gives `memberSlot`). */
export declare function structMemberSlot(slot: bigint, memberSlot: bigint): bigint;
/** What the slot of a `string`/`bytes` holds. */
export type BytesHead = 
/** Up to 31 bytes, in the slot itself. */
{
    readonly form: 'short';
    readonly length: number;
    readonly data: Uint8Array;
}
/** The length; the data is in `bytesDataSlots`. */
 | {
    readonly form: 'long';
    readonly length: bigint;
};
/** Reads the slot of a `string`/`bytes` variable (short or long form). */
export declare function decodeBytesHead(word: Uint8Array): BytesHead;
/** The slots holding the data of a long `string`/`bytes` of `length` bytes at `slot`. */
export declare function bytesDataSlots(slot: bigint, length: bigint): bigint[];
/**
 * The root slot of an ERC-7201 namespace: `keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff`.
 *
 * @example erc7201Slot('openzeppelin.storage.ERC20') // 0x52c63247…ace00
 */
export declare function erc7201Slot(namespaceId: string): bigint;
