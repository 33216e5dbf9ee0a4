import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import {
  type Blob4844Tx,
  createBlob4844Tx,
  createBlob4844TxFromSerializedNetworkWrapper,
  createFeeMarket1559Tx,
  createFeeMarket1559TxFromRLP,
} from '@ethereumjs/tx'
import {
  createZeroAddress,
  bigIntToBytes,
  bytesToHex,
  createAddressFromPrivateKey,
  createAddressFromString,
  ecrecover as jsEcrecover,
  hexToBytes,
  privateToAddress,
  setLengthLeft,
} from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, test, vi } from 'vitest'
import {
  createCustomCrypto,
  cryptoBackend,
  keccakBackend,
  keccakIsDirect,
  kzgLoaded,
  lazyKzg,
} from '../../src/chain/crypto.js'

// KZG in pure JS: a cell-proof blob transaction takes a few seconds to build and check.
const KZG_TIMEOUT = 120_000

const N = secp256k1.Point.CURVE().n
const customCrypto = createCustomCrypto()
const nativeEcrecover = customCrypto.ecrecover!

function outcome(f: () => Uint8Array): { key: string } | { error: string } {
  try {
    return { key: bytesToHex(f()) }
  } catch (e) {
    return { error: (e as Error).message }
  }
}

function randomSignature() {
  const secretKey = secp256k1.utils.randomSecretKey()
  const msgHash = crypto.getRandomValues(new Uint8Array(32))
  const sig = secp256k1.sign(msgHash, secretKey, { prehash: false, format: 'recovered' })
  return {
    secretKey,
    msgHash,
    yParity: BigInt(sig[0]!),
    r: sig.slice(1, 33),
    s: sig.slice(33, 65),
    publicKey: secp256k1.getPublicKey(secretKey, false).slice(1),
  }
}

// Runs first, before any other test of this file has touched a blob.
test('behavior: the KZG setup is not loaded until the first blob operation', () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: createCustomCrypto() })
  const key = hexToBytes(`0x${'11'.repeat(32)}`)
  const tx = createFeeMarket1559Tx({ chainId: 1n, gasLimit: 21_000n, maxFeePerGas: 1n }, { common }).sign(key)
  tx.getSenderAddress()
  expect(common.customCrypto.kzg).toBe(lazyKzg())
  expect(kzgLoaded()).toBe(false)

  lazyKzg().blobToKzgCommitment(`0x${'00'.repeat(131_072)}`)
  expect(kzgLoaded()).toBe(true)
})

