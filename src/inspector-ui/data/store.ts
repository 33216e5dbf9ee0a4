/**
 * A value that views watch, and the hook that re-renders a component when it changes. Changes are
 * announced at most once per animation frame, however many arrive: a busy chain mines hundreds of
 * blocks a second, the screen shows sixty.
 */
import { useEffect, useState } from 'preact/hooks'

/** Something views can watch; `version` grows with every announced change. */
export class Watched {
  readonly #listeners = new Set<() => void>()
  #scheduled = false
  version = 0

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Announces a change on the next animation frame (once, whatever else changes until then). */
  protected changed(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    requestAnimationFrame(() => {
      this.#scheduled = false
      this.version++
      for (const listener of this.#listeners) listener()
    })
  }
}

/** Re-renders the calling component after each announced change of `watched`. */
export function useWatched(watched: Watched): void {
  const [, setVersion] = useState(watched.version)
  useEffect(() => watched.subscribe(() => setVersion(watched.version)), [watched])
}
