// eth_config (EIP-7910) end to end: raw JSON-RPC over HTTP to a real ringchain on port 0. The
// imported fixture chain (Frontier..BPO2, forks by block and by time) must answer exactly what geth
// answered; dev chains (every fork from genesis) are checked against geth's rules directly.

import { hexToBytes } from '@ethereumjs/util'
import { readFileSync } from 'node:fs'
import { crc32 } from 'node:zlib'
import { describe, expect, onTestFinished, test } from 'vitest'
import { startRingchain } from '../../src/index.js'
import { IMPORT, fixtureExchange, startImported } from '../conformance/corpus.js'
import { type Hex, result, rpcError, start } from '../helpers/rpc.js'
import { expectSchemaValid } from '../helpers/schema.js'

const METHOD = 'eth_config'

interface Config {
  activationTime: number
  blobSchedule: { target: number; max: number; baseFeeUpdateFraction: number } | null
  chainId: Hex
  forkId: Hex
  precompiles: Record<string, Hex>
  systemContracts: Record<string, Hex>
}

async function genesisHash(url: string): Promise<Hex> {
  return (await result<{ hash: Hex }>(url, 'eth_getBlockByNumber', ['0x0', false])).hash
}

test('default', async () => {
  const rc = await start()
  const answer = await result<{ current: Config; next: null; last: null }>(rc.httpUrl, METHOD, [])
  // Every fork is active from genesis: the fork id is the checksum of the genesis hash alone.
  const forkId = `0x${crc32(hexToBytes(await genesisHash(rc.httpUrl))).toString(16).padStart(8, '0')}`
  expect(answer).toEqual({
    current: {
      activationTime: 0,
      blobSchedule: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
      chainId: '0x7a69',
      forkId,
      precompiles: expect.objectContaining({ ECREC: '0x0000000000000000000000000000000000000001', P256VERIFY: '0x0000000000000000000000000000000000000100' }),
      systemContracts: {
        BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
        CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
        DEPOSIT_CONTRACT_ADDRESS: '0x00000000219ab540356cbb839cbe05303d7705fa',
        HISTORY_STORAGE_ADDRESS: '0x0000f90827f1c53a10cb7a02335b175320002935',
        WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS: '0x00000961ef480eb55e80d19ad83579a64c007002',
      },
    },
    next: null,
    last: null,
  })
  expect(Object.keys(answer.current.precompiles)).toHaveLength(18)
  expectSchemaValid(METHOD, answer)
})

test('default: the fixture chain, as geth answered it', async () => {
  const rc = await startImported()
  const expected = fixtureExchange<{ result: unknown }>(METHOD, 'get-config').response
  expect(await result(rc.httpUrl, METHOD, [])).toEqual(expected.result)
})

