// txpool_inspect end to end over HTTP: geth's one-line summary of every pool transaction, per sender
// (checksummed) and nonce (decimal), split into pending (executable) and queued (behind a nonce gap).

import { expect, test } from 'vitest'
import { STORE_INITCODE } from '../helpers/chain.js'
import { type Hex, result, sendRaw, signedTx, start } from '../helpers/rpc.js'

const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111'

test('default', async () => {
  const rc = await start({ mining: { mode: 'manual' } })
  await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT, value: 5n, gasLimit: 21_000n, maxFeePerGas: 3_000_000_000n }))
  await sendRaw(rc, signedTx(rc.chain, 'legacy-eip155', 0, { nonce: 1n, to: '0xabcdef0000000000000000000000000000000000', gasPrice: 2_000_000_000n }))
  // Nonce 3 waits for nonce 2: queued.
  await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 3n, to: null, data: STORE_INITCODE, gasLimit: 500_000n }))
  await sendRaw(rc, signedTx(rc.chain, 'eip2930', 1, { nonce: 0n, to: RECIPIENT, value: 10n ** 18n, gasPrice: 1_500_000_000n }))
  expect(await result(rc.httpUrl, 'txpool_inspect', [])).toMatchInlineSnapshot(`
    {
      "pending": {
        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8": {
          "0": "0x1111111111111111111111111111111111111111: 1000000000000000000 wei + 100000 gas × 1500000000 wei",
        },
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266": {
          "0": "0x1111111111111111111111111111111111111111: 5 wei + 21000 gas × 3000000000 wei",
          "1": "0xaBcDEf0000000000000000000000000000000000: 0 wei + 100000 gas × 2000000000 wei",
        },
      },
      "queued": {
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266": {
          "3": "contract creation: 0 wei + 500000 gas × 10000000000 wei",
        },
      },
    }
  `)
})

test('behavior: an empty pool', async () => {
  const rc = await start()
  expect(await result(rc.httpUrl, 'txpool_inspect', [])).toEqual({ pending: {}, queued: {} })
})

test('behavior: a mined transaction leaves it', async () => {
  const rc = await start({ mining: { mode: 'manual' } })
  await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT }))
  expect(Object.keys(await result<{ pending: object }>(rc.httpUrl, 'txpool_inspect', []).then((r) => r.pending))).toHaveLength(1)
  await result(rc.httpUrl, 'evm_mine', [])
  expect(await result(rc.httpUrl, 'txpool_inspect', [])).toEqual({ pending: {}, queued: {} })
})
