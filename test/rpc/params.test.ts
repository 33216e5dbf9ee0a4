import { describe, expect, test } from 'vitest'

import { InvalidParamsError } from '../../src/rpc/errors.js'
import { HexError, fromHex, fromQuantity, toData, toPaddedData, toQuantity } from '../../src/rpc/hex.js'
import { LATEST, blockNumber, blockParam } from '../../src/rpc/params/block.js'
import { type Param, decodeParams, optional } from '../../src/rpc/params/decode.js'
import { logFilter } from '../../src/rpc/params/logFilter.js'
import { transactionRequest } from '../../src/rpc/params/transaction.js'
import { address, bool, data, hash, index, quantity, storageSlot, uint64 } from '../../src/rpc/params/values.js'

const ADDRESS = '0xaa00000000000000000000000000000000000000'
const HASH = '0xf69b05b90b7e50c0b5b9b74d2d63a983dee56dffbbd68a530f026f263d76810c'
const TOPIC_A = '0x' + 'a'.repeat(64)
const TOPIC_B = '0x' + 'b'.repeat(64)

const bytes = (hex: string): Uint8Array => fromHex(hex)

/** Decodes one value as the only argument of a method. */
function one<T>(param: Param<T>, value: unknown): T {
  return decodeParams([param], [value])[0]
}

/** The -32602 message a decode fails with (and checks that it is -32602). */
function failure(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParamsError)
    expect((error as InvalidParamsError).code).toBe(-32602)
    return (error as Error).message
  }
  throw new Error('expected the decode to fail')
}

const fails = (param: Param<unknown>, value: unknown): string => failure(() => one(param, value))

describe('decodeParams', () => {
  const getStorageAt = [address, storageSlot, optional(blockParam, LATEST)] as const

  test('default', () => {
    const [owner, slot, block] = decodeParams(getStorageAt, [ADDRESS, '0x1', '0x10'])
    expect(owner).toEqual(bytes(ADDRESS))
    expect(slot[31]).toBe(1)
    expect(block).toEqual({ kind: 'number', number: 16n })
  })

  test('behavior: an absent optional argument gets its default', () => {
    expect(decodeParams(getStorageAt, [ADDRESS, '0x1'])[2]).toBe(LATEST)
  })

  test('behavior: a null optional argument gets its default', () => {
    expect(decodeParams(getStorageAt, [ADDRESS, '0x1', null])[2]).toBe(LATEST)
  })

  test('behavior: optional without a default gives undefined', () => {
    expect(decodeParams([optional(quantity)], [])).toEqual([undefined])
  })

  test('error: too many arguments', () => {
    expect(failure(() => decodeParams(getStorageAt, [ADDRESS, '0x1', 'latest', true]))).toBe(
      'too many arguments, want at most 3',
    )
  })

  test('error: missing required argument', () => {
    expect(failure(() => decodeParams(getStorageAt, [ADDRESS]))).toBe('missing value for required argument 1')
  })

  test('error: null for a required argument', () => {
    expect(failure(() => decodeParams(getStorageAt, [null, '0x1']))).toBe('missing value for required argument 0')
  })

  test('behavior: arguments are numbered from 0', () => {
    expect(failure(() => decodeParams(getStorageAt, [ADDRESS, '0x1', '0x01']))).toBe(
      'invalid argument 2: hex number with leading zero digits',
    )
  })

  test('behavior: the first bad argument wins over too many arguments', () => {
    expect(failure(() => decodeParams([hash], ['0x12', 'extra']))).toBe(
      'invalid argument 0: hex string has length 2, want 64 for common.Hash',
    )
  })
})

describe('address', () => {
  test('default', () => {
    expect(one(address, ADDRESS)).toEqual(bytes(ADDRESS))
  })

  test('args: any case, no checksum check', () => {
    const mixed = '0xAa00000000000000000000000000000000000000'
    expect(one(address, mixed)).toEqual(bytes(ADDRESS))
    expect(one(address, '0X' + ADDRESS.slice(2))).toEqual(bytes(ADDRESS))
  })

  test('error: wrong length', () => {
    expect(fails(address, '0x' + 'a'.repeat(38))).toBe(
      'invalid argument 0: hex string has length 38, want 40 for common.Address',
    )
  })

  test('error: empty string', () => {
    expect(fails(address, '')).toBe('invalid argument 0: hex string has length 0, want 40 for common.Address')
  })

  test('error: no 0x prefix', () => {
    expect(fails(address, 'a'.repeat(40))).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address',
    )
  })

  test('error: odd length', () => {
    expect(fails(address, '0x' + 'a'.repeat(39))).toBe(
      'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address',
    )
  })

  test('error: not hex', () => {
    expect(fails(address, '0x' + 'z'.repeat(40))).toBe(
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address',
    )
  })

  test('error: not a string', () => {
    expect(fails(address, 12)).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address',
    )
  })
})

