// The inspector in a real browser (Chromium headless through puppeteer-core) against a running
// ringchain: what the page shows after transactions sent with viem, mining, a snapshot and a revert.
// One browser for the file, one ringchain (port 0) and one page per test.
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEther, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest'
import type { Browser } from 'puppeteer-core'
import { startRingchain, type StartOptions } from '../../src/index.js'
import { Store, Token } from '../fixtures/contracts/artifacts.js'
import { launch, openPage, screenshot, skipReason, waitForText } from './browser.js'

if (skipReason !== undefined) console.warn(`skipping the inspector's browser tests: ${skipReason}`)

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const devChain = { id: 31337, name: 'ringchain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } } as const

let browser: Browser
beforeAll(async () => {
  if (skipReason === undefined) browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function setup(options: StartOptions = {}) {
  const rc = await startRingchain({ port: 0, deterministic: true, logger: { error() {}, warn() {} }, ...options })
  onTestFinished(() => rc.close())
  const transport = http(rc.httpUrl)
  const wallet = createWalletClient({ chain: devChain, transport, account: privateKeyToAccount(KEY0) })
  const client = createPublicClient({ chain: devChain, transport })
  const { page, errors } = await openPage(browser)
  onTestFinished(async () => {
    await page.close()
    expect(errors, 'errors thrown in the page').toEqual([])
  })
  return { rc, wallet, client, page, url: rc.inspectorUrl! }
}

async function deploy(s: Awaited<ReturnType<typeof setup>>, artifact: typeof Store, args: readonly unknown[] = []): Promise<Hex> {
  const hash = await s.wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args })
  return (await s.client.waitForTransactionReceipt({ hash })).contractAddress!
}

test.skipIf(skipReason !== undefined)('behavior: the ring shows blocks live; mine adds one; a revert takes them back; the window has an edge', async () => {
  // A short window, so that its edge and the safe and finalized marks fit on one screen.
  const s = await setup({ window: 24, safeLag: 4, finalizedLag: 8 })
  const { page } = s
  await page.goto(s.url)
  await page.waitForSelector('tr[data-number="0"]')
  // A transfer (auto mining: block 1) shows up without a reload, with its transaction count.
  await s.wallet.sendTransaction({ to: ALICE, value: parseEther('1') })
  await page.waitForSelector('tr[data-number="1"]')
  await waitForText(page, 'tr[data-number="1"] [data-testid="tx-count"]', '1')
  await waitForText(page, '[data-testid="marks"]', 'finalized 0')
  // The controls: mine, snapshot, two more blocks, revert.
  await page.click('[data-testid="mine"]')
  await page.waitForSelector('tr[data-number="2"]')
  expect(await page.$eval('tr[data-number="2"] [data-testid="tx-count"]', (e) => e.textContent)).toMatch(/^(0|…)$/)
  await page.click('[data-testid="snapshot"]')
  await waitForText(page, '[data-testid="revert"]', 'revert to 2')
  await s.wallet.sendTransaction({ to: ALICE, value: 1n })
  await s.wallet.sendTransaction({ to: ALICE, value: 2n })
  await page.waitForSelector('tr[data-number="4"]')
  await screenshot(page, 'ring')
  await page.click('[data-testid="revert"]')
  await page.waitForFunction(`document.querySelector('tr[data-number="3"]') === null`, { timeout: 10_000 })
  expect(await s.client.getBlockNumber()).toBe(2n)
  await waitForText(page, '[data-testid="head"]', 'head 2')
  await screenshot(page, 'ring-after-revert')
  // 30 more blocks: the first ones leave the window of 24.
  for (let i = 0; i < 30; i++) await s.wallet.sendTransaction({ to: ALICE, value: BigInt(i + 1) })
  await page.waitForSelector('tr[data-number="32"]')
  await waitForText(page, '[data-testid="marks"]', 'safe 28 · finalized 24 · window edge 9 (24 blocks)')
  await waitForText(page, 'tr[data-number="9"]', 'edge')
  await waitForText(page, 'p.edge', 'block 8 and older have left the window')
  expect(await page.$('tr[data-number="8"]')).toBeNull()
  await page.setViewport({ width: 1280, height: 940 })
  await screenshot(page, 'ring-window', true)
})

test.skipIf(skipReason !== undefined)('behavior: a transaction shows its status, decoded logs, the call tree with the revert reason, the storage it changed', async () => {
  const s = await setup()
  const { page } = s
  const token = await deploy(s, Token, ['Token', 'TKN', 1000n])
  const transfer = await s.wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [ALICE, 25n] })
  await page.goto(`${s.url}/tx/${transfer}`)
  await waitForText(page, '[data-testid="tx-status"]', 'success')
  // No ABI was given: ERC-20 Transfer is a well-known event.
  const log = await waitForText(page, '[data-testid="logs"] li', 'Transfer')
  expect(log).toContain('well-known event')
  expect(log).toContain(ALICE.toLowerCase())
  expect(log).toContain('value 25')
  // The storage it changed: two balances, named by their derivation (slot 0, keyed by holder).
  const changes = await waitForText(page, '[data-testid="storage-changes"]', '0[')
  expect(changes).toContain('975')
  expect(changes).toContain('25')
  await screenshot(page, 'tx-transfer')

  // A reverted call (gas given: viem would not send what its estimate says fails).
  const store = await deploy(s, Store)
  const failed = await s.wallet.sendTransaction({ to: store, data: encodeFunctionData({ abi: Store.abi, functionName: 'fail' }), gas: 100_000n })
  await s.client.waitForTransactionReceipt({ hash: failed })
  // Moving within the page: the search box.
  await page.type('.nav input', failed)
  await page.keyboard.press('Enter')
  await waitForText(page, '[data-testid="tx-status"]', 'reverted')
  expect(page.url()).toBe(`${s.url}/tx/${failed}`)
  const revert = await waitForText(page, '[data-testid="revert"]', 'nope')
  expect(revert).toContain('execution reverted')
  await screenshot(page, 'tx-reverted')
})

