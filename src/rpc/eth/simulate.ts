/**
 * `eth_simulateV1` (execution-apis; viem's `simulateBlocks` / `simulateCalls`): blocks of calls
 * with block and state overrides, `validation`, `traceTransfers` and `returnFullTransactions`,
 * answered as geth answers: each block as `eth_getBlockByNumber` shows one, with its `calls`.
 *
 * Owns: decoding the simulation request (geth's simOpts) and the per-call result shape. Leaves
 * the simulation to `src/chain/simulate/`.
 */
import type { SimulatedBlock, SimulatedBlockSpec, SimulationSpec } from '../../chain/simulate/types.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { ExecutionRevertedError } from '../errors.js'
import { blockJson, logObject } from '../format.js'
import { toData, toQuantity } from '../hex.js'
import { LATEST, blockParam } from '../params/block.js'
import { optional, type Param } from '../params/decode.js'
import { cannotUnmarshal, decodeArray, decodeBool, field, isObject, jsonKind } from '../params/go.js'
import { decodeBlockOverrides, decodeStateOverrides } from '../params/overrides.js'
import { callParams, transactionRequest } from '../params/transaction.js'

/** The VM-error code of a failed call's `error` (execution-apis). */
const VM_ERROR_CODE = -32015

export interface SimulateRequest extends SimulationSpec {
  readonly returnFullTransactions: boolean
}

/** The simulation methods over `chainFor`. */
export function simulateMethods(chainFor: ChainFor) {
  return {
    eth_simulateV1: defineMethod([simulateRequest, optional(blockParam, LATEST)], async ([request, block], ctx) => {
      const blocks = await (await chainFor(ctx)).simulate(request, block)
      return blocks.map((b) => simulatedBlockJson(b, request.returnFullTransactions))
    }),
  } satisfies Registry
}

function simulatedBlockJson({ record, calls }: SimulatedBlock, full: boolean) {
  const json = JSON.parse(blockJson(record.block, record.size, record.transactions, full).json) as Record<string, unknown>
  json.calls = calls.map((call) => ({
    returnData: toData(call.returnData),
    logs: call.logs.map((log) => logObject(log)),
    gasUsed: toQuantity(call.gasUsed),
    maxUsedGas: toQuantity(call.maxUsedGas),
    status: call.failure === undefined ? '0x1' : '0x0',
    ...(call.failure === undefined
      ? {}
      : call.failure.kind === 'reverted'
        ? { error: revertError(call.failure.data) }
        : { error: { message: call.failure.message, code: VM_ERROR_CODE } }),
  }))
  return json
}

function revertError(data: Uint8Array) {
  const error = new ExecutionRevertedError(data)
  return { message: error.message, code: error.code, data: error.data }
}

const OPTS = 'simOpts'

/** geth's simOpts: `{ blockStateCalls, traceTransfers?, validation?, returnFullTransactions? }`. */
const simulateRequest: Param<SimulateRequest> = {
  decode(value) {
    if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), `ethapi.${OPTS}`)
    const blocks = value.blockStateCalls == null ? [] : decodeArray(value.blockStateCalls, '[]ethapi.simBlock', field(OPTS, 'blockStateCalls')).map(decodeBlock)
    const flag = (name: string) => (value[name] == null ? false : decodeBool(value[name], field(OPTS, name)))
    return { blocks, validation: flag('validation'), traceTransfers: flag('traceTransfers'), returnFullTransactions: flag('returnFullTransactions') }
  },
}

function decodeBlock(value: unknown): SimulatedBlockSpec {
  if (!isObject(value)) throw cannotUnmarshal(jsonKind(value), 'ethapi.simBlock')
  const calls = value.calls == null ? [] : decodeArray(value.calls, '[]ethapi.TransactionArgs', field('simBlock', 'calls')).map((c) => {
    const req = transactionRequest.decode(c)
    return { ...callParams(req), ...(req.nonce === undefined ? {} : { nonce: req.nonce }), ...(req.maxPriorityFeePerGas === undefined ? {} : { maxPriorityFeePerGas: req.maxPriorityFeePerGas }) }
  })
  return {
    calls,
    ...(value.blockOverrides == null ? {} : { blockOverrides: decodeBlockOverrides(value.blockOverrides) }),
    ...(value.stateOverrides == null ? {} : { stateOverrides: decodeStateOverrides(value.stateOverrides) }),
  }
}

