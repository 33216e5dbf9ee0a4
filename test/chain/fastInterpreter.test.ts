import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Common } from '@ethereumjs/common'
import { createEVM, getOpcodesForHF, type EVM } from '@ethereumjs/evm'
import { Account, Address, bytesToHex, createAddressFromString, hexToBytes, stripHexPrefix } from '@ethereumjs/util'
import { expect, test, vi } from 'vitest'
import { installFastEIPLookup } from '../../src/chain/execution/eipLookup.js'
import { fastStockGas, fastStockHandler } from '../../src/chain/execution/fastOpcodes.js'
import { GasObserver, newObservation } from '../../src/chain/execution/gasObservation.js'
import { installFastInterpreter } from '../../src/chain/execution/fastInterpreter.js'
import { JumpAnalyses } from '../../src/chain/execution/jumpAnalysis.js'
import { installWarmJournal, warmShared, type WarmJournal } from '../../src/chain/execution/warmJournal.js'
import { interpreterClass } from '../../src/chain/execution/leanEvm.js'
import { createDevCommon } from '../../src/chain/genesis.js'

// The fast interpreter (src/chain/execution/fastInterpreter.ts) replaces ethereumjs's jump analysis,
// its EIP lookup and five opcode handlers on the EVMs the chain runs: runs must stay exactly
// ethereumjs's, step by step.

const fingerprint = (fn: unknown) => createHash('sha256').update(String(fn)).digest('hex').slice(0, 16)

