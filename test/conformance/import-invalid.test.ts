/**
 * Blocks geth refuses and ethereumjs alone would accept: a Prague block whose EIP-7002 or EIP-7251
 * system call fails (the request contract missing, or reverting), and a header gas limit above
 * 2^63 - 1. Each chain is built here: a geth genesis, one block mined on it, then imported.
 */
import { expect, test } from 'vitest'
import { createCustomCrypto } from '../../src/chain/crypto.js'
import { ImportError, importChain, type GethGenesis } from '../../src/chain/import.js'
import { SYSTEM_CONTRACTS } from '../../src/chain/systemContracts.js'

const customCrypto = createCustomCrypto()
/** PUSH0 PUSH0 REVERT: a contract that always reverts, with no data. */
const REVERTING = '0x5f5ffd'

/** A Prague proof-of-stake genesis with the system contracts, `replace` changing some of them. */
function pragueGenesis(options: { replace?: Record<number, string | null>; gasLimit?: bigint } = {}): GethGenesis {
  const alloc: Record<string, { balance: string; code?: string; nonce?: string }> = {}
  for (const contract of SYSTEM_CONTRACTS) {
    const replaced = options.replace?.[contract.eip]
    const code = replaced === undefined ? contract.code : replaced
    if (code !== null) alloc[contract.address] = { balance: '0x0', code, nonce: '0x1' }
  }
  return {
    config: {
      chainId: 1337,
      homesteadBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      petersburgBlock: 0,
      istanbulBlock: 0,
      berlinBlock: 0,
      londonBlock: 0,
      mergeNetsplitBlock: 0,
      terminalTotalDifficulty: 0,
      terminalTotalDifficultyPassed: true,
      shanghaiTime: 0,
      cancunTime: 0,
      pragueTime: 0,
      depositContractAddress: '0x00000000219ab540356cbb839cbe05303d7705fa',
      blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 }, prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 } },
    },
    nonce: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    gasLimit: `0x${(options.gasLimit ?? 30_000_000n).toString(16)}`,
    difficulty: '0x0',
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    baseFeePerGas: '0x3b9aca00',
    alloc,
  } as unknown as GethGenesis
}

/** Block 1 mined on `genesis` (ethereumjs builds it whatever the system calls do), as RLP. */
async function mineOne(genesis: GethGenesis, blockGasLimit?: bigint): Promise<Uint8Array> {
  const chain = await importChain({ genesis }, { customCrypto, ...(blockGasLimit === undefined ? {} : { blockGasLimit }) })
  const [block] = await chain.mine(1n)
  await chain.close()
  return block!.block.serialize()
}

async function importError(genesis: GethGenesis, blocks: Uint8Array): Promise<ImportError> {
  const error = await importChain({ genesis, blocks }, { customCrypto }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ImportError)
  return error as ImportError
}

test('default: a Prague block with working request contracts imports', async () => {
  const genesis = pragueGenesis()
  const chain = await importChain({ genesis, blocks: await mineOne(genesis) }, { customCrypto })
  expect(chain.head.number).toBe(1n)
  await chain.close()
})

test('error: the EIP-7002 request contract missing makes the block invalid', async () => {
  const genesis = pragueGenesis({ replace: { 7002: null } })
  const error = await importError(genesis, await mineOne(genesis))
  expect(error.message).toBe('import: block 1: EIP-7002 system call failed: no code at 0x00000961ef480eb55e80d19ad83579a64c007002')
})

test('error: the EIP-7251 request contract missing makes the block invalid', async () => {
  const genesis = pragueGenesis({ replace: { 7251: null } })
  const error = await importError(genesis, await mineOne(genesis))
  expect(error.message).toBe('import: block 1: EIP-7251 system call failed: no code at 0x0000bbddc7ce488642fb579f8b00f3a590007251')
})

test('error: the EIP-7002 request contract with no code (an account without code) makes the block invalid', async () => {
  const genesis = pragueGenesis({ replace: { 7002: '0x' } })
  const error = await importError(genesis, await mineOne(genesis))
  expect(error.field).toBe('EIP-7002 system call')
})

test('error: the EIP-7002 request contract reverting makes the block invalid', async () => {
  const genesis = pragueGenesis({ replace: { 7002: REVERTING } })
  const error = await importError(genesis, await mineOne(genesis))
  expect(error.message).toBe('import: block 1: EIP-7002 system call failed (revert)')
})

test('error: the EIP-7251 request contract reverting makes the block invalid', async () => {
  const genesis = pragueGenesis({ replace: { 7251: REVERTING } })
  const error = await importError(genesis, await mineOne(genesis))
  expect(error.message).toBe('import: block 1: EIP-7251 system call failed (revert)')
})

test('behavior: a header gas limit of exactly 2^63 - 1 imports', async () => {
  const genesis = pragueGenesis({ gasLimit: 2n ** 63n - 1n })
  const chain = await importChain({ genesis, blocks: await mineOne(genesis, 2n ** 63n - 1n) }, { customCrypto })
  expect(chain.head.block.header.gasLimit).toBe(2n ** 63n - 1n)
  await chain.close()
})

test('error: a header gas limit above 2^63 - 1 makes the block invalid', async () => {
  const genesis = pragueGenesis({ gasLimit: 2n ** 63n - 1n })
  const blocks = await mineOne(genesis, 2n ** 63n)
  const error = await importError(genesis, blocks)
  expect(error.message).toBe('import: block 1: gas limit 9223372036854775808 is above the maximum 9223372036854775807 (2^63 - 1)')
})
