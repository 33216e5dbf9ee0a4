/** The page: the top bar, the controls, and the view the URL names. */
import { useApp } from './data/app.js'
import { useWatched } from './data/store.js'
import { Nav } from './components/Nav.js'
import { Controls } from './components/Controls.js'
import { RingView } from './views/RingView.js'
import { PoolView } from './views/PoolView.js'
import { BlockView } from './views/BlockView.js'
import { TxView } from './views/TxView.js'
import { AddressView } from './views/AddressView.js'

export function App() {
  const { router } = useApp()
  useWatched(router)
  const route = router.route
  return (
    <>
      <Nav />
      <Controls />
      {route.view === 'ring' && <RingView />}
      {route.view === 'pool' && <PoolView />}
      {route.view === 'block' && <BlockView key={route.number.toString()} number={route.number} />}
      {route.view === 'tx' && <TxView key={route.hash} hash={route.hash} />}
      {route.view === 'address' && <AddressView key={route.address} address={route.address} />}
      {route.view === 'unknown' && (
        <main>
          <p class="error">No view at {route.path}.</p>
        </main>
      )}
    </>
  )
}