test('pin: ethereumjs still has the handlers, analysis and EIP lookup the fast copies follow', async () => {
  // On an ethereumjs upgrade this fails: compare the new sources with fastInterpreter.ts and word.ts, then update these.
  const common = createDevCommon({ chainId: 1n, hardfork: 'prague' })
  const { handlers, dynamicGasHandlers } = getOpcodesForHF(common)
  const evm = await createEVM({ common })
  const Interpreter = (await interpreterClass(evm)).prototype as unknown as Record<string, unknown>
  const Journal = Object.getPrototypeOf(evm.journal) as Record<string, unknown>
  // subMemUsage, divCeil and mod are not exported: their text in ethereumjs's file.
  const util = readFileSync(new URL('../../node_modules/@ethereumjs/evm/dist/esm/opcodes/util.js', import.meta.url), 'utf8')
  const eip2929 = readFileSync(new URL('../../node_modules/@ethereumjs/evm/dist/esm/opcodes/EIP2929.js', import.meta.url), 'utf8')
  const eip2200 = readFileSync(new URL('../../node_modules/@ethereumjs/evm/dist/esm/opcodes/EIP2200.js', import.meta.url), 'utf8')
  const utilFunction = (name: string, file = util) => {
    const at = file.indexOf(`export function ${name}(`)
    expect(at, name).toBeGreaterThan(-1)
    return file.slice(at).split('\n}\n')[0]
  }
  const memory = (await createEVM({ common })).runCode({ code: Uint8Array.of(0), gasLimit: 0n })
  const Memory = Object.getPrototypeOf((await memory).runState!.memory) as Record<string, unknown>
  expect({
    keccak256: fingerprint(handlers.get(0x20)),
    calldataload: fingerprint(handlers.get(0x35)),
    mload: fingerprint(handlers.get(0x51)),
    mstore: fingerprint(handlers.get(0x52)),
    sload: fingerprint(handlers.get(0x54)),
    memoryWrite: fingerprint(Memory.write),
    gas: [0x20, 0x51, 0x52, 0x53, 0x54, 0xf3, 0xfd].map((op) => fingerprint(dynamicGasHandlers.get(op))).join(' '),
    subMemUsage: fingerprint(['subMemUsage', 'divCeil', 'mod'].map((name) => utilFunction(name)).join()),
    accessStorageEIP2929: fingerprint(utilFunction('accessStorageEIP2929', eip2929)),
    // sstore.ts: SSTORE's handler, its gas handler and the functions that calls.
    sstoreGas: fingerprint(dynamicGasHandlers.get(0x55)),
    // LOG0-4 share one handler and one gas handler.
    log: fingerprint(handlers.get(0xa0)),
    logGas: fingerprint(dynamicGasHandlers.get(0xa0)),
    logShared: [0xa1, 0xa2, 0xa3, 0xa4].every((op) => handlers.get(op) === handlers.get(0xa0) && dynamicGasHandlers.get(op) === dynamicGasHandlers.get(0xa0)),
    sstore: fingerprint(handlers.get(0x55)),
    sstoreHelpers: fingerprint([utilFunction('updateSstoreGasEIP2200', eip2200), utilFunction('adjustSstoreGasEIP2929', eip2929), utilFunction('setLengthLeftStorage')].join()),
    addAlwaysWarmAddress: fingerprint(Journal.addAlwaysWarmAddress),
    warmSets: ['isWarmedAddress', 'addWarmedAddress', 'isWarmedStorage', 'addWarmedStorage'].map((name) => fingerprint(Journal[name])).join(' '),
    touchAddress: fingerprint(Journal.touchAddress),
    cleanJournal: fingerprint(Journal.cleanJournal),
    stripHexPrefix: fingerprint(stripHexPrefix),
    run: fingerprint(Interpreter.run),
    runStep: fingerprint(Interpreter.runStep),
    jumpAnalysis: fingerprint(Interpreter._getValidJumpDestinations),
    lookupOpInfo: fingerprint(Interpreter.lookupOpInfo),
    isActivatedEIP: fingerprint(Common.prototype.isActivatedEIP),
    buildEIPs: fingerprint((Common.prototype as unknown as Record<string, unknown>)._buildActivatedEIPsCache),
  }).toMatchInlineSnapshot(`
    {
      "accessStorageEIP2929": "ecce6a230baafee4",
      "addAlwaysWarmAddress": "e56b9c77a3644e6c",
      "buildEIPs": "b204c580ddbd8688",
      "calldataload": "f5788778df413f6f",
      "cleanJournal": "e499b4edb7afe69c",
      "gas": "5842e8c742c7782c 160c132911371eb2 6ad9393e3de696fe 50702563129d262a bcc3d658b9e4417b 78f2f17fb10abd8e 78f2f17fb10abd8e",
      "isActivatedEIP": "931ac8a66349e377",
      "jumpAnalysis": "a30ec99e04e322ec",
      "keccak256": "5ec46a4fd5dac211",
      "log": "edb80da68f1ea91c",
      "logGas": "de048fe2e93ad689",
      "logShared": true,
      "lookupOpInfo": "e968e6184feb5d03",
      "memoryWrite": "32bacb27aad7fdc6",
      "mload": "273cfeaa15517b02",
      "mstore": "29edc93190b4e005",
      "run": "8e769d9b5ec21205",
      "runStep": "cc2ccda2341c2f42",
      "sload": "f0aad8fd616a7024",
      "sstore": "707207ab1d17a826",
      "sstoreGas": "b51063daf05d5f11",
      "sstoreHelpers": "64bce10719439ee8",
      "stripHexPrefix": "32404fa4289df88f",
      "subMemUsage": "d6688426c8a6d8bb",
      "touchAddress": "05d2e64dd88ca5c8",
      "warmSets": "5a70c85ebf478dd2 61726fa248c4233c 52bfcecd810efc2b 4025a2e5951e6487",
    }
  `)
})

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000c0')
const MAIN = createAddressFromString('0x00000000000000000000000000000000000000a1')
const TWICE = createAddressFromString('0x00000000000000000000000000000000000000a2')
const INTO_PUSH = createAddressFromString('0x00000000000000000000000000000000000000b1')
const PUSH0_USER = createAddressFromString('0x00000000000000000000000000000000000000b2')
const ASYNC = createAddressFromString('0x00000000000000000000000000000000000000b3')
const ASYNC_FAILING = createAddressFromString('0x00000000000000000000000000000000000000b4')
const REVERTING = createAddressFromString('0x00000000000000000000000000000000000000b5')
const MEMORY_OOG = createAddressFromString('0x00000000000000000000000000000000000000b6')
const MLOAD_EMPTY = createAddressFromString('0x00000000000000000000000000000000000000b7')
const COLD_READ = createAddressFromString('0x00000000000000000000000000000000000000b8')
const SSTORES = createAddressFromString('0x00000000000000000000000000000000000000b9')
const STATIC_SSTORE = createAddressFromString('0x00000000000000000000000000000000000000ba')
const LOGS = createAddressFromString('0x00000000000000000000000000000000000000bb')
const STATIC_LOG = createAddressFromString('0x00000000000000000000000000000000000000bc')
const bytecode = (...parts: string[]) => hexToBytes(`0x${parts.join('')}`)

