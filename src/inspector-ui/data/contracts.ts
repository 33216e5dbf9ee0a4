/**
 * What the user told the page about contracts: an ABI (for decoding logs) and a solc storage
 * layout (for storage by variable name), per address, pasted as an artifact (Hardhat's, Foundry's,
 * `solc --combined-json`) or as the bare storageLayout, and kept in the browser's localStorage.
 * The chain has no ABI registry; without one, well-known events are still decoded (events.ts).
 */
import { parseLayout, type Layout } from '../../inspect/layout.js'
import type { SolcStorageLayout } from '../../inspect/types.js'
import type { AbiEvent } from './events.js'
import { Watched } from './store.js'

/** What is known of one contract. */
export interface ContractInfo {
  readonly name: string | undefined
  readonly events: readonly AbiEvent[]
  readonly layout: SolcStorageLayout | undefined
}

const PREFIX = 'ringchain-inspector:contract:'

/** Thrown for a pasted text that holds neither an ABI nor a storage layout. */
export class ContractInfoError extends Error {
  override name = 'ContractInfoError'
}

/** Reads an artifact or a bare layout; throws ContractInfoError for anything else. */
export function parseContractInfo(text: string): ContractInfo {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ContractInfoError('not JSON: paste a compiler artifact or a storageLayout')
  }
  const o = (json ?? {}) as { contractName?: string; abi?: unknown; storageLayout?: unknown; storage?: unknown }
  const layout = (o.storageLayout ?? (Array.isArray(o.storage) ? o : undefined)) as SolcStorageLayout | undefined
  const events = Array.isArray(o.abi) ? (o.abi as { type?: string }[]).filter((e): e is AbiEvent => e.type === 'event') : []
  if (layout === undefined && events.length === 0) throw new ContractInfoError('no "abi" events and no "storageLayout" in it')
  if (layout !== undefined) parseLayout(layout) // a bad layout is refused now, not on every read
  return { name: o.contractName, events, layout }
}

export class Contracts extends Watched {
  readonly #cache = new Map<string, ContractInfo | undefined>()

  /** What is known of `address`, or undefined. */
  get(address: string): ContractInfo | undefined {
    const key = address.toLowerCase()
    if (!this.#cache.has(key)) {
      const text = localStorage.getItem(PREFIX + key)
      this.#cache.set(key, text === null ? undefined : (JSON.parse(text) as ContractInfo))
    }
    return this.#cache.get(key)
  }

  /** The layout of `address`, parsed; undefined without one. */
  layout(address: string): Layout | undefined {
    const raw = this.get(address)?.layout
    return raw === undefined ? undefined : parseLayout(raw)
  }

  /** Every event of every described contract (logs are decoded by topic, whoever emitted them). */
  events(address: string): readonly AbiEvent[] {
    return this.get(address)?.events ?? []
  }

  set(address: string, info: ContractInfo | undefined): void {
    const key = address.toLowerCase()
    if (info === undefined) localStorage.removeItem(PREFIX + key)
    else localStorage.setItem(PREFIX + key, JSON.stringify(info))
    this.#cache.set(key, info)
    this.changed()
  }
}
