/**
 * The default of each chain option (see `ChainOptions` in genesis.ts), in a module of its own that
 * imports nothing: `ringchain serve` reads the chain id and account count from here before it
 * loads the chain.
 */

/** The default of each option a chain is created with. */
export const CHAIN_DEFAULTS = {
  chainId: 31337n,
  blockGasLimit: 30_000_000n,
  baseFee: 1_000_000_000n,
  accounts: 10,
  balance: 10_000n * 10n ** 18n,
  window: 128,
  safeLag: 32,
  finalizedLag: 64,
}
