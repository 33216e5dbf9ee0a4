// The mined header's hash is cached from a field list written by hand (headerHash.ts): it must be
// ethereumjs's `raw()` item for item, and so its hash `hash()`'s, under every fork's header shape.
import { createBlockHeader } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test } from 'vitest'
import { createDevCommon } from '../../src/chain/genesis.js'
import { headerFields, withHashCached } from '../../src/chain/headerHash.js'

const HASH = Uint8Array.from({ length: 32 }, (_, i) => 255 - i)

test('behavior: the field list is raw() and the cached hash is hash(), for every header shape from London to BPO2', () => {
  for (const hardfork of ['london', 'shanghai', 'cancun', 'prague', 'osaka', 'bpo2']) {
    const common = createDevCommon({ chainId: 31337n, hardfork })
    // Integers at both sides of the byte and the 2^48 boundaries, and zero.
    for (const [number, big] of [[1n, 0n], [0x7fn, 2n ** 48n], [2n ** 40n, 10n ** 22n], [2n ** 60n, 2n ** 64n - 1n]] as const) {
      const data: Record<string, unknown> = { number, gasLimit: 30_000_000n + big % 1000n, gasUsed: big % 30_000_000n, timestamp: number + 12n, baseFeePerGas: big, mixHash: HASH, extraData: Uint8Array.of(1, 2, 3), stateRoot: HASH }
      if (common.isActivatedEIP(4844)) Object.assign(data, { blobGasUsed: big % 786_432n, excessBlobGas: big, parentBeaconBlockRoot: HASH })
      if (common.isActivatedEIP(7685)) data.requestsHash = HASH
      const header = createBlockHeader(data, { common })
      expect(headerFields(header).map(bytesToHex), `${hardfork} ${number}`).toEqual(header.raw().map(bytesToHex))
      const expected = bytesToHex(keccak_256(RLP.encode(header.raw())))
      expect(bytesToHex(withHashCached(header, keccak_256).hash())).toBe(expected)
    }
  }
})