describe('hash', () => {
  test('default', () => {
    expect(one(hash, HASH)).toEqual(bytes(HASH))
  })

  test('error: wrong length', () => {
    expect(fails(hash, HASH.slice(0, -2))).toBe('invalid argument 0: hex string has length 62, want 64 for common.Hash')
  })

  test('error: not a string', () => {
    expect(fails(hash, {})).toBe('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash')
  })
})

describe('data', () => {
  test('default', () => {
    expect(one(data, '0xABcd')).toEqual(new Uint8Array([0xab, 0xcd]))
  })

  test('args: 0x is empty', () => {
    expect(one(data, '0x')).toEqual(new Uint8Array())
  })

  test('error: odd length', () => {
    expect(fails(data, '0xabc')).toBe(
      'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes',
    )
  })

  test('error: no 0x prefix', () => {
    expect(fails(data, 'abcd')).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes',
    )
  })

  test('error: not hex', () => {
    expect(fails(data, '0xzz')).toBe(
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes',
    )
  })

  test('error: empty string', () => {
    expect(fails(data, '')).toBe(
      'invalid argument 0: json: cannot unmarshal empty hex string into Go value of type hexutil.Bytes',
    )
  })
})

describe('quantity', () => {
  test('default', () => {
    expect(one(quantity, '0x1f')).toBe(31n)
  })

  test('args: zero', () => {
    expect(one(quantity, '0x0')).toBe(0n)
  })

  test('args: upper case', () => {
    expect(one(quantity, '0X1F')).toBe(31n)
  })

  test('args: 256 bits', () => {
    expect(one(quantity, '0x' + 'f'.repeat(64))).toBe((1n << 256n) - 1n)
  })

  test('error: more than 256 bits', () => {
    expect(fails(quantity, '0x1' + '0'.repeat(64))).toBe(
      'invalid argument 0: json: cannot unmarshal hex number > 256 bits into Go value of type *hexutil.Big',
    )
  })

  test('error: leading zero', () => {
    expect(fails(quantity, '0x01')).toBe(
      'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big',
    )
  })

  test('error: 0x alone', () => {
    expect(fails(quantity, '0x')).toBe(
      'invalid argument 0: json: cannot unmarshal hex string "0x" into Go value of type *hexutil.Big',
    )
  })

  test('error: no 0x prefix', () => {
    expect(fails(quantity, '10')).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type *hexutil.Big',
    )
  })

  test('error: not hex', () => {
    expect(fails(quantity, '0xg')).toBe(
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type *hexutil.Big',
    )
  })

  test('error: a JSON number', () => {
    expect(fails(quantity, 16)).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go value of type *hexutil.Big',
    )
  })

  test('error: empty string', () => {
    expect(fails(quantity, '')).toBe(
      'invalid argument 0: json: cannot unmarshal empty hex string into Go value of type *hexutil.Big',
    )
  })
})