describe('ecrecover', () => {
  test('default: the native binding loads on linux-x64 without an install script', () => {
    if (process.platform === 'linux' && process.arch === 'x64') expect(cryptoBackend()).toBe('native')
    else expect(['native', 'js']).toContain(cryptoBackend())
  })

  test('default: same public key as @ethereumjs/util for every v form', () => {
    for (let i = 0; i < 32; i++) {
      const { msgHash, yParity, r, s, publicKey } = randomSignature()
      const forms: [bigint, bigint | undefined][] = [
        [yParity, undefined],
        [yParity + 27n, undefined],
        [yParity + 31337n * 2n + 35n, 31337n],
        [yParity + 3503995874084926n * 2n + 35n, 3503995874084926n],
      ]
      for (const [v, chainId] of forms) {
        const expected = jsEcrecover(msgHash, v, r, s, chainId)
        expect(expected).toEqual(publicKey)
        expect(nativeEcrecover(msgHash, v, r, s, chainId)).toEqual(expected)
      }
    }
  })

  test('args: r and s shorter than 32 bytes, as a transaction hands them over', () => {
    let found = 0
    for (let i = 0; found < 3 && i < 5000; i++) {
      const { msgHash, yParity, r, s } = randomSignature()
      if (r[0] !== 0 && s[0] !== 0) continue
      found++
      const [rShort, sShort] = [r.subarray(r[0] === 0 ? 1 : 0), s.subarray(s[0] === 0 ? 1 : 0)]
      expect(nativeEcrecover(msgHash, yParity, rShort, sShort)).toEqual(jsEcrecover(msgHash, yParity, r, s))
    }
    expect(found).toBe(3)
  })

  test('args: a high-s signature recovers as in @ethereumjs/util (EIP-2 is checked by the tx)', () => {
    const { msgHash, yParity, r, s } = randomSignature()
    const highS = setLengthLeft(bigIntToBytes(N - BigInt(bytesToHex(s))), 32)
    const v = (yParity ^ 1n) + 27n
    const js = outcome(() => jsEcrecover(msgHash, v, r, highS))
    expect(js).toHaveProperty('key')
    expect(outcome(() => nativeEcrecover(msgHash, v, r, highS))).toEqual(js)
  })

  test('error: invalid signatures throw as @ethereumjs/util does', () => {
    const { msgHash, yParity, r, s } = randomSignature()
    const bytes32 = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32)
    // x = 5 is not on secp256k1 (5^3 + 7 = 132 is no square mod p), so no point has it as r.
    const cases: [string, bigint, Uint8Array, Uint8Array, bigint?][] = [
      ['v 29', 29n, r, s],
      ['v 2', 2n, r, s],
      ['EIP-155 v of another chain', yParity + 1n * 2n + 35n, r, s, 31337n],
      ['r = 0', 27n, new Uint8Array(32), s],
      ['s = 0', 27n, r, new Uint8Array(32)],
      ['r = n', 27n, bytes32(N), s],
      ['s = n', 27n, r, bytes32(N)],
      ['r not on the curve', 27n, bytes32(5n), s],
      ['r of 33 bytes', 27n, new Uint8Array([1, ...r]), s],
    ]
    for (const [name, v, rr, ss, chainId] of cases) {
      const js = outcome(() => jsEcrecover(msgHash, v, rr, ss, chainId))
      expect(js, name).toHaveProperty('error')
      expect(outcome(() => nativeEcrecover(msgHash, v, rr, ss, chainId)), name).toEqual(js)
    }
  })

  test('behavior: a signature seen again gives the same key, a copy of its own each time', () => {
    const { msgHash, yParity, r, s, publicKey } = randomSignature()
    const first = nativeEcrecover(msgHash, yParity + 27n, r, s)
    first.fill(0)
    const again = nativeEcrecover(msgHash, yParity + 27n, r, s)
    expect(again).toEqual(publicKey)
    expect(again).not.toBe(nativeEcrecover(msgHash, yParity + 27n, r, s))
    // The other recovery id is another input: its own key, not the one kept for the first.
    expect(nativeEcrecover(msgHash, (yParity ^ 1n) + 27n, r, s)).toEqual(jsEcrecover(msgHash, (yParity ^ 1n) + 27n, r, s))
  })

  test('behavior: a failed recovery is not kept: it throws each time', () => {
    const { msgHash, r } = randomSignature()
    for (let i = 0; i < 2; i++) expect(() => nativeEcrecover(msgHash, 27n, r, new Uint8Array(32))).toThrow()
  })

  test('behavior: the EVM ecrecover precompile (0x01) goes through customCrypto', async () => {
    const ecrecover = vi.fn(nativeEcrecover)
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { ecrecover } })
    const evm = await createEVM({ common })
    const { msgHash, yParity, r, s, secretKey } = randomSignature()
    const input = new Uint8Array([...msgHash, ...setLengthLeft(bigIntToBytes(yParity + 27n), 32), ...r, ...s])
    const result = await evm.runCall({
      to: createAddressFromString('0x0000000000000000000000000000000000000001'),
      data: input,
      gasLimit: 100_000n,
    })
    expect(ecrecover).toHaveBeenCalledOnce()
    expect(result.execResult.returnValue).toEqual(setLengthLeft(privateToAddress(secretKey), 32))
  })
})

describe('ecsign', () => {
  test('default: byte-identical to noble for the calls ethereumjs makes', () => {
    const ecsign = customCrypto.ecsign!
    for (let i = 0; i < 16; i++) {
      const { msgHash, secretKey } = randomSignature()
      const entropy = crypto.getRandomValues(new Uint8Array(32))
      for (const extraEntropy of [false, entropy]) {
        const opts = { extraEntropy, format: 'recovered', prehash: false } as const
        expect(ecsign(msgHash, secretKey, opts)).toEqual(secp256k1.sign(msgHash, secretKey, opts))
      }
    }
  })

  test('args: random extra entropy still gives a signature that recovers the signer', () => {
    const { msgHash, secretKey, publicKey } = randomSignature()
    const opts = { extraEntropy: true, format: 'recovered', prehash: false } as const
    const sig = customCrypto.ecsign!(msgHash, secretKey, opts)
    expect(jsEcrecover(msgHash, BigInt(sig[0]!), sig.slice(1, 33), sig.slice(33))).toEqual(publicKey)
  })

  test('error: an invalid secret key throws as noble does', () => {
    const msgHash = new Uint8Array(32).fill(1)
    const opts = { format: 'recovered', prehash: false } as const
    for (const secretKey of [new Uint8Array(32), setLengthLeft(bigIntToBytes(N), 32)]) {
      const noble = outcome(() => secp256k1.sign(msgHash, secretKey, opts))
      expect(noble).toHaveProperty('error')
      expect(outcome(() => customCrypto.ecsign!(msgHash, secretKey, opts))).toEqual(noble)
    }
  })
})

