// ringchain_storageLayout end to end: raw JSON-RPC over HTTP to a ringchain on port 0. An account's
// non-zero slots at a block, each with the path the recorded keccak preimages give it.
import { expect, test } from 'vitest'
import { result, rpcError, start, toHex } from '../helpers/rpc.js'
import { ALICE, clients, deployToken } from './helpers.js'

const METHOD = 'ringchain_storageLayout'

async function setup(options: Parameters<typeof start>[0] = {}) {
  const rc = await start(options)
  const c = clients(rc, rc.accounts[0]!.privateKey)
  const { address } = await deployToken(c)
  return { rc, c, address, url: rc.httpUrl }
}

test('default', async () => {
  const { url, address } = await setup()
  expect(await result(url, METHOD, [address])).toMatchInlineSnapshot({ blockHash: expect.any(String) }, `
    {
      "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      "blockHash": Any<String>,
      "blockNumber": "0x2",
      "slots": [
        {
          "derivation": {
            "root": "0x2",
            "steps": [],
          },
          "path": "2",
          "slot": "0x0000000000000000000000000000000000000000000000000000000000000002",
          "value": "0x00000000000000000000000000000000000000000000d3c21bcecceda1000000",
        },
        {
          "derivation": {
            "root": "0x3",
            "steps": [],
          },
          "path": "3",
          "slot": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "value": "0x52696e67636861696e20546f6b656e000000000000000000000000000000001e",
        },
        {
          "derivation": {
            "root": "0x4",
            "steps": [],
          },
          "path": "4",
          "slot": "0x0000000000000000000000000000000000000000000000000000000000000004",
          "value": "0x52494e4700000000000000000000000000000000000000000000000000000008",
        },
        {
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
          "value": "0x0000000000000000000000000000000000000000000000004563918244f40000",
        },
        {
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
          "value": "0x00000000000000000000000000000000000000000000d3c1d66b3b6b5c0c0000",
        },
      ],
    }
  `)
})

test('args: a block of the window before the transfer', async () => {
  const { url, address } = await setup()
  const answer = await result<{ blockNumber: string; slots: { path: string }[] }>(url, METHOD, [address, '0x1'])
  expect(answer.blockNumber).toBe('0x1')
  expect(answer.slots.map((s) => s.path)).toEqual(['2', '3', '4', '0[0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266]'])
})

test('args: an account without storage', async () => {
  const { url } = await setup()
  expect(await result(url, METHOD, [ALICE, 'latest'])).toMatchObject({ slots: [] })
})

test('error: block outside the window', async () => {
  const { url, rc, address } = await setup({ window: 4 })
  await rc.chain.mine(5n)
  expect(await rpcError(url, METHOD, [address, '0x1'])).toMatchInlineSnapshot(`
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
})

test('error: block after the head, pending, bad address', async () => {
  const { url, address } = await setup()
  expect(await rpcError(url, METHOD, [address, toHex(99n)])).toMatchObject({ code: -32000, message: 'header not found' })
  expect(await rpcError(url, METHOD, [address, 'pending'])).toMatchObject({ code: -32602 })
  expect(await rpcError(url, METHOD, ['0x1234', 'latest'])).toMatchObject({ code: -32602 })
})