// Main: x = calldataload(0); mstore(0, x); h = keccak256(0, 32); sstore(h, x); mstore(32, sload(h));
// mstore(64, calldataload(calldatasize - 1)) (a partial word); mstore(5, mload(32)) (unaligned);
// if x != 0 jump over an invalid opcode; mstore(9000, x) (memory past 8 KiB); return(0, 96).
const MAIN_CODE = bytecode(
  '600035', // x
  '600052', // mstore(0, x)
  '60206000208060003590', // h, h, x
  '55', // sstore(h, x)
  '54602052', // mstore(32, sload(h))
  '6001360335604052', // mstore(64, calldataload(calldatasize - 1))
  '602051600552', // mstore(5, mload(32))
  '600035602a57fe5b', // jumpi(0x2a, x); invalid; jumpdest at 0x2a
  '60003561232852', // mstore(9000, x)
  '60606000f3', // return(0, 96)
)
// Twice: calls Main twice with its own calldata (the second frame of the same code), returns the second.
const TWICE_CODE = bytecode(
  '366000600037', // calldatacopy(0, 0, calldatasize)
  '6060600036600060007300000000000000000000000000000000000000a15af150', // call(gas, main, 0, 0, size, 0, 96)
  '6060600036600060007300000000000000000000000000000000000000a15af150',
  '60606000f3',
)
// Jumps to offset 4, a 0x5b inside PUSH1's data: not a JUMPDEST.
const INTO_PUSH_CODE = hexToBytes('0x600456605b00')
// BLOCKHASH: static gas, an async handler; returns blockhash(0). Then the same with an empty stack.
const ASYNC_CODE = hexToBytes('0x60004060005260206000f3')
const ASYNC_FAILING_CODE = hexToBytes('0x40')
// mstore8(31, 0xaa); revert(0, 32)
const REVERTING_CODE = hexToBytes('0x60aa601f5360206000fd')
// mload(2^32 - 1): memory past any gas limit. Then MLOAD on an empty stack (its gas reads the stack).
const MEMORY_OOG_CODE = hexToBytes('0x63ffffffff51')
const MLOAD_EMPTY_CODE = hexToBytes('0x51')
// mstore(0, sload(7)) (a cold slot), sload(7) again (warm); return(0, 32)
const COLD_READ_CODE = hexToBytes('0x6007546000526007545060206000f3')
// Every EIP-2200 case on slots 1 (holding 5 before the run), 2 and 3 (empty), then a full word
// under the highest key: noop cold, delete, reset to the original, dirty writes, noop warm,
// create, reset to empty, noop on an empty cold slot.
const SSTORES_CODE = bytecode(
  '6005600155', // sstore(1, 5): noop, cold
  '6000600155', // sstore(1, 0): delete (refund)
  '6005600155', // sstore(1, 5): back to the original (refund taken back, clean refund)
  '6007600155', // sstore(1, 7): dirty
  '6000600155', // sstore(1, 0): delete a dirty slot
  '6000600155', // sstore(1, 0): noop, warm
  '6003600255', // sstore(2, 3): create
  '6000600255', // sstore(2, 0): back to empty (init refund)
  '6000600355', // sstore(3, 0): noop on an empty cold slot
  `7f${'01'.repeat(32)}7f${'ff'.repeat(32)}55`, // sstore(2^256 - 1, 0x0101…01)
  '00',
)
// staticcall(gas, SSTORES, 0, 0, 0, 0): a write in a static frame.
const STATIC_SSTORE_CODE = bytecode('600060006000600073', SSTORES.toString().slice(2), '5afa00')
// mstore(0, a full word); log0(0, 32); log1(0, 0, 0); log2(1, 5, 7, 0x1234); log3 with an address
// and a full word as topics (and 9); log4(0x100, 0x40, 1, 2, 3, 4) (memory grows).
const LOGS_CODE = bytecode(
  `7f${'a5'.repeat(32)}600052`,
  '60206000a0',
  '600060006000a1',
  '611234600760056001a2',
  `600973${'c0'.repeat(20)}7f${'ff'.repeat(32)}60006000a3`,
  '6004600360026001604061' + '0100a4',
  '00',
)
// staticcall(gas, LOGS, 0, 0, 0, 0): logs in a static frame.
const STATIC_LOG_CODE = bytecode('600060006000600073', LOGS.toString().slice(2), '5afa00')
// Jumps over STOP, then mstore(0, 0) with PUSH0 (Shanghai) and returns the word.
const PUSH0_CODE = hexToBytes('0x600456005b5f5f5260205ff3')

