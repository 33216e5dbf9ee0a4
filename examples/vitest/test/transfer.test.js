import { test } from 'ringchain/vitest'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'                  // chain id 31337, like ringchain's default
import { expect } from 'vitest'
import { joinPair } from './together.js'

const meet = joinPair('transfer', 'storage')
const recipient = '0x00000000000000000000000000000000000a11ce'

test('transfers, and the other worker does not see it', async ({ ringchain }) => {
  const account = privateKeyToAccount(ringchain.accounts[0].privateKey)
  const wallet = createWalletClient({ chain: foundry, transport: http(ringchain.httpUrl), account })
  const client = createPublicClient({ chain: foundry, transport: http(ringchain.httpUrl) })
  await wallet.sendTransaction({ to: recipient, value: parseEther('1') })
  await meet('wrote')                                  // the other file has written on its chain too
  expect(await client.getBalance({ address: recipient })).toBe(parseEther('1'))
  expect(await client.getBlockNumber()).toBe(1n)       // its block is not on this chain
  await meet('read')
})

test('the next test starts from the snapshot', async ({ ringchain }) => {
  const client = createPublicClient({ chain: foundry, transport: http(ringchain.httpUrl) })
  expect(await client.getBalance({ address: recipient })).toBe(0n)
  expect(await client.getBlockNumber()).toBe(0n)
})
