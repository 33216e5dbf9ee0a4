/**
 * What every view reaches: the JSON-RPC client, the ring, the router and the contracts the user
 * described. Built once in main.tsx and handed down through a context.
 */
import { createContext } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import type { StorageClient } from '../../inspect/client.js'
import type { Contracts } from './contracts.js'
import type { Ring } from './ring.js'
import type { Router } from './router.js'
import type { Rpc } from './rpc.js'

export interface App {
  readonly rpc: Rpc
  readonly ring: Ring
  readonly router: Router
  readonly contracts: Contracts
  /** ringchain's storage methods, decoded (src/inspect/). */
  readonly storage: StorageClient
}

export const AppContext = createContext<App | undefined>(undefined)

export function useApp(): App {
  const app = useContext(AppContext)
  if (app === undefined) throw new Error('useApp outside <AppContext.Provider>')
  return app
}

/** The state of an asynchronous load. */
export type Loaded<T> = { readonly state: 'loading' } | { readonly state: 'done'; readonly value: T } | { readonly state: 'failed'; readonly error: string }

/**
 * Runs `load` when a dependency changes and gives its result; an answer that arrives after a newer
 * load started is dropped. The previous value is kept while reloading, so views do not flicker.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    let current = true
    load().then(
      (value) => current && setLoaded({ state: 'done', value }),
      (e: unknown) => current && setLoaded({ state: 'failed', error: (e as Error).message }),
    )
    return () => {
      current = false
    }
  }, deps)
  return loaded
}

/** A number that follows the ring's head, but changes at most every `ms`: views that re-read on new blocks. */
export function useHeadTick(ring: Ring, ms: number): bigint {
  const [tick, setTick] = useState(ring.rows[0]?.number ?? -1n)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = ring.subscribe(() => {
      if (timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
        setTick(ring.rows[0]?.number ?? -1n)
      }, ms)
    })
    return () => {
      unsubscribe()
      clearTimeout(timer)
    }
  }, [ring, ms])
  return tick
}
