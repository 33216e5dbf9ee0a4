/** Reading and showing the wire's hex: quantities, gwei, short hashes, times. */

/** A quantity as a bigint (`0x0` for a missing one). */
export function quantity(hex: string | undefined | null): bigint {
  return hex === undefined || hex === null ? 0n : BigInt(hex)
}

/** A quantity as a block-tag parameter. */
export function toQuantity(n: bigint | number): string {
  return '0x' + n.toString(16)
}

/** Wei in gwei, with up to 3 decimals. */
export function gwei(wei: bigint): string {
  const thousandths = (wei + 500_000n) / 1_000_000n
  const whole = thousandths / 1000n
  const rest = thousandths % 1000n
  return rest === 0n ? `${whole}` : `${whole}.${rest.toString().padStart(3, '0').replace(/0+$/, '')}`
}

/** Wei in ether, with up to 6 decimals. */
export function ether(wei: bigint): string {
  const micro = wei / 1_000_000_000_000n
  const whole = micro / 1_000_000n
  const rest = micro % 1_000_000n
  return rest === 0n ? `${whole}` : `${whole}.${rest.toString().padStart(6, '0').replace(/0+$/, '')}`
}

/** `0x1234…abcd` */
export function short(hex: string, keep = 6): string {
  return hex.length <= 2 + keep * 2 ? hex : `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)}`
}

/** Bytes in a `0x` data string. */
export function byteLength(hex: string): number {
  return Math.max(0, (hex.length - 2) / 2)
}
