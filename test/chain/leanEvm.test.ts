import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createEVM, EVM } from '@ethereumjs/evm'
import { Account, Address, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { installLeanEvm } from '../../src/chain/execution/leanEvm.js'
import { createDevCommon } from '../../src/chain/genesis.js'

// The lean EVM methods (src/chain/execution/leanEvm.ts) are copies of ethereumjs's without the
// object spreads: they must follow the ethereumjs they were copied from, and run as it does.

const fingerprint = (method: keyof EVM) => createHash('sha256').update(String(EVM.prototype[method])).digest('hex').slice(0, 16)

test('pin: ethereumjs still has the _executeCall and runInterpreter the lean copies follow', () => {
  // On an ethereumjs upgrade this fails: copy the new methods into leanEvm.ts, then update these.
  expect({ _executeCall: fingerprint('_executeCall' as keyof EVM), runInterpreter: fingerprint('runInterpreter' as keyof EVM) }).toEqual({
    _executeCall: 'f2358d2eeecc46e1',
    runInterpreter: '1f4905264075376d',
  })
})

test('pin: package.json asks for exactly that ethereumjs, so an install of ringchain cannot pull another', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }
  const installed = JSON.parse(readFileSync(new URL('../../node_modules/@ethereumjs/evm/package.json', import.meta.url), 'utf8')) as { version: string }
  for (const name of ['@ethereumjs/evm', '@ethereumjs/vm']) expect(pkg.dependencies[name], name).toBe(installed.version)
})

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000c0')
const MAIN = createAddressFromString('0x00000000000000000000000000000000000000a1')
const REVERTER = createAddressFromString('0x00000000000000000000000000000000000000b1')
const EOA = createAddressFromString('0x00000000000000000000000000000000000000e0')
// Main: sstore(1, 42); mstore(0, sload(1)); log1(0, 32, 7); call identity(0..32 -> 32..64);
// call the reverter; create(empty); return(0, 64).
const MAIN_CODE = hexToBytes(
  `0x602a600155600154600052600760206000a16020602060206000600060045af1506000600060006000600073${REVERTER.toString().slice(2)}5af150600060006000f05060406000f3`,
)
// Reverter: mstore(0, 1); revert(0, 32).
const REVERTER_CODE = hexToBytes('0x600160005260206000fd')

async function evmWith(lean: boolean) {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
  const evm = await createEVM({ common })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n))
  await evm.stateManager.putCode(MAIN, MAIN_CODE)
  await evm.stateManager.putCode(REVERTER, REVERTER_CODE)
  if (lean) await installLeanEvm(evm)
  return evm
}

/** Each run, and the error it ends with (so that a run that did nothing cannot pass as equal). */
const RUNS: Record<string, { to: Address; gasLimit: bigint; value?: bigint; data?: Uint8Array; error: string | undefined }> = {
  'storage, log, precompile, inner revert, create': { to: MAIN, gasLimit: 1_000_000n, error: undefined },
  'out of gas': { to: MAIN, gasLimit: 30_000n, error: 'out of gas' },
  revert: { to: REVERTER, gasLimit: 100_000n, error: 'revert' },
  'value to an account without code': { to: EOA, gasLimit: 100_000n, value: 5n, error: undefined },
  'precompile called directly': { to: createAddressFromString('0x0000000000000000000000000000000000000002'), gasLimit: 100_000n, data: Uint8Array.of(1, 2, 3), error: undefined },
  'value above the balance': { to: EOA, gasLimit: 100_000n, value: 10n ** 21n, error: 'insufficient balance' },
}

for (const [name, { error, ...run }] of Object.entries(RUNS)) {
  test(`behavior: runs as ethereumjs runs it (${name})`, async () => {
    const outcomes = []
    for (const lean of [false, true]) {
      const evm = await evmWith(lean)
      const { execResult } = await evm.runCall({ caller: CALLER, origin: CALLER, ...run })
      const runState = execResult.runState
      outcomes.push({
        error: execResult.exceptionError?.error,
        returnValue: execResult.returnValue,
        gasUsed: execResult.executionGasUsed,
        refund: execResult.gasRefund,
        logs: execResult.logs,
        runStateKeys: runState === undefined ? undefined : Object.keys(runState).sort(),
        pc: runState?.programCounter,
        main: await evm.stateManager.getStorage(MAIN, hexToBytes(`0x${'1'.padStart(64, '0')}`)),
        eoa: (await evm.stateManager.getAccount(EOA))?.balance,
        caller: (await evm.stateManager.getAccount(CALLER))?.balance,
      })
    }
    expect(outcomes[0]!.error).toBe(error)
    expect(outcomes[1]).toEqual(outcomes[0])
  })
}

test('behavior: the main run stored, logged and returned', async () => {
  const { execResult } = await (await evmWith(true)).runCall({ caller: CALLER, origin: CALLER, to: MAIN, gasLimit: 1_000_000n })
  expect(execResult.logs).toHaveLength(1)
  // Word 0: the stored 42; word 1: the identity precompile's copy of it.
  expect(execResult.returnValue).toEqual(hexToBytes(`0x${'2a'.padStart(64, '0')}${'2a'.padStart(64, '0')}`))
})

test('behavior: installed on the EVM given, not on the class', async () => {
  const lean = await evmWith(true)
  const stock = await evmWith(false)
  expect(Object.hasOwn(lean, 'runInterpreter')).toBe(true)
  expect(Object.hasOwn(lean, '_executeCall')).toBe(true)
  expect(Object.hasOwn(stock, 'runInterpreter')).toBe(false)
})