describe('uint64 and index', () => {
  test('default', () => {
    expect(one(uint64, '0x' + 'f'.repeat(16))).toBe((1n << 64n) - 1n)
    expect(one(index, '0x2')).toBe(2)
  })

  test('error: more than 64 bits', () => {
    expect(fails(uint64, '0x1' + '0'.repeat(16))).toBe(
      'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    )
  })

  test('error: index with leading zero', () => {
    expect(fails(index, '0x00')).toBe(
      'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint',
    )
  })
})

describe('bool', () => {
  test('default', () => {
    expect(one(bool, true)).toBe(true)
    expect(one(bool, false)).toBe(false)
  })

  test('error: a string', () => {
    expect(fails(bool, 'true')).toBe('invalid argument 0: json: cannot unmarshal string into Go value of type bool')
  })

  test('error: a number', () => {
    expect(fails(bool, 1)).toBe('invalid argument 0: json: cannot unmarshal number into Go value of type bool')
  })
})

describe('storageSlot', () => {
  const slot = (last: number): Uint8Array => {
    const out = new Uint8Array(32)
    out[31] = last
    return out
  }

  test('default', () => {
    expect(one(storageSlot, '0x1')).toEqual(slot(1))
  })

  test('args: zero', () => {
    expect(one(storageSlot, '0x0')).toEqual(slot(0))
  })

  test('args: 64 digits with leading zeros', () => {
    expect(one(storageSlot, '0x' + '0'.repeat(62) + '0a')).toEqual(slot(10))
  })

  test('args: a 32-byte mapping key', () => {
    expect(one(storageSlot, HASH)).toEqual(bytes(HASH))
  })

  test('args: without 0x, as geth reads it', () => {
    expect(one(storageSlot, 'ff')).toEqual(slot(255))
  })

  test('error: slot longer than 32 bytes', () => {
    // execution-apis tests/eth_getStorageAt/get-storage-invalid-key-too-large.io
    const key = '0x00000000000000000000000000000000000000000000000000000000000000000'
    expect(failure(() => decodeParams([address, storageSlot, blockParam], [ADDRESS, key, 'latest']))).toBe(
      'storage key too long (want at most 32 bytes): "0x00000000000000000000000000000000000000000000000000000000000000000"',
    )
  })

  test('error: invalid hex', () => {
    // execution-apis tests/eth_getStorageAt/get-storage-invalid-key.io
    expect(failure(() => decodeParams([address, storageSlot, blockParam], [ADDRESS, '0xasdf', 'latest']))).toBe(
      'invalid hex in storage key: "0xasdf"',
    )
  })

  test('error: the key is quoted as Go quotes it', () => {
    expect(fails(storageSlot, '0x"\n')).toBe('invalid hex in storage key: "0x\\"\\n"')
  })

  test('error: not a string', () => {
    expect(failure(() => decodeParams([address, storageSlot], [ADDRESS, 1]))).toBe(
      'invalid argument 1: json: cannot unmarshal number into Go value of type string',
    )
  })
})

describe('blockNumber', () => {
  test('default', () => {
    expect(one(blockNumber, '0x1b4')).toEqual({ kind: 'number', number: 436n })
  })

  test.each(['latest', 'earliest', 'pending', 'safe', 'finalized'])('args: tag %s', (tag) => {
    expect(one(blockNumber, tag)).toEqual({ kind: 'tag', tag })
  })

  test('args: zero', () => {
    expect(one(blockNumber, '0x0')).toEqual({ kind: 'number', number: 0n })
  })

  test('error: leading zero', () => {
    expect(fails(blockNumber, '0x01')).toBe('invalid argument 0: hex number with leading zero digits')
  })

  test('error: unknown tag', () => {
    expect(fails(blockNumber, 'Latest')).toBe('invalid argument 0: hex string without 0x prefix')
  })

  test('error: a JSON number', () => {
    expect(fails(blockNumber, 5)).toBe('invalid argument 0: hex string without 0x prefix')
  })

  test('error: 0x alone', () => {
    expect(fails(blockNumber, '0x')).toBe('invalid argument 0: hex string "0x"')
  })

  test('error: empty string', () => {
    expect(fails(blockNumber, '')).toBe('invalid argument 0: empty hex string')
  })

  test('error: not hex', () => {
    expect(fails(blockNumber, '0xz')).toBe('invalid argument 0: invalid hex string')
  })

  test('error: more than 64 bits', () => {
    expect(fails(blockNumber, '0x1' + '0'.repeat(16))).toBe('invalid argument 0: hex number > 64 bits')
  })

  test('error: larger than int64', () => {
    expect(fails(blockNumber, '0x8000000000000000')).toBe('invalid argument 0: block number larger than int64')
  })
})

describe('blockParam', () => {
  test('default', () => {
    expect(one(blockParam, '0x10')).toEqual({ kind: 'number', number: 16n })
  })

  test.each(['latest', 'earliest', 'pending', 'safe', 'finalized'])('args: tag %s', (tag) => {
    expect(one(blockParam, tag)).toEqual({ kind: 'tag', tag })
  })

  test('args: block hash', () => {
    expect(one(blockParam, HASH)).toEqual({ kind: 'hash', hash: bytes(HASH), requireCanonical: false })
  })

  test('args: EIP-1898 blockNumber', () => {
    expect(one(blockParam, { blockNumber: '0x5' })).toEqual({ kind: 'number', number: 5n })
    expect(one(blockParam, { blockNumber: 'safe' })).toEqual({ kind: 'tag', tag: 'safe' })
  })

  test('args: EIP-1898 blockHash', () => {
    expect(one(blockParam, { blockHash: HASH })).toEqual({ kind: 'hash', hash: bytes(HASH), requireCanonical: false })
    expect(one(blockParam, { blockHash: HASH, requireCanonical: true })).toEqual({
      kind: 'hash',
      hash: bytes(HASH),
      requireCanonical: true,
    })
  })

  test('error: EIP-1898 with both blockHash and blockNumber', () => {
    expect(fails(blockParam, { blockHash: HASH, blockNumber: '0x1' })).toBe(
      'invalid argument 0: cannot specify both BlockHash and BlockNumber, choose one or the other',
    )
  })

  test('error: EIP-1898 with neither', () => {
    expect(fails(blockParam, {})).toBe('invalid argument 0: invalid arguments; neither block nor hash specified')
  })

  test('error: EIP-1898 with a short hash', () => {
    expect(fails(blockParam, { blockHash: '0x12' })).toBe(
      'invalid argument 0: hex string has length 2, want 64 for common.Hash',
    )
  })

  test('error: EIP-1898 requireCanonical not a boolean', () => {
    expect(fails(blockParam, { blockHash: HASH, requireCanonical: 'yes' })).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go struct field BlockNumberOrHash.requireCanonical of type bool',
    )
  })

  test('error: larger than int64', () => {
    expect(fails(blockParam, '0x8000000000000000')).toBe('invalid argument 0: blocknumber too high')
  })

  test('error: leading zero', () => {
    expect(fails(blockParam, '0x01')).toBe('invalid argument 0: hex number with leading zero digits')
  })

  test('error: unknown tag', () => {
    expect(fails(blockParam, 'newest')).toBe('invalid argument 0: hex string without 0x prefix')
  })

  test('error: 66 characters without 0x', () => {
    expect(fails(blockParam, '00' + HASH.slice(2))).toBe('invalid argument 0: hex string without 0x prefix')
  })

  test('error: hash that is not hex', () => {
    expect(fails(blockParam, '0x' + 'z'.repeat(64))).toBe('invalid argument 0: invalid hex string')
  })

  test('error: a JSON number', () => {
    expect(fails(blockParam, 5)).toBe('invalid argument 0: json: cannot unmarshal number into Go value of type string')
  })

  test('error: a boolean', () => {
    expect(fails(blockParam, true)).toBe('invalid argument 0: json: cannot unmarshal bool into Go value of type string')
  })
})

