// ringchain_storageDiff end to end: raw JSON-RPC over HTTP to a ringchain on port 0. The storage
// changes of a transaction (recorded when its block was mined: two transfers in one block have
// their own diffs) or of a block (from the state history of the window).
import { expect, test } from 'vitest'
import { result, rpcError, start } from '../helpers/rpc.js'
import { ALICE, BOB, Token, clients, deploy, write } from './helpers.js'
import { encodeFunctionData, type Hex } from 'viem'

const METHOD = 'ringchain_storageDiff'
const E18 = 10n ** 18n

interface Change {
  address: string
  slot: string
  before: string
  after: string
  path: string | null
}
interface Answer {
  blockNumber: string
  transactionHash?: string
  transactionIndex?: string
  changes: Change[]
}

async function setup(options: Parameters<typeof start>[0] = {}) {
  const rc = await start(options)
  const c = clients(rc, rc.accounts[0]!.privateKey)
  const address = await deploy(c, Token, ['Ringchain Token', 'RING', 1_000_000n * E18])
  /** Sends a transfer without waiting for it to be mined. */
  const transfer = (to: Hex, amount: bigint) => c.wallet.sendTransaction({ to: address, data: encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] }), gas: 100_000n })
  return { rc, c, address, url: rc.httpUrl, transfer }
}

const short = (c: Change) => `${c.path}: ${BigInt(c.before)} -> ${BigInt(c.after)}`

test('default', async () => {
  const { url, c, address } = await setup()
  const hash = await write(c, address, Token, 'transfer', [ALICE, 5n * E18])
  expect(await result(url, METHOD, [hash])).toMatchInlineSnapshot({ blockHash: expect.any(String) }, `
    {
      "blockHash": Any<String>,
      "blockNumber": "0x2",
      "changes": [
        {
          "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
          "after": "0x0000000000000000000000000000000000000000000000004563918244f40000",
          "before": "0x0000000000000000000000000000000000000000000000000000000000000000",
          "derivation": {
            "root": "0x0",
            "steps": [
              {
                "key": "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8",
                "kind": "mapping",
              },
            ],
          },
          "path": "0[0x70997970c51812dc3a010c7d01b50e0d17dc79c8]",
          "slot": "0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101",
        },
        {
          "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
          "after": "0x00000000000000000000000000000000000000000000d3c1d66b3b6b5c0c0000",
          "before": "0x00000000000000000000000000000000000000000000d3c21bcecceda1000000",
          "derivation": {
            "root": "0x0",
            "steps": [
              {
                "key": "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "kind": "mapping",
              },
            ],
          },
          "path": "0[0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266]",
          "slot": "0x723077b8a1b173adc35e5f0e7e3662fd1208212cb629f9c128551ea7168da722",
        },
      ],
      "transactionHash": "0xbd093d4b740c34b51f107e60a77f848a3db0432adf13800e08910101c44f8cc2",
      "transactionIndex": "0x0",
    }
  `)
})

test('behavior: each transaction of a block has its own diff', async () => {
  const { url, rc, transfer, address } = await setup()
  await rc.chain.setMiningMode({ mode: 'manual' })
  const first = await transfer(ALICE, 5n)
  const second = await transfer(BOB, 7n)
  await rc.chain.mine(1n)
  const a = await result<Answer>(url, METHOD, [first])
  const b = await result<Answer>(url, METHOD, [second])
  expect(a.blockNumber).toBe(b.blockNumber)
  expect([a.transactionIndex, b.transactionIndex]).toEqual(['0x0', '0x1'])
  expect(a.changes.map(short)).toMatchInlineSnapshot(`
    [
      "0[0x70997970c51812dc3a010c7d01b50e0d17dc79c8]: 0 -> 5",
      "0[0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266]: 1000000000000000000000000 -> 999999999999999999999995",
    ]
  `)
  expect(b.changes.map(short)).toMatchInlineSnapshot(`
    [
      "0[0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc]: 0 -> 7",
      "0[0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266]: 999999999999999999999995 -> 999999999999999999999988",
    ]
  `)
  const block = await result<Answer>(url, METHOD, [a.blockNumber, address])
  expect(block.transactionHash).toBeUndefined()
  expect(block.changes.map(short)).toMatchInlineSnapshot(`
    [
      "0[0x70997970c51812dc3a010c7d01b50e0d17dc79c8]: 0 -> 5",
      "0[0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc]: 0 -> 7",
      "0[0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266]: 1000000000000000000000000 -> 999999999999999999999988",
    ]
  `)
})

test('args: a block by number, tag or hash, with the system contracts\' writes', async () => {
  const { url } = await setup()
  const byNumber = await result<Answer & { blockHash: string }>(url, METHOD, ['0x1'])
  expect(await result(url, METHOD, [byNumber.blockHash])).toEqual(byNumber)
  expect(await result(url, METHOD, ['latest'])).toEqual(byNumber)
  expect(byNumber.changes.map((c) => c.address)).toEqual(expect.arrayContaining(['0x0000f90827f1c53a10cb7a02335b175320002935', '0x000f3df6d732807ef1319fb7b8bb8522d0beac02']))
})

test('args: a reverted transaction changed nothing', async () => {
  const { url, transfer } = await setup()
  const hash = await transfer(ALICE, 10n ** 30n) // more than the supply: reverts
  expect((await result<Answer>(url, METHOD, [hash])).changes).toEqual([])
})

test('error: pending transaction, unknown hash, block outside the window, after the head', async () => {
  const { url, rc, transfer } = await setup({ window: 4 })
  await rc.chain.setMiningMode({ mode: 'manual' })
  const pending = await transfer(ALICE, 5n)
  expect(await rpcError(url, METHOD, [pending])).toMatchObject({ code: -32000, message: `transaction ${pending} is pending: it has changed nothing yet` })
  expect(await rpcError(url, METHOD, ['0x' + 'ab'.repeat(32)])).toMatchInlineSnapshot(`
    {
      "code": -32000,
      "message": "no transaction or block 0xabababababababababababababababababababababababababababababababab in the window",
    }
  `)
  await rc.chain.mine(6n)
  expect(await rpcError(url, METHOD, ['0x1'])).toMatchInlineSnapshot(`
    {
      "code": 4444,
      "data": {
        "head": "0x7",
        "oldest": "0x4",
        "requested": "0x1",
      },
      "message": "pruned history unavailable: block 1 is outside the served window 4..7",
    }
  `)
  expect(await rpcError(url, METHOD, ['0x99'])).toMatchObject({ code: -32000, message: 'header not found' })
  expect(await rpcError(url, METHOD, ['pending'])).toMatchObject({ code: -32602 })
})
