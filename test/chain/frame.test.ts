import { createHash } from 'node:crypto'
import { createEVM, getOpcodesForHF, type EVM } from '@ethereumjs/evm'
import { Account, bytesToHex, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { installFastInterpreter } from '../../src/chain/execution/fastInterpreter.js'
import { growingMemory, type MemoryClass } from '../../src/chain/execution/frame.js'
import { interpreterClass, interpreterParts } from '../../src/chain/execution/leanEvm.js'
import { createDevCommon } from '../../src/chain/genesis.js'
import { StorageWriteRecorder } from '../../src/chain/storageChanges.js'

// The fast interpreter's frames (src/chain/execution/frame.ts) are built without ethereumjs's
// constructor, their memory starting empty; STOP and RETURN end its loop without a throw; the
// storage-write recorder's SSTORE waits only for a fork's load. Runs must stay ethereumjs's.

const fingerprint = (text: unknown) => createHash('sha256').update(String(text)).digest('hex').slice(0, 16)

test('pin: ethereumjs still has the constructor, memory and halting handlers the copies follow', async () => {
  // On an ethereumjs upgrade this fails: compare the new sources with frame.ts and fastOpcodes.ts's HALTS, then update these.
  const common = createDevCommon({ chainId: 1n, hardfork: 'prague' })
  const Interpreter = await interpreterClass(await createEVM({ common }))
  const source = String(Interpreter)
  const constructor = source.slice(source.indexOf('constructor('), source.indexOf('async run('))
  const { Memory } = interpreterParts(Interpreter) as { Memory: MemoryClass }
  const { handlers } = getOpcodesForHF(common)
  expect({
    constructor: fingerprint(constructor),
    memory: fingerprint(Memory),
    stop: fingerprint(handlers.get(0x00)),
    return: fingerprint(handlers.get(0xf3)),
    finish: fingerprint((Interpreter.prototype as unknown as Record<string, unknown>).finish),
  }).toMatchInlineSnapshot(`
    {
      "constructor": "89a75ac50d78016b",
      "finish": "dd8051dfc1598636",
      "memory": "ab11f192cc3f5e7a",
      "return": "9265557f78de6711",
      "stop": "363e12c79003c1e7",
    }
  `)
})

test('behavior: the growing memory reads what ethereumjs memory reads, after the same writes', async () => {
  const Interpreter = await interpreterClass(await createEVM({ common: createDevCommon({ chainId: 1n, hardfork: 'prague' }) }))
  const { Memory } = interpreterParts(Interpreter) as { Memory: MemoryClass }
  type Full = InstanceType<MemoryClass> & { write(offset: number, size: number, value: Uint8Array): void; read(offset: number, size: number, avoidCopy?: boolean): Uint8Array }
  const stock = new Memory() as Full
  const growing = growingMemory(Memory) as Full
  expect(growing._store.length).toBe(0)
  // Deterministic pseudo-random writes and reads, across the first store (1 KB) and ethereumjs's containers (8 KB).
  let seed = 7
  const next = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % below)
  for (let i = 0; i < 400; i++) {
    const offset = next(i < 200 ? 1500 : 20_000)
    const size = next(70)
    const value = Uint8Array.from({ length: size }, () => next(256))
    stock.write(offset, size, value)
    growing.write(offset, size, value)
    const at = next(21_000)
    const length = next(100)
    expect(bytesToHex(growing.read(at, length)), `read ${at} ${length}`).toBe(bytesToHex(stock.read(at, length)))
    expect(bytesToHex(growing.read(at, length, true))).toBe(bytesToHex(stock.read(at, length, true)))
  }
  // Every byte of the growing store is where ethereumjs's is (its store is longer: whole containers).
  expect(growing._store.length).toBeLessThanOrEqual(stock._store.length)
  expect(bytesToHex(growing._store)).toBe(bytesToHex(stock._store.subarray(0, growing._store.length)))
})

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000c0')
const OUTER = createAddressFromString('0x00000000000000000000000000000000000000d1')
const STOPS = createAddressFromString('0x00000000000000000000000000000000000000d2')
const LONG_RETURN = createAddressFromString('0x00000000000000000000000000000000000000d3')
const WRITER = createAddressFromString('0x00000000000000000000000000000000000000d4')
const call = (to: Address) => `60006000600060006000 73${to.toString().slice(2)} 5af1`.replaceAll(' ', '')
// STOP after writing slot 1 (a frame that never touches memory).
const STOPS_CODE = hexToBytes('0x600260015500')
// mstore(3000, 0xab); return(0, 3032): memory past the first store and under ethereumjs's container.
const LONG_RETURN_CODE = hexToBytes('0x60ab610bb852610bd86000f3')
// sstore(1, 5); sstore(1, 0) (a refund); sstore(2, 6); return(0, 0)
const WRITER_CODE = hexToBytes('0x60056001556000600155600660025560006000f3')
// Calls each, returndatacopy of the long return (the last), a RETURN of zero length, then a STOP never reached.
const OUTER_CODE = hexToBytes(`0x${call(WRITER)}50${call(STOPS)}50${call(LONG_RETURN)}50610bd8600060003e60006000f300`)