test.skipIf(skipReason !== undefined)('behavior: an address shows a storage variable by name at each block, with per-block diffs', async () => {
  const s = await setup()
  const { page } = s
  const store = await deploy(s, Store)
  const first = await s.wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [7n] })
  const firstBlock = (await s.client.waitForTransactionReceipt({ hash: first })).blockNumber
  const second = await s.wallet.writeContract({ address: store, abi: Store.abi, functionName: 'store', args: [9n] })
  const secondBlock = (await s.client.waitForTransactionReceipt({ hash: second })).blockNumber
  await page.goto(`${s.url}/address/${store}`)
  await waitForText(page, '[data-testid="contract-known"]', 'Nothing known')
  // The artifact, pasted as a user would (ABI and storage layout), kept for this address.
  await page.$eval('[data-testid="artifact"]', (el, text) => {
    ;(el as unknown as { value: string }).value = text
    el.dispatchEvent(new Event('input', { bubbles: true }))
  }, JSON.stringify(Store))
  await page.click('[data-testid="save-artifact"]')
  await waitForText(page, '[data-testid="contract-known"]', 'Known as Store: 1 events, 2 state variables')
  await waitForText(page, 'tr[data-var="value"] [data-testid="value"]', '9')
  await waitForText(page, 'tr[data-var="balances"]', '9')
  // The history: each block that changed it, named by variable.
  const latest = await waitForText(page, `[data-testid="history"] li[data-block="${secondBlock}"]`, 'value')
  expect(latest).toMatch(/value\s*7\s*→\s*9/)
  const earlier = await waitForText(page, `[data-testid="history"] li[data-block="${firstBlock}"]`, 'value')
  expect(earlier).toMatch(/value\s*0\s*→\s*7/)
  // Going back to the first block: the variable has its value there.
  await page.click(`[data-testid="history"] li[data-block="${firstBlock}"] button`)
  await waitForText(page, '[data-testid="shown-block"]', String(firstBlock))
  await waitForText(page, 'tr[data-var="value"] [data-testid="value"]', '7')
  expect(await page.$eval('tr[data-var="value"] [data-testid="value"]', (e) => e.textContent)).toBe('7')
  await screenshot(page, 'address')
  // With the ABI given, the contract's own event is decoded on its transactions.
  await page.goto(`${s.url}/tx/${second}`)
  const log = await waitForText(page, '[data-testid="logs"] li', 'Stored')
  expect(log).toContain('from the ABI')
})

test.skipIf(skipReason !== undefined)('behavior: the pool shows pending and queued transactions per sender, the nonce gap between them', async () => {
  const s = await setup()
  const { page } = s
  await s.rc.request({ method: 'evm_setAutomine', params: [false] })
  const nonce = await s.client.getTransactionCount({ address: s.wallet.account.address })
  await s.wallet.sendTransaction({ to: ALICE, value: 1n, nonce, gas: 21_000n })
  await s.wallet.sendTransaction({ to: ALICE, value: 1n, nonce: nonce + 3, gas: 21_000n })
  await page.goto(`${s.url}/pool`)
  const sender = `section[data-sender="${s.wallet.account.address.toLowerCase()}"]`
  await page.waitForSelector(`${sender} tr[data-testid="pending"]`)
  expect(await page.$eval(`${sender} tr[data-testid="gap"]`, (e) => e.textContent)).toContain(`${nonce + 1}–${nonce + 2}`)
  expect(await page.$eval(`${sender} tr[data-testid="queued"]`, (e) => e.textContent)).toContain(String(nonce + 3))
  await screenshot(page, 'pool')
  // Mining from the page includes the executable one; the queued one waits on.
  await page.click('[data-testid="mine"]')
  await page.waitForFunction(`document.querySelector('${sender} tr[data-testid="pending"]') === null`, { timeout: 10_000 })
  expect(await page.$(`${sender} tr[data-testid="queued"]`)).not.toBeNull()
})
