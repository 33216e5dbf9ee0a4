/**
 * State overrides of a simulated block, applied to its scratch state before its calls run (geth's
 * `StateOverride.Apply`): balance, nonce and code replaced, storage replaced or patched, precompiles
 * moved to another address.
 *
 * Owns: the order geth applies them in and its refusals. Leaves the state to the simulation's
 * state manager.
 */
import type { EVM } from '@ethereumjs/evm'
import { Account, Address, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import type { RingStateManager } from '../stateManager.js'
import type { StateOverrides } from '../overrides.js'
import { SimulationError } from './types.js'

/** Applies `overrides` to `sm`, moving precompiles in `evm`'s table. */
export async function applyOverrides(overrides: StateOverrides, sm: RingStateManager, evm: EVM): Promise<void> {
  const precompiles = (evm as unknown as { precompiles: Map<string, unknown> }).precompiles
  const moved = new Set<string>()
  for (const [key, override] of overrides) {
    const address = new Address(hexToBytes(`0x${key}`))
    if (override.movePrecompileToAddress !== undefined) {
      const precompile = precompiles.get(key)
      if (precompile === undefined) throw new SimulationError('notPrecompile', `account ${address.toString()} is not a precompile`)
      const to = bytesToUnprefixedHex(override.movePrecompileToAddress)
      if (moved.has(to)) throw new SimulationError('movedTwice', `account ${address.toString()} has already been overridden by a precompile`)
      precompiles.delete(key)
      precompiles.set(to, precompile)
      moved.add(to)
    }
    const account = (await sm.getAccount(address)) ?? new Account()
    if (override.nonce !== undefined) account.nonce = override.nonce
    if (override.balance !== undefined) account.balance = override.balance
    await sm.putAccount(address, account)
    if (override.code !== undefined) await sm.putCode(address, override.code)
    if (override.state !== undefined) {
      await sm.clearStorage(address)
      for (const [slot, value] of override.state) await sm.putStorage(address, hexToBytes(`0x${slot}`), value)
    }
    if (override.stateDiff !== undefined) {
      for (const [slot, value] of override.stateDiff) await sm.putStorage(address, hexToBytes(`0x${slot}`), value)
    }
  }
}
