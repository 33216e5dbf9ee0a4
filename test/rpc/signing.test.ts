// The signing methods end to end over HTTP: personal_sign and eth_sign (EIP-191),
// eth_signTypedData_v4 (EIP-712), eth_signTransaction and eth_requestAccounts. Every signature is
// checked with viem, independently of ringchain: it recovers to the dev account and equals the one
// viem's local account makes with the same key (both sign deterministically, RFC 6979).

import {
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  verifyTypedData,
  type TransactionSerialized,
  type TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { type Hex, result, rpcError, start } from '../helpers/rpc.js'

const STRANGER: Hex = '0x0000000000000000000000000000000000000001'
const HELLO: Hex = '0x68656c6c6f' // "hello"

/** EIP-712's own example, with a nested struct, an array and a uint, as wallets test it. */
const MAIL = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' },
  message: {
    from: { name: 'Cow', wallets: ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef'] },
    to: [{ name: 'Bob', wallets: ['0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] }],
    contents: 'Hello, Bob!',
    // Past 2^53: only a string carries it exactly through JSON.
    amount: '12345678901234567890',
  },
} as const

/** MAIL as viem types it (uint256 values as bigint). */
const MAIL_FOR_VIEM = { ...MAIL, message: { ...MAIL.message, amount: 12345678901234567890n } } as unknown as TypedDataDefinition

async function setup() {
  const rc = await start()
  const dev = rc.accounts[0]!
  return { rc, url: rc.httpUrl, dev, local: privateKeyToAccount(dev.privateKey) }
}

describe('personal_sign', () => {
  test('default', async () => {
    const { url, dev, local } = await setup()
    const signature = await result<Hex>(url, 'personal_sign', [HELLO, dev.address])
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/)
    expect(signature).toBe(await local.signMessage({ message: 'hello' }))
    expect(await recoverMessageAddress({ message: { raw: HELLO }, signature })).toBe(local.address)
  })

  test('behavior: the same data gives the same signature (RFC 6979)', async () => {
    const { url, dev } = await setup()
    const first = await result<Hex>(url, 'personal_sign', ['0x', dev.address])
    expect(await result<Hex>(url, 'personal_sign', ['0x', dev.address])).toBe(first)
  })

  test("args: geth's password third argument is accepted and ignored", async () => {
    const { url, dev } = await setup()
    expect(await result<Hex>(url, 'personal_sign', [HELLO, dev.address, ''])).toBe(await result<Hex>(url, 'personal_sign', [HELLO, dev.address]))
  })

  test('args: any dev account signs with its own key', async () => {
    const { rc, url } = await setup()
    const other = rc.accounts[3]!
    const signature = await result<Hex>(url, 'personal_sign', [HELLO, other.address])
    expect(await recoverMessageAddress({ message: { raw: HELLO }, signature })).toBe(privateKeyToAccount(other.privateKey).address)
  })

  test('error: an account without a key', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'personal_sign', [HELLO, STRANGER])).toEqual({ code: -32000, message: 'unknown account' })
  })

  test('error: an impersonated account has no key either', async () => {
    const { url } = await setup()
    await result(url, 'anvil_impersonateAccount', [STRANGER])
    expect(await rpcError(url, 'personal_sign', [HELLO, STRANGER])).toEqual({ code: -32000, message: 'unknown account' })
  })

  test('error: data that is not hex', async () => {
    const { url, dev } = await setup()
    expect(await rpcError(url, 'personal_sign', ['hello', dev.address])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes',
    })
  })
})

describe('eth_sign', () => {
  test('default', async () => {
    const { url, dev, local } = await setup()
    const signature = await result<Hex>(url, 'eth_sign', [dev.address, HELLO])
    expect(signature).toBe(await local.signMessage({ message: { raw: HELLO } }))
    expect(signature).toBe(await result<Hex>(url, 'personal_sign', [HELLO, dev.address]))
  })

  test('error: an account without a key', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'eth_sign', [STRANGER, HELLO])).toEqual({ code: -32000, message: 'unknown account' })
  })

  test('error: the arguments the other way round', async () => {
    const { url, dev } = await setup()
    expect((await rpcError(url, 'eth_sign', [HELLO, dev.address])).code).toBe(-32602)
  })
})

