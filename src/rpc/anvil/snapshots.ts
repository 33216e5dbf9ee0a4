/**
 * Snapshots: `evm_snapshot` / `evm_revert` (anvil's names alias them). A snapshot is the whole
 * chain (ring, pool, index, clock, mining mode); taking and restoring it is `src/chain/`'s.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { toQuantity } from '../hex.js'
import { none } from '../params/decode.js'
import { quantity } from '../params/values.js'

/** The snapshot methods over `chainFor`, with their aliases. */
export function snapshotMethods(chainFor: ChainFor) {
  const snapshot = defineMethod(none, async (_p, ctx) => toQuantity(await (await chainFor(ctx)).snapshot()))
  const revert = defineMethod([quantity], async ([id], ctx) => (await chainFor(ctx)).revert(Number(id)))
  return {
    evm_snapshot: snapshot,
    anvil_snapshot: snapshot,
    evm_revert: revert,
    anvil_revert: revert,
  } satisfies Registry
}
