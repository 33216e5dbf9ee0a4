// Each test gets the worker's chain as it was before the test: the fixture reverts what a test did.
import { createPublicClient, createWalletClient, custom, defineChain, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { test, type WorkerChain } from '../../../src/vitest.js'

const OTHER = '0x000000000000000000000000000000000000bEEF'

function clients(ringchain: WorkerChain) {
  const chain = defineChain({ id: ringchain.chainId, name: 'ringchain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [ringchain.httpUrl] } } })
  const account = privateKeyToAccount(ringchain.accounts[0]!.privateKey)
  return {
    account,
    wallet: createWalletClient({ chain, account, transport: custom(ringchain) }),
    client: createPublicClient({ chain, transport: custom(ringchain) }),
  }
}

for (const round of [1, 2, 3]) {
  test(`round ${round}: starts from a clean chain and sends one transfer`, async ({ ringchain }) => {
    expect(ringchain.apiKey).toBe(`vitest-${process.env.VITEST_POOL_ID}`)
    const { account, wallet, client } = clients(ringchain)
    expect(await client.getTransactionCount({ address: account.address })).toBe(0)
    expect(await client.getBlockNumber()).toBe(0n)
    const hash = await wallet.sendTransaction({ to: OTHER, value: parseEther('1') })
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await client.getBalance({ address: OTHER })).toBe(parseEther('1'))
  })
}
