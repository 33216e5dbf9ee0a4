/**
 * Property-based fuzzing of the whole method registry and the envelope, over HTTP and WebSocket,
 * against a real server: random and mutated JSON, wrong types, huge numbers, odd hex, deep
 * nesting, truncated bodies and invalid UTF-8. For every case: each answer is a well-formed
 * JSON-RPC response with the code the envelope calls for, nothing is logged as an error, a request
 * that was refused changed nothing, and the server still answers.
 *
 * Seeded, so CI runs the same cases every time; `RINGCHAIN_FUZZ_SEED` and `RINGCHAIN_FUZZ_RUNS`
 * explore further locally (fast-check prints the seed and path of any counterexample).
 */
import { bytesToHex } from '@ethereumjs/util'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Chain } from '../../src/chain/chain.js'
import { startRingchain, type RunningRingchain } from '../../src/index.js'
import { createMethods } from '../../src/rpc/methods.js'
import { nestingExceeds } from '../../src/server/limits.js'
import { signedTx, type Hex } from '../helpers/rpc.js'
import { ENVELOPE_CODES, WsClient, captureLogger, fingerprint, keepAliveAgent, malformedResponse, postRaw } from './helpers.js'

const SEED = Number(process.env.RINGCHAIN_FUZZ_SEED ?? 20_251_121)
const RUNS = Number(process.env.RINGCHAIN_FUZZ_RUNS ?? 4_000)
const MAX_DEPTH = 64

/** The registry itself: a method added later is fuzzed too. */
const REGISTRY = createMethods(() => Promise.reject(new Error('unused')), { clientVersion: 'fuzz' })
const METHODS: readonly string[] = Object.keys(REGISTRY)
const KNOWN = new Set(METHODS)

// --- what to send -------------------------------------------------------------------------------

const DEV = ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8']
const OTHER = ['0x0000000000000000000000000000000000000000', '0x00000000000000000000000000000000000000aa']
const ADDRESSES = [...DEV, ...OTHER]

