/**
 * On a forked chain, which keys of the state the chain holds: an account or slot it loaded from the
 * upstream or wrote itself. Any other key still has the value the upstream had at the fork block,
 * not yet fetched: a synchronous read of one throws `StateNotLoadedError`, never answers zero.
 *
 * Owns: that bookkeeping and its copies for snapshots. Leaves fetching to `lazyState.ts` and the
 * values themselves to `state.ts`. Keys are unprefixed lowercase hex, as in `state.ts`.
 */

export class LoadedKeys {
  readonly #accounts: Set<string>
  readonly #slots: Map<string, Set<string>>
  /** Accounts whose every slot is known: absent upstream, created here, or wiped here. */
  readonly #wholeStorage: Set<string>

  constructor(from?: LoadedKeys) {
    this.#accounts = new Set(from === undefined ? [] : from.#accounts)
    this.#slots = new Map(from === undefined ? [] : [...from.#slots].map(([address, slots]) => [address, new Set(slots)]))
    this.#wholeStorage = new Set(from === undefined ? [] : from.#wholeStorage)
  }

  hasAccount(address: string): boolean {
    return this.#accounts.has(address)
  }

  hasSlot(address: string, slot: string): boolean {
    return this.#wholeStorage.has(address) || this.#slots.get(address)?.has(slot) === true
  }

  addAccount(address: string): void {
    this.#accounts.add(address)
  }

  addSlot(address: string, slot: string): void {
    if (this.#wholeStorage.has(address)) return
    let slots = this.#slots.get(address)
    if (slots === undefined) this.#slots.set(address, (slots = new Set()))
    slots.add(slot)
  }

  /** Every slot of `address` is now known (zero unless held): its storage no longer comes from the upstream. */
  holdWholeStorage(address: string): void {
    this.#wholeStorage.add(address)
    this.#slots.delete(address)
  }

  /** Notes a commit's writes: what the chain wrote itself is known from then on. */
  noteWrites(accounts: Iterable<string>, storage: ReadonlyMap<string, ReadonlyMap<string, unknown>>, wiped: Iterable<string>): void {
    for (const address of accounts) this.#accounts.add(address)
    for (const address of wiped) this.holdWholeStorage(address)
    for (const [address, slots] of storage) for (const slot of slots.keys()) this.addSlot(address, slot)
  }

  clone(): LoadedKeys {
    return new LoadedKeys(this)
  }
}

/**
 * A synchronous read reached state the upstream has not given yet. `loading` is its fetch, already
 * started: wait for it and read again (`readLoaded`). Not an answer: it never reaches a client.
 */
export class StateNotLoadedError extends Error {
  constructor(
    readonly address: string,
    readonly slot: string | undefined,
    readonly loading: Promise<void>,
  ) {
    super(`state of 0x${address}${slot === undefined ? '' : ` slot 0x${slot}`} is not loaded from the upstream yet`)
    this.name = 'StateNotLoadedError'
    // A fetch nobody waited for must not be an unhandled rejection; the one who waits sees it.
    loading.catch(() => {})
  }
}

/** How many misses one read may load before it gives up (each is one fetch, usually of a batch). */
const MAX_LOADS = 256

/** Runs a synchronous read, loading what it misses from the upstream and running it again. */
export async function readLoaded<T>(read: () => T): Promise<T> {
  for (let loads = 0; ; loads++) {
    try {
      return read()
    } catch (error) {
      if (!(error instanceof StateNotLoadedError) || loads >= MAX_LOADS) throw error
      await error.loading
    }
  }
}
