/**
 * The blocks to come: gas limit, coinbase and next base fee (`anvil_`, `evm_` and `hardhat_`
 * names). anvil answers true for the gas limit and null for the others; Hardhat true throughout.
 * The settings themselves are `src/chain/`'s.
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { address, uint64 } from '../params/values.js'

/** The block-settings methods over `chainFor`, with their aliases. */
export function blockSettingsMethods(chainFor: ChainFor) {
  const setBlockGasLimit = defineMethod([uint64], async ([gasLimit], ctx) => {
    await (await chainFor(ctx)).setBlockSettings({ gasLimit })
    return true
  })
  const setCoinbase = (answer: true | null) =>
    defineMethod([address], async ([coinbase], ctx) => {
      await (await chainFor(ctx)).setBlockSettings({ coinbase })
      return answer
    })
  // A uint64, as anvil's base fee: a larger one overflows `gas * fee cap` (2^256) for every default fee built on it.
  const setNextBaseFee = (answer: true | null) =>
    defineMethod([uint64], async ([nextBaseFee], ctx) => {
      await (await chainFor(ctx)).setBlockSettings({ nextBaseFee })
      return answer
    })
  return {
    evm_setBlockGasLimit: setBlockGasLimit,
    anvil_setBlockGasLimit: setBlockGasLimit,
    anvil_setCoinbase: setCoinbase(null),
    hardhat_setCoinbase: setCoinbase(true),
    anvil_setNextBlockBaseFeePerGas: setNextBaseFee(null),
    hardhat_setNextBlockBaseFeePerGas: setNextBaseFee(true),
  } satisfies Registry
}
