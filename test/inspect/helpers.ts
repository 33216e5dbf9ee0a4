/**
 * Shared bits of the storage-inspection tests: a ringchain (in-process, or served on port 0) with
 * the compiled fixtures deployed by dev account 0 through viem, and raw reads of the chain's state.
 */
import { readFileSync } from 'node:fs'
import { createPublicClient, createWalletClient, custom, defineChain, type Abi, type Account, type Chain, type Hex, type PublicClient, type Transport, type WalletClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { onTestFinished } from 'vitest'
import { createRingchain, type Ringchain, type RingchainOptions } from '../../src/index.js'
import { Token, type Artifact } from '../fixtures/contracts/artifacts.js'

/** Layouts.sol (every storage rule), compiled by Layouts.compile.mjs. */
export const Layouts: Artifact = JSON.parse(readFileSync(new URL('../fixtures/contracts/Layouts.json', import.meta.url), 'utf8')) as Artifact
export { Token }

const devChain = defineChain({ id: 31337, name: 'ringchain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })

export const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
export const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const
export const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const

/** viem clients over one provider: a wallet (signing locally) and a public client. */
export interface Clients {
  readonly wallet: WalletClient<Transport, Chain, Account>
  readonly client: PublicClient
}

/** viem clients over an EIP-1193 provider, signing with `privateKey`. */
export function clients(provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }, privateKey: Hex): Clients {
  const transport = custom(provider as never)
  return {
    wallet: createWalletClient({ chain: devChain, transport, account: privateKeyToAccount(privateKey) }),
    client: createPublicClient({ chain: devChain, transport }),
  }
}

/** A fresh in-process ringchain (deterministic), closed when the test ends. */
export async function ringchain(options: RingchainOptions = {}): Promise<Ringchain & Clients> {
  const rc = await createRingchain({ deterministic: true, ...options })
  onTestFinished(() => rc.close())
  return { ...rc, ...clients(rc, rc.accounts[0]!.privateKey) }
}

/** Deploys `artifact` with constructor `args`; returns its address. */
export async function deploy(c: Clients, artifact: Artifact, args: readonly unknown[] = []): Promise<Hex> {
  const hash = await c.wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: args as never })
  const receipt = await c.client.waitForTransactionReceipt({ hash })
  return receipt.contractAddress!
}

/** Sends a contract call as a transaction; returns its hash once mined (automine). */
export async function write(c: Clients, address: Hex, artifact: Artifact, functionName: string, args: readonly unknown[]): Promise<Hex> {
  const hash = await c.wallet.writeContract({ address, abi: artifact.abi as Abi, functionName, args: args as never })
  await c.client.waitForTransactionReceipt({ hash })
  return hash
}

/** A view call. */
export async function call<T>(c: Clients, address: Hex, artifact: Artifact, functionName: string, args: readonly unknown[] = []): Promise<T> {
  return (await c.client.readContract({ address, abi: artifact.abi as Abi, functionName, args: args as never })) as T
}

/** The 32-byte word at `slot` of `address` at the head, straight from the chain's state. */
export function wordAt(rc: Ringchain, address: Hex, slot: bigint): Uint8Array {
  const value = rc.chain.stateAtBlock(rc.chain.head).storage(address.slice(2).toLowerCase(), slot.toString(16).padStart(64, '0'))
  const out = new Uint8Array(32)
  out.set(value, 32 - value.length)
  return out
}

/** The word at `slot`, as a number. */
export function uintAt(rc: Ringchain, address: Hex, slot: bigint): bigint {
  return BigInt('0x' + Buffer.from(wordAt(rc, address, slot)).toString('hex'))
}

/** A ringchain with Layouts deployed and filled (`fill(ALICE)`). */
export async function layoutsChain(options: RingchainOptions = {}): Promise<{ rc: Ringchain & Clients; address: Hex }> {
  const rc = await ringchain(options)
  const address = await deploy(rc, Layouts)
  await write(rc, address, Layouts, 'fill', [ALICE])
  return { rc, address }
}

/** Deploys Token (1,000,000 RING to the deployer) and sends 5 RING to ALICE; gives its address and the transfer's hash. */
export async function deployToken(c: Clients): Promise<{ address: Hex; transfer: Hex }> {
  const address = await deploy(c, Token, ['Ringchain Token', 'RING', 1_000_000n * 10n ** 18n])
  const transfer = await write(c, address, Token, 'transfer', [ALICE, 5n * 10n ** 18n])
  return { address, transfer }
}

/** A ringchain with Token deployed (1,000,000 RING to the deployer) and 5 RING sent to ALICE. */
export async function tokenChain(options: RingchainOptions = {}): Promise<{ rc: Ringchain & Clients; address: Hex; transfer: Hex }> {
  const rc = await ringchain(options)
  return { rc, ...(await deployToken(rc)) }
}
