/**
 * The inspector page's entry: reads its base path (`/inspector/<KEY>`, written into the page by the
 * server), derives the JSON-RPC endpoints of the same key, starts the ring and its head feed, and
 * renders the app. Built by scripts/bundle-inspector.mjs into dist/inspector/.
 */
import { render } from 'preact'
import { StorageClient } from '../inspect/client.js'
import { App } from './App.js'
import { AppContext } from './data/app.js'
import { Contracts } from './data/contracts.js'
import { HeadFeed } from './data/heads.js'
import { Ring } from './data/ring.js'
import { Router } from './data/router.js'
import { Rpc } from './data/rpc.js'
import './style.css'

const base = document.body.dataset['base'] ?? '/inspector/ringchain'
const encodedKey = base.slice(base.lastIndexOf('/') + 1)
const rpc = new Rpc(`${location.origin}/v3/${encodedKey}`)
const ring = new Ring(rpc)
const router = new Router(base)
const app = { rpc, ring, router, contracts: new Contracts(), storage: new StorageClient(rpc.batched) }

const wsOrigin = location.origin.replace(/^http/, 'ws')
// Each (re)subscription reloads the window: heads mined while disconnected were never announced.
new HeadFeed(`${wsOrigin}/ws/v3/${encodedKey}`, (head) => ring.onHead(head), () => void ring.reload()).start()

render(
  <AppContext.Provider value={app}>
    <App />
  </AppContext.Provider>,
  document.getElementById('app')!,
)
