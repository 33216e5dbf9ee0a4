// Signing by the node, as application tests ask for it: viem's wallet client with a json-rpc account
// and ethers' JsonRpcSigner sign a message (personal_sign), typed data (eth_signTypedData_v4) and a
// transaction (eth_signTransaction) against a real ringchain on 127.0.0.1, port 0. Each signature is
// checked with the client's own verification, independently of ringchain.

import { JsonRpcProvider, Network, Transaction, verifyMessage, verifyTypedData as ethersVerifyTypedData } from 'ethers'
import { createPublicClient, createWalletClient, http, parseEther, recoverTransactionAddress, verifyMessage as viemVerifyMessage, verifyTypedData } from 'viem'
import { expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { ringchainChain } from './helpers.js'

const OTHER = '0x000000000000000000000000000000000000bEEF'

const DOMAIN = { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' } as const
const TYPES = {
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person' },
    { name: 'contents', type: 'string' },
    { name: 'amount', type: 'uint256' },
  ],
} as const
const MAIL = {
  from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
  to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
  contents: 'Hello, Bob!',
  amount: 10n ** 20n,
} as const

async function server() {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  return rc
}

test('viem: a json-rpc account signs a message, typed data and a transaction the node then takes', async () => {
  const rc = await server()
  const transport = http(rc.httpUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: ringchainChain, transport })
  const account = rc.accounts[2]!.address
  const wallet = createWalletClient({ chain: ringchainChain, transport, account })

  const messageSignature = await wallet.signMessage({ message: 'hello ringchain' })
  expect(await viemVerifyMessage({ address: account, message: 'hello ringchain', signature: messageSignature })).toBe(true)

  const typedSignature = await wallet.signTypedData({ domain: DOMAIN, types: TYPES, primaryType: 'Mail', message: MAIL })
  expect(await verifyTypedData({ address: account, domain: DOMAIN, types: TYPES, primaryType: 'Mail', message: MAIL, signature: typedSignature })).toBe(true)

  const request = await wallet.prepareTransactionRequest({ to: OTHER, value: parseEther('0.25') })
  const raw = await wallet.signTransaction(request)
  expect((await recoverTransactionAddress({ serializedTransaction: raw })).toLowerCase()).toBe(account.toLowerCase())
  expect(await publicClient.getTransactionCount({ address: account })).toBe(0)
  const hash = await wallet.sendRawTransaction({ serializedTransaction: raw })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 5_000 })
  expect(receipt).toMatchObject({ status: 'success', from: account.toLowerCase() })
  expect(await publicClient.getBalance({ address: OTHER })).toBe(parseEther('0.25'))
})

test('ethers: a JsonRpcSigner signs a message, typed data and a transaction the node then takes', async () => {
  const rc = await server()
  const provider = new JsonRpcProvider(rc.httpUrl, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 })
  onTestFinished(() => provider.destroy())
  const signer = await provider.getSigner(3)
  const address = await signer.getAddress()

  const messageSignature = await signer.signMessage('hello ringchain')
  expect(verifyMessage('hello ringchain', messageSignature)).toBe(address)

  // ethers takes the field lists mutable.
  const types = { Person: [...TYPES.Person], Mail: [...TYPES.Mail] }
  const typedSignature = await signer.signTypedData(DOMAIN, types, MAIL)
  expect(ethersVerifyTypedData(DOMAIN, types, MAIL, typedSignature)).toBe(address)

  // eth_signTransaction: ethers hands the request over as it is; the node fills in nonce, gas and fees.
  const raw = await signer.signTransaction({ to: OTHER, value: 5n })
  const tx = Transaction.from(raw)
  expect(tx).toMatchObject({ from: address, to: OTHER, value: 5n, nonce: 0, chainId: 31337n })
  expect(await provider.getTransactionCount(address)).toBe(0)
  const sent = await provider.broadcastTransaction(raw)
  expect(await sent.wait(1, 5_000)).toMatchObject({ status: 1, from: address })
  expect(await provider.getBalance(OTHER)).toBe(5n)
})
