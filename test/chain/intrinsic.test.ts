import { createTx, getCalldataFloorGas, getMinimumGasLimit, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { callFixedCosts, calldataFloorGas, intrinsicGas, minimumGasLimit, needsTransaction, transactionFixedCosts } from '../../src/chain/execution/intrinsic.js'
import { createDevCommon } from '../../src/chain/genesis.js'

const KEY = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

test('behavior: intrinsic gas and calldata floor equal what ethereumjs computes from a transaction', () => {
  for (const hardfork of ['istanbul', 'berlin', 'london', 'shanghai', 'prague', 'osaka']) {
    const common = createDevCommon({ chainId: 31337n, hardfork })
    const data = new Uint8Array([0, 0, 1, 2, 0, 255, ...new Uint8Array(40)])
    const to = new Uint8Array(20).fill(7)
    const accessList = [{ address: to, storageKeys: [new Uint8Array(32), new Uint8Array(32).fill(1)] }]
    const auth = eoaCode7702SignAuthorization({ chainId: '0x0', address: bytesToHex(to), nonce: '0x1' }, KEY)
    const cases: { call: Parameters<typeof intrinsicGas>[0]; tx: TypedTxData }[] = [
      { call: { to, data }, tx: { to, data, gasLimit: 1_000_000n } },
      { call: { data }, tx: { data, gasLimit: 1_000_000n } },
    ]
    if (common.isActivatedEIP(2930)) {
      cases.push({ call: { to, data, accessList }, tx: { type: 1, to, data, accessList: accessList.map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map(bytesToHex) })), gasLimit: 1_000_000n } as TypedTxData })
    }
    if (common.isActivatedEIP(7702)) {
      const authorizationList = [{ chainId: 0n, address: to, nonce: 1n, yParity: BigInt(auth[3][0] ?? 0), r: BigInt(bytesToHex(auth[4])), s: BigInt(bytesToHex(auth[5])) }]
      cases.push({ call: { to, data, authorizationList }, tx: { type: 4, to, data, authorizationList: [auth], gasLimit: 1_000_000n, maxFeePerGas: 1n } as TypedTxData })
    }
    for (const { call, tx } of cases) {
      const built = createTx(tx, { common })
      expect({ hardfork, intrinsic: intrinsicGas(call, common), floor: calldataFloorGas(call, common) }).toEqual({ hardfork, intrinsic: built.getIntrinsicGas(), floor: getCalldataFloorGas(built) })
      expect({ hardfork, ...callFixedCosts(call, common) }).toEqual({ hardfork, intrinsic: built.getIntrinsicGas(), floor: getCalldataFloorGas(built) })
    }
  }
})

test('behavior: the least gas limit admission takes and the calldata floor a mined transaction pays equal ethereumjs getMinimumGasLimit and getCalldataFloorGas (each type, creation)', () => {
  for (const hardfork of ['istanbul', 'berlin', 'london', 'prague', 'osaka']) {
    const common = createDevCommon({ chainId: 31337n, hardfork })
    const to = new Uint8Array(20).fill(7)
    const floorHeavy = new Uint8Array(3000).fill(0xff)
    const sparse = new Uint8Array([0, 0, 1, 2, 0, 255, ...new Uint8Array(40)])
    const accessList = [{ address: bytesToHex(to), storageKeys: [bytesToHex(new Uint8Array(32)), bytesToHex(new Uint8Array(32).fill(1))] }]
    const auth = eoaCode7702SignAuthorization({ chainId: '0x0', address: bytesToHex(to), nonce: '0x1' }, KEY)
    const txs: TypedTxData[] = [
      { to, data: sparse, gasLimit: 1_000_000n },
      { data: sparse, gasLimit: 1_000_000n },
      { to, data: floorHeavy, gasLimit: 1_000_000n },
    ]
    if (common.isActivatedEIP(2930)) txs.push({ type: 1, to, data: sparse, accessList, gasLimit: 1_000_000n } as TypedTxData)
    if (common.isActivatedEIP(1559)) txs.push({ type: 2, data: floorHeavy, accessList, gasLimit: 1_000_000n, maxFeePerGas: 1n } as TypedTxData)
    if (common.isActivatedEIP(7702)) txs.push({ type: 4, to, data: sparse, authorizationList: [auth], gasLimit: 1_000_000n, maxFeePerGas: 1n } as TypedTxData)
    for (const data of txs) {
      const tx = createTx(data, { common }).sign(KEY)
      const sender = tx.getSenderAddress()
      expect({ hardfork, type: tx.type, minimum: minimumGasLimit(tx, sender) }).toEqual({ hardfork, type: tx.type, minimum: getMinimumGasLimit(tx, sender) })
      const stock = { intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx, sender) }
      expect({ hardfork, type: tx.type, ...transactionFixedCosts(tx, sender) }).toEqual({ hardfork, type: tx.type, ...stock })
    }
  }
})

