/** The top bar: the views, a search box (hash, block number or address) and the head it follows. */
import { useState } from 'preact/hooks'
import { useApp } from '../data/app.js'
import { pathOfQuery } from '../data/router.js'
import { useWatched } from '../data/store.js'
import { Link } from './Link.js'

export function Nav() {
  const { router, ring } = useApp()
  useWatched(ring)
  const [query, setQuery] = useState('')
  const [bad, setBad] = useState(false)
  const head = ring.rows[0]?.number
  return (
    <header class="nav">
      <strong class="brand">ringchain inspector</strong>
      <Link to="">ring</Link>
      <Link to="/pool">pool</Link>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const path = pathOfQuery(query)
          setBad(path === undefined)
          if (path !== undefined) router.navigate(path)
        }}
      >
        <input class={bad ? 'bad' : ''} placeholder="transaction hash, block number or address" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </form>
      <span class="head" data-testid="head">
        head {head === undefined ? '…' : head.toString()}
      </span>
    </header>
  )
}
