import { createHash } from 'node:crypto'
import { createEVM, EVM } from '@ethereumjs/evm'
import { Account, bigIntToUnpaddedBytes, createAddressFromString, generateAddress, generateAddress2, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { create2Address, createdAddress, installCreatedAddress } from '../../src/chain/execution/createdAddress.js'
import { keccakOf, keccakReady } from '../../src/chain/crypto.js'
import { installFastInterpreter } from '../../src/chain/execution/fastInterpreter.js'
import { createDevCommon } from '../../src/chain/genesis.js'

// Contract addresses hashed with the chain's keccak (src/chain/execution/createdAddress.ts) must be
// the ones ethereumjs's generateAddress and generateAddress2 give, and its EVMs must create at them.

const fingerprint = (method: string) => createHash('sha256').update(String((EVM.prototype as unknown as Record<string, unknown>)[method])).digest('hex').slice(0, 16)

test('pin: ethereumjs still has the _generateAddress the copy follows', () => {
  // On an ethereumjs upgrade this fails: copy the new method into createdAddress.ts, then update this.
  expect(fingerprint('_generateAddress')).toBe('fd02a551e63a7f03')
})

const CREATORS = (['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x0000000000000000000000000000000000000000', '0xffffffffffffffffffffffffffffffffffffffff'] as const).map((hex) => hexToBytes(hex))

test('behavior: CREATE addresses are ethereumjs generateAddress ones, for nonces of every RLP length', async () => {
  await keccakReady()
  const keccak = keccakOf(createDevCommon({ chainId: 31337n, hardfork: 'osaka' }))
  for (const creator of CREATORS) {
    for (const nonce of [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 2n ** 32n, 2n ** 64n - 2n, 2n ** 255n + 3n]) {
      expect(createdAddress(creator, nonce, keccak), `nonce ${nonce}`).toEqual(generateAddress(creator, bigIntToUnpaddedBytes(nonce)))
    }
  }
  // A creator of another length, a nonce of over 32 bytes.
  expect(createdAddress(new Uint8Array(19).fill(1), 5n, keccak)).toEqual(generateAddress(new Uint8Array(19).fill(1), bigIntToUnpaddedBytes(5n)))
  expect(createdAddress(CREATORS[0]!, 2n ** 256n, keccak)).toEqual(generateAddress(CREATORS[0]!, bigIntToUnpaddedBytes(2n ** 256n)))
})

test('behavior: CREATE2 addresses are ethereumjs generateAddress2 ones', async () => {
  await keccakReady()
  const keccak = keccakOf(createDevCommon({ chainId: 31337n, hardfork: 'osaka' }))
  const salts = [new Uint8Array(32), new Uint8Array(32).fill(0xab)]
  const codes = [new Uint8Array(0), hexToBytes('0x6001600055'), new Uint8Array(40_000).fill(0x5b)]
  for (const creator of CREATORS) for (const salt of salts) for (const code of codes) expect(create2Address(creator, salt, code, keccak)).toEqual(generateAddress2(creator, salt, code))
})

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000c0')
const FACTORY = createAddressFromString('0x00000000000000000000000000000000000000fa')
// Creates the same child by CREATE, by CREATE2 with salt 7, and by CREATE again, and returns the
// three addresses. The child's init code returns its runtime 0x602a60005260206000f3 (which returns 42).
const INIT = '69602a60005260206000f3600052600a6016f3'
const FACTORY_PARTS = [
  `72${INIT}600052`, // the init code into memory 13..32
  '6013600d6000f0602052', // create(0, 13, 19), its address to memory 0x20
  '60076013600d6000f5604052', // create2(0, 13, 19, 7), to 0x40
  '6013600d6000f0606052', // create(0, 13, 19), to 0x60
  '60606020f3', // return memory 0x20..0x80
]
const FACTORY_CODE = hexToBytes(`0x${FACTORY_PARTS.join('')}`)

async function factoryRun(fast: boolean) {
  const evm = await createEVM({ common: createDevCommon({ chainId: 31337n, hardfork: 'osaka' }) })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 20n))
  await evm.stateManager.putCode(FACTORY, FACTORY_CODE)
  // A contract's nonce starts at 1 (EIP-161).
  const factory = (await evm.stateManager.getAccount(FACTORY))!
  factory.nonce = 1n
  await evm.stateManager.putAccount(FACTORY, factory)
  if (fast) await installFastInterpreter(evm)
  const { execResult } = await evm.runCall({ caller: CALLER, origin: CALLER, to: FACTORY, gasLimit: 1_000_000n })
  expect(execResult.exceptionError).toBeUndefined()
  return { evm, returned: execResult.returnValue }
}

test('behavior: an EVM of the chain creates by CREATE and CREATE2 where ethereumjs does, with the chain keccak', async () => {
  await keccakReady()
  const stock = await factoryRun(false)
  const chain = await factoryRun(true)
  expect(Object.hasOwn(chain.evm, '_generateAddress')).toBe(true)
  expect(Object.hasOwn(stock.evm, '_generateAddress')).toBe(false)
  expect(chain.returned).toEqual(stock.returned)
  const words = [0, 1, 2].map((i) => chain.returned.subarray(i * 32 + 12, (i + 1) * 32))
  const init = hexToBytes(`0x${INIT}`).subarray(0, 19)
  expect(words).toEqual([
    generateAddress(FACTORY.bytes, bigIntToUnpaddedBytes(1n)),
    generateAddress2(FACTORY.bytes, hexToBytes(`0x${'07'.padStart(64, '0')}`), init),
    generateAddress(FACTORY.bytes, bigIntToUnpaddedBytes(3n)),
  ])
  // Each child runs: its code returns 42.
  for (const word of words) expect((await chain.evm.stateManager.getCode(createAddressFromString(`0x${Buffer.from(word).toString('hex')}`))).length).toBe(10)
})

test('behavior: a creator whose nonce is still zero gets ethereumjs own answer', async () => {
  const evm = await createEVM({ common: createDevCommon({ chainId: 31337n, hardfork: 'osaka' }) })
  const stockAnswer = await (evm as unknown as { _generateAddress(m: object): Promise<unknown> })._generateAddress({ caller: CALLER }).then(String, (e: Error) => e.message)
  installCreatedAddress(evm)
  const answer = await (evm as unknown as { _generateAddress(m: object): Promise<unknown> })._generateAddress({ caller: CALLER }).then(String, (e: Error) => e.message)
  expect(stockAnswer).not.toBe('')
  expect(answer).toBe(stockAnswer)
})
