import { expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'

// Runtime code: SLOAD(0), add 1, SSTORE(0), return the new value.
const COUNTER = '0x600054600101806000556000526020' + '6000f3'
const TARGET = '0x00000000000000000000000000000000000c0de0'

async function setup() {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  const call = async (method: string, params: unknown[]) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
    return (await (await fetch(rc.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as { result?: any; error?: { code: number; message: string } }
  }
  return { rc, call }
}

test('args: stateOverrides give the call code and storage; callTracer shows the frame', async () => {
  const { call } = await setup()
  const overrides = { [TARGET]: { code: COUNTER, stateDiff: { ['0x' + '0'.repeat(64)]: '0x' + '0'.repeat(63) + '5' } } }
  const { result } = await call('debug_traceCall', [{ to: TARGET, gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: overrides }])
  expect(result).toMatchObject({ type: 'CALL', to: TARGET, gas: '0x30000', output: '0x' + '0'.repeat(63) + '6', value: '0x0' })
})

test('default: the struct logger, with storage on SLOAD/SSTORE and refund omitted when 0', async () => {
  const { call } = await setup()
  const overrides = { [TARGET]: { code: COUNTER } }
  const { result } = await call('debug_traceCall', [{ to: TARGET }, 'latest', { stateOverrides: overrides }])
  expect(result.failed).toBe(false)
  expect(result.structLogs.map((l: { op: string }) => l.op)).toEqual(['PUSH1', 'SLOAD', 'PUSH1', 'ADD', 'DUP1', 'PUSH1', 'SSTORE', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN'])
  expect(result.structLogs[1]).toEqual({ pc: 2, op: 'SLOAD', gas: expect.any(Number), gasCost: 2100, depth: 1, stack: ['0x0'], storage: { ['0x' + '0'.repeat(64)]: '0x' + '0'.repeat(64) } })
  expect(result.structLogs[6].storage).toEqual({ ['0x' + '0'.repeat(64)]: '0x' + '0'.repeat(63) + '1' })
})

test('args: disableStack, disableStorage, enableMemory and limit', async () => {
  const { call } = await setup()
  const overrides = { [TARGET]: { code: COUNTER } }
  const { result } = await call('debug_traceCall', [{ to: TARGET }, 'latest', { stateOverrides: overrides, disableStack: true, disableStorage: true, enableMemory: true }])
  expect(result.structLogs.every((l: object) => !('stack' in l) && !('storage' in l))).toBe(true)
  expect(result.structLogs.at(-1).memory).toEqual(['0x' + '0'.repeat(63) + '1'])
  const limited = await call('debug_traceCall', [{ to: TARGET }, 'latest', { stateOverrides: overrides, limit: 1 }])
  // geth appends entries until their size passes the limit: the first one alone.
  expect(limited.result.structLogs).toHaveLength(1)
})

test('args: blockOverrides change what NUMBER reads', async () => {
  const { call } = await setup()
  // NUMBER, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN
  const overrides = { [TARGET]: { code: '0x4360005260206000f3' } }
  const { result } = await call('debug_traceCall', [{ to: TARGET }, 'latest', { tracer: 'callTracer', stateOverrides: overrides, blockOverrides: { number: '0x1234' } }])
  expect(result.output).toBe('0x' + '1234'.padStart(64, '0'))
})

test('args: noopTracer and 4byteTracer', async () => {
  const { call } = await setup()
  const overrides = { [TARGET]: { code: COUNTER } }
  expect((await call('debug_traceCall', [{ to: TARGET }, 'latest', { tracer: 'noopTracer', stateOverrides: overrides }])).result).toEqual({})
  expect((await call('debug_traceCall', [{ to: TARGET, data: '0xa9059cbb0000' }, 'latest', { tracer: '4byteTracer', stateOverrides: overrides }])).result).toEqual({ '0xa9059cbb-2': 1 })
})

test('error: an unknown tracer, a timeout', async () => {
  const { call } = await setup()
  expect((await call('debug_traceCall', [{ to: TARGET }, 'latest', { tracer: 'nope' }])).error).toEqual({ code: -32000, message: 'tracer nope not found' })
  // An endless loop: JUMPDEST, PUSH1 0, JUMP.
  const overrides = { [TARGET]: { code: '0x5b600056' } }
  const slow = await call('debug_traceCall', [{ to: TARGET, gas: '0x1000000' }, 'latest', { stateOverrides: overrides, timeout: '1ms' }])
  expect(slow.error).toEqual({ code: -32000, message: 'execution timeout' })
})

test('error: debug_traceTransaction of an unknown transaction', async () => {
  const { call } = await setup()
  expect((await call('debug_traceTransaction', ['0x' + '11'.repeat(32)])).error).toEqual({ code: -32000, message: 'transaction not found' })
})

test('error: gas below the intrinsic gas is refused as geth words it (-32000)', async () => {
  const { call } = await setup()
  const { error } = await call('debug_traceCall', [{ to: TARGET, gas: '0x1388' }, 'latest', { tracer: 'callTracer' }])
  expect(error).toEqual({ code: -32000, message: 'tracing failed: intrinsic gas too low: have 5000, want 21000' })
})

test('behavior: the struct logger names an undefined opcode as geth does (and, as geth, puts no error on its entry)', async () => {
  const { call } = await setup()
  // PUSH1 1, then 0xef (undefined); and PUSH1 1, then 0xfe (the designated INVALID).
  const undefinedOp = await call('debug_traceCall', [{ to: TARGET }, 'latest', { stateOverrides: { [TARGET]: { code: '0x6001ef' } } }])
  const lastUndefined = undefinedOp.result.structLogs.at(-1)
  expect(lastUndefined.op).toBe('opcode 0xef not defined')
  expect(lastUndefined).not.toHaveProperty('error')
  expect(undefinedOp.result.failed).toBe(true)
  const designated = await call('debug_traceCall', [{ to: TARGET }, 'latest', { stateOverrides: { [TARGET]: { code: '0x6001fe' } } }])
  expect(designated.result.structLogs.at(-1).op).toBe('INVALID')
})

test('error: a sender that cannot pay for the gas at its price plus the value: geth\'s tracing failed: insufficient funds', async () => {
  const { call } = await setup()
  const poor = '0x00000000000000000000000000000000000000aa'
  const { error } = await call('debug_traceCall', [{ from: poor, to: TARGET, value: '0x1' }, 'latest', { tracer: 'callTracer' }])
  expect(error).toEqual({ code: -32000, message: 'tracing failed: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000AA have 0 want 1' })
  const priced = await call('debug_traceCall', [{ from: poor, to: TARGET, gas: '0x5208', gasPrice: '0x2' }, 'latest', { tracer: 'callTracer' }])
  expect(priced.error?.message).toBe('tracing failed: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000AA have 0 want 42000')
})

test('behavior: a call from an account with code is traced, as geth traces it (no EOA check), and sees its own code', async () => {
  const { call } = await setup()
  // The sender is a counter contract calling itself: its code runs on its own storage.
  const { result, error } = await call('debug_traceCall', [{ from: TARGET, to: TARGET, gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: { [TARGET]: { code: COUNTER } } }])
  expect(error).toBeUndefined()
  expect(result).toMatchObject({ from: TARGET, to: TARGET, type: 'CALL', output: '0x' + '1'.padStart(64, '0') })
  expect(result.error).toBeUndefined()
})
