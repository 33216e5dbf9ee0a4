// eth_sendRawTransaction of a transaction already mined: geth's pool no longer knows it, so the
// nonce check refuses it: `nonce too low: next nonce N, tx nonce M`.
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { createRingchain, type Ringchain } from '../../src/index.js'
import { signed1559 } from '../helpers/chain.js'

const open: Ringchain[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((rc) => rc.close()))
})

test('error: a transaction already mined: nonce too low (-32000)', async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const raw = `0x${Buffer.from(signed1559(rc.chain, 0, { nonce: 0n, to: rc.chain.accounts[1]!.address, value: 1n }).serialize()).toString('hex')}` as const
  const client = createPublicClient({ transport: custom(rc) })
  await client.sendRawTransaction({ serializedTransaction: raw })
  await expect(client.sendRawTransaction({ serializedTransaction: raw })).rejects.toThrow(/nonce too low: next nonce 1, tx nonce 0/)
  await expect(rc.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toMatchObject({ code: -32000, message: 'nonce too low: next nonce 1, tx nonce 0' })
})

test('error: a transaction still pending: already known', async () => {
  const rc = await createRingchain({ deterministic: true, mining: { mode: 'manual' } })
  open.push(rc)
  const raw = `0x${Buffer.from(signed1559(rc.chain, 0, { nonce: 0n, to: rc.chain.accounts[1]!.address, value: 1n }).serialize()).toString('hex')}`
  await rc.request({ method: 'eth_sendRawTransaction', params: [raw] })
  await expect(rc.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toMatchObject({ code: -32000, message: 'already known' })
})

test('behavior: a mined transaction whose nonce was given back is not pooled twice: already known', async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  const raw = `0x${Buffer.from(signed1559(rc.chain, 0, { nonce: 0n, to: rc.chain.accounts[1]!.address, value: 1n }).serialize()).toString('hex')}`
  await rc.request({ method: 'eth_sendRawTransaction', params: [raw] })
  await rc.request({ method: 'anvil_setNonce', params: [rc.accounts[0]!.address, '0x0'] })
  await expect(rc.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toMatchObject({ code: -32000, message: 'already known' })
})

test("error: on Osaka a transaction whose gas limit is over the EIP-7825 cap is refused with geth's words, not pooled", async () => {
  const rc = await createRingchain({ deterministic: true })
  open.push(rc)
  // Signed under Prague, whose transactions have no cap, and sent to an Osaka chain.
  const prague = rc.chain.common.copy()
  prague.setHardfork('prague')
  const tx = createFeeMarket1559Tx(
    { chainId: prague.chainId(), nonce: 0n, to: rc.chain.accounts[1]!.address, gasLimit: 16_777_217n, maxFeePerGas: 10_000_000_000n },
    { common: prague },
  ).sign(rc.chain.accounts[0]!.privateKey)
  const raw = `0x${Buffer.from(tx.serialize()).toString('hex')}`
  await expect(rc.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toMatchObject({ code: -32000, message: 'transaction gas limit too high (cap: 16777216, tx: 16777217)' })
  expect(await rc.request({ method: 'txpool_status', params: [] })).toEqual({ pending: '0x0', queued: '0x0' })
})
