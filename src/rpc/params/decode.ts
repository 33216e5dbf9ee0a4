// The param combinator: one `Param` per positional argument, `optional`, and `decodeParams`, which
// applies a method's list in geth's order and wording (`invalid argument N: `, N from 0;
// `too many arguments`; `missing value for required argument N`).
// Does not own: what any one kind of value accepts (the sibling modules do, one family each).

import { InvalidParamsError } from '../errors.js'

/**
 * One positional parameter: how to decode a present value, and what an absent (or `null`) one
 * means. Without `absent` the parameter is required.
 */
export interface Param<T> {
  /** Decodes a present, non-null JSON value. Throws `ArgumentError` (or a complete `InvalidParamsError`). */
  readonly decode: (value: unknown) => T
  /** The value of an absent or `null` argument; left out for a required argument. */
  readonly absent?: () => T
}

/** The tuple of values a list of params decodes to. */
export type DecodedParams<P extends readonly Param<unknown>[]> = {
  readonly [K in keyof P]: P[K] extends Param<infer T> ? T : never
}

/**
 * A decoder's complaint about its value; `decodeParams` turns it into
 * `invalid argument N: <message>`. A decoder whose message geth sends without that prefix throws
 * `InvalidParamsError` itself.
 */
export class ArgumentError extends InvalidParamsError {
  override name = 'ArgumentError'
}

/**
 * The param, made optional: absent or `null` gives `fallback` (or `undefined` without one).
 *
 * @example optional(blockParam, LATEST)
 */
export function optional<T>(param: Param<T>): Param<T | undefined>
export function optional<T>(param: Param<T>, fallback: T): Param<T>
export function optional<T>(param: Param<T>, ...fallback: [] | [T]): Param<T | undefined> {
  const value = fallback.length === 0 ? undefined : fallback[0]
  return { decode: param.decode, absent: () => value }
}

/**
 * Decodes a request's positional params (absent `params` is `[]`), in order, as geth does: the
 * first bad argument wins, then `too many arguments`, then missing required ones.
 *
 * @example decodeParams([address, storageSlot, optional(blockParam, LATEST)], ['0xaa…', '0x0'])
 */
export function decodeParams<const P extends readonly Param<unknown>[]>(
  params: P,
  raw: readonly unknown[],
): DecodedParams<P> {
  const out: unknown[] = new Array(params.length)
  for (let i = 0; i < raw.length; i++) {
    const param = params[i]
    if (param === undefined) throw new InvalidParamsError(`too many arguments, want at most ${params.length}`)
    const value = raw[i]
    if (value === null || value === undefined) {
      if (param.absent === undefined) throw new InvalidParamsError(`missing value for required argument ${i}`)
      out[i] = param.absent()
      continue
    }
    try {
      out[i] = param.decode(value)
    } catch (error) {
      if (error instanceof ArgumentError) throw new InvalidParamsError(`invalid argument ${i}: ${error.message}`)
      throw error
    }
  }
  for (let i = raw.length; i < params.length; i++) {
    const absent = params[i]!.absent
    if (absent === undefined) throw new InvalidParamsError(`missing value for required argument ${i}`)
    out[i] = absent()
  }
  return out as unknown as DecodedParams<P>
}

/** Param list of no value: methods that take none still refuse extra arguments. */
export const none = [] as const

/** Any JSON value, passed through (for params whose shape the handler checks itself). */
export const anyValue: Param<unknown> = { decode: (value) => value }
