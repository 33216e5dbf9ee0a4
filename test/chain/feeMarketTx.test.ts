// A plain EIP-1559 transaction is built from its decoded fields without ethereumjs's constructor
// (feeMarketTx.ts): the instance must be the one the constructor makes, and every transaction
// that is not plain must be left to ethereumjs.
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { FeeMarket1559Tx, create1559FeeMarketTxFromBytesArray, createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { plainFeeMarketTx } from '../../src/chain/feeMarketTx.js'
import { decodeRawTransaction } from '../../src/chain/validate.js'

const KEY = hexToBytes('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })

type TxData = Parameters<typeof createFeeMarket1559Tx>[0]
const fieldsOf = (data: TxData) => RLP.decode(createFeeMarket1559Tx({ chainId: 31337n, ...data }, { common }).sign(KEY).serialize().subarray(1)) as Uint8Array[]

const PLAIN: Record<string, TxData> = {
  transfer: { nonce: 3n, to: `0x${'11'.repeat(20)}`, value: 5n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n },
  'call with data, nonce 0, no tip': { nonce: 0n, to: `0x${'22'.repeat(20)}`, data: '0xa9059cbb00ff', gasLimit: 60_000n, maxFeePerGas: 7n },
  creation: { nonce: 2n ** 40n, data: '0x6080604052', gasLimit: 200_000n, maxFeePerGas: 2n ** 100n, maxPriorityFeePerGas: 2n ** 99n, value: 2n ** 200n },
}

for (const [name, data] of Object.entries(PLAIN)) {
  test(`behavior: the instance ethereumjs's constructor makes (${name})`, () => {
    const fields = fieldsOf(data)
    const plain = plainFeeMarketTx(fields, common)!
    const stock = create1559FeeMarketTxFromBytesArray(fields as never, { common, freeze: false })
    expect(plain).toBeInstanceOf(FeeMarket1559Tx)
    expect(Object.keys(plain)).toEqual(Object.keys(stock))
    const { common: plainCommon, ...plainFields } = plain as unknown as Record<string, unknown>
    const { common: stockCommon, ...stockFields } = stock as unknown as Record<string, unknown>
    expect(plainFields).toEqual(stockFields)
    expect(plainCommon).not.toBe(common)
    expect((plainCommon as typeof common).hardfork()).toBe((stockCommon as typeof common).hardfork())
    expect(plain.toJSON()).toEqual(stock.toJSON())
    expect(bytesToHex(plain.getMessageToSign())).toBe(bytesToHex(stock.getMessageToSign()))
    expect(bytesToHex(plain.serialize())).toBe(bytesToHex(stock.serialize()))
    expect(bytesToHex(plain.getSenderAddress().bytes)).toBe(bytesToHex(stock.getSenderAddress().bytes))
    expect(plain.getIntrinsicGas()).toBe(stock.getIntrinsicGas())
  })
}

test('behavior: what is not plain is left to ethereumjs, which refuses it with its words or builds it', () => {
  const base = fieldsOf(PLAIN.transfer!)
  const withField = (index: number, value: unknown) => base.map((f, i) => (i === index ? value : f))
  const cases: Record<string, unknown[]> = {
    'an access list': fieldsOf({ ...PLAIN.transfer!, accessList: [{ address: `0x${'33'.repeat(20)}`, storageKeys: [] }] }),
    'a nonce with a leading zero': withField(1, Uint8Array.of(0, 3)),
    'a fee cap over 24 bytes': withField(3, new Uint8Array(25).fill(1)),
    'a recipient of 19 bytes': withField(5, new Uint8Array(19).fill(1)),
    'a y-parity of 2': withField(9, Uint8Array.of(2)),
    'a tip above the fee cap': withField(2, new Uint8Array(8).fill(0xff)),
    'unsigned (nine fields)': base.slice(0, 9),
    'a gas limit over EIP-7825\'s cap': withField(4, Uint8Array.of(0x01, 0x00, 0x00, 0x01)),
    'a nonce of 2^64 - 1 (EIP-2681)': withField(1, new Uint8Array(8).fill(0xff)),
    'an empty r': withField(10, new Uint8Array(0)),
    'a creation with initcode over EIP-3860\'s limit': base.map((f, i) => (i === 5 ? new Uint8Array(0) : i === 7 ? new Uint8Array(49_153).fill(1) : f)),
  }
  for (const [name, fields] of Object.entries(cases)) expect({ name, plain: plainFeeMarketTx(fields, common) }).toEqual({ name, plain: undefined })
  const berlin = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'berlin' })
  expect(plainFeeMarketTx(base, berlin)).toBeUndefined()
})

