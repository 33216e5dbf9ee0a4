/**
 * `anvil_dumpState` and `anvil_loadState`: the chain's head state as anvil's dump, gzipped JSON in
 * hex, and back. (Hardhat has no such methods, so there are no `hardhat_` aliases.)
 *
 * Owns: gzip and hex on the wire. Leaves the dump's JSON to `src/chain/dumpState.ts` and what a
 * load does to the chain to `Chain.loadState`.
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { InvalidStateDumpError, parseStateDump, toStateDump } from '../../chain/dumpState.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec } from '../dispatcher.js'
import { toData } from '../hex.js'
import { optional } from '../params/decode.js'
import { bool, data } from '../params/values.js'

/**
 * `anvil_dumpState(preserveHistoricalStates?)`: the dump, gzipped, as hex. Ringchain keeps no
 * states outside its window, so the flag changes nothing.
 *
 * @example
 * // → '0x1f8b0800…' (gzip of {"block":{…},"accounts":{…},"best_block_number":12,…})
 */
export function dumpStateMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([optional(bool)], async (_params, ctx) => {
    const chain = await chainFor(ctx)
    return toData(gzipSync(JSON.stringify(toStateDump(await chain.exportState(), chain.common))))
  })
}

/**
 * `anvil_loadState(bytes)`: makes a dump (gzipped or plain JSON, ringchain's or anvil's) the head;
 * `true`. A dump that cannot be read is refused with -32602 and the chain is left as it was.
 */
export function loadStateMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([data], async ([bytes], ctx) => {
    const state = parseStateDump(dumpText(bytes))
    await (await chainFor(ctx)).loadState(state)
    return true
  })
}

/** The JSON text of a dump: gunzipped when it starts with gzip's magic bytes, as anvil reads it. */
function dumpText(bytes: Uint8Array): string {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return Buffer.from(bytes).toString('utf8')
  try {
    return gunzipSync(bytes).toString('utf8')
  } catch (cause) {
    throw new InvalidStateDumpError(`not valid gzip (${(cause as Error).message})`, { cause })
  }
}

/** The state-dump fragment of the registry (anvil's; Hardhat has none). */
export function dumpStateMethods(chainFor: ChainFor) {
  return { anvil_dumpState: dumpStateMethod(chainFor), anvil_loadState: loadStateMethod(chainFor) }
}