describe('transactionRequest', () => {
  test('default', () => {
    const tx = one(transactionRequest, {
      from: ADDRESS,
      to: '0x0ee3ab1371c93e7c0c281cc0c2107cdebc8b1930',
      gas: '0x186a0',
      gasPrice: '0x1',
      maxFeePerGas: '0x3b9aca00',
      maxPriorityFeePerGas: '0x2',
      maxFeePerBlobGas: '0x3',
      value: '0xde0b6b3a7640000',
      nonce: '0x7',
      input: '0x01',
      chainId: '0xc72dd9d5e883e',
      type: '0x2',
      accessList: [{ address: ADDRESS, storageKeys: [TOPIC_A] }],
      blobVersionedHashes: [TOPIC_B],
      authorizationList: [{ chainId: '0x1', address: ADDRESS, nonce: '0x0', yParity: '0x1', r: '0x2', s: '0x3' }],
    })
    expect(tx).toEqual({
      from: bytes(ADDRESS),
      to: bytes('0x0ee3ab1371c93e7c0c281cc0c2107cdebc8b1930'),
      gas: 100000n,
      gasPrice: 1n,
      maxFeePerGas: 1000000000n,
      maxPriorityFeePerGas: 2n,
      maxFeePerBlobGas: 3n,
      value: 10n ** 18n,
      nonce: 7n,
      data: new Uint8Array([1]),
      chainId: 0xc72dd9d5e883en,
      type: 2n,
      accessList: [{ address: bytes(ADDRESS), storageKeys: [bytes(TOPIC_A)] }],
      blobVersionedHashes: [bytes(TOPIC_B)],
      authorizationList: [{ chainId: 1n, address: bytes(ADDRESS), nonce: 0n, yParity: 1n, r: 2n, s: 3n }],
    })
  })

  test('args: empty object', () => {
    expect(one(transactionRequest, {})).toEqual({})
  })

  test('args: data instead of input', () => {
    expect(one(transactionRequest, { data: '0xab' })).toEqual({ data: new Uint8Array([0xab]) })
  })

  test('args: data and input equal', () => {
    expect(one(transactionRequest, { data: '0xab', input: '0xab' })).toEqual({ data: new Uint8Array([0xab]) })
  })

  test('behavior: null members are absent and unknown members ignored', () => {
    expect(one(transactionRequest, { to: null, gas: null, blobs: ['0x00'], foo: 1 })).toEqual({})
  })

  test('error: data and input differ', () => {
    expect(fails(transactionRequest, { data: '0xab', input: '0xcd' })).toBe(
      'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    )
  })

  test('error: not an object', () => {
    expect(fails(transactionRequest, '0x00')).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.TransactionArgs',
    )
  })

  test('error: gas with leading zero', () => {
    expect(fails(transactionRequest, { gas: '0x01' })).toBe(
      'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go struct field TransactionArgs.gas of type hexutil.Uint64',
    )
  })

  test('error: value more than 256 bits', () => {
    expect(fails(transactionRequest, { value: '0x1' + '0'.repeat(64) })).toBe(
      'invalid argument 0: json: cannot unmarshal hex number > 256 bits into Go struct field TransactionArgs.value of type *hexutil.Big',
    )
  })

  test('error: to of the wrong length', () => {
    expect(fails(transactionRequest, { to: '0x' + 'a'.repeat(38) })).toBe(
      'invalid argument 0: hex string has length 38, want 40 for common.Address',
    )
  })

  test('error: input not hex', () => {
    expect(fails(transactionRequest, { input: '0xzz' })).toBe(
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go struct field TransactionArgs.input of type hexutil.Bytes',
    )
  })

  test('behavior: the first bad member is reported', () => {
    expect(fails(transactionRequest, { value: '0x01', gas: '0x01' })).toContain('TransactionArgs.value')
    expect(fails(transactionRequest, { gas: '0x01', value: '0x01' })).toContain('TransactionArgs.gas')
  })

  test('error: accessList not an array', () => {
    expect(fails(transactionRequest, { accessList: {} })).toBe(
      'invalid argument 0: json: cannot unmarshal object into Go struct field TransactionArgs.accessList of type types.AccessList',
    )
  })

  test('error: access list entry without storageKeys', () => {
    expect(fails(transactionRequest, { accessList: [{ address: ADDRESS }] })).toBe(
      "invalid argument 0: missing required field 'storageKeys' for AccessTuple",
    )
  })

  test('error: access list entry with a bad address', () => {
    expect(fails(transactionRequest, { accessList: [{ address: 'aa', storageKeys: [] }] })).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.accessList.address of type common.Address',
    )
  })

  test('error: authorization without r', () => {
    const authorization = { chainId: '0x1', address: ADDRESS, nonce: '0x0', yParity: '0x0', s: '0x1' }
    expect(fails(transactionRequest, { authorizationList: [authorization] })).toBe(
      "invalid argument 0: missing required field 'r' for SetCodeAuthorization",
    )
  })

  test('error: authorization r with leading zero', () => {
    const authorization = { chainId: '0x1', address: ADDRESS, nonce: '0x0', yParity: '0x0', r: '0x01', s: '0x1' }
    expect(fails(transactionRequest, { authorizationList: [authorization] })).toBe(
      'invalid argument 0: hex number with leading zero digits',
    )
  })

  test('error: blob hash of the wrong length', () => {
    expect(fails(transactionRequest, { blobVersionedHashes: ['0x01'] })).toBe(
      'invalid argument 0: hex string has length 2, want 64 for common.Hash',
    )
  })
})

