/**
 * Many clients at once, nothing lost: 50 HTTP and 50 WebSocket clients submit signed transactions
 * from 20 senders (nonce gaps filled later, replacements, underpriced replacements, duplicates)
 * while readers read and two subscribers follow newHeads, in each mining mode. Afterwards, read
 * back over the wire: every accepted transaction that was not replaced is included exactly once
 * and nothing else is, nonces are contiguous per sender, balances add up to the wei (values, tips
 * to the coinbase, the burnt base fee), every receipt agrees with its block, and the subscribers
 * saw every block once, in order. `npm run soak` runs the same kind of load for minutes.
 */
import { Agent } from 'node:http'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, onTestFinished, test } from 'vitest'
import { startRingchain, type RunningRingchain } from '../../src/index.js'
import type { MiningMode } from '../../src/chain/types.js'
import { RpcWs, captureLogger, postRaw, sleep } from './helpers.js'

type Hex = `0x${string}`

const SENDERS = 20
const NONCES = 30
const HTTP_CLIENTS = 50
const WS_CLIENTS = 50
const READERS = 10
/**
 * Senders 0..9 hold back nonce 3, senders 10..14 nonce 15, until the end: their later nonces
 * wait, queued, behind the gap.
 */
const GAPPED = 10
const gapOf = (sender: number): bigint | undefined => (sender < GAPPED ? 3n : sender < 15 ? 15n : undefined)
/** Queued nonces (of senders 0..9) that get a replacement (+100% fees), and one that gets an underpriced one (+5%). */
const REPLACED = [5n, 7n, 12n, 20n]
const UNDERPRICED = 6n
/** Senders whose nonce 0 is sent twice. */
const DUPLICATED = [10, 11, 12, 13, 14]

