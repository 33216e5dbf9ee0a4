/**
 * The transaction steps, `deploy:` and `send:`: the request built from the step (fields, access
 * list, blobs, EIP-7702 authorizations), signed or sent through the node by `../transactions.ts`,
 * captured under `as:` and checked against `expect:` (receipt, logs, status) by `receipts.ts`.
 */
import { Transaction, addr } from 'micro-eth-signer'
import { encodeConstructorArgs, loadAbi, loadArtifact, parseSignature, type AbiItem } from '../abi.js'
import type { StepDocument } from '../load.js'
import { TxCapture } from '../scope.js'
import { sendTransaction, toBlob, txTypeName, type AuthorizationRequest, type TxRequest } from '../transactions.js'
import { ScenarioValueError, hexToBytes, parseData, parseQuantity, show } from '../values.js'
import { callData } from './calldata.js'
import { argsLabel, label, type Spec, type StepContext, type StepHandler, type StepTable } from './context.js'
import { expectedError, rpcErrorOf } from './expectedErrors.js'
import { checkTransaction } from './receipts.js'

export const transactionSteps = {
  deploy: {
    run: transactionStep('deploy', deploy),
    describe: (s) =>
      `deploy ${typeof s.artifact === 'string' ? s.artifact.split('/').pop() : 'bytecode'}${s.args === undefined ? '' : `(${argsLabel(s.args)})`}${s.from === undefined ? '' : ` from ${label(s.from)}`}`,
  },
  send: {
    run: transactionStep('send', send),
    describe: (s) => {
      if (s.raw !== undefined) return 'send raw transaction'
      const what = s.function !== undefined ? `${label(s.to)}.${String(s.function).split('(')[0]}(${argsLabel(s.args)})` : `→ ${label(s.to)}`
      const blobs = Array.isArray(s.blobs) ? ` + ${s.blobs.length} blob${s.blobs.length === 1 ? '' : 's'}` : ''
      return `send ${s.from === undefined ? '' : `${label(s.from)} `}${what}${s.value === undefined ? '' : ` ${label(s.value)}`}${blobs}${s.type === undefined ? '' : ` (${label(s.type)})`}`
    },
  },
} satisfies StepTable

/** Runs a transaction step: submits it, captures it under `as:`, checks `expect:` against its outcome. */
function transactionStep(kind: 'deploy' | 'send', submit: (ctx: StepContext, spec: Spec) => Promise<TxCapture>): StepHandler['run'] {
  return async (ctx: StepContext, step: StepDocument, path, checker) => {
    const expect = step.expect as Spec | undefined
    const expectPath = [...path, 'expect']
    const spec = (await ctx.scope.resolve(step[kind])) as Spec
    let sent: TxCapture
    try {
      sent = await submit(ctx, spec)
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
  }
}

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

/** Deploys from an artifact or bytecode (constructor arguments encoded through its ABI); the capture knows the new address. */
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

/** Sends a raw transaction as given, or one built from the step (a function call, data, or plain value). */
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
  const { data } = await callData(ctx, spec, to)
  const fields = txFields(ctx, spec)
  const sent = await sendTransaction(ctx.client, ctx.facts, { ...fields, ...(to === undefined ? {} : { to }), ...(data === undefined ? {} : { data }) }, (a) =>
    ctx.scope.keyOf(a),
  )
  return new TxCapture(ctx.client, sent.hash, sent.from, sent.to, sent.nonce)
}