async function evmWith(fast: boolean, recorder?: StorageWriteRecorder) {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
  const evm = await createEVM({ common, ...(recorder === undefined ? {} : { customOpcodes: [recorder.opcode(common)] as never }) })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n))
  for (const [address, code] of [
    [OUTER, OUTER_CODE],
    [STOPS, STOPS_CODE],
    [LONG_RETURN, LONG_RETURN_CODE],
    [WRITER, WRITER_CODE],
  ] as const)
    await evm.stateManager.putCode(address, code)
  if (fast) await installFastInterpreter(evm)
  return evm
}

async function runOn(evm: EVM, to: Address, watched: boolean) {
  const steps: string[] = []
  const record = (step: { pc: number; depth: number; gasLeft: bigint; stack: bigint[]; memory: Uint8Array }) =>
    steps.push(`${step.depth} ${step.pc} ${step.gasLeft} ${step.stack.join(',')} ${bytesToHex(step.memory)}`)
  if (watched) evm.events.on('step', record)
  evm.journal.cleanJournal()
  const { execResult } = await evm.runCall({ caller: CALLER, origin: CALLER, to, gasLimit: 1_000_000n })
  if (watched) evm.events.off('step', record)
  return {
    error: execResult.exceptionError?.error,
    returnValue: bytesToHex(execResult.returnValue),
    gasUsed: execResult.executionGasUsed,
    refund: execResult.gasRefund,
    slots: [1, 2].map(async (slot) => bytesToHex(await evm.stateManager.getStorage(WRITER, hexToBytes(`0x${slot.toString(16).padStart(64, '0')}`)))),
    stopped: bytesToHex(await evm.stateManager.getStorage(STOPS, hexToBytes(`0x${'1'.padStart(64, '0')}`))),
    steps,
  }
}

for (const to of [OUTER, STOPS, LONG_RETURN, WRITER]) {
  test(`behavior: frames ending in STOP and RETURN run as ethereumjs runs them (${to.toString()})`, async () => {
    const stock = await evmWith(false)
    const fast = await evmWith(true)
    for (const watched of [true, false, true, false]) {
      const expected = await runOn(stock, to, watched)
      expect(expected.error).toBeUndefined()
      const got = await runOn(fast, to, watched)
      expect({ ...got, slots: await Promise.all(got.slots) }).toEqual({ ...expected, slots: await Promise.all(expected.slots) })
    }
    if (to === OUTER) expect((await runOn(fast, to, false)).returnValue).toBe('0x')
    if (to === LONG_RETURN) expect((await runOn(fast, to, false)).returnValue).toBe(`0x${'00'.repeat(3031)}ab`)
  })
}

test('behavior: the storage-write recorder reads a slot once, after its load if a fork has one, and leaves the run as it was', async () => {
  const expected = await runOn(await evmWith(false), OUTER, false)
  const slot = (n: number) => n.toString(16).padStart(64, '0')
  const firstWrites = [`${WRITER.toString().slice(2)} ${slot(1)}`, `${WRITER.toString().slice(2)} ${slot(2)}`, `${STOPS.toString().slice(2)} ${slot(1)}`]
  for (const loads of [false, true]) {
    const log: string[] = []
    const load = (address: string, slot: string) => {
      if (!loads) return undefined
      log.push(`load ${address} ${slot}`)
      return new Promise<void>((resolve) => setTimeout(() => (log.push(`loaded ${address} ${slot}`), resolve()), 1))
    }
    const read = (address: string, slot: string) => (log.push(`read ${address} ${slot}`), new Uint8Array(0))
    for (const fast of [false, true]) {
      log.length = 0
      const run = await runOn(await evmWith(fast, recorderInTransaction(read, load)), OUTER, false)
      expect({ ...run, slots: await Promise.all(run.slots) }).toEqual({ ...expected, slots: await Promise.all(expected.slots) })
      expect(log).toEqual(firstWrites.flatMap((write) => (loads ? [`load ${write}`, `loaded ${write}`, `read ${write}`] : [`read ${write}`])))
    }
  }
})

test('behavior: the storage-write recorder leaves writes outside a transaction (a block\'s system calls) alone', async () => {
  const expected = await runOn(await evmWith(false), OUTER, false)
  const log: string[] = []
  const read = (address: string, slot: string) => (log.push(`read ${address} ${slot}`), new Uint8Array(0))
  const load = (address: string, slot: string) => (log.push(`load ${address} ${slot}`), undefined)
  const run = await runOn(await evmWith(false, new StorageWriteRecorder(read, load)), OUTER, false)
  expect({ ...run, slots: await Promise.all(run.slots) }).toEqual({ ...expected, slots: await Promise.all(expected.slots) })
  expect(log).toEqual([])
})

/** A recorder the miner has started a transaction on (it notes writes between `beginTransaction` and `endTransaction`). */
function recorderInTransaction(read: (address: string, slot: string) => Uint8Array, load: (address: string, slot: string) => Promise<void> | undefined): StorageWriteRecorder {
  const recorder = new StorageWriteRecorder(read, load)
  recorder.beginTransaction()
  return recorder
}