test('behavior: a raw transaction decodes to the plain build, its sender recovered and pinned', () => {
  const tx = createFeeMarket1559Tx({ chainId: 31337n, ...PLAIN.transfer! }, { common }).sign(KEY)
  const decoded = decodeRawTransaction(tx.serialize(), common, 30_000_000n)
  expect(Object.isFrozen(decoded)).toBe(true)
  expect(decoded.toJSON()).toEqual(tx.toJSON())
  expect(bytesToHex(decoded.hash())).toBe(bytesToHex(tx.hash()))
  expect(bytesToHex(decoded.getSenderAddress().bytes)).toBe(bytesToHex(tx.getSenderAddress().bytes))
})

test('behavior: the transactions of a chain share one copy of its Common, apart from the chain\'s own', () => {
  const chain = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })
  const first = plainFeeMarketTx(fieldsOf(PLAIN.transfer!), chain)!
  const second = plainFeeMarketTx(fieldsOf(PLAIN.creation!), chain)!
  expect(second.common).toBe(first.common)
  expect(first.common).not.toBe(chain)
  expect(first.common.hardfork()).toBe('osaka')
})

test('behavior: a hardfork change of the chain\'s Common gives the transactions after it a new copy, those before keep theirs', () => {
  const chain = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })
  const before = plainFeeMarketTx(fieldsOf(PLAIN.transfer!), chain)!
  chain.setHardfork('prague')
  const after = plainFeeMarketTx(fieldsOf(PLAIN.transfer!), chain)!
  expect(after.common).not.toBe(before.common)
  expect(after.common.hardfork()).toBe('prague')
  expect(before.common.hardfork()).toBe('osaka')
  // Under Prague EIP-7825's cap is off: a gas limit over it is plain again.
  const overCap = fieldsOf(PLAIN.transfer!).map((field, i) => (i === 4 ? Uint8Array.of(0x01, 0x00, 0x00, 0x01) : field))
  expect(plainFeeMarketTx(overCap, chain)?.gasLimit).toBe(2n ** 24n + 1n)
  chain.setHardfork('osaka')
  expect(plainFeeMarketTx(overCap, chain)).toBeUndefined()
})

test('behavior: a fork change made on one transaction\'s Common (as runTx makes it) does not reach the transactions decoded after it', () => {
  const chain = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })
  const changed = plainFeeMarketTx(fieldsOf(PLAIN.transfer!), chain)!
  changed.common.setHardfork('prague')
  const next = plainFeeMarketTx(fieldsOf(PLAIN.transfer!), chain)!
  expect(next.common).not.toBe(changed.common)
  expect(next.common.hardfork()).toBe('osaka')
  expect(chain.hardfork()).toBe('osaka')
})

test('behavior: two chains share nothing: each transaction has its chain\'s fork and id', () => {
  const osaka = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'osaka' })
  const prague = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
  const other = createCustomCommon({ chainId: 5 }, Mainnet, { hardfork: 'osaka' })
  const fields = fieldsOf(PLAIN.transfer!)
  const onOsaka = plainFeeMarketTx(fields, osaka)!
  const onPrague = plainFeeMarketTx(fields, prague)!
  expect(onOsaka.common).not.toBe(onPrague.common)
  expect([onOsaka.common.hardfork(), onPrague.common.hardfork()]).toEqual(['osaka', 'prague'])
  // Signed for chain 31337: not plain on chain 5 (ethereumjs refuses it there).
  expect(plainFeeMarketTx(fields, other)).toBeUndefined()
  const forOther = RLP.decode(createFeeMarket1559Tx({ chainId: 5n, ...PLAIN.transfer! }, { common: other }).sign(KEY).serialize().subarray(1)) as Uint8Array[]
  const onOther = plainFeeMarketTx(forOther, other)!
  expect([onOther.chainId, onOther.common.chainId()]).toEqual([5n, 5n])
  expect(plainFeeMarketTx(forOther, osaka)).toBeUndefined()
})
