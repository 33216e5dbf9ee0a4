// eth_getBlockByNumber('pending') end to end over HTTP: the block the pool would make on the head,
// with `hash`, `nonce` and `miner` null, as geth sends the pending block.

import { expect, test } from 'vitest'
import { type Hex, result, sendRaw, signedTx, start } from '../helpers/rpc.js'

const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111'

type Block = Record<string, unknown> & { number: Hex; hash: Hex | null; transactions: unknown[] }

async function setup() {
  const rc = await start({ mining: { mode: 'manual' } })
  const hash = await sendRaw(rc, signedTx(rc.chain, 'eip1559', 0, { nonce: 0n, to: RECIPIENT, value: 1n }))
  const block = (tag: string, full: boolean) => result<Block>(rc.httpUrl, 'eth_getBlockByNumber', [tag, full])
  return { rc, hash, block }
}

test('default', async () => {
  const { hash, block } = await setup()
  const latest = await block('latest', false)
  const pending = await block('pending', false)
  expect(pending).toMatchObject({ hash: null, nonce: null, miner: null, number: '0x1', parentHash: latest.hash, transactions: [hash] })
  // Everything else is a block's.
  expect(Object.keys(pending).sort()).toEqual(Object.keys(latest).sort())
})

test('args: full transactions', async () => {
  const { hash, block } = await setup()
  const pending = await block('pending', true)
  expect(pending).toMatchObject({ hash: null, nonce: null, miner: null })
  expect(pending.transactions).toMatchObject([{ hash, from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: RECIPIENT }])
})

test('behavior: mined blocks keep their hash, nonce and miner', async () => {
  const { rc, block } = await setup()
  await result(rc.httpUrl, 'evm_mine', [])
  const mined = await block('latest', false)
  expect(mined.hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(mined).toMatchObject({ number: '0x1', nonce: '0x0000000000000000', miner: '0x0000000000000000000000000000000000000000' })
  expect(await block('0x1', false)).toEqual(mined)
})
