// The `fire` section of bench/run.mjs: pre-signed transfers sent back to back over HTTP without
// waiting for receipts, `inFlight` requests outstanding at a time on as many keep-alive
// connections, automine on. The rate is transactions per second from the first send until the
// last one is included (the recipient's balance has grown by one wei per transfer). The nodes
// take turns on identical work: the same senders, nonces and signed bytes.
//
// One sender per connection, each sending its own transactions in nonce order: with one sender
// spread over 32 connections, transactions arrive out of nonce order, and anvil 1.7.1's automine
// then leaves some that became ready in its pool, never mined (foundry-rs/foundry#10122): every
// fire ×32 run on anvil stalled that way (and the ×1 run after it, behind the nonce gap). A test
// suite's parallel workers use an account each, too. The ×32 senders are fresh keys funded from
// the `junk` mnemonic's account #3 before the timing, on every node alike.
//
// The client speaks HTTP/1.1 by hand on node:net (as load.mjs's raw reads do): node:http's client
// costs more CPU per request than the servers measured here.

import { connect } from 'node:net'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'

// The `test … junk` mnemonic's account #3: the mine section sends from #0 and #2.
const KEY = hexToBytes('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6')
const SENDER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
const RECIPIENT = '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65'
const TIMEOUT_MS = 120_000
const FUNDING = 10n ** 18n
const STALL_MS = 1_000

/** `count` signed transfers of `value` wei to `to` from `key` with nonces `from`, `from + 1`, … */
export function signTransfers(from, count, key = KEY, to = RECIPIENT, value = 1n) {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
  return Array.from({ length: count }, (_, i) =>
    bytesToHex(createFeeMarket1559Tx({ chainId: 31337n, nonce: BigInt(from + i), maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, to, value, gasLimit: 21_000n }, { common }).sign(key).serialize()),
  )
}

/** `n` fixed private keys of fresh accounts (the same on every run and node). */
function senderKeys(n) {
  return Array.from({ length: n }, (_, i) => keccak_256(new TextEncoder().encode(`ringchain bench fire sender ${i}`)))
}

/**
 * Sends every lane's raw transactions, each lane on a connection of its own, one request
 * outstanding per connection; resolves with the last lane's hashes, in order.
 */
function sendAll(httpUrl, lanes) {
  const url = new URL(httpUrl)
  const connection = (raws) =>
    new Promise((resolve, reject) => {
      const hashes = new Array(raws.length)
      let next = 0
      const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true })
      let buffer = null
      let current = -1
      const send = () => {
        if (next >= raws.length) {
          socket.end()
          return resolve(hashes)
        }
        current = next++
        const body = `{"jsonrpc":"2.0","id":${current},"method":"eth_sendRawTransaction","params":["${raws[current]}"]}`
        socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
      }
      socket.on('connect', send)
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        buffer = buffer === null ? chunk : Buffer.concat([buffer, chunk])
        const headEnd = buffer.indexOf('\r\n\r\n')
        if (headEnd === -1) return
        const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, headEnd).toString('latin1'))?.[1])
        if (buffer.length < headEnd + 4 + length) return
        const answer = JSON.parse(buffer.subarray(headEnd + 4, headEnd + 4 + length).toString())
        buffer = buffer.length === headEnd + 4 + length ? null : buffer.subarray(headEnd + 4 + length)
        if (answer.error !== undefined) return reject(new Error(`transaction ${current}: ${answer.error.message}`))
        hashes[current] = answer.result
        send()
      })
    })
  return Promise.all(lanes.map(connection)).then((all) => all.at(-1))
}

/**
 * One fire run on `node`: sends the lanes (one connection each, see sendAll), waits until all
 * are included, checks the last receipt. `rpc(url, method, params)` is run.mjs's untimed JSON-RPC call.
 */