async function evmWith(fast: boolean, hardfork = 'prague') {
  const common = createDevCommon({ chainId: 31337n, hardfork })
  const evm = await createEVM({ common })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n))
  for (const [address, code] of [
    [MAIN, MAIN_CODE],
    [TWICE, TWICE_CODE],
    [INTO_PUSH, INTO_PUSH_CODE],
    [PUSH0_USER, PUSH0_CODE],
    [ASYNC, ASYNC_CODE],
    [ASYNC_FAILING, ASYNC_FAILING_CODE],
    [REVERTING, REVERTING_CODE],
    [MEMORY_OOG, MEMORY_OOG_CODE],
    [MLOAD_EMPTY, MLOAD_EMPTY_CODE],
    [COLD_READ, COLD_READ_CODE],
    [SSTORES, SSTORES_CODE],
    [STATIC_SSTORE, STATIC_SSTORE_CODE],
    [LOGS, LOGS_CODE],
    [STATIC_LOG, STATIC_LOG_CODE],
  ] as const)
    await evm.stateManager.putCode(address, code)
  if (fast) await installFastInterpreter(evm)
  return evm
}

/**
 * A run's outcome, and with `watched` every step it took (pc, opcode, gas left, stack). A step
 * listener sends every step through ethereumjs's `runStep`: unwatched runs take the fast steps.
 */
async function runOn(evm: EVM, run: { to?: Address; data?: Uint8Array; gasLimit: bigint }, watched = true) {
  const steps: string[] = []
  const record = (step: { pc: number; opcode: { name: string }; gasLeft: bigint; stack: bigint[]; depth: number }) =>
    steps.push(`${step.depth} ${step.pc} ${step.opcode.name} ${step.gasLeft} ${step.stack.join(',')}`)
  if (watched) evm.events.on('step', record)
  // As the chain's executor does before each run: no address or slot stays warm from the last.
  evm.journal.cleanJournal()
  const { execResult, createdAddress } = await evm.runCall({ caller: CALLER, origin: CALLER, ...run })
  if (watched) evm.events.off('step', record)
  return {
    error: execResult.exceptionError?.error,
    returnValue: bytesToHex(execResult.returnValue),
    gasUsed: execResult.executionGasUsed,
    refund: execResult.gasRefund,
    logs: execResult.logs,
    created: createdAddress?.toString(),
    code: createdAddress === undefined ? undefined : bytesToHex(await evm.stateManager.getCode(createdAddress)),
    steps,
  }
}

