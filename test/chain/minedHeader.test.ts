// The lean builder's headers are filled field by field (minedHeader.ts), not by ethereumjs's
// constructor: for every fork's header shape, with and without the optional fields, they must be
// the constructor's header field for field, in the same key order, frozen, with the same hash.
import { BlockHeader, createBlockHeader } from '@ethereumjs/block'
import { Address, bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, test } from 'vitest'
import { createDevCommon } from '../../src/chain/genesis.js'
import { withHashCached } from '../../src/chain/headerHash.js'
import { completeHeaderFields, headerCommon, makeHeader } from '../../src/chain/minedHeader.js'

const HASH = Uint8Array.from({ length: 32 }, (_, i) => 255 - i)
const OTHER = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
const BLOOM = Uint8Array.from({ length: 256 }, (_, i) => i)

/** Every own field of a header, bytes and addresses as hex, its `Common` as its hardfork. */
function fieldsOf(header: BlockHeader): [string, unknown][] {
  return Object.entries(header).map(([key, value]) => {
    if (key === 'common') return [key, (value as BlockHeader['common']).hardfork()]
    if (key === 'cache' || key === 'keccakFunction') return [key, typeof value]
    if (value instanceof Uint8Array) return [key, bytesToHex(value)]
    if (value instanceof Address) return [key, value.toString()]
    return [key, value]
  })
}

const HARDFORKS = ['berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague', 'osaka', 'bpo2']

describe('mined header', () => {
  for (const hardfork of HARDFORKS) {
    test(`behavior: the constructor's header, field for field (${hardfork})`, () => {
      const common = createDevCommon({ chainId: 31337n, hardfork })
      const pos = common.consensusType() === 'pos'
      const minimal: Record<string, unknown> = { number: 5n, timestamp: 1_735_689_612n, gasLimit: 30_000_000n, coinbase: new Address(HASH.slice(0, 20)) }
      if (!pos) minimal.difficulty = 131_072n
      const full: Record<string, unknown> = { ...minimal, parentHash: HASH, mixHash: OTHER, extraData: Uint8Array.of(1, 2, 3) }
      if (common.isActivatedEIP(1559)) full.baseFeePerGas = 875_000_000n
      if (common.isActivatedEIP(4895)) full.withdrawalsRoot = OTHER
      if (common.isActivatedEIP(4844)) Object.assign(full, { blobGasUsed: 131_072n, excessBlobGas: 393_216n })
      if (common.isActivatedEIP(4788)) full.parentBeaconBlockRoot = HASH
      if (common.isActivatedEIP(7685)) full.requestsHash = OTHER
      const results = { stateRoot: HASH, transactionsTrie: OTHER, receiptTrie: HASH, logsBloom: BLOOM, gasUsed: 1_234_567n }
      for (const [name, data] of [['defaults', minimal], ['every field', full]] as const) {
        const fields = completeHeaderFields(data, headerCommon(common))
        // The header a block's transactions run in: the data as given, placeholders defaulted.
        const context = makeHeader(fields, headerCommon(common))
        const expectedContext = createBlockHeader(data, { common })
        expect(fieldsOf(context), `${name}: context`).toEqual(fieldsOf(expectedContext))
        // The sealed header: the block's results in place of the placeholders.
        const sealed = withHashCached(makeHeader(fields, headerCommon(common), results), keccak_256)
        const expected = createBlockHeader({ ...data, ...results }, { common })
        expect(fieldsOf(sealed), `${name}: sealed`).toEqual(fieldsOf(expected))
        expect(bytesToHex(sealed.hash())).toBe(bytesToHex(expected.hash()))
        expect(sealed.toJSON()).toEqual(expected.toJSON())
        expect(sealed).toBeInstanceOf(BlockHeader)
        expect(Object.isFrozen(sealed)).toBe(true)
        // The header's own methods read the fields as the constructor's header does.
        if (common.isActivatedEIP(1559)) expect(sealed.calcNextBaseFee()).toBe(expected.calcNextBaseFee())
        if (common.isActivatedEIP(4844)) expect(sealed.calcNextExcessBlobGas(common)).toBe(expected.calcNextExcessBlobGas(common))
      }
    })
  }

  test('behavior: blob gas used and the requests hash come from the results when given', () => {
    const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
    const data = { number: 5n, timestamp: 12n, gasLimit: 30_000_000n }
    const results = { stateRoot: HASH, transactionsTrie: OTHER, receiptTrie: HASH, logsBloom: BLOOM, gasUsed: 21_000n, blobGasUsed: 262_144n, requestsHash: HASH }
    const sealed = makeHeader(completeHeaderFields(data, headerCommon(common)), headerCommon(common), results)
    expect(bytesToHex(sealed.hash())).toBe(bytesToHex(createBlockHeader({ ...data, ...results }, { common }).hash()))
  })

  test("behavior: one header Common per chain Common, fork, EIPs and parameters, with the block parameters", () => {
    const common = createDevCommon({ chainId: 31337n, hardfork: 'cancun' })
    const first = headerCommon(common)
    expect(headerCommon(common)).toBe(first)
    expect(first).not.toBe(common)
    expect(first.param('elasticityMultiplier')).toBe(2n)
    common.setHardfork('prague')
    const next = headerCommon(common)
    expect(next).not.toBe(first)
    expect(next.hardfork()).toBe('prague')
    expect(first.hardfork()).toBe('cancun')
    // A change of EIPs or parameters on the same fork makes a new one too.
    expect(headerCommon(common)).toBe(next)
    common.setEIPs([7976])
    const withEip = headerCommon(common)
    expect(withEip).not.toBe(next)
    expect(withEip.isActivatedEIP(7976)).toBe(true)
    common.updateParams({ 1559: { elasticityMultiplier: 4 } })
    const constructed = createBlockHeader({ number: 1n }, { common }).common
    expect(headerCommon(common).param('elasticityMultiplier')).toBe(constructed.param('elasticityMultiplier'))
    expect(headerCommon(common).param('elasticityMultiplier')).not.toBe(next.param('elasticityMultiplier'))
  })

  test('error: a proof-of-stake header with extra data over 32 bytes or more gas used than its limit', () => {
    const common = createDevCommon({ chainId: 31337n, hardfork: 'prague' })
    const data = { number: 5n, timestamp: 12n, gasLimit: 30_000_000n, extraData: new Uint8Array(33) }
    expect(() => createBlockHeader(data, { common })).toThrow(/extraData/)
    expect(() => makeHeader(completeHeaderFields(data, headerCommon(common)), headerCommon(common))).toThrow(/Invalid PoS block/)
    const over = { number: 5n, timestamp: 12n, gasLimit: 30_000n }
    const results = { stateRoot: HASH, transactionsTrie: OTHER, receiptTrie: HASH, logsBloom: BLOOM, gasUsed: 30_001n }
    expect(() => makeHeader(completeHeaderFields(over, headerCommon(common)), headerCommon(common), results)).toThrow(/exceeds gasLimit/)
  })
})
