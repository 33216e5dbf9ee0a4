/**
 * What each step does, through JSON-RPC only: accounts, deploy, send, call, mine, mining, time,
 * snapshot, revert, wait, rpc, and the checks of `expect` (receipts and their logs, transactions,
 * storage slots and mapping entries, balances, nonces, code, blocks, the pool, RPC errors).
 *
 * Owns: a step's meaning, its one-line description, its capture (`as:`) and its expectations.
 * Leaves the order of steps, timing and reports to `run.ts`, signing to `transactions.ts`,
 * comparisons to `match.ts`.
 */
import { Transaction, addr } from 'micro-eth-signer'
import {
  decodeLog,
  decodeOutputs,
  encodeCall,
  encodeConstructorArgs,
  eventTopic,
  findEvent,
  findFunction,
  loadAbi,
  loadArtifact,
  mappingSlot,
  parseSignature,
  signatureOf,
  type AbiItem,
} from './abi.js'
import { RpcCallError, requestFirstServed, type Client } from './client.js'
import { EXPECT_SUBJECTS, type StepDocument, type StepKind } from './load.js'
import { Checker, isOperator, numeric, type Kind } from './match.js'
import { Scope, TxCapture, type AccountEntry } from './scope.js'
import { ChainFacts, GasEstimationError, addressOfKey, sendTransaction, toBlob, txTypeName, type AuthorizationRequest, type TxRequest } from './transactions.js'
import { ScenarioValueError, hexToBytes, isHash, parseData, parseDuration, parseQuantity, show, toQuantityHex } from './values.js'

/** What a step runs with. */
export interface StepContext {
  readonly client: Client
  readonly scope: Scope
  readonly facts: ChainFacts
  /** Where artifact and ABI paths are read from. */
  readonly baseDir: string
  /** Snapshot ids by the names the scenario gave them. */
  readonly snapshots: Map<string, string>
  /** Reports how a long step is getting on (a terminal shows it). */
  progress(detail: string): void
}

type Path = readonly (string | number)[]
type Spec = Readonly<Record<string, unknown>>