const ODD_HEX = [
  '0x', '0X1', '0x0', '0x00', '0x01', '0xg', '0x-1', '-0x1', ' 0x1', '0x1 ', '0xabc', 'abc', '0x0x1', '0x\u0000',
  `0x${'f'.repeat(64)}`, `0x${'f'.repeat(65)}`, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(65)}`, `0x${'ab'.repeat(20)}`,
  `0x${'ab'.repeat(21)}`, `0x${'ab'.repeat(32)}`, `0x${'1'.repeat(300)}`, '0xffffffffffffffff', '0x10000000000000000',
  '0x7fffffffffffffff', '0xFFFFFFFF', `0x${'AB'.repeat(20)}`,
]
const NUMBERS = [0, -1, 1, 2, 1.5, -0, 0.1, 1e21, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 2 ** 64, Number.MAX_SAFE_INTEGER]
const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized', 'Latest', 'LATEST', '']
const KEYS = [
  'from', 'to', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'data', 'input', 'nonce', 'type',
  'chainId', 'accessList', 'authorizationList', 'blockNumber', 'blockHash', 'requireCanonical', 'fromBlock', 'toBlock',
  'address', 'topics', 'timestamp', 'blocks', 'forking', 'jsonRpcUrl', 'blobVersionedHashes', 'maxFeePerBlobGas',
  'storageKeys', 'types', 'primaryType', 'domain', 'message', '__proto__', 'constructor',
]

const ZERO_HASH = `0x${'0'.repeat(64)}`
const signer = await Chain.create({ deterministic: true })
/** Signed transfers from dev account 1: the first is accepted once, the others are rejected with geth's messages. */
const RAW_TXS = [0n, 1n, 5n].map((nonce) => bytesToHex(signedTx(signer, 'eip1559', 1, { nonce, to: OTHER[1] as Hex, value: 1n, gasLimit: 21_000n }).serialize()))
const TYPED_DATA = {
  types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'note', type: 'string' }] },
  primaryType: 'Mail',
  domain: { name: 'fuzz' },
  message: { note: 'hi' },
}
/**
 * Plausible arguments: what real clients send. Each method gets, at each position, the ones its
 * own decoder accepts (found by trying them), so that most calls get past their params and into
 * the handler, where the interesting failures are.
 */
const PLAUSIBLE: readonly unknown[] = [
  ...ADDRESSES, ZERO_HASH, `0x${'12'.repeat(32)}`, ...TAGS.slice(0, 5), '0x0', '0x1', '0x2', '0x5', 0, 1, 2, true, false,
  '0x', '0x1234', '0x6000', `0x${'00'.repeat(31)}01`, 'newHeads', 'logs', 'newPendingTransactions', '0x3b9aca00', 1000,
  { from: DEV[0], to: DEV[1], value: '0x1' }, { from: DEV[0], data: '0x6001600055' }, { to: OTHER[1], data: '0x' },
  { from: DEV[1], to: OTHER[1], value: '0x2', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' },
  { to: OTHER[1], gas: '0xffffffffffffffff', value: `0x${'f'.repeat(64)}` },
  { fromBlock: '0x0', toBlock: 'latest' }, { address: DEV[0], topics: [null] }, { blockHash: ZERO_HASH },
  { blockNumber: '0x0' }, { timestamp: 1_900_000_000, blocks: 1 }, [], ['0x0'], [ZERO_HASH], [25, 75],
  [{ address: DEV[0], storageKeys: ['0x0'] }], TYPED_DATA, JSON.stringify(TYPED_DATA), { [DEV[0]!]: ['0x0'] },
  ...RAW_TXS, 1_900_000_000, '0x71402580',
]

/** Per method and position, the plausible arguments its decoder takes. */
const ACCEPTED: ReadonlyMap<string, readonly (readonly unknown[])[]> = new Map(
  METHODS.map((name) => {
    const decoders = REGISTRY[name]!.params
    // Mining counts stay small: mining 2^64 blocks is a valid request, just not a quick one.
    const candidates = /mine/.test(name) ? PLAUSIBLE.filter((v) => ['0x1', '0x2', 1, 2].includes(v as never) || typeof v === 'object') : PLAUSIBLE
    return [name, decoders.map((d) => candidates.filter((v) => accepts(d, v)))]
  }),
)

function accepts(decoder: { decode(value: unknown): unknown }, value: unknown): boolean {
  try {
    decoder.decode(value)
    return true
  } catch {
    return false
  }
}

/** `arbitrary` once in `every` cases, else null. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary })
}

const hexBytes = fc.uint8Array({ maxLength: 40 }).map((b) => `0x${Buffer.from(b).toString('hex')}`)
const smallQuantity = fc.integer({ min: 0, max: 20 }).map((n) => `0x${n.toString(16)}`)
const bigQuantity = fc.bigInt({ min: 0n, max: 2n ** 300n }).map((n) => `0x${n.toString(16)}`)

const leaf = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_HEX, ...TAGS) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 3, arbitrary: fc.constantFrom(...ADDRESSES) },
  { weight: 2, arbitrary: hexBytes },
  { weight: 3, arbitrary: smallQuantity },
  { weight: 1, arbitrary: bigQuantity },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
)

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }) },
  ),
}))

const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom({}, [], true, [1]) },
)

const method = fc.oneof(
  { weight: 25, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'toString', 'constructor', 'hasOwnProperty', '', 'ETH_CHAINID', 'eth_') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer() },
)

const params = fc.oneof(
  { weight: 12, arbitrary: fc.array(value, { maxLength: 4 }) },
  { weight: 1, arbitrary: value },
  { weight: 1, arbitrary: fc.constant(null) },
)

/** A request object, sometimes with one key missing (no `id`: a notification) or one key wrong. */
const envelope = fc
  .tuple(
    fc.record({ jsonrpc: fc.oneof({ weight: 15, arbitrary: fc.constant<unknown>('2.0') }, fc.constantFrom<unknown>('1.0', 2, null, '2.00')), id, method, params }),
    sometimes(fc.constantFrom('jsonrpc', 'id', 'method', 'params'), 6),
  )
  .map(([request, drop]) => {
    const copy: Record<string, unknown> = { ...request }
    if (drop !== null) delete copy[drop]
    return copy
  })

/** A well-formed call of a known method, most arguments ones its decoders accept, some not. */
const call = fc
  .tuple(fc.constantFrom(...METHODS), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.nat(9), value), { maxLength: 5 }))
  .map(([name, callId, extra, picks]) => {
    const accepted = ACCEPTED.get(name)!
    // Usually every position, sometimes fewer (missing required ones) or one more.
    const length = Math.min(accepted.length + 1, [accepted.length, accepted.length, accepted.length, extra % (accepted.length + 2)][extra % 4]!)
    const args = Array.from({ length }, (_, i) => {
      const [pick, odds, random] = picks[i] ?? [extra + i, 0, null]
      const options = accepted[i] ?? []
      return odds < 8 && options.length > 0 ? options[pick % options.length] : random
    })
    return JSON.stringify({ jsonrpc: '2.0', id: callId, method: name, params: args })
  })

const text = envelope.map((e) => JSON.stringify(e))

/** Containers nested `depth` deep around a call, in its params. */
const deep = fc.tuple(fc.integer({ min: 1, max: 3 * MAX_DEPTH }), fc.constantFrom(...METHODS)).map(
  ([depth, m]) => `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(m)},"params":[${'['.repeat(depth)}${']'.repeat(depth)}]}`,
)

/** Number literals no double holds, where ids and params go. */
const hugeNumbers = fc
  .tuple(fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '1.0000000000000000001', '0.1e-400', '-0', '01', '1.', '1e5e5', '0x10', '1_000'), fc.constantFrom(...METHODS))
  .chain(([n, m]) =>
    fc.constantFrom(
      `{"jsonrpc":"2.0","id":${n},"method":${JSON.stringify(m)},"params":[]}`,
      `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(m)},"params":[${n},"0x1",${n}]}`,
      `[{"jsonrpc":"2.0","id":${n},"method":${JSON.stringify(m)}},{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[{"id":${n}}]}]`,
    ),
  )

const mutated = fc.tuple(text, fc.nat(), fc.nat(), fc.constantFrom('', '"', '{', '}', '[', ']', ',', ':', '\\', 'x', '\u0000', '\ud800', '1e999')).map(
  ([t, at, len, insert]) => {
    const i = at % (t.length + 1)
    return t.slice(0, i) + insert + t.slice(i + (len % 4))
  },
)

/** Invalid UTF-8: stray continuation bytes, overlong forms, surrogates, truncated sequences. */
const BAD_UTF8 = [[0xff], [0xfe, 0xff], [0x80], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]]

const body: fc.Arbitrary<Buffer> = fc
  .tuple(
    fc.oneof(
      { weight: 30, arbitrary: call },
      { weight: 6, arbitrary: text },
      { weight: 2, arbitrary: fc.array(fc.oneof({ weight: 6, arbitrary: call.map((c) => JSON.parse(c) as unknown) }, envelope, value), { maxLength: 6 }).map((b) => JSON.stringify(b)) },
      { weight: 3, arbitrary: fc.tuple(text, fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))) },
      { weight: 3, arbitrary: mutated },
      { weight: 2, arbitrary: deep },
      { weight: 1, arbitrary: fc.integer({ min: MAX_DEPTH + 1, max: 200_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
      { weight: 1, arbitrary: hugeNumbers },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
    ),
    sometimes(fc.tuple(fc.nat(), fc.constantFrom(...BAD_UTF8)), 12),
  )
  .map(([t, bad]) => {
    const bytes = Buffer.from(t, 'utf8')
    if (bad === null) return bytes
    const at = bad[0] % (bytes.length + 1)
    return Buffer.concat([bytes.subarray(0, at), Buffer.from(bad[1]), bytes.subarray(at)])
  })

// --- what must come back ------------------------------------------------------------------------

/** One expected answer: the id it echoes, and its code; `call` for a well-formed call of a known method. */
interface Expected {
  readonly id: unknown
  readonly code: number | 'call'
}

type Expectation = ({ kind: 'one'; answer: Expected } | { kind: 'batch'; answers: Expected[] } | { kind: 'none' }) & {
  /** Notifications of known methods: they run unanswered, so they may change state. */
  readonly notifications: number
}

/** What the server must answer to `bytes`, worked out independently: one answer, a batch, or none (notifications). */
function expectedFor(bytes: Buffer): Expectation {
  const text = bytes.toString('utf8') // as the server decodes it: U+FFFD for invalid sequences
  if (nestingExceeds(text, MAX_DEPTH)) return { kind: 'one', answer: { id: null, code: -32600 }, notifications: 0 }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { kind: 'one', answer: { id: null, code: -32700 }, notifications: 0 }
  }
  if (Array.isArray(parsed) && parsed.length === 0) return { kind: 'one', answer: { id: null, code: -32600 }, notifications: 0 }
  const calls = Array.isArray(parsed) ? parsed : [parsed]
  const expected = calls.map(expectedOfCall)
  const answers = expected.filter((a): a is Expected => a !== undefined)
  const notifications = expected.filter((a) => a === undefined).length
  if (answers.length === 0) return { kind: 'none', notifications }
  return Array.isArray(parsed) ? { kind: 'batch', answers, notifications } : { kind: 'one', answer: answers[0]!, notifications }
}

/** The answer one call must get; undefined for a notification (well-formed, no id), which gets none. */
function expectedOfCall(message: unknown): Expected | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { id: null, code: -32600 }
  const r = message as Record<string, unknown>
  const hasId = Object.hasOwn(r, 'id')
  if (hasId && !(r.id === null || typeof r.id === 'string' || typeof r.id === 'number')) return { id: null, code: -32600 }
  const echo = hasId ? r.id : null
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || !(r.params === undefined || r.params === null || Array.isArray(r.params))) {
    return { id: echo, code: -32600 }
  }
  if (!hasId) return undefined
  return { id: echo, code: KNOWN.has(r.method) ? 'call' : -32601 }
}

/** What is wrong with `answer` given `expected`, or undefined. */
function wrongAnswer(answer: unknown, expected: Expected): string | undefined {
  const malformed = malformedResponse(answer)
  if (malformed !== undefined) return malformed
  const r = answer as { id: unknown; error?: { code: number } }
  if (!Object.is(r.id, expected.id) && !(typeof expected.id === 'number' && typeof r.id === 'number' && r.id === expected.id)) {
    return `id ${JSON.stringify(r.id)} instead of ${JSON.stringify(expected.id)}`
  }
  const code = r.error?.code
  if (expected.code === 'call') return code !== undefined && ENVELOPE_CODES.has(code) ? `code ${code} for a well-formed call` : undefined
  return code === expected.code ? undefined : `code ${code} instead of ${expected.code}`
}

/** True when the answer (one or a batch) holds at least one result: a request was served, it may change state. */
function servedSomething(answer: unknown): boolean {
  const all = Array.isArray(answer) ? answer : [answer]
  return all.some((a) => typeof a === 'object' && a !== null && 'result' in a)
}

/** Methods that answered a result at least once: how far into the registry the fuzz got. */
const served = new Set<string>()

function recordServed(expected: Expectation, bytes: Buffer, answer: unknown): void {
  if (expected.kind !== 'one' || expected.answer.code !== 'call' || !servedSomething(answer)) return
  served.add((JSON.parse(bytes.toString('utf8')) as { method: string }).method)
}

/** Checks a parsed answer against what the body calls for; throws with the details when it does not match. */
function check(expected: Expectation, bytes: Buffer, answerText: string | undefined): unknown {
  const where = `for body ${JSON.stringify(bytes.toString('utf8').slice(0, 300))}: got ${answerText?.slice(0, 300)}`
  if (expected.kind === 'none') {
    if (answerText !== undefined) throw new Error(`an answer to notifications only ${where}`)
    return undefined
  }
  if (answerText === undefined) throw new Error(`no answer ${where}`)
  const answer: unknown = JSON.parse(answerText)
  if (expected.kind === 'one') {
    const wrong = wrongAnswer(answer, expected.answer)
    if (wrong !== undefined) throw new Error(`${wrong} ${where}`)
  } else {
    if (!Array.isArray(answer) || answer.length !== expected.answers.length) throw new Error(`not a batch of ${expected.answers.length} answers ${where}`)
    answer.forEach((a, i) => {
      const wrong = wrongAnswer(a, expected.answers[i]!)
      if (wrong !== undefined) throw new Error(`item ${i}: ${wrong} ${where}`)
    })
  }
  return answer
}

// --- the runs -----------------------------------------------------------------------------------

/** Mining methods' counts are kept small: mining 2^64 blocks is a valid request, just not a quick one. */
function minesMany(bytes: Buffer): boolean {
  const t = bytes.toString('utf8')
  if (!/mine/.test(t)) return false
  return /0x[0-9a-fA-F]{3,}|\d{3,}/.test(t)
}

let rc: RunningRingchain
const log = captureLogger()

beforeAll(async () => {
  rc = await startRingchain({ port: 0, deterministic: true, mining: { mode: 'manual' }, logger: log.logger })
})
afterAll(() => Promise.all([rc.close(), signer.close()]))

/**
 * After a request that was served or ran unanswered: lets what it queued on the chain finish (a
 * notification over WebSocket may still be running), then goes back to manual mining, so that
 * nothing changes between two cases.
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await rc.chain.mine(0n)
    await new Promise((resolve) => setImmediate(resolve))
  }
  if (rc.chain.miningMode.mode !== 'manual') await rc.chain.setMiningMode({ mode: 'manual' })
}

/** One case: sends `bytes`, checks the answer and that a refused request changed nothing. */
async function runCase(bytes: Buffer, send: (bytes: Buffer, answered: boolean) => Promise<string | undefined>): Promise<void> {
  if (minesMany(bytes)) return
  const expected = expectedFor(bytes)
  const before = await fingerprint(rc, ADDRESSES)
  const errorsBefore = log.errors().length
  const text = await send(bytes, expected.kind !== 'none')
  let answer: unknown
  try {
    answer = check(expected, bytes, text)
  } catch (error) {
    throw new Error(`${(error as Error).message}\nlogged: ${log.errors().slice(errorsBefore).join('\n')}`)
  }
  recordServed(expected, bytes, answer)
  expect(log.errors().slice(errorsBefore)).toEqual([])
  if (expected.notifications > 0 || servedSomething(answer)) return settle()
  // Every call refused: it must have left no trace.
  expect(await fingerprint(rc, ADDRESSES), `state changed by ${bytes.toString('utf8').slice(0, 300)}`).toBe(before)
}

describe('fuzz', () => {
  test('behavior: every body over HTTP gets a well-formed answer with the right code, and a refused one changes nothing', { timeout: 120_000 }, async () => {
    const agent = keepAliveAgent()
    let cases = 0
    await fc.assert(
      fc.asyncProperty(body, async (bytes) => {
        cases++
        await runCase(bytes, async (b) => {
          const res = await postRaw(rc.httpUrl, b, agent)
          if (res.status === 204) return undefined
          expect(res.status, res.text).toBe(200)
          expect(res.headers['content-type']).toBe('application/json')
          return res.text
        })
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    agent.destroy()
    expect(cases).toBe(RUNS)
    // The generator must keep reaching into the handlers, not only into the decoders.
    expect(served.size / METHODS.length, `served: ${[...served].sort().join(' ')}`).toBeGreaterThan(0.75)
    const alive = await postRaw(rc.httpUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')
    expect(alive.text).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
    expect(log.errors()).toEqual([])
    expect(log.unexpectedWarnings()).toEqual([])
  })

  test('behavior: every message over WebSocket gets the same answers, and the connection stays usable', { timeout: 120_000 }, async () => {
    let ws = await WsClient.open(rc.wsUrl)
    let sentinel = 0
    /**
     * Sends `bytes` (a binary frame when it is not valid UTF-8) and a sentinel call that proves the
     * socket still serves; gives the answer to `bytes`. Answers come in completion order, so the
     * sentinel's may come first.
     */
    const send = async (bytes: Buffer, answered: boolean): Promise<string | undefined> => {
      const utf8 = Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)
      ws.socket.send(bytes, { binary: !utf8 })
      const mark = `sentinel-${++sentinel}`
      ws.socket.send(JSON.stringify({ jsonrpc: '2.0', id: mark, method: 'eth_chainId', params: [] }))
      let answer: string | undefined
      let sentinelSeen = false
      while (!sentinelSeen || (answered && answer === undefined)) {
        const message = await ws.next()
        if (message === undefined) throw new Error(`connection closed (${ws.closed?.code}) after ${bytes.toString('utf8').slice(0, 200)}`)
        const parsed: unknown = JSON.parse(message)
        // Subscriptions opened by earlier cases push here: not an answer.
        if (typeof parsed === 'object' && parsed !== null && (parsed as { method?: unknown }).method === 'eth_subscription') continue
        if (typeof parsed === 'object' && parsed !== null && (parsed as { id?: unknown }).id === mark) {
          expect(message).toBe(`{"jsonrpc":"2.0","id":"${mark}","result":"0x7a69"}`)
          sentinelSeen = true
          continue
        }
        if (answer !== undefined || !answered) throw new Error(`an unexpected answer to ${bytes.toString('utf8').slice(0, 200)}: ${message}`)
        answer = message
      }
      return answer
    }
    let cases = 0
    await fc.assert(
      fc.asyncProperty(body, async (bytes) => {
        cases++
        await runCase(bytes, send)
      }),
      { seed: SEED + 1, numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
    )
    expect(cases).toBe(Math.ceil(RUNS / 2))
    // Invalid UTF-8 in a text frame is a protocol error (RFC 6455: close 1007), and only that connection's.
    for (const bad of BAD_UTF8) {
      ws.socket.send(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"'), Buffer.from(bad), Buffer.from('}')]), { binary: false })
      expect(await ws.closedWith()).toBe(1007)
      ws = await WsClient.open(rc.wsUrl)
    }
    ws.socket.send('{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}')
    expect(await ws.next()).toBe('{"jsonrpc":"2.0","id":7,"result":"0x7a69"}')
    ws.close()
    expect(log.errors()).toEqual([])
    expect(log.unexpectedWarnings()).toEqual([])
  })
})
