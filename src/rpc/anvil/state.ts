/**
 * State setters: `anvil_setBalance`, `anvil_setCode`, `anvil_setNonce`, `anvil_setStorageAt`
 * (Hardhat's names alias each). Writing the state is `src/chain/`'s.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError } from '../errors.js'
import { anyValue } from '../params/decode.js'
import { address, data, quantity, storageSlot, uint64 } from '../params/values.js'

/** The state-setter methods over `chainFor`, with their aliases. */
export function stateSetterMethods(chainFor: ChainFor) {
  const setBalance = defineMethod([address, quantity], async ([a, v], ctx) => {
    await (await chainFor(ctx)).setBalance(a, v)
    return true
  })
  const setCode = defineMethod([address, data], async ([a, c], ctx) => {
    await (await chainFor(ctx)).setCode(a, c)
    return true
  })
  const setNonce = defineMethod([address, uint64], async ([a, n], ctx) => {
    // EIP-2681: 2^64-1 is no nonce a transaction (or a call built like one) may carry.
    if (n === 2n ** 64n - 1n) throw new InvalidParamsError('invalid argument 1: nonce must be below 2^64-1 (EIP-2681)')
    await (await chainFor(ctx)).setNonce(a, n)
    return true
  })
  // Slot and value are read in the handler (both as eth_getStorageAt reads a slot), not as positional params.
  const setStorageAt = defineMethod([address, anyValue, anyValue], async ([a, slot, value], ctx) => {
    const slotBytes = storageSlot.decode(slot)
    const valueBytes = storageSlot.decode(value)
    await (await chainFor(ctx)).setStorageAt(a, slotBytes, valueBytes)
    return true
  })
  return {
    anvil_setBalance: setBalance,
    hardhat_setBalance: setBalance,
    anvil_setCode: setCode,
    hardhat_setCode: setCode,
    anvil_setNonce: setNonce,
    hardhat_setNonce: setNonce,
    anvil_setStorageAt: setStorageAt,
    hardhat_setStorageAt: setStorageAt,
  } satisfies Registry
}
