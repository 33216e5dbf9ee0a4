/**
 * The seeded randomness of a provider profile: one small PRNG (mulberry32) per API key and purpose,
 * seeded from the profile's seed, the key and the purpose, so that the same seed gives the same
 * sequence of failures (or lags) for a key, whatever other keys and other purposes draw.
 */

/** A stream of numbers in [0, 1) fixed by its seed. */
export type Random = () => number

/** The stream of `purpose` for `apiKey` under `seed`. */
export function seededRandom(seed: number, apiKey: string, purpose: string): Random {
  let state = hash(`${seed}\u0000${apiKey}\u0000${purpose}`)
  // mulberry32: 32 bits of state, good enough for dice, a few operations a draw.
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** FNV-1a over the text's UTF-16 code units. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}
