/**
 * The `expect:` step: a read of the node checked against what the scenario wants: a receipt (with
 * its logs), a transaction, a storage slot or mapping entry, a balance, a nonce, code, a block, the
 * pool. Each subject is one read; `error:` expects that read to fail.
 */
import { mappingSlot } from '../abi.js'
import { RpcCallError } from '../client.js'
import { EXPECT_SUBJECTS } from '../load.js'
import { isOperator, numeric, type Checker, type Kind } from '../match.js'
import { isHash, parseQuantity, show, toQuantityHex } from '../values.js'
import { StepError, label, type Path, type Spec, type StepContext, type StepTable } from './context.js'
import { checkRpcError } from './expectedErrors.js'
import { RECEIPT_KINDS, checkReceipt } from './receipts.js'
import { blockParam, statusOf, transactionStatus } from './reads.js'

export const expectSteps = {
  expect: {
    run: async (ctx, step, path, checker) => check(ctx, (await ctx.scope.resolve(step.expect)) as Spec, [...path, 'expect'], checker),
    describe: (e) => {
      const subject = EXPECT_SUBJECTS.find((k) => k in e) ?? 'expect'
      const target = subject === 'pool' ? '' : ` ${label(e[subject])}`
      const where = e.mapping !== undefined ? `[${label((e.mapping as Spec).keys ?? (e.mapping as Spec).key)}]` : e.slot !== undefined ? `[slot ${label(e.slot)}]` : ''
      return `expect ${subject}${target}${where}${e.block !== undefined && subject !== 'block' ? ` at ${label(e.block)}` : ''}`
    },
  },
} satisfies StepTable

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