const COINBASE: Hex = '0x00000000000000000000000000000000c0ffee00'
const RECIPIENTS: Hex[] = Array.from({ length: 10 }, (_, i) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}` as Hex)
const GWEI = 1_000_000_000n

interface Submission {
  readonly raw: Hex
  readonly hash: Hex
  readonly sender: number
  readonly nonce: bigint
  /** What the submission is for, and so which answer it must get. */
  readonly kind: 'original' | 'replacement' | 'underpriced' | 'duplicate' | 'gap'
}

interface Outcome {
  readonly submission: Submission
  readonly accepted: boolean
  readonly error: string | undefined
}

/** A tiny deterministic PRNG (mulberry32): the same spread of work over clients on every run. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return items
}

/** Every transaction the run sends, signed up front, in three phases. */
function plan(rc: RunningRingchain, next: () => number): { first: Submission[]; second: Submission[]; third: Submission[] } {
  const common = rc.chain.common
  const sign = (sender: number, nonce: bigint, kind: Submission['kind'], fee: bigint, tip: bigint): Submission => {
    const tx = createFeeMarket1559Tx(
      {
        chainId: common.chainId(),
        nonce,
        to: RECIPIENTS[Math.floor(next() * RECIPIENTS.length)]!,
        value: BigInt(1 + Math.floor(next() * 1_000_000)),
        gasLimit: 21_000n,
        maxFeePerGas: fee,
        maxPriorityFeePerGas: tip,
      },
      { common },
    ).sign(rc.chain.accounts[sender]!.privateKey)
    return { raw: bytesToHex(tx.serialize()), hash: bytesToHex(tx.hash()), sender, nonce, kind }
  }
  const first: Submission[] = []
  const second: Submission[] = []
  const third: Submission[] = []
  for (let sender = 0; sender < SENDERS; sender++) {
    for (let nonce = 0n; nonce < BigInt(NONCES); nonce++) {
      const original = sign(sender, nonce, nonce === gapOf(sender) ? 'gap' : 'original', 10n * GWEI, GWEI)
      ;(original.kind === 'gap' ? third : first).push(original)
      if (sender < GAPPED && REPLACED.includes(nonce)) second.push(sign(sender, nonce, 'replacement', 20n * GWEI, 2n * GWEI))
      if (sender < GAPPED && nonce === UNDERPRICED) second.push(sign(sender, nonce, 'underpriced', 105n * GWEI / 10n, 105n * GWEI / 100n))
      if (DUPLICATED.includes(sender) && nonce === 0n) second.push({ ...original, kind: 'duplicate' })
    }
  }
  return { first: shuffle(first, next), second: shuffle(second, next), third: shuffle(third, next) }
}

/** The error each kind of submission must get (geth's messages); undefined: it must be accepted. */
function expectedError(kind: Submission['kind']): RegExp | undefined {
  if (kind === 'underpriced') return /^replacement transaction underpriced$/
  // Still pending, the pool knows it; once mined, geth's pool has forgotten it and the nonce check refuses it.
  if (kind === 'duplicate') return /^(already known|nonce too low: next nonce \d+, tx nonce 0)$/
  return undefined
}

interface Client {
  send(method: string, params: readonly unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }>
  close(): void
}

function httpClient(url: string): Client {
  // An idle socket is dropped after 2 s, before the server's 5 s keep-alive timeout closes it: a
  // request written as the server closes would be reset (ECONNRESET), a race of HTTP keep-alive
  // itself. Node's agent reads the server's `Keep-Alive: timeout=5` hint only when given a
  // `timeout` (undici keeps 4 s against 5 for the same reason).
  const agent = new Agent({ keepAlive: true, maxSockets: 1, timeout: 2_000 })
  let id = 0
  return {
    async send(method, params) {
      const res = await postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), agent)
      if (res.status !== 200) return { error: { code: res.status, message: `HTTP ${res.status}: ${res.text}` } }
      return JSON.parse(res.text) as { result?: unknown; error?: { code: number; message: string } }
    },
    close: () => agent.destroy(),
  }
}

async function wsClient(url: string): Promise<Client> {
  const ws = await RpcWs.open(url)
  return { send: (method, params) => ws.call(method, params), close: () => ws.close() }
}

/** Each client submits its share, one after another; all clients at once. */
async function submit(clients: readonly Client[], work: readonly Submission[]): Promise<Outcome[]> {
  const shares: Submission[][] = clients.map(() => [])
  work.forEach((s, i) => shares[i % clients.length]!.push(s))
  const outcomes = await Promise.all(
    clients.map(async (client, c) => {
      const mine: Outcome[] = []
      for (const submission of shares[c]!) {
        const answer = await client.send('eth_sendRawTransaction', [submission.raw])
        mine.push({ submission, accepted: answer.result === submission.hash, error: answer.error?.message })
      }
      return mine
    }),
  )
  return outcomes.flat()
}

const quantity = (hex: unknown): bigint => BigInt(hex as string)

interface WireTx {
  hash: Hex
  from: Hex
  to: Hex
  nonce: Hex
  value: Hex
  blockHash: Hex
  blockNumber: Hex
  transactionIndex: Hex
  maxFeePerGas: Hex
  maxPriorityFeePerGas: Hex
}
interface WireReceipt {
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockNumber: Hex
  from: Hex
  to: Hex
  cumulativeGasUsed: Hex
  gasUsed: Hex
  effectiveGasPrice: Hex
  status: Hex
  logs: unknown[]
}
interface WireBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  gasUsed: Hex
  baseFeePerGas: Hex
  miner: Hex
  transactions: WireTx[]
}

async function runLoad(mining: MiningMode): Promise<{ accepted: number; reads: number; blocks: number; seconds: number }> {
  const log = captureLogger()
  const rc = await startRingchain({
    port: 0,
    accounts: SENDERS,
    coinbase: hexToBytes(COINBASE),
    // Large enough that nothing this run mines leaves the window before it is checked.
    window: 4_096,
    mining,
    logger: log.logger,
  })
  onTestFinished(() => rc.close())
  const next = random(mining.mode.length)
  const work = plan(rc, next)
  const control = httpClient(rc.httpUrl)
  onTestFinished(() => control.close())
  const call = async <T>(method: string, params: readonly unknown[] = []): Promise<T> => {
    const answer = await control.send(method, params)
    if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
    return answer.result as T
  }
  const startBlock = quantity(await call('eth_blockNumber'))
  const startedAt = performance.now()

  const clients: Client[] = [
    ...Array.from({ length: HTTP_CLIENTS }, () => httpClient(rc.httpUrl)),
    ...(await Promise.all(Array.from({ length: WS_CLIENTS }, () => wsClient(rc.wsUrl)))),
  ]
  onTestFinished(() => clients.forEach((c) => c.close()))

  // Two subscribers must see every block once, in order.
  const heads: bigint[][] = [[], []]
  const subscribers = await Promise.all(heads.map((seen) => RpcWs.open(rc.wsUrl, ({ result }) => seen.push(quantity((result as { number: Hex }).number)))))
  onTestFinished(() => subscribers.forEach((s) => s.close()))
  for (const s of subscribers) expect((await s.call('eth_subscribe', ['newHeads'])).result).toMatch(/^0x[0-9a-f]+$/)
  // Interval mining goes on while clients connect: on a busy machine blocks come before the subscriptions.
  const subscribedAt = quantity(await call('eth_blockNumber'))

  // Readers, half over HTTP and half over WebSocket, until the submissions are done.
  let done = false
  let reads = 0
  const readErrors: string[] = []
  const readerClients: Client[] = [
    ...Array.from({ length: READERS / 2 }, () => httpClient(rc.httpUrl)),
    ...(await Promise.all(Array.from({ length: READERS / 2 }, () => wsClient(rc.wsUrl)))),
  ]
  onTestFinished(() => readerClients.forEach((c) => c.close()))
  const hashes = [...work.first, ...work.second].map((s) => s.hash)
  const readers = readerClients.map(async (reader, r) => {
    const pick = random(100 + r)
    while (!done) {
      const sender = rc.accounts[Math.floor(pick() * SENDERS)]!.address
      const [method, params]: [string, unknown[]] = [
        ['eth_blockNumber', []] as [string, unknown[]],
        ['eth_getBalance', [sender, 'latest']] as [string, unknown[]],
        ['eth_getTransactionCount', [sender, 'pending']] as [string, unknown[]],
        ['eth_getTransactionReceipt', [hashes[Math.floor(pick() * hashes.length)]]] as [string, unknown[]],
        ['eth_getBlockByNumber', ['latest', true]] as [string, unknown[]],
        ['eth_call', [{ from: sender, to: RECIPIENTS[0], value: '0x1' }, 'latest']] as [string, unknown[]],
      ][Math.floor(pick() * 6)]!
      const answer = await reader.send(method, params)
      if (answer.error !== undefined || !('result' in answer)) readErrors.push(`${method}: ${JSON.stringify(answer)}`)
      reads++
    }
  })

  // Manual mode: somebody has to mine.
  const miner = mining.mode === 'manual' ? (async () => {
    while (!done) {
      await call('evm_mine')
      await sleep(20)
    }
  })() : Promise.resolve()

  const outcomes = [...(await submit(clients, work.first)), ...(await submit(clients, work.second)), ...(await submit(clients, work.third))]

  // Drain: everything accepted becomes executable once the gaps are filled.
  const deadline = Date.now() + 15_000
  for (;;) {
    const status = await call<{ pending: Hex; queued: Hex }>('txpool_status')
    if (quantity(status.pending) === 0n && quantity(status.queued) === 0n) break
    if (Date.now() > deadline) throw new Error(`the pool did not drain: ${JSON.stringify(status)}`)
    await sleep(20)
  }
  done = true
  await Promise.all([...readers, miner])
  // Interval mining would go on mining empty blocks while the chain is checked.
  if (mining.mode === 'interval') await call('evm_setAutomine', [false])
  const head = quantity(await call('eth_blockNumber'))
  const seconds = (performance.now() - startedAt) / 1000
  // Let the last newHeads arrive.
  await expect.poll(() => heads.map((h) => h.at(-1)), { timeout: 5_000 }).toEqual([head, head])

  // --- every answer was the one it should be --------------------------------------------------
  const wrong = outcomes.filter((o) => {
    const error = expectedError(o.submission.kind)
    return error === undefined ? !o.accepted : o.accepted || o.error === undefined || !error.test(o.error)
  })
  expect(wrong.map((o) => `${o.submission.kind} ${o.submission.sender}/${o.submission.nonce}: ${o.error}`)).toEqual([])
  expect(readErrors).toEqual([])
  expect(log.errors()).toEqual([])

  // --- what the chain holds -------------------------------------------------------------------
  const blocks: WireBlock[] = []
  const receipts = new Map<Hex, WireReceipt>()
  for (let n = startBlock + 1n; n <= head; n++) {
    const number = `0x${n.toString(16)}`
    const block = await call<WireBlock>('eth_getBlockByNumber', [number, true])
    blocks.push(block)
    for (const r of await call<WireReceipt[]>('eth_getBlockReceipts', [number])) receipts.set(r.transactionHash, r)
  }
  const included = new Map<Hex, { tx: WireTx; block: WireBlock }>()
  for (const block of blocks) {
    for (const tx of block.transactions) {
      expect(included.has(tx.hash), `${tx.hash} included twice`).toBe(false)
      included.set(tx.hash, { tx, block })
    }
  }
  // Per sender and nonce, exactly one accepted transaction is included: the last accepted one.
  const accepted = outcomes.filter((o) => o.accepted).map((o) => o.submission)
  const winners = new Map<string, Submission>()
  for (const s of accepted) {
    const key = `${s.sender}/${s.nonce}`
    const previous = winners.get(key)
    if (previous === undefined || s.kind === 'replacement') winners.set(key, s)
  }
  expect(winners.size).toBe(SENDERS * NONCES)
  for (const s of accepted) {
    const winner = winners.get(`${s.sender}/${s.nonce}`)!
    if (s === winner) expect(included.has(s.hash), `${s.kind} ${s.sender}/${s.nonce} not included`).toBe(true)
    else {
      // Replaced while queued: gone without a trace.
      expect(included.has(s.hash)).toBe(false)
      expect(await call('eth_getTransactionByHash', [s.hash])).toBeNull()
    }
  }
  // Nothing else was included.
  expect(included.size).toBe(winners.size)

  // Nonces contiguous per sender, and the state agrees.
  for (let sender = 0; sender < SENDERS; sender++) {
    const address = rc.accounts[sender]!.address.toLowerCase()
    const nonces = [...included.values()].filter((i) => i.tx.from === address).map((i) => Number(quantity(i.tx.nonce))).sort((a, b) => a - b)
    expect(nonces).toEqual(Array.from({ length: NONCES }, (_, i) => i))
    expect(quantity(await call('eth_getTransactionCount', [address, 'latest']))).toBe(BigInt(NONCES))
  }

  // Every receipt agrees with its block, and blocks chain up.
  let parent: WireBlock | undefined
  let burnt = 0n
  let tips = 0n
  const paid = new Map<string, bigint>()
  const received = new Map<string, bigint>()
  for (const block of blocks) {
    if (parent !== undefined) expect(block.parentHash).toBe(parent.hash)
    parent = block
    expect(block.miner).toBe(COINBASE)
    let cumulative = 0n
    const baseFee = quantity(block.baseFeePerGas)
    block.transactions.forEach((tx, index) => {
      const r = receipts.get(tx.hash)!
      expect(r, `receipt of ${tx.hash}`).toBeDefined()
      expect([r.blockHash, r.blockNumber, quantity(r.transactionIndex), r.from, r.to, r.status]).toEqual([block.hash, block.number, BigInt(index), tx.from, tx.to, '0x1'])
      expect([tx.blockHash, tx.blockNumber, quantity(tx.transactionIndex)]).toEqual([block.hash, block.number, BigInt(index)])
      const gasUsed = quantity(r.gasUsed)
      cumulative += gasUsed
      expect(quantity(r.cumulativeGasUsed)).toBe(cumulative)
      const fee = quantity(tx.maxFeePerGas)
      const tip = quantity(tx.maxPriorityFeePerGas)
      const price = fee < baseFee + tip ? fee : baseFee + tip
      expect(quantity(r.effectiveGasPrice)).toBe(price)
      expect(r.logs).toEqual([])
      burnt += gasUsed * baseFee
      tips += gasUsed * (price - baseFee)
      paid.set(tx.from, (paid.get(tx.from) ?? 0n) + quantity(tx.value) + gasUsed * price)
      received.set(tx.to, (received.get(tx.to) ?? 0n) + quantity(tx.value))
    })
    expect(quantity(block.gasUsed)).toBe(cumulative)
  }

  // Balances add up to the wei: senders paid value and fees, recipients got the values, the
  // coinbase got the tips, the base fee was burnt, and nothing else moved.
  const balance = async (address: string, at: string) => quantity(await call('eth_getBalance', [address, at]))
  const before = `0x${startBlock.toString(16)}`
  let totalBefore = 0n
  let totalAfter = 0n
  for (const address of [...rc.accounts.map((a) => a.address.toLowerCase()), ...RECIPIENTS, COINBASE]) {
    const [was, is] = [await balance(address, before), await balance(address, 'latest')]
    totalBefore += was
    totalAfter += is
    expect(is, address).toBe(was - (paid.get(address) ?? 0n) + (received.get(address) ?? 0n) + (address === COINBASE ? tips : 0n))
  }
  expect(totalAfter + burnt).toBe(totalBefore)

  // Subscribers saw every block once, in order, from the first one mined after they subscribed.
  for (const seen of heads) {
    const first = seen[0] ?? head + 1n
    expect(first > startBlock && first <= subscribedAt + 1n, `first head ${first} of ${startBlock + 1n}..${subscribedAt + 1n}`).toBe(true)
    expect(seen).toEqual(Array.from({ length: Number(head - first + 1n) }, (_, i) => first + BigInt(i)))
  }
  expect(log.errors()).toEqual([])
  return { accepted: accepted.length, reads, blocks: blocks.length, seconds }
}

describe('load', () => {
  test('behavior: automine, nothing lost', { timeout: 60_000 }, async () => {
    const figures = await runLoad({ mode: 'auto' })
    expect(figures.blocks).toBe(SENDERS * NONCES)
    if (process.env.RINGCHAIN_FIGURES !== undefined) console.log(`automine: ${JSON.stringify(figures)}`)
  })

  test('behavior: interval mining, nothing lost', { timeout: 60_000 }, async () => {
    const figures = await runLoad({ mode: 'interval', blockTimeMs: 100 })
    if (process.env.RINGCHAIN_FIGURES !== undefined) console.log(`interval: ${JSON.stringify(figures)}`)
  })

  test('behavior: manual mining, nothing lost', { timeout: 60_000 }, async () => {
    const figures = await runLoad({ mode: 'manual' })
    if (process.env.RINGCHAIN_FIGURES !== undefined) console.log(`manual: ${JSON.stringify(figures)}`)
  })
})