const word = (hex: string) => hexToBytes(`0x${hex.padStart(64, '0')}`)
/** Slot 1 of SSTORES holds 5 when a run starts (its runs change it). */
const slotOneFive = (evm: EVM) => evm.stateManager.putStorage(SSTORES, word('1'), hexToBytes('0x05'))
const RUNS: Record<string, { to?: Address; data?: Uint8Array; gasLimit: bigint; error: string | undefined; before?: (evm: EVM) => Promise<void> }> = {
  'words through memory, storage, calldata and keccak': { to: MAIN, data: hexToBytes(`0x${'f0'.repeat(32)}ab`), gasLimit: 1_000_000n, error: undefined },
  'jump not taken into an invalid opcode': { to: MAIN, data: word('0'), gasLimit: 1_000_000n, error: 'invalid opcode' },
  'same code in two frames': { to: TWICE, data: word('1234567890abcdef'.repeat(4)), gasLimit: 1_000_000n, error: undefined },
  'jump into push data': { to: INTO_PUSH, gasLimit: 100_000n, error: 'invalid JUMP' },
  'async handler': { to: ASYNC, gasLimit: 100_000n, error: undefined },
  'async handler failing': { to: ASYNC_FAILING, gasLimit: 100_000n, error: 'stack underflow' },
  'cold then warm storage read': { to: COLD_READ, gasLimit: 100_000n, error: undefined },
  'every SSTORE gas case': { to: SSTORES, gasLimit: 200_000n, error: undefined, before: slotOneFive },
  'SSTORE with no more than the EIP-2200 stipend left': { to: SSTORES, gasLimit: 2_306n, error: 'out of gas', before: slotOneFive },
  'SSTORE in a static frame': { to: STATIC_SSTORE, gasLimit: 200_000n, error: undefined, before: slotOneFive },
  'logs of every topic count': { to: LOGS, gasLimit: 200_000n, error: undefined },
  'logs with too little gas for the last': { to: LOGS, gasLimit: 3_000n, error: 'out of gas' },
  'logs in a static frame': { to: STATIC_LOG, gasLimit: 200_000n, error: undefined },
  'revert with data': { to: REVERTING, gasLimit: 100_000n, error: 'revert' },
  'memory past the gas': { to: MEMORY_OOG, gasLimit: 100_000n, error: 'out of gas' },
  'gas of an opcode on an empty stack': { to: MLOAD_EMPTY, gasLimit: 100_000n, error: 'stack underflow' },
  'out of gas': { to: MAIN, data: word('7'), gasLimit: 20_000n, error: 'out of gas' },
  // Deploys Main: codecopy(0, 11, size); return(0, size).
  deployment: {
    data: hexToBytes(`0x60${MAIN_CODE.length.toString(16)}80600b6000396000f3${bytesToHex(MAIN_CODE).slice(2)}`),
    gasLimit: 1_000_000n,
    error: undefined,
  },
}

for (const [name, { error, before, ...run }] of Object.entries(RUNS)) {
  test(`behavior: runs as ethereumjs runs it, step by step (${name})`, async () => {
    const stock = await evmWith(false)
    const fast = await evmWith(true)
    // Twice on each EVM, watched then not: the second runs read the kept analyses.
    for (const watched of [true, false, true, false]) {
      await before?.(stock)
      await before?.(fast)
      const expected = await runOn(stock, run, watched)
      // ethereumjs names the place of a bad jump after ' at '.
      expect(expected.error?.split(' at ')[0]).toBe(error)
      expect(expected.steps.length > 0).toBe(watched)
      expect(await runOn(fast, run, watched)).toEqual(expected)
    }
  })
}

test('behavior: a deployed contract runs as ethereumjs runs it', async () => {
  const outcomes = []
  for (const fast of [false, true]) {
    const evm = await evmWith(fast)
    const deployed = await runOn(evm, { data: RUNS.deployment!.data!, gasLimit: 1_000_000n }, false)
    expect(deployed.code).toBe(bytesToHex(MAIN_CODE))
    const call = { to: createAddressFromString(deployed.created!), data: word('abc'), gasLimit: 1_000_000n }
    outcomes.push([deployed, await runOn(evm, call, false), await runOn(evm, call)])
  }
  expect(outcomes[0]!.map((run) => run.error)).toEqual([undefined, undefined, undefined])
  expect(outcomes[1]).toEqual(outcomes[0])
})

test('behavior: a hardfork change takes the opcodes and analyses of the new hardfork', async () => {
  const outcomes = []
  for (const fast of [false, true]) {
    const evm = await evmWith(fast)
    const common = (evm as unknown as { common: Common }).common
    const runs = []
    for (const hardfork of ['prague', 'london', 'prague']) {
      common.setHardfork(hardfork)
      runs.push(await runOn(evm, { to: PUSH0_USER, gasLimit: 100_000n }, false), await runOn(evm, { to: PUSH0_USER, gasLimit: 100_000n }))
    }
    outcomes.push(runs)
  }
  expect(outcomes[0]!.map((run) => run.error)).toEqual([undefined, undefined, 'invalid opcode', 'invalid opcode', undefined, undefined])
  expect(outcomes[1]).toEqual(outcomes[0])
})