describe('args', () => {
  test('args: hardfork cancun (blob schedule 3/6, no BLS precompiles, only the beacon-roots contract)', async () => {
    const rc = await start({ hardfork: 'cancun' })
    const { current } = await result<{ current: Config }>(rc.httpUrl, METHOD, [])
    expect(current.blobSchedule).toEqual({ target: 3, max: 6, baseFeeUpdateFraction: 3338477 })
    expect(Object.keys(current.precompiles).sort()).toEqual(
      ['BLAKE2F', 'BN254_ADD', 'BN254_MUL', 'BN254_PAIRING', 'ECREC', 'ID', 'KZG_POINT_EVALUATION', 'MODEXP', 'RIPEMD160', 'SHA256'].sort(),
    )
    expect(current.systemContracts).toEqual({ BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' })
  })

  test('args: hardfork prague (blob schedule 6/9, no P-256 precompile)', async () => {
    const rc = await start({ hardfork: 'prague' })
    const { current } = await result<{ current: Config }>(rc.httpUrl, METHOD, [])
    expect(current.blobSchedule).toEqual({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 })
    expect(current.precompiles.P256VERIFY).toBeUndefined()
    expect(current.precompiles.BLS12_PAIRING_CHECK).toBe('0x000000000000000000000000000000000000000f')
  })

  test('args: hardfork shanghai (no blobs yet: blobSchedule null)', async () => {
    const rc = await start({ hardfork: 'shanghai' })
    const { current } = await result<{ current: Config }>(rc.httpUrl, METHOD, [])
    expect(current).toMatchObject({ activationTime: 0, blobSchedule: null, systemContracts: {} })
  })

  test('args: a fork before Shanghai has no configuration (current null, as geth answers)', async () => {
    const rc = await start({ hardfork: 'london' })
    expect(await result(rc.httpUrl, METHOD, [])).toEqual({ current: null, next: null, last: null })
  })
})

describe('behavior', () => {
  test('behavior: forks scheduled after the head are next and last, each with its own fork id', async () => {
    const cancunTime = 4_102_444_800 // 2100-01-01
    const pragueTime = 4_133_980_800
    const fixture = JSON.parse(readFileSync(IMPORT.genesis, 'utf8')) as { config: Record<string, unknown> }
    const genesis = {
      config: {
        chainId: 1337,
        ...Object.fromEntries(['homestead', 'eip150', 'eip155', 'eip158', 'byzantium', 'constantinople', 'petersburg', 'istanbul', 'berlin', 'london', 'mergeNetsplit'].map((fork) => [`${fork}Block`, 0])),
        terminalTotalDifficulty: 0,
        shanghaiTime: 0,
        cancunTime,
        pragueTime,
        depositContractAddress: '0x0000000000000000000000000000000000000000',
        blobSchedule: { cancun: (fixture.config.blobSchedule as Record<string, unknown>).cancun, prague: (fixture.config.blobSchedule as Record<string, unknown>).prague },
      },
      nonce: '0x0',
      timestamp: '0x0',
      extraData: '0x',
      gasLimit: '0x1c9c380',
      difficulty: '0x0',
      mixHash: `0x${'00'.repeat(32)}`,
      coinbase: `0x${'00'.repeat(20)}`,
      baseFeePerGas: '0x3b9aca00',
      alloc: {},
    }
    const rc = await startRingchain({ port: 0, import: { genesis: genesis as never } })
    onTestFinished(() => rc.close())
    const answer = await result<{ current: Config; next: Config; last: Config }>(rc.httpUrl, METHOD, [])
    const hash = hexToBytes(await genesisHash(rc.httpUrl))
    const time = (t: number) => hexToBytes(`0x${t.toString(16).padStart(16, '0')}`)
    const id = (checksum: number) => `0x${checksum.toString(16).padStart(8, '0')}`
    expect(answer.current).toMatchObject({ activationTime: 0, blobSchedule: null, chainId: '0x539', forkId: id(crc32(hash)), systemContracts: {} })
    expect(answer.next).toMatchObject({
      activationTime: cancunTime,
      blobSchedule: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      forkId: id(crc32(time(cancunTime), crc32(hash))),
      systemContracts: { BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' },
    })
    expect(answer.last).toMatchObject({
      activationTime: pragueTime,
      blobSchedule: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      forkId: id(crc32(time(pragueTime), crc32(time(cancunTime), crc32(hash)))),
      systemContracts: expect.objectContaining({ DEPOSIT_CONTRACT_ADDRESS: '0x0000000000000000000000000000000000000000' }),
    })
    expect(answer.next.precompiles.KZG_POINT_EVALUATION).toBe('0x000000000000000000000000000000000000000a')
    expect(answer.current.precompiles.KZG_POINT_EVALUATION).toBeUndefined()
    // Shanghai's blobSchedule is null, as geth answers: the schema (which requires an object) is stricter than geth.
    expectSchemaValid(METHOD, { ...answer, current: { ...answer.current, blobSchedule: { target: 0, max: 0, baseFeeUpdateFraction: 0 } } })
  })
})

describe('errors', () => {
  test('error: arguments', async () => {
    const rc = await start()
    expect(await rpcError(rc.httpUrl, METHOD, ['latest'])).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
  })
})