/** A step that failed for a reason other than an expectation (an RPC error nobody expected, a bad value). */
export class StepError extends Error {
  override name = 'StepError'
  constructor(
    message: string,
    /** The field the error is about, for its line. */
    readonly path?: Path,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** Runs one step; its expectations' mismatches land in `checker`. `path` is the step's place in the document. */
export async function runStep(ctx: StepContext, kind: StepKind, step: StepDocument, path: Path, checker: Checker): Promise<void> {
  const expect = step.expect as Spec | undefined
  const expectPath = [...path, 'expect']
  switch (kind) {
    case 'accounts':
      return accounts(ctx, (await ctx.scope.resolve(step.accounts)) as Spec)
    case 'deploy':
    case 'send': {
      const spec = (await ctx.scope.resolve(step[kind])) as Spec
      let sent: TxCapture
      try {
        sent = kind === 'deploy' ? await deploy(ctx, spec) : await send(ctx, spec)
      } catch (e) {
        if (rpcErrorOf(e) !== undefined && expect?.error !== undefined && expectedError(checker, e, (await ctx.scope.resolve(expect)) as Spec, expectPath)) return
        throw e
      }
      if (typeof step.as === 'string') ctx.scope.define(step.as, sent)
      if (expect !== undefined) {
        const resolved = (await ctx.scope.resolve(expect)) as Spec
        if (resolved.error !== undefined) checker.fail('error', resolved.error, `no error: the node took the transaction (${sent.hash})`, [...expectPath, 'error'])
        await checkTransaction(ctx, checker, sent.hash, resolved, expectPath)
      }
      return
    }
    case 'call':
      return call(ctx, (await ctx.scope.resolve(step.call)) as Spec, step, checker, expectPath)
    case 'mine': {
      const head = await guarded(checker, expect, expectPath, () => mine(ctx, step.mine))
      if (head !== undefined && typeof step.as === 'string') ctx.scope.define(step.as, { blockNumber: head })
      return
    }
    case 'mining':
      await guarded(checker, expect, expectPath, () => mining(ctx, step.mining))
      return
    case 'time':
      await guarded(checker, expect, expectPath, async () => time(ctx, (await ctx.scope.resolve(step.time)) as Spec))
      return
    case 'snapshot':
      await guarded(checker, expect, expectPath, async () => {
        ctx.snapshots.set(String(step.snapshot), (await ctx.client.request('evm_snapshot', [])) as string)
      })
      return
    case 'revert':
      await guarded(checker, expect, expectPath, () => revert(ctx, String(step.revert), [...path, 'revert']))
      return
    case 'wait':
      return wait(ctx, (await ctx.scope.resolve(step.wait)) as Spec)
    case 'rpc': {
      const spec = (await ctx.scope.resolve(step.rpc)) as Spec
      const resolvedExpect = expect === undefined ? undefined : ((await ctx.scope.resolve(expect)) as Spec)
      let result: unknown
      try {
        result = await ctx.client.request(String(spec.method), (spec.params as unknown[] | undefined) ?? [])
      } catch (e) {
        if (expectedError(checker, e, resolvedExpect, expectPath)) return
        throw e
      }
      if (typeof step.as === 'string') ctx.scope.define(step.as, { result })
      if (resolvedExpect?.error !== undefined) checker.fail('error', resolvedExpect.error, `no error: result ${show(result)}`, [...expectPath, 'error'])
      if (resolvedExpect !== undefined && 'result' in resolvedExpect) checker.check('result', resolvedExpect.result, result, 'auto', [...expectPath, 'result'])
      return
    }
    case 'expect':
      return check(ctx, (await ctx.scope.resolve(step.expect)) as Spec, expectPath, checker)
  }
}

/** Runs `action`; an RPC error it throws is checked against `expect.error` when one is expected. */
async function guarded<T>(checker: Checker, expect: Spec | undefined, path: Path, action: () => Promise<T>): Promise<T | undefined> {
  let result: T
  try {
    result = await action()
  } catch (e) {
    if (expectedError(checker, e, expect, path)) return undefined
    throw e
  }
  if (expect?.error !== undefined) checker.fail('error', expect.error, 'no error', [...path, 'error'])
  return result
}

/** When an error was expected and an RPC error came, checks it and returns true. */
function expectedError(checker: Checker, e: unknown, expect: Spec | undefined, path: Path): boolean {
  const wanted = expect?.error as Spec | undefined
  const rpc = rpcErrorOf(e)
  if (wanted === undefined || rpc === undefined) return false
  checkRpcError(checker, wanted, rpc, [...path, 'error'])
  return true
}

/** The node's error behind `e`: an RPC error, or the one that made gas estimation fail. */
function rpcErrorOf(e: unknown): RpcCallError | undefined {
  if (e instanceof RpcCallError) return e
  if (e instanceof GasEstimationError && e.cause instanceof RpcCallError) return e.cause
  return undefined
}

function checkRpcError(checker: Checker, wanted: Spec, e: RpcCallError, path: Path): void {
  if (wanted.code !== undefined) checker.check('error.code', wanted.code, e.code, 'quantity', [...path, 'code'])
  if (wanted.message !== undefined) checker.check('error.message', wanted.message, e.message, 'string', [...path, 'message'])
  if (wanted.data !== undefined) checker.check('error.data', wanted.data, e.data, 'auto', [...path, 'data'])
}

// --- accounts --------------------------------------------------------------------------------

async function accounts(ctx: StepContext, spec: Spec): Promise<void> {
  for (const [name, value] of Object.entries(spec)) {
    let entry: AccountEntry
    let balance: unknown
    if (typeof value === 'number') entry = ctx.scope.dev(value)
    else if (typeof value === 'string') entry = { kind: 'account', address: ctx.scope.address(value, `accounts.${name}`) }
    else {
      const v = value as Spec
      balance = v.balance
      if (typeof v.privateKey === 'string') entry = { kind: 'account', address: addressOfKey(v.privateKey), privateKey: v.privateKey.toLowerCase() }
      else if (typeof v.index === 'number') entry = ctx.scope.dev(v.index)
      else entry = { kind: 'account', address: ctx.scope.address(v.address, `accounts.${name}`) }
    }
    ctx.scope.define(name, entry)
    if (balance !== undefined) {
      await requestFirstServed(ctx.client, ['anvil_setBalance', 'hardhat_setBalance'], [entry.address, toQuantityHex(parseQuantity(balance, `accounts.${name}.balance`))])
    }
  }
}

// --- transactions ----------------------------------------------------------------------------

/** The fields every transaction step shares, read from its spec. */
function txFields(ctx: StepContext, spec: Spec): Omit<TxRequest, 'to' | 'data'> {
  const q = (key: string) => (spec[key] === undefined ? undefined : parseQuantity(spec[key], key))
  const fields: Record<string, unknown> = { from: spec.from === undefined ? ctx.scope.dev(0).address : ctx.scope.address(spec.from, 'from') }
  for (const key of ['value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'nonce'] as const) {
    const value = q(key)
    if (value !== undefined) fields[key] = value
  }
  if (spec.type !== undefined) fields.type = txTypeName(spec.type)
  if (spec.chainId !== undefined) fields.chainId = spec.chainId === null ? null : parseQuantity(spec.chainId, 'chainId')
  if (Array.isArray(spec.accessList)) {
    fields.accessList = (spec.accessList as Spec[]).map((item) => ({
      address: ctx.scope.address(item.address, 'accessList address'),
      storageKeys: ((item.storageKeys as string[] | undefined) ?? []).map((k) => k.toLowerCase()),
    }))
  }
  if (Array.isArray(spec.blobs)) {
    fields.blobs = (spec.blobs as unknown[]).map((b, i) => {
      if (typeof b !== 'string') throw new ScenarioValueError(`blobs[${i}]: expected text or hex data, got ${show(b)}`)
      return toBlob(/^0x([0-9a-fA-F]{2})*$/.test(b) ? hexToBytes(b) : new TextEncoder().encode(b))
    })
  }
  if (Array.isArray(spec.authorizationList)) {
    fields.authorizationList = (spec.authorizationList as Spec[]).map(
      (a): AuthorizationRequest => ({
        address: ctx.scope.address(a.address, 'authorizationList address'),
        signer: ctx.scope.address(a.signer, 'authorizationList signer'),
        ...(a.nonce === undefined ? {} : { nonce: parseQuantity(a.nonce, 'authorization nonce') }),
        ...(a.chainId === undefined ? {} : { chainId: parseQuantity(a.chainId, 'authorization chainId') }),
      }),
    )
  }
  return fields as Omit<TxRequest, 'to' | 'data'>
}

async function deploy(ctx: StepContext, spec: Spec): Promise<TxCapture> {
  let abi: readonly AbiItem[] | undefined
  let bytecode: string
  if (typeof spec.artifact === 'string') {
    const artifact = await loadArtifact(spec.artifact, ctx.baseDir)
    abi = artifact.abi
    bytecode = artifact.bytecode
  } else {
    bytecode = parseData(spec.bytecode, 'bytecode')
    if (spec.abi !== undefined) abi = await loadAbi(spec.abi, ctx.baseDir)
    else if (Object.hasOwn(spec, 'constructor') && typeof spec.constructor === 'string') abi = [parseSignature(spec.constructor, 'constructor')]
  }
  const args = encodeConstructorArgs(abi ?? [], spec.args)(ctx.scope)
  const fields = txFields(ctx, spec)
  const sent = await sendTransaction(ctx.client, ctx.facts, { ...fields, data: bytecode + args.slice(2) }, (a) => ctx.scope.keyOf(a))
  const address = addr.getCreateAddress(sent.from, sent.nonce).toLowerCase()
  return new TxCapture(ctx.client, sent.hash, sent.from, null, sent.nonce, address, abi)
}

async function send(ctx: StepContext, spec: Spec): Promise<TxCapture> {
  if (typeof spec.raw === 'string') {
    const raw = parseData(spec.raw, 'raw')
    const hash = (await ctx.client.request('eth_sendRawTransaction', [raw])) as string
    let from = ''
    let to: string | null = null
    let nonce = 0n
    try {
      const tx = Transaction.fromHex(raw)
      from = tx.sender.toLowerCase()
      to = tx.raw.to === '0x' || tx.raw.to === undefined ? null : String(tx.raw.to).toLowerCase()
      nonce = BigInt(tx.raw.nonce)
    } catch {
      // A form micro-eth-signer does not read (a blob transaction with its sidecar): ask the node.
      const tx = (await ctx.client.request('eth_getTransactionByHash', [hash])) as { from: string; to: string | null; nonce: string } | null
      if (tx !== null) {
        from = tx.from
        to = tx.to
        nonce = BigInt(tx.nonce)
      }
    }
    return new TxCapture(ctx.client, hash, from, to, nonce)
  }
  const to = spec.to === undefined ? undefined : ctx.scope.address(spec.to, 'to')
  let data: string | undefined
  if (spec.function !== undefined) {
    const abi = spec.abi !== undefined ? await loadAbi(spec.abi, ctx.baseDir) : to === undefined ? undefined : ctx.scope.abiOf(to)
    const item = findFunction(String(spec.function), abi, argCount(spec.args))
    data = encodeCall(item, spec.args, ctx.scope)
  } else if (spec.data !== undefined) data = parseData(spec.data, 'data')
  const fields = txFields(ctx, spec)
  const sent = await sendTransaction(ctx.client, ctx.facts, { ...fields, ...(to === undefined ? {} : { to }), ...(data === undefined ? {} : { data }) }, (a) =>
    ctx.scope.keyOf(a),
  )
  return new TxCapture(ctx.client, sent.hash, sent.from, sent.to, sent.nonce)
}

function argCount(args: unknown): number | undefined {
  return Array.isArray(args) ? args.length : args === undefined ? 0 : undefined
}

const RECEIPT_KINDS: Record<string, Kind> = {
  status: 'status',
  root: 'hash',
  gasUsed: 'quantity',
  cumulativeGasUsed: 'quantity',
  effectiveGasPrice: 'quantity',
  blockNumber: 'quantity',
  blockHash: 'hash',
  transactionIndex: 'quantity',
  type: 'quantity',
  from: 'address',
  to: 'address',
  contractAddress: 'address',
  logsBloom: 'data',
  blobGasUsed: 'quantity',
  blobGasPrice: 'quantity',
}

/** Checks `expect` against a transaction: `hash`, `is`, and receipt fields (with its logs). */
async function checkTransaction(ctx: StepContext, checker: Checker, hash: string, expect: Spec, path: Path): Promise<void> {
  if (expect.hash !== undefined) checker.check('hash', expect.hash, hash, 'hash', [...path, 'hash'])
  if (expect.is !== undefined) checker.check('is', expect.is, await transactionStatus(ctx.client, hash), 'string', [...path, 'is'])
  const receiptKeys = Object.keys(expect).filter((k) => k in RECEIPT_KINDS || k === 'logs')
  if (receiptKeys.length === 0) return
  const receipt = (await ctx.client.request('eth_getTransactionReceipt', [hash])) as Spec | null
  ctx.scope.transaction(hash)?.remember(receipt)
  if (receipt === null) {
    const status = await transactionStatus(ctx.client, hash)
    checker.fail('receipt', 'a receipt', null, path, status === 'pending' ? 'the transaction is pending: mine a block first' : 'the node does not know the transaction')
    return
  }
  await checkReceipt(ctx, checker, receipt, expect, path)
}

async function checkReceipt(ctx: StepContext, checker: Checker, receipt: Spec, expect: Spec, path: Path): Promise<void> {
  for (const [key, wanted] of Object.entries(expect)) {
    if (key === 'logs') checkLogs(ctx, checker, wanted as Spec[], (receipt.logs as Spec[] | undefined) ?? [], [...path, 'logs'])
    else if (key in RECEIPT_KINDS) {
      const held = checker.check(key, wanted, receipt[key], RECEIPT_KINDS[key]!, [...path, key])
      // A transaction that failed unexpectedly: say why, as far as the node can tell.
      if (!held && key === 'status' && receipt.status === '0x0' && typeof receipt.transactionHash === 'string') {
        const why = await failureOf(ctx.client, receipt.transactionHash)
        const last = checker.mismatches.pop()!
        checker.mismatches.push(why === undefined ? last : { ...last, note: why })
      }
    }
  }
}

/**
 * Why a mined transaction failed, from the top frame of geth's callTracer (`reverted: <reason>`,
 * or the EVM error); undefined when the node does not trace.
 */
async function failureOf(client: Client, hash: string): Promise<string | undefined> {
  let top: { error?: unknown; revertReason?: unknown; output?: unknown }
  try {
    top = (await client.request('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }])) as typeof top
  } catch (e) {
    if (e instanceof RpcCallError) return undefined
    throw e
  }
  if (typeof top.revertReason === 'string') return `reverted: ${top.revertReason}`
  if (top.error === 'execution reverted') return typeof top.output === 'string' && top.output !== '0x' ? `reverted with data ${top.output}` : 'reverted without a reason'
  return typeof top.error === 'string' ? `failed: ${top.error}` : undefined
}

async function transactionStatus(client: Client, hash: string): Promise<'pending' | 'included' | 'unknown'> {
  return statusOf((await client.request('eth_getTransactionByHash', [hash])) as { blockNumber?: unknown } | null)
}

/** Where an `eth_getTransactionByHash` answer says the transaction is. */
function statusOf(tx: { readonly blockNumber?: unknown } | null): 'pending' | 'included' | 'unknown' {
  return tx === null ? 'unknown' : tx.blockNumber === null || tx.blockNumber === undefined ? 'pending' : 'included'
}

function checkLogs(ctx: StepContext, checker: Checker, expected: readonly Spec[], actual: readonly Spec[], path: Path): void {
  if (expected.length !== actual.length) {
    checker.fail('logs.length', expected.length, actual.length, path, `the transaction emitted: ${actual.map((log) => logName(ctx, log)).join(', ') || 'no logs'}`)
    return
  }
  expected.forEach((wanted, i) => {
    const log = actual[i]!
    const at = [...path, i]
    const field = `logs[${i}]`
    if (wanted.address !== undefined) checker.check(`${field}.address`, wanted.address, log.address, 'address', [...at, 'address'])
    if (wanted.topics !== undefined) checker.check(`${field}.topics`, wanted.topics, log.topics, 'auto', [...at, 'topics'])
    if (wanted.data !== undefined) checker.check(`${field}.data`, wanted.data, log.data, 'data', [...at, 'data'])
    if (wanted.logIndex !== undefined) checker.check(`${field}.logIndex`, wanted.logIndex, log.logIndex, 'quantity', [...at, 'logIndex'])
    if (wanted.event === undefined) {
      if (wanted.args !== undefined) throw new StepError(`${field}.args: name the event (event: …) to decode its arguments`, [...at, 'args'])
      return
    }
    const event = findEvent(String(wanted.event), eventAbis(ctx, String(log.address)))
    const decoded = decodeLog(event, log.topics as string[], String(log.data))
    if (decoded === undefined) {
      checker.fail(`${field}.event`, signatureOf(event), logName(ctx, log), [...at, 'event'])
      return
    }
    if (wanted.args === undefined) return
    const inputs = event.inputs ?? []
    if (Array.isArray(wanted.args)) {
      if (wanted.args.length !== inputs.length) checker.fail(`${field}.args.length`, wanted.args.length, inputs.length, [...at, 'args'])
      wanted.args.forEach((v, j) => {
        if (j < inputs.length) checker.check(`${field}.args[${j}]`, v, decoded.list[j], { abi: inputs[j]! }, [...at, 'args', j])
      })
    } else {
      for (const [name, v] of Object.entries(wanted.args as Spec)) {
        const j = inputs.findIndex((p) => p.name === name)
        if (j < 0) {
          checker.fail(`${field}.args.${name}`, v, undefined, [...at, 'args', name], `${event.name} has no argument "${name}" (it has ${inputs.map((p) => p.name).join(', ')})`)
          continue
        }
        checker.check(`${field}.args.${name}`, v, decoded.list[j], { abi: inputs[j]! }, [...at, 'args', name])
      }
    }
  })
}

function eventAbis(ctx: StepContext, emitter: string): (readonly AbiItem[])[] {
  const own = ctx.scope.abiOf(emitter)
  return own === undefined ? ctx.scope.allAbis() : [own, ...ctx.scope.allAbis()]
}

/** A log as a report names it: its event when a known ABI has it, else its first topic. */
function logName(ctx: StepContext, log: Spec): string {
  const topic0 = ((log.topics as string[] | undefined) ?? [])[0]
  for (const abi of eventAbis(ctx, String(log.address))) {
    const event = abi.find((item) => item.type === 'event' && item.anonymous !== true && eventTopic(item) === topic0)
    if (event !== undefined) return `${event.name} from ${ctx.scope.nameOf(String(log.address))}`
  }
  return `a log with topic ${topic0 ?? '(none)'} from ${ctx.scope.nameOf(String(log.address))}`
}

// --- call ------------------------------------------------------------------------------------

async function call(ctx: StepContext, spec: Spec, step: StepDocument, checker: Checker, path: Path): Promise<void> {
  const to = ctx.scope.address(spec.to, 'to')
  let item: AbiItem | undefined
  let data = '0x'
  if (spec.function !== undefined) {
    const abi = spec.abi !== undefined ? await loadAbi(spec.abi, ctx.baseDir) : ctx.scope.abiOf(to)
    item = findFunction(String(spec.function), abi, argCount(spec.args))
    data = encodeCall(item, spec.args, ctx.scope)
  } else if (spec.data !== undefined) data = parseData(spec.data, 'data')
  const request: Record<string, unknown> = { to, data }
  if (spec.from !== undefined) request.from = ctx.scope.address(spec.from, 'from')
  if (spec.value !== undefined) request.value = toQuantityHex(parseQuantity(spec.value, 'value'))
  if (spec.gas !== undefined) request.gas = toQuantityHex(parseQuantity(spec.gas, 'gas'))
  const expect = step.expect === undefined ? undefined : ((await ctx.scope.resolve(step.expect)) as Spec)
  let result: string
  try {
    result = (await ctx.client.request('eth_call', [request, blockParam(spec.block)])) as string
  } catch (e) {
    if (expectedError(checker, e, expect, path)) return
    throw e
  }
  const outputs = item?.outputs ?? []
  const returns = item === undefined || outputs.length === 0 ? undefined : decodeOutputs(item, result)
  if (typeof step.as === 'string') ctx.scope.define(step.as, { result, ...(returns === undefined ? {} : { returns: outputs.length === 1 ? returns[0] : returns }) })
  if (expect === undefined) return
  if (expect.error !== undefined) checker.fail('error', expect.error, `no error: result ${result}`, [...path, 'error'])
  if (expect.result !== undefined) checker.check('result', expect.result, result, 'data', [...path, 'result'])
  if ('returns' in expect) {
    if (returns === undefined || item === undefined) {
      throw new StepError('expect.returns: the call names no function with outputs: write its signature with "returns (…)"', [...path, 'returns'])
    }
    const wanted = expect.returns
    if (outputs.length === 1) {
      const single = Array.isArray(wanted) && wanted.length === 1 && !outputs[0]!.type.endsWith(']') ? wanted[0] : wanted
      checker.check('returns', single, returns[0], { abi: outputs[0]! }, [...path, 'returns'])
    } else if (Array.isArray(wanted)) {
      if (wanted.length !== outputs.length) checker.fail('returns.length', wanted.length, outputs.length, [...path, 'returns'])
      else wanted.forEach((w, i) => checker.check(`returns[${i}]`, w, returns[i], { abi: outputs[i]! }, [...path, 'returns', i]))
    } else {
      checker.fail('returns', wanted, returns, [...path, 'returns'], `${signatureOf(item)} returns ${outputs.length} values: write them as a list`)
    }
  }
}

/** A block as JSON-RPC takes it for a state read: a tag, a hex number, or `{ blockHash }`. */
function blockParam(value: unknown): unknown {
  if (value === undefined) return 'latest'
  if (typeof value === 'number' || typeof value === 'bigint') return toQuantityHex(value)
  if (typeof value === 'string') {
    if (isHash(value)) return { blockHash: value }
    if (/^[0-9]+$/.test(value)) return toQuantityHex(BigInt(value))
    return value
  }
  throw new ScenarioValueError(`block: expected a number, a tag or a hash, got ${show(value)}`)
}

// --- mining and time -------------------------------------------------------------------------

/** Mines as a `mine:` value says; returns the head's number after it. */
async function mine(ctx: StepContext, value: unknown): Promise<string> {
  if (typeof value === 'number') await mineBlocks(ctx, BigInt(value), undefined)
  else {
    const spec = value as Spec
    if (spec.until === 'empty') {
      const max = typeof spec.max === 'number' ? spec.max : 128
      let mined = 0
      while ((await executableCount(ctx.client)) > 0n) {
        if (mined >= max) throw new StepError(`the pool still has executable transactions after ${max} blocks`)
        await mineBlocks(ctx, 1n, spec.interval === undefined ? undefined : BigInt(spec.interval as number))
        mined++
        ctx.progress(`${mined} block${mined === 1 ? '' : 's'}`)
      }
    } else {
      await mineBlocks(ctx, BigInt((spec.blocks as number | undefined) ?? 1), spec.interval === undefined ? undefined : BigInt(spec.interval as number))
    }
  }
  return (await ctx.client.request('eth_blockNumber', [])) as string
}

const MINE_CHUNK = 32n

async function mineBlocks(ctx: StepContext, count: bigint, interval: bigint | undefined): Promise<void> {
  let done = 0n
  while (done < count) {
    const n = count - done > MINE_CHUNK ? MINE_CHUNK : count - done
    const params = interval === undefined ? [toQuantityHex(n)] : [toQuantityHex(n), toQuantityHex(interval)]
    try {
      await requestFirstServed(ctx.client, ['anvil_mine', 'hardhat_mine'], params)
    } catch (e) {
      if (!(e instanceof RpcCallError && e.code === -32601) || interval !== undefined) throw e
      for (let i = 0n; i < n; i++) await ctx.client.request('evm_mine', [])
    }
    done += n
    if (count > MINE_CHUNK) {
      ctx.progress(`block ${done} of ${count}`)
      // An embedded chain mines without ever leaving the microtask queue: let timers run.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/** Executable transactions in the pool (`txpool_status`, else the pending block). */
async function executableCount(client: Client): Promise<bigint> {
  try {
    const status = (await client.request('txpool_status', [])) as { pending: string }
    return BigInt(status.pending)
  } catch (e) {
    if (!(e instanceof RpcCallError && e.code === -32601)) throw e
    const block = (await client.request('eth_getBlockByNumber', ['pending', false])) as { transactions: unknown[] } | null
    return BigInt(block?.transactions.length ?? 0)
  }
}

async function mining(ctx: StepContext, value: unknown): Promise<void> {
  if (value === 'auto') await ctx.client.request('evm_setAutomine', [true])
  else if (value === 'manual') {
    await ctx.client.request('evm_setAutomine', [false])
    await ctx.client.request('evm_setIntervalMining', [0])
  } else {
    await ctx.client.request('evm_setAutomine', [false])
    await ctx.client.request('evm_setIntervalMining', [(value as { interval: number }).interval])
  }
}

async function time(ctx: StepContext, spec: Spec): Promise<void> {
  if (spec.increase !== undefined) await ctx.client.request('evm_increaseTime', [toQuantityHex(parseDuration(spec.increase, 'increase'))])
  if (spec.setNext !== undefined) await ctx.client.request('evm_setNextBlockTimestamp', [toQuantityHex(parseQuantity(spec.setNext, 'setNext'))])
}

async function revert(ctx: StepContext, name: string, path: Path): Promise<void> {
  const id = ctx.snapshots.get(name)
  if (id === undefined) {
    const known = [...ctx.snapshots.keys()]
    throw new StepError(`no snapshot is named "${name}"${known.length === 0 ? ' (take one with a snapshot step first)' : ` (snapshots: ${known.join(', ')})`}`, path)
  }
  const ok = await ctx.client.request('evm_revert', [id])
  if (ok !== true) throw new StepError(`evm_revert ${id} answered ${show(ok)}: the node did not go back to snapshot "${name}"`, path)
}

async function wait(ctx: StepContext, spec: Spec): Promise<void> {
  const timeout = typeof spec.timeout === 'number' ? spec.timeout : 10_000
  const started = Date.now()
  if (typeof spec.ms === 'number') await sleep(spec.ms)
  const sleepUntil = async (done: () => Promise<boolean>, what: () => string) => {
    for (;;) {
      if (await done()) return
      if (Date.now() - started > timeout) throw new StepError(`timed out after ${timeout} ms waiting for ${what()}`)
      ctx.progress(`${what()} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      await sleep(20)
    }
  }
  if (typeof spec.blocks === 'number') {
    const start = BigInt((await ctx.client.request('eth_blockNumber', [])) as string)
    const target = start + BigInt(spec.blocks)
    let head = start
    await sleepUntil(
      async () => (head = BigInt((await ctx.client.request('eth_blockNumber', [])) as string)) >= target,
      () => `block ${target} (head ${head})`,
    )
  }
  if (spec.tx !== undefined) {
    const hash = ctx.scope.hash(spec.tx, 'wait.tx')
    const wanted = (spec.is as string | undefined) ?? 'included'
    let status = ''
    await sleepUntil(
      async () => (status = await transactionStatus(ctx.client, hash)) === wanted,
      () => `${ctx.scope.transaction(hash) === undefined ? hash : String(spec.tx)} to be ${wanted} (it is ${status})`,
    )
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// --- expect ----------------------------------------------------------------------------------

const TX_KINDS: Record<string, Kind> = {
  hash: 'hash',
  from: 'address',
  to: 'address',
  nonce: 'quantity',
  value: 'quantity',
  type: 'quantity',
  gas: 'quantity',
  gasPrice: 'quantity',
  maxFeePerGas: 'quantity',
  maxPriorityFeePerGas: 'quantity',
  input: 'data',
  blockNumber: 'quantity',
  blockHash: 'hash',
  transactionIndex: 'quantity',
  chainId: 'quantity',
}

const BLOCK_KINDS: Record<string, Kind> = {
  number: 'quantity',
  timestamp: 'quantity',
  baseFeePerGas: 'quantity',
  gasUsed: 'quantity',
  gasLimit: 'quantity',
  difficulty: 'quantity',
  size: 'quantity',
  blobGasUsed: 'quantity',
  excessBlobGas: 'quantity',
  hash: 'hash',
  parentHash: 'hash',
  stateRoot: 'hash',
  transactionsRoot: 'hash',
  receiptsRoot: 'hash',
  mixHash: 'hash',
  miner: 'address',
  extraData: 'data',
}

async function check(ctx: StepContext, spec: Spec, path: Path, checker: Checker): Promise<void> {
  const read = async (method: string, params: unknown[]): Promise<{ value: unknown } | undefined> => {
    try {
      const value = await ctx.client.request(method, params)
      if (spec.error !== undefined) checker.fail('error', spec.error, `no error: ${method} answered ${show(value)}`, [...path, 'error'])
      return { value }
    } catch (e) {
      if (spec.error !== undefined && e instanceof RpcCallError) {
        checkRpcError(checker, spec.error as Spec, e, [...path, 'error'])
        return undefined
      }
      throw e
    }
  }

  if (spec.receipt !== undefined) {
    const hash = ctx.scope.hash(spec.receipt, 'receipt')
    const got = await read('eth_getTransactionReceipt', [hash])
    if (got === undefined) return
    const receipt = got.value as Spec | null
    ctx.scope.transaction(hash)?.remember(receipt)
    if ('equals' in spec) {
      if (receipt !== null) checker.fail('receipt', null, `a receipt (block ${numeric(receipt.blockNumber) ?? '?'})`, [...path, 'equals'])
    }
    const fields = Object.keys(spec).some((k) => k in RECEIPT_KINDS || k === 'logs')
    if (!fields) return
    if (receipt === null) {
      const status = await transactionStatus(ctx.client, hash)
      checker.fail('receipt', 'a receipt', null, [...path, 'receipt'], status === 'pending' ? 'the transaction is pending' : 'the node does not know the transaction')
      return
    }
    await checkReceipt(ctx, checker, receipt, spec, path)
    return
  }

  if (spec.transaction !== undefined) {
    const hash = ctx.scope.hash(spec.transaction, 'transaction')
    const got = await read('eth_getTransactionByHash', [hash])
    if (got === undefined) return
    const tx = got.value as Spec | null
    if (spec.is !== undefined) checker.check('is', spec.is, statusOf(tx), 'string', [...path, 'is'])
    for (const [key, wanted] of Object.entries(spec)) {
      if (!(key in TX_KINDS)) continue
      if (tx === null) {
        checker.fail(key, wanted, undefined, [...path, key], 'the node does not know the transaction')
        continue
      }
      checker.check(key, wanted, tx[key], wanted === null ? 'auto' : TX_KINDS[key]!, [...path, key])
    }
    return
  }

  if (spec.storage !== undefined) {
    const address = ctx.scope.address(spec.storage, 'storage')
    let slot: bigint
    if (spec.mapping !== undefined) {
      const m = spec.mapping as Spec
      const keys = m.keys !== undefined ? (m.keys as unknown[]) : [m.key]
      slot = mappingSlot(parseQuantity(m.slot, 'mapping.slot'), keys, (m.keyTypes as string[] | undefined) ?? [], ctx.scope)
    } else slot = parseQuantity(spec.slot, 'slot')
    if (typeof spec.offset === 'number') slot += BigInt(spec.offset)
    const got = await read('eth_getStorageAt', [address, toQuantityHex(slot), blockParam(spec.block)])
    if (got === undefined) return
    checkValue(ctx, checker, spec, got.value, path, 'storage')
    return
  }

  if (spec.balance !== undefined) {
    const got = await read('eth_getBalance', [ctx.scope.address(spec.balance, 'balance'), blockParam(spec.block)])
    if (got !== undefined) checkValue(ctx, checker, spec, got.value, path, 'balance')
    return
  }

  if (spec.nonce !== undefined) {
    const got = await read('eth_getTransactionCount', [ctx.scope.address(spec.nonce, 'nonce'), blockParam(spec.block)])
    if (got !== undefined) checkValue(ctx, checker, spec, got.value, path, 'nonce')
    return
  }

  if (spec.code !== undefined) {
    const got = await read('eth_getCode', [ctx.scope.address(spec.code, 'code'), blockParam(spec.block)])
    if (got !== undefined && spec.equals !== undefined) checker.check('code', spec.equals, got.value, 'data', [...path, 'equals'])
    return
  }

  if (spec.block !== undefined) {
    const ref = spec.block
    const got =
      typeof ref === 'string' && isHash(ref)
        ? await read('eth_getBlockByHash', [ref, false])
        : await read('eth_getBlockByNumber', [blockParam(ref) as string, false])
    if (got === undefined) return
    const block = got.value as Spec | null
    if ('equals' in spec && block !== null) checker.fail('block', null, `block ${numeric(block.number) ?? '?'}`, [...path, 'equals'])
    for (const [key, wanted] of Object.entries(spec)) {
      if (!(key in BLOCK_KINDS) && key !== 'transactions') continue
      if (block === null) {
        checker.fail(key, wanted, undefined, [...path, key], 'the node has no such block')
        continue
      }
      if (key === 'transactions') {
        const hashes = (block.transactions as unknown[]).map((t) => (typeof t === 'string' ? t : String((t as Spec).hash)))
        if (Array.isArray(wanted)) {
          checker.check('transactions', wanted.map((w) => ctx.scope.hash(w, 'transactions')), hashes, 'auto', [...path, key])
        } else checker.check('transactions', wanted, hashes.length, 'quantity', [...path, key])
        continue
      }
      checker.check(key, wanted, block[key], BLOCK_KINDS[key]!, [...path, key])
    }
    return
  }

  if (spec.pool !== undefined) {
    const status = (await ctx.client.request('txpool_status', [])) as Spec
    for (const [key, wanted] of Object.entries(spec.pool as Spec)) checker.check(`pool.${key}`, wanted, status[key], 'quantity', [...path, 'pool', key])
    return
  }
  throw new StepError('expect: nothing to check')
}

/** `equals`, `min` and `max` of a value check. Storage words compare as numbers; a name there is its address. */
function checkValue(ctx: StepContext, checker: Checker, spec: Spec, actual: unknown, path: Path, field: string): void {
  const asNumber = (v: unknown): unknown => (isOperator(v) || field !== 'storage' || typeof v !== 'string' || !ctx.scope.isAddressLike(v) || /^0x[0-9a-fA-F]{64}$/.test(v) ? v : BigInt(ctx.scope.address(v)))
  if (spec.equals !== undefined) checker.check(field, asNumber(spec.equals), actual, 'quantity', [...path, 'equals'])
  if (spec.min !== undefined) checker.check(field, { min: spec.min }, actual, 'quantity', [...path, 'min'])
  if (spec.max !== undefined) checker.check(field, { max: spec.max }, actual, 'quantity', [...path, 'max'])
}

// --- descriptions ----------------------------------------------------------------------------

/** One line saying what a step does, from the step as written (names as the author wrote them). */
export function describeStep(kind: StepKind, step: StepDocument): string {
  if (typeof step.title === 'string') return step.title
  const s = (step[kind] ?? {}) as Spec
  const v = (x: unknown) => (typeof x === 'string' ? x : show(x))
  switch (kind) {
    case 'accounts':
      return `accounts ${Object.entries(s)
        .map(([name, value]) => `${name}=${accountLabel(value)}`)
        .join(' ')}`
    case 'deploy':
      return `deploy ${typeof s.artifact === 'string' ? s.artifact.split('/').pop() : 'bytecode'}${s.args === undefined ? '' : `(${(Array.isArray(s.args) ? s.args : [s.args]).map(v).join(', ')})`}${s.from === undefined ? '' : ` from ${v(s.from)}`}`
    case 'send': {
      if (s.raw !== undefined) return 'send raw transaction'
      const what = s.function !== undefined ? `${v(s.to)}.${String(s.function).split('(')[0]}(${(Array.isArray(s.args) ? s.args : s.args === undefined ? [] : [s.args]).map(v).join(', ')})` : `→ ${v(s.to)}`
      const blobs = Array.isArray(s.blobs) ? ` + ${s.blobs.length} blob${s.blobs.length === 1 ? '' : 's'}` : ''
      return `send ${s.from === undefined ? '' : `${v(s.from)} `}${what}${s.value === undefined ? '' : ` ${v(s.value)}`}${blobs}${s.type === undefined ? '' : ` (${v(s.type)})`}`
    }
    case 'call':
      return `call ${v(s.to)}${s.function === undefined ? '' : `.${String(s.function).split('(')[0]}(${(Array.isArray(s.args) ? s.args : s.args === undefined ? [] : [s.args]).map(v).join(', ')})`}${s.block === undefined ? '' : ` at ${v(s.block)}`}`
    case 'mine': {
      const m = step.mine
      if (typeof m === 'number') return `mine ${m} block${m === 1 ? '' : 's'}`
      const o = m as Spec
      return o.until === 'empty' ? 'mine until the pool is empty' : `mine ${String(o.blocks ?? 1)} block${o.blocks === 1 || o.blocks === undefined ? '' : 's'}${o.interval === undefined ? '' : ` ${String(o.interval)} s apart`}`
    }
    case 'mining':
      return `mining ${typeof step.mining === 'string' ? step.mining : `every ${String((step.mining as Spec).interval)} ms`}`
    case 'time':
      return s.increase !== undefined ? `time +${v(s.increase)}` : `time next block at ${v(s.setNext)}`
    case 'snapshot':
      return `snapshot ${String(step.snapshot)}`
    case 'revert':
      return `revert to ${String(step.revert)}`
    case 'wait':
      return `wait ${s.blocks !== undefined ? `${String(s.blocks)} block(s)` : s.tx !== undefined ? `for ${v(s.tx)} to be ${String(s.is ?? 'included')}` : `${String(s.ms)} ms`}`
    case 'rpc':
      return `rpc ${String(s.method)}`
    case 'expect': {
      const e = step.expect as Spec
      const subject = EXPECT_SUBJECTS.find((k) => k in e) ?? 'expect'
      const target = subject === 'pool' ? '' : ` ${v(e[subject])}`
      const where = e.mapping !== undefined ? `[${v((e.mapping as Spec).keys ?? (e.mapping as Spec).key)}]` : e.slot !== undefined ? `[slot ${v(e.slot)}]` : ''
      return `expect ${subject}${target}${where}${e.block !== undefined && subject !== 'block' ? ` at ${v(e.block)}` : ''}`
    }
  }
}

function accountLabel(value: unknown): string {
  if (typeof value === 'number') return `#${value}`
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? `${value.slice(0, 6)}…${value.slice(-4)}` : value
  const v = value as Spec
  if (typeof v.index === 'number') return `#${v.index}`
  if (typeof v.address === 'string') return `${v.address.slice(0, 6)}…${v.address.slice(-4)}`
  return 'key'
}
