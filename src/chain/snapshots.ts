/**
 * Whole-chain snapshots (evm_snapshot / evm_revert): the state and its history, the window, the
 * pool, the clock, the mining mode and block settings, and the recorded preimages.
 *
 * Owns: taking a snapshot (or handing back the last id when nothing changed since), and putting
 * every part back from one, in an order where each part sees the others restored.
 * Leaves to others: each part's own copy (`snapshot()`/`restore()` on it), running alone (`chain.ts`).
 */
import type { Clock, ClockState } from './clock.js'
import type { Miner, MinerState } from './miner.js'
import type { PoolSnapshot, TxPool } from './pool.js'
import type { PreimageSnapshot, PreimageStore } from './preimages.js'
import type { WorldState } from './state.js'
import type { WorldStateSnapshot } from './stateHistory.js'
import type { BlockWindow, WindowSnapshot } from './window.js'

/** The parts of a chain a snapshot holds. */
export interface SnapshotParts {
  readonly world: WorldState
  readonly window: BlockWindow
  readonly pool: TxPool
  readonly clock: Clock
  readonly miner: Miner
  readonly preimages: PreimageStore
}

interface ChainSnapshot {
  /** The chain's change count when it was taken. */
  readonly version: number
  readonly world: WorldStateSnapshot
  readonly window: WindowSnapshot
  readonly pool: PoolSnapshot
  readonly clock: ClockState
  readonly miner: MinerState
  readonly preimages: PreimageSnapshot
}

export class Snapshots {
  readonly #parts: SnapshotParts
  readonly #snapshots = new Map<number, ChainSnapshot>()
  #nextId = 1

  constructor(parts: SnapshotParts) {
    this.#parts = parts
  }

  /** Takes a snapshot of the chain at change count `version`; returns its id. */
  take(version: number): number {
    // Nothing changed since the last snapshot (a test fixture's snapshot-test-revert loop): the
    // same id names the same chain, and memory does not grow with the number of tests.
    const last = this.#snapshots.get(this.#nextId - 1)
    if (last !== undefined && last.version === version) return this.#nextId - 1
    const id = this.#nextId++
    const p = this.#parts
    this.#snapshots.set(id, {
      version,
      world: p.world.snapshot(),
      window: p.window.snapshot(),
      pool: p.pool.snapshot(),
      clock: p.clock.state(),
      miner: p.miner.state(),
      preimages: p.preimages.snapshot(),
    })
    return id
  }

  /** Puts the chain back as it was at snapshot `id` (which stays usable); its change count, or undefined if there is no such snapshot. */
  async revert(id: number): Promise<number | undefined> {
    const snapshot = this.#snapshots.get(id)
    if (snapshot === undefined) return undefined
    const p = this.#parts
    await p.world.restore(snapshot.world)
    p.window.restore(snapshot.window)
    p.preimages.restore(snapshot.preimages)
    p.pool.restore(snapshot.pool)
    p.clock.restore(snapshot.clock)
    p.miner.restore(snapshot.miner)
    return snapshot.version
  }
}
