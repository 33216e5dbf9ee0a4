// Hardhat 2 against `ringchain serve`: the `ringchain` network is the URL that
// scripts/with-ringchain.js exports (or a server you started yourself on 8545).
require('@nomicfoundation/hardhat-ethers')
require('@nomicfoundation/hardhat-viem')
const { subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names')

// Compile with the npm `solc` package (solcjs) instead of downloading a compiler: works offline,
// and the version is the one package.json pins.
const solc = require('solc')
const SOLC_VERSION = require('solc/package.json').version
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper()
  return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: SOLC_VERSION, longVersion: solc.version() }
})

/** @type import('hardhat/config').HardhatUserConfig */
module.exports = {
  solidity: SOLC_VERSION,
  defaultNetwork: 'ringchain',
  networks: {
    // The dev accounts sign on the node (eth_accounts, eth_sendTransaction), as with `hardhat node`.
    ringchain: { url: process.env.RINGCHAIN_URL ?? 'http://127.0.0.1:8545/v3/hardhat' },
  },
}
