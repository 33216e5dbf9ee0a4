// The builder's receipt trie takes receipts encoded by receiptEncoding.ts: ethereumjs's
// `encodeReceipt` rewritten, byte for byte, over every shape of receipt it is given.
import { createHash } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import { encodeReceipt, type TxReceipt } from '@ethereumjs/vm'
import { expect, test } from 'vitest'
import { encodeTxReceipt } from '../../src/chain/receiptEncoding.js'

const fingerprint = (fn: unknown) => createHash('sha256').update(String(fn)).digest('hex').slice(0, 16)

test('pin: ethereumjs still encodes receipts as the copy does', () => {
  // On an ethereumjs upgrade this fails: compare its encodeReceipt with receiptEncoding.ts, then update.
  expect(fingerprint(encodeReceipt)).toMatchInlineSnapshot(`"dc1a4f27179d7508"`)
})

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256)
const bloom = bytes(256, 7)

/** Logs of every size class: none, one with no topics and no data, four topics, data of 1, 55, 56 and 300 bytes. */
const LOG_SETS: TxReceipt['logs'][] = [
  [],
  [[bytes(20, 1), [], new Uint8Array(0)]],
  [[bytes(20, 2), [bytes(32, 3), bytes(32, 4), bytes(32, 5), bytes(32, 6)], Uint8Array.of(0x7f)]],
  [[bytes(20, 3), [bytes(32, 1)], Uint8Array.of(0x80)]],
  [[bytes(20, 4), [bytes(32, 2)], bytes(55, 1)], [bytes(20, 5), [], bytes(56, 2)]],
  Array.from({ length: 9 }, (_, i) => [bytes(20, i), [bytes(32, i)], bytes(300, i)] as TxReceipt['logs'][number]),
]

test('behavior: the same bytes as ethereumjs for every status, gas, log shape and transaction type', () => {
  let cases = 0
  for (const type of [0, 1, 2, 3, 4] as const) {
    for (const logs of LOG_SETS) {
      for (const cumulativeBlockGasUsed of [0n, 1n, 0x7fn, 0x80n, 21_000n, 2n ** 48n, 2n ** 64n - 1n]) {
        const receipts: TxReceipt[] = [
          { status: 1, cumulativeBlockGasUsed, bitvector: bloom, logs },
          { status: 0, cumulativeBlockGasUsed, bitvector: bloom, logs },
          { stateRoot: bytes(32, 9), cumulativeBlockGasUsed, bitvector: bloom, logs },
        ]
        for (const receipt of receipts) {
          expect(bytesToHex(encodeTxReceipt(receipt, type))).toBe(bytesToHex(encodeReceipt(receipt, type)))
          cases++
        }
      }
    }
  }
  expect(cases).toBe(5 * LOG_SETS.length * 7 * 3)
})