test('behavior: the prices follow a Common whose hardfork or parameters change after a first use', () => {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'istanbul' })
  const data = new Uint8Array(100).fill(1)
  const deployment = { data }
  const costs = () => ({ intrinsic: intrinsicGas(deployment, common), floor: calldataFloorGas(deployment, common) })
  const ethereumjs = () => {
    const tx = createTx({ data, gasLimit: 1_000_000n }, { common })
    return { intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx) }
  }
  const before = costs()
  expect(before).toEqual(ethereumjs())
  // Shanghai charges init code words (EIP-3860), Prague a calldata floor (EIP-7623).
  common.setHardfork('prague')
  expect(costs()).toEqual(ethereumjs())
  expect(costs().intrinsic).toBeGreaterThan(before.intrinsic)
  expect(costs().floor).toBeGreaterThan(0n)
  common.updateParams({ 1: { txGas: 30_000 } })
  expect(costs()).toEqual(ethereumjs())
  expect(intrinsicGas({ to: new Uint8Array(20) }, common)).toBe(30_000n)
})

test('behavior: a fork that reprices fixed costs (EIP-7976) is left to ethereumjs, also once a Common turns it on later', () => {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'osaka' })
  expect(needsTransaction(common)).toBe(false)
  common.setEIPs([7976])
  expect(needsTransaction(common)).toBe(true)
  const tx = createTx({ to: new Uint8Array(20).fill(7), data: new Uint8Array([0, 1, 0, 2]), gasLimit: 100_000n }, { common }).sign(KEY)
  expect(transactionFixedCosts(tx, tx.getSenderAddress())).toEqual({ intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx, tx.getSenderAddress()) })
  common.setHardfork('prague')
  expect(needsTransaction(common)).toBe(true)
  expect(needsTransaction(createDevCommon({ chainId: 31337n, hardfork: 'osaka' }))).toBe(false)
})

test('behavior: the fixed costs kept for a frozen transaction follow a fork change of its Common', () => {
  const common = createDevCommon({ chainId: 31337n, hardfork: 'london' })
  const tx = createTx({ data: new Uint8Array([0, 1, 0, 2, ...new Uint8Array(60).fill(3)]), gasLimit: 1_000_000n }, { common }).sign(KEY)
  expect(Object.isFrozen(tx)).toBe(true)
  const sender = tx.getSenderAddress()
  const london = transactionFixedCosts(tx, sender)
  expect(transactionFixedCosts(tx, sender)).toBe(london)
  // Shanghai charges init code words (EIP-3860), Prague a calldata floor (EIP-7623).
  tx.common.setHardfork('prague')
  const prague = transactionFixedCosts(tx, sender)
  expect(prague).toEqual({ intrinsic: tx.getIntrinsicGas(), floor: getCalldataFloorGas(tx, sender) })
  expect(prague.intrinsic).toBeGreaterThan(london.intrinsic)
  expect(prague.floor).toBeGreaterThan(0n)
})
