/**
 * The blocks to come: gas limit, coinbase and next base fee (`anvil_`, `evm_` and `hardhat_`
 * names). anvil answers true for the gas limit and null for the others; Hardhat true throughout.
 * The settings themselves are `src/chain/`'s. `anvil_setMinGasPrice` / `hardhat_setMinGasPrice`
 * refuse on a chain with EIP-1559 as both nodes do (ringchain keeps no minimum before London either).
 */
import type { ChainFor } from '../context.js'
import { defineMethod, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { address, quantity, uint64 } from '../params/values.js'

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
  const setMinGasPrice = (name: string) =>
    defineMethod([quantity], async (_p, ctx) => {
      if ((await chainFor(ctx)).common.isActivatedEIP(1559)) throw new InvalidParamsError(`${name} is not supported when EIP-1559 is active`)
      throw new ServerError(`${name} is not supported by ringchain`)
    })
  return {
    anvil_setMinGasPrice: setMinGasPrice('anvil_setMinGasPrice'),
    hardhat_setMinGasPrice: setMinGasPrice('hardhat_setMinGasPrice'),
    evm_setBlockGasLimit: setBlockGasLimit,
    anvil_setBlockGasLimit: setBlockGasLimit,
    anvil_setCoinbase: setCoinbase(null),
    hardhat_setCoinbase: setCoinbase(true),
    anvil_setNextBlockBaseFeePerGas: setNextBaseFee(null),
    hardhat_setNextBlockBaseFeePerGas: setNextBaseFee(true),
  } satisfies Registry
}