test('behavior: a custom opcode keeps its own handler', async () => {
  const results = []
  for (const fast of [false, true]) {
    const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
    const customOpcodes = [{ opcode: 0x20, opcodeName: 'KECCAK256', baseFee: 30, logicFunction: (runState: { stack: { popN(n: number): unknown; push(v: bigint): void } }) => (runState.stack.popN(2), runState.stack.push(7n)) }]
    const evm = await createEVM({ common, customOpcodes: customOpcodes as never })
    if (fast) await installFastInterpreter(evm)
    // keccak256(0, 0); mstore(0, it); return(0, 32)
    results.push(await runOn(evm, { data: hexToBytes('0x600060002060005260206000f3'), gasLimit: 100_000n }, false))
  }
  expect(results[0]!.returnValue).toBe(bytesToHex(word('7')))
  expect(results[1]).toEqual(results[0])
})

test('behavior: a frame of code already analysed reuses the analysis, and so does the same code in a new array', async () => {
  const evm = await evmWith(true)
  // Every analysis made, seen through the cache's `of` (the code it is handed to analyse).
  const analysed: string[] = []
  const of = JumpAnalyses.prototype.of
  const spy = vi.spyOn(JumpAnalyses.prototype, 'of').mockImplementation(function (this: JumpAnalyses, code, analyse) {
    return of.call(this, code, (c) => (analysed.push(bytesToHex(c)), analyse(c)))
  })
  try {
    await runOn(evm, { to: TWICE, data: word('5'), gasLimit: 1_000_000n })
    // Twice's code once (it jumps nowhere: never), Main's once for its two frames.
    expect(analysed).toEqual([bytesToHex(MAIN_CODE)])
    // Main deployed: its code is deposited in a new array (the init code jumps nowhere), and runs on the analysis kept.
    const deployed = await runOn(evm, { data: RUNS.deployment!.data!, gasLimit: 1_000_000n }, false)
    expect(deployed.code).toBe(bytesToHex(MAIN_CODE))
    await runOn(evm, { to: createAddressFromString(deployed.created!), data: word('5'), gasLimit: 1_000_000n }, false)
    expect(analysed).toEqual([bytesToHex(MAIN_CODE)])
  } finally {
    spy.mockRestore()
  }
})

test('behavior: the EIP lookup answers as Common does, across hardforks, EIP lists and copies', () => {
  const fast = createDevCommon({ chainId: 1n, hardfork: 'osaka' })
  installFastEIPLookup(fast)
  const stockAnswers = (common: Common) => Array.from({ length: 8100 }, (_, eip) => Common.prototype.isActivatedEIP.call(common, eip))
  const fastAnswers = (common: Common) => Array.from({ length: 8100 }, (_, eip) => common.isActivatedEIP(eip))
  for (const hardfork of ['chainstart', 'london', 'shanghai', 'cancun', 'prague', 'osaka']) {
    fast.setHardfork(hardfork)
    expect(fastAnswers(fast), hardfork).toEqual(stockAnswers(fast))
  }
  expect(fast.isActivatedEIP(1153)).toBe(true)
  fast.setHardfork('london')
  expect(fast.isActivatedEIP(1153)).toBe(false)
  fast.setEIPs([1153])
  expect(fast.isActivatedEIP(1153)).toBe(true)
  const copy = fast.copy()
  copy.setHardfork('chainstart')
  copy.setEIPs([])
  expect(fastAnswers(copy)).toEqual(stockAnswers(copy))
  expect(fastAnswers(fast)).toEqual(stockAnswers(fast))
  expect(fastAnswers(fast).filter(Boolean).length).toBeGreaterThan(5)
})