describe('keccak256', () => {
  test('default: WebAssembly takes over shortly after the first createCustomCrypto', async () => {
    await vi.waitFor(() => expect(keccakBackend()).toBe('wasm'), { timeout: 5_000 })
  })

  test('behavior: hash-wasm\'s keccak module is called directly (a hash-wasm whose bundle changed shape fails here)', () => {
    createCustomCrypto()
    expect(keccakIsDirect()).toBe(true)
    expect(keccakBackend()).toBe('wasm')
  })

  test('default: same digests as @ethereumjs\'s @noble/hashes, for any length and for views', async () => {
    await vi.waitFor(() => expect(keccakBackend()).toBe('wasm'), { timeout: 5_000 })
    const keccak256 = customCrypto.keccak256!
    const big = new Uint8Array(70_000).map((_, i) => (i * 2_654_435_761) >>> 24)
    const lengths = [...Array.from({ length: 300 }, (_, i) => i), 1000, 4096, 16_383, 16_384, 16_385, 24_576, 32_768, 65_536]
    for (const length of lengths) {
      const offset = length % 7
      const view = big.subarray(offset, offset + length)
      expect(bytesToHex(keccak256(view)), `length ${length}`).toBe(bytesToHex(keccak_256(view)))
    }
  })

  test('args: keccak256 "js" leaves ethereumjs\'s default in place', () => {
    expect(createCustomCrypto({ keccak256: 'js' }).keccak256).toBeUndefined()
  })
})

describe('transactions', () => {
  test('default: an EIP-1559 transaction recovers its sender through the custom ecrecover', () => {
    const ecrecover = vi.fn(nativeEcrecover)
    const common = new Common({
      chain: { ...Mainnet, chainId: 31337 },
      hardfork: Hardfork.Prague,
      customCrypto: { ...createCustomCrypto(), ecrecover },
    })
    const secretKey = secp256k1.utils.randomSecretKey()
    const data = { chainId: 31337n, nonce: 7n, gasLimit: 21_000n, maxFeePerGas: 10n ** 9n, value: 1n }
    const signed = createFeeMarket1559Tx({ ...data, to: createZeroAddress() }, { common }).sign(secretKey)
    const decoded = createFeeMarket1559TxFromRLP(signed.serialize(), { common })
    expect(decoded.getSenderAddress()).toEqual(createAddressFromPrivateKey(secretKey))
    expect(ecrecover).toHaveBeenCalled()
  })

  test('behavior: signing with the custom ecsign gives the same transaction as ethereumjs alone', () => {
    const secretKey = secp256k1.utils.randomSecretKey()
    const data = { chainId: 1n, nonce: 1n, gasLimit: 21_000n, maxFeePerGas: 7n, to: createZeroAddress() }
    const customCrypto = createCustomCrypto()
    const custom = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto })
    const plain = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
    expect(createFeeMarket1559Tx(data, { common: custom }).sign(secretKey).serialize()).toEqual(
      createFeeMarket1559Tx(data, { common: plain }).sign(secretKey).serialize(),
    )
  })
})

describe('blob transactions', () => {
  const secretKey = hexToBytes(`0x${'42'.repeat(32)}`)

  function signedBlobTx(hardfork: Hardfork): { common: Common; tx: Blob4844Tx } {
    const common = new Common({ chain: Mainnet, hardfork, customCrypto: createCustomCrypto() })
    const tx = createBlob4844Tx(
      {
        chainId: 1n,
        gasLimit: 21_000n,
        maxFeePerGas: 10n ** 9n,
        maxFeePerBlobGas: 10n ** 9n,
        to: createZeroAddress(),
        blobsData: ['ringchain blob'],
      },
      { common },
    ).sign(secretKey)
    return { common, tx }
  }

  // Swaps in a proof that is a valid curve point but not the right proof: the blob's commitment.
  function withWrongProof(wrapper: Uint8Array): Uint8Array {
    const fields = RLP.decode(wrapper.subarray(1)) as Uint8Array[][]
    const proofs = fields.at(-1)!
    const commitments = fields.at(-2)!
    proofs[0] = commitments[0]!
    return new Uint8Array([wrapper[0]!, ...RLP.encode(fields)])
  }

  test.each([
    ['cancun', Hardfork.Cancun, 1],
    ['prague', Hardfork.Prague, 1],
    ['osaka (EIP-7594 cell proofs)', Hardfork.Osaka, 128],
  ] as const)(
    'default: %s network wrapper round-trips and verifies',
    (_name, hardfork, proofsPerBlob) => {
      const { common, tx } = signedBlobTx(hardfork)
      expect(tx.kzgProofs).toHaveLength(proofsPerBlob)

      const decoded = createBlob4844TxFromSerializedNetworkWrapper(tx.serializeNetworkWrapper(), { common })
      expect(decoded.hash()).toEqual(tx.hash())
      expect(decoded.blobVersionedHashes).toEqual(tx.blobVersionedHashes)
      expect(decoded.getSenderAddress()).toEqual(createAddressFromPrivateKey(secretKey))

      const corrupted = withWrongProof(tx.serializeNetworkWrapper())
      expect(() => createBlob4844TxFromSerializedNetworkWrapper(corrupted, { common })).toThrow(
        'KZG proof cannot be verified from blobs/commitments',
      )
    },
    KZG_TIMEOUT,
  )
})
