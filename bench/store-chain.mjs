// The chain bench/calls.mjs and bench/send-ab.mjs time: in process, deterministic, a storage
// contract deployed by account a with one slot written, and storage writes account b signs for it.
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'

// Runtime: 64 bytes of calldata store word 2 at slot word 1; 32 bytes return the word at that slot.
const runtime = '36602014600f5760203560003555005b6000355460005260206000f3'
const length = (runtime.length / 2).toString(16).padStart(2, '0')
export const INITCODE = `0x60${length}600c60003960${length}6000f3${runtime}`
/** `n` as a 32-byte word, hex without 0x. */
export const word = (n) => BigInt(n).toString(16).padStart(64, '0')

/** A chain of `createRingchain` (the build under test) with the store deployed and slot 1 written. */
export async function storeChain(createRingchain) {
  const rc = await createRingchain({ deterministic: true })
  const [a, b] = rc.accounts
  const request = (method, params) => rc.request({ method, params })
  const deploy = await request('eth_sendTransaction', [{ from: a.address, data: INITCODE }])
  const { contractAddress: store } = await request('eth_getTransactionReceipt', [deploy])
  await request('eth_sendTransaction', [{ from: a.address, to: store, data: `0x${word(1)}${word(42)}` }])
  return { rc, a, b, store, request }
}

/** `count` raw storage writes of account b to the store (slots 3-7), signed up front from its pending nonce. */
export async function signedStoreWrites({ rc, b, store, request }, count) {
  const common = rc.chain.common
  let nonce = BigInt(await request('eth_getTransactionCount', [b.address, 'pending']))
  const raws = []
  for (let i = 0; i < count; i++) {
    const tx = createFeeMarket1559Tx(
      { chainId: common.chainId(), nonce: nonce++, to: hexToBytes(store), data: hexToBytes(`0x${word(3 + (i % 5))}${word(i + 1)}`), gasLimit: 60_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n },
      { common },
    ).sign(hexToBytes(b.privateKey))
    raws.push(`0x${Buffer.from(tx.serialize()).toString('hex')}`)
  }
  return raws
}