describe('logFilter', () => {
  test('default', () => {
    expect(one(logFilter, {})).toEqual({ addresses: [], topics: [] })
  })

  test('args: range', () => {
    expect(one(logFilter, { fromBlock: '0x1', toBlock: 'latest' })).toEqual({
      fromBlock: { kind: 'number', number: 1n },
      toBlock: { kind: 'tag', tag: 'latest' },
      addresses: [],
      topics: [],
    })
  })

  test('args: blockHash', () => {
    expect(one(logFilter, { blockHash: HASH })).toEqual({ blockHash: bytes(HASH), addresses: [], topics: [] })
  })

  test('args: one address', () => {
    expect(one(logFilter, { address: ADDRESS }).addresses).toEqual([bytes(ADDRESS)])
  })

  test('args: address list', () => {
    expect(one(logFilter, { address: [ADDRESS, ADDRESS] }).addresses).toEqual([bytes(ADDRESS), bytes(ADDRESS)])
  })

  test('args: topics with wildcards and alternatives', () => {
    const filter = one(logFilter, { topics: [null, TOPIC_A, [TOPIC_A, TOPIC_B], [TOPIC_A, null, 'bad']] })
    expect(filter.topics).toEqual([null, [bytes(TOPIC_A)], [bytes(TOPIC_A), bytes(TOPIC_B)], null])
    expect(one(logFilter, { topics: [[]] }).topics).toEqual([null])
  })

  test('error: blockHash with a range', () => {
    // execution-apis tests/eth_getLogs/filter-error-invalid-blockHash-and-range.io
    expect(fails(logFilter, { blockHash: HASH, fromBlock: '0x3', toBlock: '0x4' })).toBe(
      'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
    )
  })

  test('error: not an object', () => {
    expect(fails(logFilter, 'latest')).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go value of type filters.input',
    )
  })

  test('error: fromBlock with leading zero', () => {
    expect(fails(logFilter, { fromBlock: '0x01' })).toBe('invalid argument 0: hex number with leading zero digits')
  })

  test('error: address of the wrong length', () => {
    expect(fails(logFilter, { address: '0x' + 'a'.repeat(38) })).toBe(
      'invalid argument 0: invalid address: hex has invalid length 19 after decoding; expected 20 for address',
    )
  })

  test('error: address list entry without 0x', () => {
    expect(fails(logFilter, { address: [ADDRESS, 'a'.repeat(40)] })).toBe(
      'invalid argument 0: invalid address at index 1: hex string without 0x prefix',
    )
  })

  test('error: address list entry not a string', () => {
    expect(fails(logFilter, { address: [1] })).toBe('invalid argument 0: non-string address at index 0')
  })

  test('error: address neither string nor list', () => {
    expect(fails(logFilter, { address: 1 })).toBe('invalid argument 0: invalid addresses in query')
  })

  test('error: too many addresses', () => {
    expect(fails(logFilter, { address: new Array(1001).fill(ADDRESS) })).toBe('invalid argument 0: exceed max addresses')
  })

  test('error: too many topics', () => {
    expect(fails(logFilter, { topics: [null, null, null, null, null] })).toBe('invalid argument 0: exceed max topics')
  })

  test('error: topic of the wrong length', () => {
    expect(fails(logFilter, { topics: [TOPIC_A.slice(0, -2)] })).toBe(
      'invalid argument 0: hex has invalid length 31 after decoding; expected 32 for topic',
    )
  })

  test('error: topic not a string', () => {
    expect(fails(logFilter, { topics: [1] })).toBe('invalid argument 0: invalid topic(s)')
    expect(fails(logFilter, { topics: [[TOPIC_A, 1]] })).toBe('invalid argument 0: invalid topic(s)')
  })

  test('error: topics not a list', () => {
    expect(fails(logFilter, { topics: TOPIC_A })).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go struct field input.topics of type []interface {}',
    )
  })
})

