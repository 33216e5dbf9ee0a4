// Dev accounts: derived at m/44'/60'/0'/0/i from the mnemonic as Hardhat, anvil, viem and ethers
// derive them (checked against viem's own derivation), and a mnemonic that is not BIP-39 is refused.

import { mnemonicToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../src/chain/accounts.js'
import { InvalidInputError, createRingchain } from '../../src/index.js'

const TWENTY_FOUR = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art'

describe('dev accounts', () => {
  test.each([
    ['the default mnemonic', undefined, 10],
    ['a 12-word mnemonic', 'legal winner thank year wave sausage worth useful legal winner thank yellow', 3],
    ['a 24-word mnemonic', TWENTY_FOUR, 2],
  ])('default: %s gives the keys viem derives', async (_name, mnemonic, count) => {
    const rc = await createRingchain({ ...(mnemonic === undefined ? {} : { mnemonic }), accounts: count })
    onTestFinished(() => rc.close())
    const words = mnemonic ?? 'test test test test test test test test test test test junk'
    const expected = Array.from({ length: count }, (_, i) => {
      const account = mnemonicToAccount(words, { addressIndex: i })
      return { address: account.address.toLowerCase(), privateKey: bytesToHex(account.getHdKey().privateKey!) }
    })
    expect(rc.accounts).toEqual(expected)
  })

  test('behavior: the default mnemonic\'s written-out accounts are the ones derived', () => {
    // The default's first 20 accounts come from a table; the same words spaced differently take
    // the derivation path, and viem derives the last one independently.
    const table = deriveAccounts(DEFAULT_MNEMONIC, 20)
    expect(table).toEqual(deriveAccounts(` ${DEFAULT_MNEMONIC.replaceAll(' ', '  ')} `, 20))
    const last = mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: 19 })
    expect(bytesToHex(table[19]!.address)).toBe(last.address.toLowerCase())
    expect(deriveAccounts(DEFAULT_MNEMONIC, 21)[20]).toEqual(deriveAccounts(` ${DEFAULT_MNEMONIC}`, 21)[20])
  })

  test('args: extra spaces are normalized as BIP-39 says', async () => {
    const rc = await createRingchain({ mnemonic: '  test test test test test test\ttest test test test test   junk ', accounts: 1 })
    onTestFinished(() => rc.close())
    expect(rc.accounts[0]!.address).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
  })

  test.each([
    ['a wrong checksum', 'test test test test test test test test test test test test'],
    ['a word outside the list', 'test test test test test test test test test test test junkyard'],
    ['a wrong length', 'test test test test test test test test test test junk'],
  ])('error: %s', async (_name, mnemonic) => {
    const created = createRingchain({ mnemonic })
    await expect(created).rejects.toThrow(InvalidInputError)
    await expect(created).rejects.toThrow('invalid mnemonic: not a BIP-39 English mnemonic with a valid checksum')
  })
})
