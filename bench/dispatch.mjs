// What answering a read costs in-process, without any transport: µs per dispatch (raw body in,
// raw answer out) of the three spec reads and eth_chainId, each awaited one after another. This
// is the JSON-RPC share of a request's cost; `npm run bench` measures it with the transport.
// Run: npm run build && node bench/dispatch.mjs [N]   (default 200000 per method and round, 3 rounds)
import { createRingchain } from '../dist/index.js'
import { createDispatcher } from '../dist/rpc/dispatcher.js'
import { createMethods } from '../dist/rpc/methods.js'

const n = Number(process.argv[2] ?? 200_000)
const rc = await createRingchain({})
const holder = '0x' + '12'.repeat(20)
await rc.request({ method: 'anvil_setStorageAt', params: [holder, '0x0', '0x' + '00'.repeat(31) + '2a'] })
const hash = await rc.request({ method: 'eth_sendTransaction', params: [{ from: rc.accounts[0].address, to: holder, value: '0x1' }] })

const dispatch = createDispatcher(createMethods(() => rc.chain, { clientVersion: 'bench' }))
const session = { transport: 'http', apiKey: 'bench', send() {}, onClose() {}, closed: false }
const body = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
const bodies = {
  eth_getStorageAt: body('eth_getStorageAt', [holder, '0x0', 'latest']),
  eth_getTransactionByHash: body('eth_getTransactionByHash', [hash]),
  eth_getTransactionReceipt: body('eth_getTransactionReceipt', [hash]),
  eth_chainId: body('eth_chainId', []),
}
for (const [method, text] of Object.entries(bodies)) {
  const answer = await dispatch(text, session)
  if (!answer.includes('"result":') || answer.includes('"result":null')) throw new Error(`${method}: unexpected answer ${answer}`)
}

const best = {}
for (let round = 0; round < 3; round++) {
  for (const [method, text] of Object.entries(bodies)) {
    const t0 = performance.now()
    for (let i = 0; i < n; i++) await dispatch(text, session)
    const us = ((performance.now() - t0) * 1000) / n
    // Best of the rounds: noise on a shared machine only ever slows a round down.
    best[method] = Math.min(best[method] ?? Infinity, us)
  }
}
for (const [method, us] of Object.entries(best)) console.log(`${method.padEnd(26)} ${us.toFixed(2)} µs per dispatch`)
await rc.close()