export async function fire(node, lanes, rpc) {
  const count = lanes.reduce((sum, lane) => sum + lane.length, 0)
  const balance = async () => BigInt(await rpc(node.httpUrl, 'eth_getBalance', [RECIPIENT, 'latest']))
  const [balanceBefore, blockBefore] = [await balance(), Number(await rpc(node.httpUrl, 'eth_blockNumber'))]
  const started = performance.now()
  const hashes = await sendAll(node.httpUrl, lanes)
  const sentSeconds = (performance.now() - started) / 1000
  // Each transfer moves 1 wei: the recipient's balance counts the included ones in one call.
  // anvil 1.7.1's automine can leave transactions that arrived while it mined in its pool for good
  // (foundry-rs/foundry#10122, seen with 32 senders in flight): once every send is answered and
  // nothing was included for STALL_MS, one `evm_mine` is sent, and counted in the result.
  let received = 0n
  let nudges = 0
  let progressAt = performance.now()
  for (;;) {
    const now = (await balance()) - balanceBefore
    if (now !== received) [received, progressAt] = [now, performance.now()]
    if (received >= BigInt(count)) break
    if (performance.now() - progressAt > STALL_MS) {
      await rpc(node.httpUrl, 'evm_mine')
      nudges++
      progressAt = performance.now()
    }
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${node.name}: ${received} of ${count} transactions included within ${TIMEOUT_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  const seconds = (performance.now() - started) / 1000
  if (received !== BigInt(count)) throw new Error(`${node.name}: ${count} transfers of 1 wei fired, the recipient got ${received}`)
  const last = await rpc(node.httpUrl, 'eth_getTransactionReceipt', [hashes.at(-1)])
  if (last?.status !== '0x1') throw new Error(`${node.name}: the last fired transfer has no status-1 receipt`)
  const blocks = Number(await rpc(node.httpUrl, 'eth_blockNumber')) - blockBefore
  return { transactions: count, inFlight: lanes.length, seconds, sentSeconds, tps: count / seconds, blocks, nudges }
}

/** Funds the fresh senders from account #3 (nonces from `firstNonce`), one transfer at a time, untimed. */
async function fund(node, fundings, rpc) {
  for (const raw of fundings) {
    const hash = await rpc(node.httpUrl, 'eth_sendRawTransaction', [raw])
    for (let i = 0; (await rpc(node.httpUrl, 'eth_getTransactionReceipt', [hash])) === null; i++) {
      if (i > 10_000) throw new Error(`${node.name}: funding transfer ${hash} not included`)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }
}

/**
 * The section: for each in-flight count, `count` transfers on every node in turn.
 * Returns `{ 'fire ×N': { inFlight, [node name]: result } }`.
 */
export async function fireSection(nodes, { count, inFlights = [32, 1], rpc, log }) {
  const out = {}
  // Account #3's nonces: first the funding of the most senders any run needs, then the ×1 runs.
  const most = Math.max(...inFlights.filter((n) => n > 1), 0)
  const keys = senderKeys(most)
  const fundings = keys.flatMap((key, i) => signTransfers(i, 1, KEY, bytesToHex(privateToAddress(key)), FUNDING))
  let nonce = fundings.length
  const senderNonces = keys.map(() => 0)
  if (most > 0) {
    for (const node of nodes) {
      log(`fire: funding ${most} senders on ${node.name}…`)
      await fund(node, fundings, rpc)
    }
  }
  for (const inFlight of inFlights) {
    // `count` transfers dealt round-robin to the lanes, each lane signed in its sender's nonce order.
    let lanes
    if (inFlight === 1) {
      lanes = [signTransfers(nonce, count)]
      nonce += count
    } else {
      lanes = keys.slice(0, inFlight).map((key, i) => {
        const share = Math.floor(count / inFlight) + (i < count % inFlight ? 1 : 0)
        const raws = signTransfers(senderNonces[i], share, key)
        senderNonces[i] += share
        return raws
      })
    }
    const row = (out[`fire ×${inFlight}`] = { inFlight })
    for (const node of nodes) {
      log(`fire: ${count} transfers ×${inFlight} on ${node.name}…`)
      try {
        row[node.name] = await fire(node, lanes, rpc)
      } catch (e) {
        // One server failing a run (e.g. not including every transfer in time) is a finding to
        // print in its cell, not a reason to lose the rest of the benchmark.
        row[node.name] = { error: e.message }
        log(`fire: ${e.message}`)
      }
    }
  }
  return out
}
