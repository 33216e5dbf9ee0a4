/**
 * A forked chain's state at the fork block, read lazily from the upstream: an account (balance,
 * nonce, code) or a slot is fetched the first time anything reads it, one request per field,
 * fired together, one promise per key however many readers wait, and kept for the life of the
 * chain. Once fetched, a value is handed to the world state (`adoptAccount`, `adoptSlot`) and is
 * ordinary state from then on: history, snapshots and local writes all work on top.
 *
 * Owns: what to ask the upstream, parsing its answers, deduplication, and the adjustments a dev
 * chain makes at the fork (funded dev accounts, system contracts the upstream lacks).
 * Leaves to others: the connection, batching and retries (the `ForkSource`), which keys the state
 * holds (`loadedKeys.ts` through `state.ts`).
 */
import { KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex, unpadBytes } from '@ethereumjs/util'
import type { StateLoader, WorldState } from '../state.js'
import type { AccountRecord } from '../types.js'
import { ForkSourceError, type ForkSource } from './source.js'

/** An account as the upstream answers for it. */
export interface UpstreamAccount {
  readonly balance: bigint
  readonly nonce: bigint
  readonly code: Uint8Array
}

/** Changes a dev chain makes to an account as it comes from the upstream (dev account balances, system contracts). */
export type AccountAdjustment = (address: string, fetched: UpstreamAccount) => UpstreamAccount

export class UpstreamState implements StateLoader {
  readonly #source: ForkSource
  /** The fork block, as a quantity: every read is at it. */
  readonly #block: string
  readonly #world: WorldState
  readonly #keccak: (data: Uint8Array) => Uint8Array
  readonly #adjust: AccountAdjustment
  /** Per address, then per address + slot: the fetch, in flight or done. A failed fetch is forgotten, never kept as zero. */
  readonly #accounts = new Map<string, Promise<UpstreamAccount>>()
  readonly #slots = new Map<string, Promise<Uint8Array>>()

  constructor(init: { source: ForkSource; blockNumber: bigint; world: WorldState; keccak: (data: Uint8Array) => Uint8Array; adjust: AccountAdjustment }) {
    this.#source = init.source
    this.#block = `0x${init.blockNumber.toString(16)}`
    this.#world = init.world
    this.#keccak = init.keccak
    this.#adjust = init.adjust
  }

  load(address: string, slot?: string): Promise<void> | undefined {
    if (slot === undefined) return this.#world.holds(address) ? undefined : this.#loadAccount(address)
    return this.#world.holds(address, slot) ? undefined : this.#loadSlot(address, slot)
  }

  async #loadAccount(address: string): Promise<void> {
    const fetched = this.#adjust(address, await this.#account(address))
    this.#world.adoptAccount(address, this.#record(fetched), fetched.code)
  }

  async #loadSlot(address: string, slot: string): Promise<void> {
    // The account tells whether there is storage at all (one absent upstream has none): both
    // are asked at once, and the slot's answer is only waited for when it matters.
    const value = this.#slot(address, slot)
    if (!this.#world.holds(address)) await this.#loadAccount(address)
    if (this.#world.holds(address, slot)) return
    this.#world.adoptSlot(address, slot, await value)
  }

  #account(address: string): Promise<UpstreamAccount> {
    return once(this.#accounts, address, async () => {
      const params = [`0x${address}`, this.#block]
      const [balance, nonce, code] = await Promise.all([
        this.#request('eth_getBalance', params, quantity),
        this.#request('eth_getTransactionCount', params, quantity),
        this.#request('eth_getCode', params, data),
      ])
      return { balance, nonce, code }
    })
  }

  #slot(address: string, slot: string): Promise<Uint8Array> {
    const fetch = once(this.#slots, address + slot, () => this.#request('eth_getStorageAt', [`0x${address}`, `0x${slot}`, this.#block], word))
    fetch.catch(() => {}) // waited for only when the account has storage; its failure then surfaces there
    return fetch
  }

  /** An account the upstream does not have (nothing in it) is no account: EIP-161 would have removed it. */
  #record(account: UpstreamAccount): AccountRecord | undefined {
    if (account.balance === 0n && account.nonce === 0n && account.code.length === 0) return undefined
    const codeHash = account.code.length === 0 ? KECCAK256_NULL : this.#keccak(account.code)
    // The upstream's storage root is not asked for: roots of a forked chain are its own (see docs/architecture.md).
    return { nonce: account.nonce, balance: account.balance, storageRoot: KECCAK256_RLP, codeHash, codeSize: account.code.length }
  }

  async #request<T>(method: string, params: readonly unknown[], parse: (value: unknown) => T | undefined): Promise<T> {
    let result: unknown
    try {
      result = await this.#source.request(method, params)
    } catch (error) {
      if (error instanceof ForkSourceError) throw error
      throw new ForkSourceError(this.#source.label, method, (error as Error).message)
    }
    const parsed = parse(result)
    if (parsed === undefined) throw new ForkSourceError(this.#source.label, method, `malformed answer ${JSON.stringify(result)?.slice(0, 80)}`)
    return parsed
  }
}

/** The one promise for `key`: started by the first caller, shared by the rest, forgotten if it fails. */
export function once<T>(cache: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  let promise = cache.get(key)
  if (promise === undefined) {
    promise = start()
    cache.set(key, promise)
    promise.catch(() => {
      if (cache.get(key) === promise) cache.delete(key)
    })
  }
  return promise
}

const HEX = /^0x[0-9a-fA-F]*$/

function quantity(value: unknown): bigint | undefined {
  return typeof value === 'string' && HEX.test(value) && value.length > 2 ? BigInt(value) : undefined
}

function data(value: unknown): Uint8Array | undefined {
  return typeof value === 'string' && HEX.test(value) && value.length % 2 === 0 ? Uint8Array.from(Buffer.from(value.slice(2), 'hex')) : undefined
}

/** A storage word, without leading zeros (as the state keeps slots). */
function word(value: unknown): Uint8Array | undefined {
  const bytes = data(value)
  return bytes === undefined || bytes.length > 32 ? undefined : unpadBytes(bytes)
}

/** On a forked chain, starts fetching `address` and `slots` unless held; undefined when there is nothing to wait for. */
export function loadKeys(world: WorldState, address: Uint8Array, slots: readonly Uint8Array[]): Promise<void> | undefined {
  const key = bytesToUnprefixedHex(address)
  const loads: Promise<void>[] = []
  const account = world.head.load?.(key)
  if (account !== undefined) loads.push(account)
  for (const slot of slots) {
    const loading = world.head.load?.(key, bytesToUnprefixedHex(slot).padStart(64, '0'))
    if (loading !== undefined) loads.push(loading)
  }
  return loads.length === 0 ? undefined : Promise.all(loads).then(() => undefined)
}
