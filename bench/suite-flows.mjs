// The user-level tests the suite section times: what one test of a dapp's test suite does, written
// the way a user writes it with viem or ethers v6. Each flow takes a snapshot first and reverts to
// it last, so every run starts from the same chain and the chain never grows past a few blocks.
// The flows only see a `Client` (suite-worker.mjs builds it per target); they check their results
// so a target that answers wrongly fails instead of looking fast.

import { readFileSync } from 'node:fs'
import { ContractFactory, Wallet } from 'ethers'
import { createPublicClient, createTestClient, createWalletClient, defineChain, encodeFunctionData, parseAbiItem } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const load = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'))
/** Store.sol (test/fixtures/contracts): `value`, `balances` mapping, `store(v)` emitting `Stored`. */
export const Store = load('../test/fixtures/contracts/Store.json')
/** Token.sol (scenarios/contracts): a minimal ERC-20. */
export const Token = load('../scenarios/contracts/Token.json')

/** The first three dev keys of the `test … junk` mnemonic: every target funds them at genesis. */
export const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]
export const accounts = KEYS.map((key) => privateKeyToAccount(key))
/** Every target runs this fork, chain id 31337, automine and the 10 accounts of that mnemonic. */
export const HARDFORK = 'osaka'
export const MNEMONIC = 'test test test test test test test test test test test junk'

export const devChain = defineChain({
  id: 31337,
  name: 'dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** A wrong answer ends the run: a benchmark of a target that misbehaves measures nothing. */
function check(ok, what) {
  if (!ok) throw new Error(`flow check failed: ${what}`)
}

/**
 * viem clients over one transport: public, test, and a wallet per dev key. Polling at 50 ms keeps
 * a receipt that is not there yet (anvil may answer a send before it mines) from costing viem's
 * default 4 s; with automine the first receipt request normally finds it.
 */
export function viemClients(transport) {
  const options = { chain: devChain, transport, pollingInterval: 50 }
  return {
    public: createPublicClient(options),
    test: createTestClient({ ...options, mode: 'anvil' }),
    wallets: accounts.map((account) => createWalletClient({ ...options, account })),
  }
}

/** snapshot; deploy Store; three storage writes, each estimated, signed, sent and awaited; reads; an eth_call; revert. */
async function viemFlow({ viem }) {
  const { public: client, test, wallets } = viem
  const wallet = wallets[0]
  const me = wallet.account.address
  const id = await test.snapshot()
  try {
    const deployHash = await wallet.deployContract({ abi: Store.abi, bytecode: Store.bytecode })
    const { contractAddress: address, status } = await client.waitForTransactionReceipt({ hash: deployHash })
    check(status === 'success' && address, 'Store deployed')
    for (const v of [1n, 2n, 3n]) {
      const hash = await wallet.writeContract({ address, abi: Store.abi, functionName: 'store', args: [v] })
      check((await client.waitForTransactionReceipt({ hash })).status === 'success', `store(${v})`)
    }
    check((await client.readContract({ address, abi: Store.abi, functionName: 'value' })) === 3n, 'value() = 3')
    check((await client.readContract({ address, abi: Store.abi, functionName: 'balances', args: [me] })) === 3n, 'balances(me) = 3')
    check((await client.getBalance({ address: me })) > 0n, 'balance > 0')
    const { data } = await client.call({ account: me, to: address, data: encodeFunctionData({ abi: Store.abi, functionName: 'get' }) })
    check(BigInt(data) === 3n, 'eth_call get() = 3')
  } finally {
    await test.revert({ id })
  }
}

/**
 * `tx.wait()`, bounded. ethers waits for a receipt it did not find at once by polling the receipt
 * on each new block; a node that answers the send before it mines (anvil) can mine the block
 * between ethers' first look and its first block-number poll, and with automine and nothing else
 * sent no block follows: ethers then waits forever. After `STALL_MS` the receipt is asked for
 * directly and the stall counted (`onStall`), so the test's time shows it and the run goes on.
 */
const STALL_MS = 1_000
async function waited(tx, provider, onStall) {
  try {
    return await tx.wait(1, STALL_MS)
  } catch (e) {
    if (e?.code !== 'TIMEOUT') throw e
    onStall()
    return provider.getTransactionReceipt(tx.hash)
  }
}

/** The same test written with ethers v6: ContractFactory, contract.fn(), tx.wait(). */
async function ethersFlow({ ethers }) {
  const { provider, onStall } = ethers
  const wallet = new Wallet(KEYS[0], provider)
  const id = await provider.send('evm_snapshot', [])
  try {
    const store = await new ContractFactory(Store.abi, Store.bytecode, wallet).deploy()
    check((await waited(store.deploymentTransaction(), provider, onStall)).status === 1, 'Store deployed')
    for (const v of [1n, 2n, 3n]) {
      const tx = await store.store(v)
      check((await waited(tx, provider, onStall)).status === 1, `store(${v})`)
    }
    check((await store.value()) === 3n, 'value() = 3')
    check((await store.balances(wallet.address)) === 3n, 'balances(me) = 3')
    check((await provider.getBalance(wallet.address)) > 0n, 'balance > 0')
    const data = await provider.call({ from: wallet.address, to: await store.getAddress(), data: store.interface.encodeFunctionData('get') })
    check(BigInt(data) === 3n, 'eth_call get() = 3')
  } finally {
    await provider.send('evm_revert', [id])
  }
}

/** An ERC-20 test with viem: deploy Token, transfer, approve and transferFrom, then the Transfer events by eth_getLogs. */
async function erc20Flow({ viem }) {
  const { public: client, test, wallets } = viem
  const [owner, spender, receiver] = wallets.map((w) => w.account.address)
  const id = await test.snapshot()
  try {
    const wait = async (hash, what) => {
      const receipt = await client.waitForTransactionReceipt({ hash })
      check(receipt.status === 'success', what)
      return receipt
    }
    const deploy = await wait(await wallets[0].deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Bench', 'BNC', 1_000_000n] }), 'Token deployed')
    const address = deploy.contractAddress
    const token = { address, abi: Token.abi }
    await wait(await wallets[0].writeContract({ ...token, functionName: 'transfer', args: [receiver, 100n] }), 'transfer')
    await wait(await wallets[0].writeContract({ ...token, functionName: 'approve', args: [spender, 500n] }), 'approve')
    await wait(await wallets[1].writeContract({ ...token, functionName: 'transferFrom', args: [owner, receiver, 200n] }), 'transferFrom')
    check((await client.readContract({ ...token, functionName: 'balanceOf', args: [receiver] })) === 300n, 'balanceOf(receiver) = 300')
    check((await client.readContract({ ...token, functionName: 'allowance', args: [owner, spender] })) === 300n, 'allowance = 300')
    const logs = await client.getLogs({ address, event: TRANSFER, fromBlock: deploy.blockNumber, toBlock: 'latest' })
    check(logs.length === 3 && logs[2].args.value === 200n, `3 Transfer events (got ${logs.length})`)
  } finally {
    await test.revert({ id })
  }
}

/** The flows by name, in the order the table shows them. */
export const FLOWS = {
  viem: { run: viemFlow, label: 'viem: snapshot, deploy, 3 storage writes (estimate, sign, send, wait), reads, eth_call, revert' },
  ethers: { run: ethersFlow, label: 'ethers v6: the same (ContractFactory, contract.fn(), tx.wait())' },
  erc20: { run: erc20Flow, label: 'ERC-20 (viem): deploy, transfer, approve, transferFrom, reads, eth_getLogs' },
}