test('behavior: the journal touches accounts under the keys ethereumjs touches them by', async () => {
  const touched = []
  for (const fast of [false, true]) {
    const journal = (await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'prague' }) })).journal as unknown as WarmJournal & { touched: Set<string>; putAccount(a: Address, account: Account): Promise<void> }
    if (fast) installWarmJournal(journal)
    for (const n of [1, 0xab, 0xabcdef, 1]) await journal.putAccount(new Address(hexToBytes(`0x${n.toString(16).padStart(40, '0')}`)), new Account(1n))
    journal.touchAddress(new Address(hexToBytes(`0x${'Ff'.repeat(20)}`)))
    touched.push([...journal.touched])
  }
  expect(touched[1]).toEqual(touched[0])
  expect(touched[0]).toContain('ff'.repeat(20))
})

test('behavior: a shared warm set answers as the same addresses warmed one by one, until the journal is cleaned', async () => {
  const address = (n: number) => hexToBytes(`0x${n.toString(16).padStart(40, '0')}`)
  const slot = hexToBytes(`0x${'00'.repeat(31)}05`)
  const shared = new Map([1, 2, 0x100].map((n) => [bytesToHex(address(n)).slice(2), new Set<string>()]))
  const answers = []
  for (const fast of [false, true]) {
    const journal = (await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'osaka' }) })).journal as unknown as WarmJournal
    const ask = () => [1, 2, 3, 0x100].flatMap((n) => [journal.isWarmedAddress(address(n)), journal.isWarmedStorage(address(n), slot)])
    if (fast) {
      installWarmJournal(journal)
      expect(warmShared(journal, shared)).toBe(true)
    } else for (const key of shared.keys()) journal.addAlwaysWarmAddress(key)
    journal.addAlwaysWarmAddress(bytesToHex(address(3)).slice(2))
    journal.addWarmedStorage(address(2), slot)
    const warm = ask()
    journal.cleanJournal()
    answers.push({ warm, cleaned: ask() })
  }
  expect(answers[1]).toEqual(answers[0])
  expect(answers[0]!.warm).toEqual([true, false, true, true, true, false, true, false])
  expect(answers[0]!.cleaned.every((answer) => !answer)).toBe(true)
  expect([...shared.values()].every((slots) => slots.size === 0)).toBe(true)
  // A journal without the fast methods is not given the shared set (its caller copies it instead).
  const stock = (await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'osaka' }) })).journal as unknown as WarmJournal
  expect(warmShared(stock, shared)).toBe(false)
})

test('behavior: the journal warms addresses as ethereumjs warms them', async () => {
  const addresses = ['0000000000000000000000000000000000000001', '0x00000000000000000000000000000000000000aB', '0xnothex', '']
  const journals = []
  for (const fast of [false, true]) {
    const journal = (await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'prague' }) })).journal as unknown as WarmJournal
    if (fast) installWarmJournal(journal)
    for (const [i, address] of addresses.entries()) journal.addAlwaysWarmAddress(address, i % 2 === 1)
    ;(journal as unknown as { addAlwaysWarmSlot(address: string, slot: string, toAccessList: boolean): void }).addAlwaysWarmSlot('0x00000000000000000000000000000000000000cc', '0x01', true)
    journals.push({ warm: [...journal.alwaysWarmJournal].map(([a, slots]) => [a, [...slots]]), accessList: [...(journal.accessList ?? [])].map(([a, slots]) => [a, [...slots]]) })
    expect(() => journal.addAlwaysWarmAddress(7 as unknown as string)).toThrow('[stripHexPrefix] input must be type')
  }
  expect(journals[0]!.warm.map(([a]) => a)).toContain('00000000000000000000000000000000000000aB')
  expect(journals[1]).toEqual(journals[0])
})