describe('hex', () => {
  test('toQuantity', () => {
    expect(toQuantity(0n)).toBe('0x0')
    expect(toQuantity(255n)).toBe('0xff')
    expect(toQuantity(0)).toBe('0x0')
    expect(toQuantity(4096)).toBe('0x1000')
    expect(toQuantity((1n << 256n) - 1n)).toBe('0x' + 'f'.repeat(64))
  })

  test('error: toQuantity of a negative or fractional number', () => {
    expect(() => toQuantity(-1n)).toThrow(RangeError)
    expect(() => toQuantity(-1)).toThrow(RangeError)
    expect(() => toQuantity(1.5)).toThrow(RangeError)
  })

  test('toData', () => {
    expect(toData(new Uint8Array())).toBe('0x')
    expect(toData(new Uint8Array([0, 255, 16]))).toBe('0x00ff10')
    expect(toData(new Uint8Array([1, 2, 3, 4]).subarray(1, 3))).toBe('0x0203')
  })

  test('toPaddedData', () => {
    expect(toPaddedData(new Uint8Array([1]), 32)).toBe('0x' + '0'.repeat(62) + '01')
    expect(toPaddedData(new Uint8Array(), 2)).toBe('0x0000')
    expect(() => toPaddedData(new Uint8Array(3), 2)).toThrow(RangeError)
  })

  test('fromHex', () => {
    expect(fromHex('0x')).toEqual(new Uint8Array())
    expect(fromHex('0xABcd01')).toEqual(new Uint8Array([0xab, 0xcd, 0x01]))
    expect(toData(fromHex(HASH))).toBe(HASH)
    const long = `0x${'0123456789abcdefABCDEF'.repeat(10)}`
    expect(toData(fromHex(long))).toBe(long.toLowerCase())
  })

  test('error: fromHex', () => {
    const reason = (text: string): string => {
      try {
        fromHex(text)
      } catch (error) {
        expect(error).toBeInstanceOf(HexError)
        return (error as Error).message
      }
      throw new Error('expected a failure')
    }
    expect(reason('')).toBe('empty hex string')
    expect(reason('abcd')).toBe('hex string without 0x prefix')
    expect(reason('0xabc')).toBe('hex string of odd length')
    expect(reason('0xzz')).toBe('invalid hex string')
    expect(reason('0xabz')).toBe('invalid hex string')
    // Buffer.from(…, 'hex') would read the low byte of these as 'a'.
    expect(reason('0x\u0161\u0161')).toBe('invalid hex string')
    // The same at length, where whole words are decoded natively.
    const word = 'ab'.repeat(32)
    expect(reason(`0x${word}\u0161\u0161`)).toBe('invalid hex string')
    expect(reason(`0x\u0161\u0161${word}`)).toBe('invalid hex string')
    expect(reason(`0x${word}zz${word}`)).toBe('invalid hex string')
    expect(reason(`0x${word}a`)).toBe('hex string of odd length')
    expect(reason(`0x${word}z`)).toBe('invalid hex string')
  })

  test('behavior: long data (calldata, init code) decodes natively to the same bytes and the same errors', () => {
    const long = new Uint8Array(300).map((_, i) => (i * 37) & 255)
    const hex = toData(long)
    expect(fromHex(hex)).toEqual(long)
    expect(fromHex(hex.toUpperCase().replace('0X', '0x'))).toEqual(long)
    expect(fromHex(hex).constructor).toBe(Uint8Array)
    const reason = (text: string): string => {
      try {
        fromHex(text)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('expected a failure')
    }
    // A bad digit anywhere (first, middle, last pair), and characters whose low byte is a hex digit.
    for (const at of [2, 300, hex.length - 1]) expect(reason(hex.slice(0, at) + 'g' + hex.slice(at + 1))).toBe('invalid hex string')
    expect(reason(hex.slice(0, 200) + '\u0161' + hex.slice(201))).toBe('invalid hex string')
    expect(reason(hex.slice(0, 200) + '\u0130' + hex.slice(201))).toBe('invalid hex string')
    expect(reason(hex + 'a')).toBe('hex string of odd length')
    expect(reason(hex + 'z')).toBe('invalid hex string')
  })

  test('fromQuantity', () => {
    expect(fromQuantity('0x0')).toBe(0n)
    expect(fromQuantity('0X1F')).toBe(31n)
    expect(() => fromQuantity('0x00')).toThrow('hex number with leading zero digits')
    expect(() => fromQuantity('0x')).toThrow('hex string "0x"')
    expect(() => fromQuantity('0xg')).toThrow('invalid hex string')
  })
})
