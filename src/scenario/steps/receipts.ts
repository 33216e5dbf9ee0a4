/**
 * Checking a transaction's outcome: its receipt fields and its logs, events decoded through the
 * ABIs the scenario knows. Used after `send`/`deploy` (their `expect:`) and by `expect: { receipt }`.
 */
import { decodeLog, eventTopic, findEvent, signatureOf, type AbiItem } from '../abi.js'
import { RpcCallError, type Client } from '../client.js'
import type { Checker, Kind } from '../match.js'
import { StepError, type Path, type Spec, type StepContext } from './context.js'
import { transactionStatus } from './reads.js'

/** Receipt fields an expectation may name, with how each compares. */
export const RECEIPT_KINDS: Record<string, Kind> = {
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
export async function checkTransaction(ctx: StepContext, checker: Checker, hash: string, expect: Spec, path: Path): Promise<void> {
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

/** Checks the receipt fields and `logs` that `expect` names. */
export async function checkReceipt(ctx: StepContext, checker: Checker, receipt: Spec, expect: Spec, path: Path): Promise<void> {
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