test('behavior: the journal warms and answers for addresses and slots as ethereumjs does, through checkpoints and with an access list', async () => {
  const address = (n: number) => hexToBytes(`0x${n.toString(16).padStart(40, '0')}`)
  const slot = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`)
  type Journal = WarmJournal & { checkpoint(): Promise<void>; revert(): Promise<void>; commit(): Promise<void>; startReportingAccessList(): void; addAlwaysWarmSlot(a: string, s: string): void }
  const traces = []
  for (const fast of [false, true]) {
    const journal = (await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'prague' }) })).journal as unknown as Journal
    if (fast) installWarmJournal(journal)
    const answers: boolean[] = []
    const ask = () => {
      for (const a of [1, 2, 3, 0xabc]) {
        answers.push(journal.isWarmedAddress(address(a)))
        for (const s of [0, 5, 0xff]) answers.push(journal.isWarmedStorage(address(a), slot(s)))
      }
    }
    journal.addAlwaysWarmAddress(`${'00'.repeat(19)}03`)
    journal.addAlwaysWarmSlot(`${'00'.repeat(19)}03`, slot(5).reduce((hex, b) => hex + b.toString(16).padStart(2, '0'), ''))
    ask()
    await journal.checkpoint()
    journal.addWarmedAddress(address(1))
    journal.addWarmedStorage(address(2), slot(5))
    journal.addWarmedStorage(address(2), slot(5))
    ask()
    await journal.checkpoint()
    journal.addWarmedStorage(address(0xabc), slot(0xff))
    journal.addWarmedStorage(address(3), slot(0))
    ask()
    await journal.revert()
    ask()
    await journal.commit()
    journal.startReportingAccessList()
    journal.addWarmedStorage(address(4), slot(0))
    journal.addWarmedAddress(address(0xabc))
    // A slot of an address warmed before the access list was started: both fail on its missing set.
    expect(() => journal.addWarmedStorage(address(1), slot(9))).toThrow(TypeError)
    ask()
    const sets = (m: Map<string, Set<string>> | undefined) => [...(m ?? [])].map(([a, slots]) => [a, [...slots]])
    traces.push({ answers, warm: sets(journal.journal), accessList: sets(journal.accessList), diff: journal.journalDiff.map(([h, [a, s, t]]) => [h, [...a], sets(s), [...t]]) })
  }
  expect(traces[0]!.answers.filter(Boolean).length).toBeGreaterThan(5)
  expect(traces[0]!.accessList.length).toBe(2)
  expect(traces[1]).toEqual(traces[0])
})

test('behavior: a custom opcode wrapping ethereumjs SSTORE wraps its fast copy, made once; other opcodes keep ethereumjs handlers', () => {
  const { handlers } = getOpcodesForHF(createDevCommon({ chainId: 1n, hardfork: 'prague' }))
  const sstore = handlers.get(0x55)
  expect(fastStockHandler(0x55, sstore)).not.toBe(sstore)
  expect(fastStockHandler(0x55, sstore)).toBe(fastStockHandler(0x55, sstore))
  expect(fastStockHandler(0x20, handlers.get(0x20))).toBe(handlers.get(0x20))
})

test('behavior: a wrapper of ethereumjs SSTORE gas wraps its fast copy, made once; other gas handlers and custom ones stay', () => {
  const common = createDevCommon({ chainId: 1n, hardfork: 'prague' })
  const { dynamicGasHandlers } = getOpcodesForHF(common)
  const gas = dynamicGasHandlers.get(0x55)
  expect(fastStockGas(0x55, gas, common)).not.toBe(gas)
  expect(fastStockGas(0x55, gas, common)).toBe(fastStockGas(0x55, gas, common))
  expect(fastStockGas(0x51, dynamicGasHandlers.get(0x51), common)).toBe(dynamicGasHandlers.get(0x51))
  const custom = async () => 0n
  expect(fastStockGas(0x55, custom, common)).toBe(custom)
})

test('behavior: with the estimator watching (its wrappers on the table), SSTORE runs as ethereumjs runs it and is seen', async () => {
  const stock = await evmWith(false)
  const fast = await evmWith(true)
  const observer = new GasObserver(fast, (fast as unknown as { common: Common }).common)
  for (const watched of [true, false]) {
    await slotOneFive(stock)
    await slotOneFive(fast)
    const observation = newObservation()
    observer.start(observation, CALLER.bytes)
    const run = { to: SSTORES, gasLimit: 200_000n }
    const expected = await runOn(stock, run, watched)
    expect(await runOn(fast, run, watched)).toEqual(expected)
    observer.stop()
    expect(observation.leastGasAtSstore).toBeGreaterThan(0n)
  }
})