describe('eth_signTypedData_v4', () => {
  test('default', async () => {
    const { url, dev, local } = await setup()
    const signature = await result<Hex>(url, 'eth_signTypedData_v4', [dev.address, JSON.stringify(MAIL)])
    expect(await verifyTypedData({ ...MAIL_FOR_VIEM, address: local.address, signature })).toBe(true)
    expect(await recoverTypedDataAddress({ ...MAIL_FOR_VIEM, signature })).toBe(local.address)
    expect(signature).toBe(await local.signTypedData(MAIL_FOR_VIEM))
  })

  test('args: typed data as an object rather than a JSON string', async () => {
    const { url, dev } = await setup()
    expect(await result<Hex>(url, 'eth_signTypedData_v4', [dev.address, MAIL])).toBe(
      await result<Hex>(url, 'eth_signTypedData_v4', [dev.address, JSON.stringify(MAIL)]),
    )
  })

  test('args: without types.EIP712Domain the domain type comes from the domain', async () => {
    const { url, dev, local } = await setup()
    const { EIP712Domain: _, ...types } = MAIL.types
    const signature = await result<Hex>(url, 'eth_signTypedData_v4', [dev.address, { ...MAIL, types }])
    expect(await recoverTypedDataAddress({ ...MAIL_FOR_VIEM, signature })).toBe(local.address)
  })

  test('args: quantities as numbers, decimal or hex strings encode alike', async () => {
    const { url, dev } = await setup()
    const sign = (chainId: unknown) => result<Hex>(url, 'eth_signTypedData_v4', [dev.address, { ...MAIL, domain: { ...MAIL.domain, chainId } }])
    const expected = await sign(31337)
    expect(await sign('31337')).toBe(expected)
    expect(await sign('0x7a69')).toBe(expected)
  })

  test('error: not JSON', async () => {
    const { url, dev } = await setup()
    expect(await rpcError(url, 'eth_signTypedData_v4', [dev.address, '{"types":'])).toEqual({
      code: -32602,
      message: 'invalid argument 1: typed data is not valid JSON',
    })
  })

  test('error: a primary type that is not among the types', async () => {
    const { url, dev } = await setup()
    expect(await rpcError(url, 'eth_signTypedData_v4', [dev.address, { ...MAIL, primaryType: 'Letter' }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: typed data: primary type Letter is not among the types',
    })
  })

  test('error: a message field its type does not have', async () => {
    const { url, dev } = await setup()
    const error = await rpcError(url, 'eth_signTypedData_v4', [dev.address, { ...MAIL, message: { ...MAIL.message, cc: 'Alice' } }])
    expect(error.code).toBe(-32602)
    expect(error.message).toMatch(/^invalid argument 1: .*cc/)
  })

  test('error: an account without a key', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'eth_signTypedData_v4', [STRANGER, MAIL])).toEqual({ code: -32000, message: 'unknown account' })
  })
})

describe('eth_signTransaction', () => {
  test('default', async () => {
    const { url, dev } = await setup()
    const to = '0x000000000000000000000000000000000000beef'
    const raw = await result<TransactionSerialized>(url, 'eth_signTransaction', [{ from: dev.address, to, value: '0x7' }])
    const tx = parseTransaction(raw)
    // The node's defaults, as eth_sendTransaction fills them in: next nonce, estimated gas, EIP-1559 fees.
    expect(tx).toMatchObject({ type: 'eip1559', chainId: 31337, nonce: 0, to, value: 7n, gas: 21_000n })
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(privateKeyToAccount(dev.privateKey).address)

    // Signed, not sent.
    expect(await result(url, 'eth_getTransactionCount', [dev.address, 'pending'])).toBe('0x0')
    expect(await result(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x0' })
    // And it is a transaction the node takes.
    const hash = await result<Hex>(url, 'eth_sendRawTransaction', [raw])
    expect(await result(url, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1', from: dev.address.toLowerCase() })
  })

  test('args: a legacy request with gasPrice, nonce and gas is signed as given, with EIP-155', async () => {
    const { url, dev } = await setup()
    const raw = await result<TransactionSerialized>(url, 'eth_signTransaction', [
      { from: dev.address, to: STRANGER, gas: '0x5208', gasPrice: '0x3b9aca00', nonce: '0x4', chainId: '0x7a69' },
    ])
    expect(parseTransaction(raw)).toMatchObject({ type: 'legacy', chainId: 31337, nonce: 4, gas: 21_000n, gasPrice: 1_000_000_000n })
  })

  test('error: another chain id', async () => {
    const { url, dev } = await setup()
    expect(await rpcError(url, 'eth_signTransaction', [{ from: dev.address, to: STRANGER, chainId: '0x1' }])).toEqual({
      code: -32000,
      message: "chainId does not match node's (have=1, want=31337)",
    })
  })

  test('error: an account without a key', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'eth_signTransaction', [{ from: STRANGER, to: STRANGER }])).toEqual({ code: -32000, message: 'unknown account' })
  })

  test('error: no from', async () => {
    const { url } = await setup()
    expect(await rpcError(url, 'eth_signTransaction', [{ to: STRANGER }])).toEqual({ code: -32602, message: 'invalid argument 0: missing "from"' })
  })
})

describe('eth_requestAccounts', () => {
  test('default: the dev accounts, as eth_accounts', async () => {
    const { rc, url } = await setup()
    const accounts = await result<Hex[]>(url, 'eth_requestAccounts', [])
    expect(accounts).toEqual(rc.accounts.map((a) => a.address.toLowerCase()))
    expect(accounts).toEqual(await result(url, 'eth_accounts', []))
  })
})
